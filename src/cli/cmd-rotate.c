/* ltt rotate - archive what a session recorded so far as a trace chunk. */
#include "cli.h"

int cmd_rotate(int argc, char **argv)
{
	static const struct cli_session_op o = {
		.help = "Usage: ltt rotate [NAME]\n"
			"\n"
			"Rotates a session (default: the current one): what it recorded so far\n"
			"becomes a complete trace, OUTPUT/archives/BEGIN-END-INDEX, while\n"
			"recording goes on in a new chunk (OUTPUT/BEGIN-INDEX). A stopped session\n"
			"rotates once (its last chunk); snapshot sessions and sessions without\n"
			"output do not rotate. Returns when the archive is complete.\n"
			"\n"
			"  -h, --help   show this help\n",
		.op_path = ltt_session_rotate,
		.verb = "rotate",
		.done_before = "Trace chunk archive for session ",
		.done_after = " is now readable at ",
	};

	return cli_session_op(argc, argv, &o);
}
