/* ltt start - start tracing. */
#include "cli.h"

int cmd_start(int argc, char **argv)
{
	static const struct cli_session_op o = {
		.help = "Usage: ltt start [NAME]\n"
			"\n"
			"Starts tracing in a session (default: the current one).\n"
			"\n"
			"  -h, --help   show this help\n",
		.op = ltt_session_start,
		.verb = "start",
		.done_before = "Tracing started for session ",
		.done_after = "",
	};

	return cli_session_op(argc, argv, &o);
}
