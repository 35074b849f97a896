/* ltt regenerate - regenerate data of a session (its metadata, its state dump). */
#include "cli.h"

#include <getopt.h>
#include <string.h>

static const char help[] =
	"Usage: ltt regenerate metadata [-s SESSION]\n"
	"       ltt regenerate statedump [-s SESSION]\n"
	"\n"
	"metadata: samples the offset between the monotonic clock and the wall time\n"
	"again and rewrites the metadata files of a session that is tracing (default:\n"
	"the current one), e.g. after the wall time was corrected, so that readers\n"
	"place events at the right time of day. Not for sessions with per-PID channels.\n"
	"\n"
	"statedump: writes the state dump (every thread, open file and memory map)\n"
	"into the kernel trace of a session that is tracing, as at its start.\n"
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
	bool statedump;
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	if (argc < 2 || (strcmp(argv[1], "metadata") != 0 && strcmp(argv[1], "statedump") != 0)) {
		cli_error("regenerate: give what to regenerate: metadata or statedump (see `ltt "
			  "regenerate --help`)");
		return 2;
	}
	statedump = strcmp(argv[1], "statedump") == 0;
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
	r = statedump ? ltt_regenerate_statedump(ctl, session) : ltt_regenerate_metadata(ctl, session);
	if (r < 0)
		r = cli_fail(ctl, r, "cannot regenerate the %s of session '%s'",
			     statedump ? "state dump" : "metadata", session);
	else
		cli_say("%s successfully regenerated for session %s\n",
			statedump ? "State dump" : "Metadata", session);
	ltt_ctl_close(ctl);
	return r;
}
