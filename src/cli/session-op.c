/* session-op.c - the skeleton of destroy, start and stop; see cli.h. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static int run_op(const struct cli_session_op *o, struct ltt_ctl *ctl, const char *name)
{
	char *path = NULL;
	int r = o->op_path ? o->op_path(ctl, name, &path) : o->op(ctl, name);

	if (r < 0)
		return cli_fail(ctl, r, "cannot %s session '%s'", o->verb, name);
	if (o->forget)
		cli_clear_current_session(name);
	cli_say("%s%s%s%s\n", o->done_before, name, o->done_after,
		path && !o->path_archive ? path : "");
	if (path && o->path_archive)
		cli_say("Trace chunk archive for session %s is now readable at %s\n", name, path);
	free(path);
	return 0;
}

int cli_session_op(int argc, char **argv, const struct cli_session_op *o)
{
	static const struct option opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct ltt_ctl *ctl;
	const char *name = NULL;
	bool all = false;
	int c, r = 0;

	if (cli_wants_help(argc, argv, o->help))
		return 0;
	while ((c = getopt_long(argc, argv, o->has_all ? "ah" : "h", opts, NULL)) != -1) {
		if (c == 'a' && o->has_all) {
			all = true;
			continue;
		}
		fputs(o->help, stderr);
		return 2;
	}
	if (argc - optind > 1 || (all && argc > optind)) {
		fputs(o->help, stderr);
		return 2;
	}
	if (!all && !(name = cli_session_or_current(optind < argc ? argv[optind] : NULL)))
		return 1;
	if (cli_connect(false, &ctl))
		return 1;
	if (!all) {
		r = run_op(o, ctl, name);
	} else {
		struct ltt_session **list;
		size_t n;

		r = ltt_session_list(ctl, &list, &n);
		if (r < 0) {
			r = cli_fail(ctl, r, "cannot list the sessions");
		} else {
			for (size_t i = 0; i < n; i++)
				r |= run_op(o, ctl, ltt_session_name(list[i]));
			ltt_session_list_free(list, n);
		}
	}
	ltt_ctl_close(ctl);
	return r;
}
