/* ltt destroy - destroy tracing sessions. */
#include "cli.h"

int cmd_destroy(int argc, char **argv)
{
	static const struct cli_session_op o = {
		.help = "Usage: ltt destroy [NAME | --all]\n"
			"\n"
			"Destroys a tracing session (default: the current one), after stopping\n"
			"it if it is tracing. The trace files stay; for a session that rotated,\n"
			"its last trace chunk is archived too, and its directory printed.\n"
			"\n"
			"  -a, --all    destroy every session of this user\n"
			"  -h, --help   show this help\n",
		.op_path = ltt_session_destroy_archive,
		.verb = "destroy",
		.done_before = "Session ",
		.done_after = " destroyed",
		.forget = true,
		.has_all = true,
		.path_archive = true,
	};

	return cli_session_op(argc, argv, &o);
}
