/* ltt create - create a tracing session. */
#include "cli.h"

#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: ltt create [NAME] [--output DIR | --no-output] [--snapshot]\n"
	"\n"
	"Creates a tracing session and makes it the current session. Without NAME\n"
	"the session is named auto-YYYYMMDD-HHMMSS. Starts a session daemon if none\n"
	"runs.\n"
	"\n"
	"  -o, --output DIR   write the trace in DIR (default:\n"
	"                     $HOME/ltt-traces/NAME-YYYYMMDD-HHMMSS)\n"
	"      --no-output    record into memory only\n"
	"      --snapshot     flight recorder: channels overwrite, and `ltt snapshot\n"
	"                     record` writes what they hold under the output (or, with\n"
	"                     --no-output, where `ltt snapshot add-output` says)\n"
	"  -h, --help         show this help\n";

int cmd_create(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "no-output", no_argument, NULL, 'N' },
		{ "snapshot", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct ltt_session_attr attr;
	struct ltt_session *desc = NULL;
	struct ltt_ctl *ctl;
	char *name = NULL, output[PATH_MAX];
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	ltt_session_attr_init(&attr);
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (cli_output_path(optarg, output, sizeof(output)))
				return 1;
			attr.output = output;
			break;
		case 'N':
			attr.no_output = true;
			break;
		case 'S':
			attr.snapshot = true;
			break;
		default:
			fputs(help, stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		cli_error("create takes one session name at most");
		return 2;
	}
	if (cli_connect(true, &ctl))
		return 1;
	r = ltt_session_create(ctl, optind < argc ? argv[optind] : NULL, &attr, &name);
	if (r < 0) {
		r = cli_fail(ctl, r, "cannot create session '%s'",
			     optind < argc ? argv[optind] : "auto");
		goto out;
	}
	cli_set_current_session(name);
	cli_say("Session %s created.\n", name);
	if (ltt_session_get(ctl, name, &desc) == 0 && ltt_session_output(desc)[0])
		cli_say("%s will be written in %s\n", attr.snapshot ? "Snapshots" : "Traces",
			ltt_session_output(desc));
	else
		cli_say("Traces will be kept in memory only.\n");
	ltt_session_free(desc);
	r = 0;
out:
	free(name);
	ltt_ctl_close(ctl);
	return r;
}
