/* ltt load - create sessions from saved configuration files. */
#include "cli.h"

#include <getopt.h>
#include <limits.h>

#include "util/fs.h"

static const char help[] =
	"Usage: ltt load [-i PATH] [-f] [--override-url URL] [--override-name NAME]\n"
	"                [NAME | --all]\n"
	"\n"
	"Creates a session (without NAME: every session) from its configuration\n"
	"file NAME.ltt-session, as `ltt save` writes it, searched in PATH (a file or a\n"
	"directory; default: $HOME/.ltt/sessions, then the system-wide\n"
	"/etc/ltt/sessions). A session saved while tracing starts. Nothing is\n"
	"created if a file is malformed (the error says FILE:LINE:COLUMN) or a\n"
	"session of that name exists (unless --force).\n"
	"\n"
	"  -a, --all                load every session found (the default without NAME)\n"
	"  -i, --input-path PATH    the file or directory to read\n"
	"  -f, --force              replace the sessions of the same names\n"
	"      --override-url URL   write the trace in URL (a path, or file://PATH) instead\n"
	"      --override-name NAME give the session (NAME) another name\n"
	"  -h, --help               show this help\n";

enum { OPT_OVERRIDE_URL = 256, OPT_OVERRIDE_NAME };

int cmd_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "input-path", required_argument, NULL, 'i' },
		{ "force", no_argument, NULL, 'f' },
		{ "override-url", required_argument, NULL, OPT_OVERRIDE_URL },
		{ "override-name", required_argument, NULL, OPT_OVERRIDE_NAME },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char input[PATH_MAX], user_dir[PATH_MAX], url[PATH_MAX];
	const char *paths[2], *in = NULL, *name;
	struct ltt_load_attr attr;
	bool all = false;
	struct ltt_ctl *ctl;
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	ltt_load_attr_init(&attr);
	while ((c = getopt_long(argc, argv, "ai:fh", opts, NULL)) != -1) {
		switch (c) {
		case 'a': all = true; break;
		case 'i': in = optarg; break;
		case 'f': attr.force = true; break;
		case OPT_OVERRIDE_URL:
			if (cli_output_path(optarg, url, sizeof(url)))
				return 1;
			attr.override_url = url;
			break;
		case OPT_OVERRIDE_NAME: attr.override_name = optarg; break;
		default:
			fputs(help, stderr);
			return 2;
		}
	}
	if (argc - optind > 1 || (all && optind < argc)) {
		cli_error("load takes one session name, or --all");
		return 2;
	}
	name = optind < argc ? argv[optind] : NULL;
	if (attr.override_name && !name) {
		cli_error("--override-name renames one session: give its NAME");
		return 2;
	}
	attr.paths = paths;
	if (in) {
		if (cli_output_path(in, input, sizeof(input)))
			return 1;
		paths[attr.n_paths++] = input;
	} else {
		if (session_files_user_dir(user_dir, sizeof(user_dir)) == 0)
			paths[attr.n_paths++] = user_dir;
		paths[attr.n_paths++] = session_files_system_dir();
	}
	if (cli_connect(true, &ctl))
		return 1;
	r = ltt_session_load(ctl, name, &attr);
	if (r < 0) {
		r = cli_fail(ctl, r, "cannot load %s%s%s", name ? "session '" : "the sessions",
			     name ? name : "", name ? "'" : "");
	} else {
		if (name)
			cli_say("Session %s has been loaded successfully\n", name);
		else
			cli_say("All sessions have been loaded successfully\n");
		if (attr.override_name)
			cli_say("Session name overridden with %s\n", attr.override_name);
		if (attr.override_url)
			cli_say("Session output url overridden with %s\n", attr.override_url);
		r = 0;
	}
	ltt_ctl_close(ctl);
	return r;
}
