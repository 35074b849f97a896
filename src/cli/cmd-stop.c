/* ltt stop - stop tracing. */
#include "cli.h"

int cmd_stop(int argc, char **argv)
{
	static const struct cli_session_op o = {
		.help = "Usage: ltt stop [NAME]\n"
			"\n"
			"Stops tracing in a session (default: the current one). When it returns,\n"
			"every event recorded before it is in the trace files.\n"
			"\n"
			"  -h, --help   show this help\n",
		.op = ltt_session_stop,
		.verb = "stop",
		.done_before = "Tracing stopped for session ",
		.done_after = "",
	};

	return cli_session_op(argc, argv, &o);
}
