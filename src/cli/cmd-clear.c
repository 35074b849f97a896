/* ltt clear - drop what sessions recorded so far. */
#include "cli.h"

int cmd_clear(int argc, char **argv)
{
	static const struct cli_session_op o = {
		.help = "Usage: ltt clear [NAME | --all]\n"
			"\n"
			"Clears a session (default: the current one): drops what its buffers hold\n"
			"and empties the trace files of its current chunk (archived chunks stay);\n"
			"a session that is tracing goes on recording. A snapshot session's\n"
			"buffers are emptied: the next snapshot holds what came after.\n"
			"\n"
			"  -a, --all    clear every session of this user\n"
			"  -h, --help   show this help\n",
		.op = ltt_session_clear,
		.verb = "clear",
		.done_before = "Session ",
		.done_after = " cleared",
		.has_all = true,
	};

	return cli_session_op(argc, argv, &o);
}
