/* ltt snapshot - write what a flight-recorder session's buffers hold. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: ltt snapshot record [--name NAME] [SESSION]\n"
	"\n"
	"Writes what the buffers of a snapshot session (ltt create --snapshot) hold\n"
	"now, without stopping the applications, as a complete trace under the\n"
	"session's output: OUTPUT/NAME-YYYYMMDD-HHMMSS-N (N counts the snapshots).\n"
	"\n"
	"  -n, --name NAME   the snapshot's name (default: snapshot)\n"
	"  -h, --help        show this help\n";

int cmd_snapshot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *name = NULL, *session;
	struct ltt_ctl *ctl;
	char *path = NULL;
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	if (argc < 2 || strcmp(argv[1], "record") != 0) {
		cli_error("snapshot: give an action: record (see `ltt snapshot --help`)");
		return 2;
	}
	argv++;
	argc--;
	while ((c = getopt_long(argc, argv, "n:h", opts, NULL)) != -1) {
		if (c != 'n') {
			fputs(help, stderr);
			return 2;
		}
		name = optarg;
	}
	if (argc - optind > 1) {
		fputs(help, stderr);
		return 2;
	}
	if (!(session = cli_session_or_current(optind < argc ? argv[optind] : NULL)) ||
	    cli_connect(false, &ctl))
		return 1;
	r = ltt_snapshot_record(ctl, session, name, &path);
	if (r < 0) {
		r = cli_fail(ctl, r, "cannot record a snapshot of session '%s'", session);
	} else {
		cli_say("Snapshot recorded successfully for session %s\n", session);
		cli_say("Written in %s\n", path);
	}
	free(path);
	ltt_ctl_close(ctl);
	return r;
}
