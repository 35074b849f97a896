/* ltt regenerate - regenerate data of a session (its metadata). */
#include "cli.h"

#include <getopt.h>
#include <string.h>

static const char help[] =
	"Usage: ltt regenerate metadata [-s SESSION]\n"
	"\n"
	"Samples the offset between the monotonic clock and the wall time again and\n"
	"rewrites the metadata files of a session that is tracing (default: the\n"
	"current one), e.g. after the wall time was corrected, so that readers place\n"
	"events at the right time of day. Not for sessions with per-PID channels.\n"
	"\n"
	"  -s, --session NAME   the session (default: the current one)\n"
	"  -h, --help           show this help\n";

int cmd_regenerate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "session", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *session = NULL;
	struct ltt_ctl *ctl;
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	if (argc < 2 || strcmp(argv[1], "metadata") != 0) {
		cli_error("regenerate: give what to regenerate: metadata (see `ltt regenerate "
			  "--help`)");
		return 2;
	}
	argv++;
	argc--;
	while ((c = getopt_long(argc, argv, "s:h", opts, NULL)) != -1) {
		if (c != 's') {
			fputs(help, stderr);
			return 2;
		}
		session = optarg;
	}
	if (optind < argc) {
		fputs(help, stderr);
		return 2;
	}
	if (!(session = cli_session_or_current(session)) || cli_connect(false, &ctl))
		return 1;
	r = ltt_regenerate_metadata(ctl, session);
	if (r < 0)
		r = cli_fail(ctl, r, "cannot regenerate the metadata of session '%s'", session);
	else
		cli_say("Metadata successfully regenerated for session %s\n", session);
	ltt_ctl_close(ctl);
	return r;
}
