/* ltt save - save session configurations to files. */
#include "cli.h"

#include <getopt.h>
#include <limits.h>

#include "util/fs.h"

static const char help[] =
	"Usage: ltt save [-o DIR] [-f] [NAME | --all]\n"
	"\n"
	"Writes the configuration of a session (without NAME: of every session) to\n"
	"DIR/NAME.ltt-session, a text file `ltt load` reads back: the session (name,\n"
	"output, mode, whether it is tracing), its snapshot output, its rotation\n"
	"schedules, its channels with every attribute and its event rules. The\n"
	"format is described in ltt-load(1).\n"
	"\n"
	"  -a, --all                save every session (the default without NAME)\n"
	"  -o, --output-path DIR    the directory (default: $HOME/.ltt/sessions)\n"
	"  -f, --force              replace existing files\n"
	"  -h, --help               show this help\n";

int cmd_save(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "output-path", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char dir[PATH_MAX];
	const char *output = NULL, *name;
	bool all = false, force = false;
	struct ltt_ctl *ctl;
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	while ((c = getopt_long(argc, argv, "ao:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'a': all = true; break;
		case 'o': output = optarg; break;
		case 'f': force = true; break;
		default:
			fputs(help, stderr);
			return 2;
		}
	}
	if (argc - optind > 1 || (all && optind < argc)) {
		cli_error("save takes one session name, or --all");
		return 2;
	}
	name = optind < argc ? argv[optind] : NULL;
	if (output ? cli_output_path(output, dir, sizeof(dir))
		   : session_files_user_dir(dir, sizeof(dir)) < 0) {
		if (!output)
			cli_error("no $HOME: give the directory with --output-path");
		return 1;
	}
	if (cli_connect(false, &ctl))
		return 1;
	r = ltt_session_save(ctl, name, dir, force);
	if (r < 0) {
		r = cli_fail(ctl, r, "cannot save %s%s%s", name ? "session '" : "the sessions",
			     name ? name : "", name ? "'" : "");
	} else {
		if (name)
			cli_say("Session %s saved successfully in %s.\n", name, dir);
		else
			cli_say("All sessions have been saved successfully in %s.\n", dir);
		r = 0;
	}
	ltt_ctl_close(ctl);
	return r;
}
