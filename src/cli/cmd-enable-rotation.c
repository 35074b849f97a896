/* ltt enable-rotation / disable-rotation - schedule a session's automatic rotations. */
#include "cli.h"

#include <getopt.h>
#include <inttypes.h>

static const char enable_help[] =
	"Usage: ltt enable-rotation [-s SESSION] (--timer PERIOD | --size SIZE)...\n"
	"\n"
	"Makes a session (default: the current one) rotate by itself (see\n"
	"ltt-rotate(1)): every PERIOD while it is tracing, and/or whenever its\n"
	"current chunk holds SIZE bytes of trace (checked a few times a second).\n"
	"\n"
	"  -s, --session NAME   the session (default: the current one)\n"
	"      --timer PERIOD   rotate every PERIOD (us, ms, s, m, h; default: us)\n"
	"      --size SIZE      rotate when the chunk reaches SIZE bytes (k, M, G)\n"
	"  -h, --help           show this help\n";

static const char disable_help[] =
	"Usage: ltt disable-rotation [-s SESSION] [--timer] [--size]\n"
	"\n"
	"Removes a session's automatic rotations of the kinds named.\n"
	"\n"
	"  -s, --session NAME   the session (default: the current one)\n"
	"      --timer          the periodic rotation\n"
	"      --size           the size-based rotation\n"
	"  -h, --help           show this help\n";

enum { OPT_TIMER = 256, OPT_SIZE };

/* Parses -s, --timer [ARG] and --size [ARG]; an exit status (0: go on). */
static int parse(int argc, char **argv, bool enable, const char **session, const char **timer,
		 const char **size)
{
	const struct option opts[] = {
		{ "session", required_argument, NULL, 's' },
		{ "timer", enable ? required_argument : no_argument, NULL, OPT_TIMER },
		{ "size", enable ? required_argument : no_argument, NULL, OPT_SIZE },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "s:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': *session = optarg; break;
		case OPT_TIMER: *timer = enable ? optarg : "yes"; break;
		case OPT_SIZE: *size = enable ? optarg : "yes"; break;
		default:
			fputs(enable ? enable_help : disable_help, stderr);
			return 2;
		}
	}
	if (optind < argc) {
		cli_error("%s-rotation takes no argument (the session is -s NAME)",
			  enable ? "enable" : "disable");
		return 2;
	}
	if (!*timer && !*size) {
		cli_error("say which rotation: --timer%s or --size%s", enable ? " PERIOD" : "",
			  enable ? " SIZE" : "");
		return 2;
	}
	return 0;
}

int cmd_enable_rotation(int argc, char **argv)
{
	const char *session = NULL, *timer = NULL, *size = NULL;
	uint64_t timer_us = 0, bytes = 0;
	struct ltt_ctl *ctl;
	int r;

	if (cli_wants_help(argc, argv, enable_help))
		return 0;
	if ((r = parse(argc, argv, true, &session, &timer, &size)))
		return r;
	if (timer && (cli_parse_usec(timer, &timer_us) < 0 || timer_us == 0)) {
		cli_error("invalid rotation period '%s' (a duration: 500ms, 10s, ...)", timer);
		return 2;
	}
	if (size && (cli_parse_size(size, &bytes) < 0 || bytes == 0)) {
		cli_error("invalid rotation size '%s' (a size in bytes: 64M, 1G, ...)", size);
		return 2;
	}
	if (!(session = cli_session_or_current(session)) || cli_connect(false, &ctl))
		return 1;
	r = ltt_rotation_enable(ctl, session, timer_us, bytes);
	if (r < 0) {
		r = cli_fail(ctl, r, "cannot schedule rotations of session '%s'", session);
	} else {
		if (timer_us)
			cli_say("Enabled periodic rotations every %" PRIu64 " us on session %s\n",
				timer_us, session);
		if (bytes)
			cli_say("Enabled size-based rotations every %" PRIu64
				" bytes written on session %s\n", bytes, session);
	}
	ltt_ctl_close(ctl);
	return r;
}

int cmd_disable_rotation(int argc, char **argv)
{
	const char *session = NULL, *timer = NULL, *size = NULL;
	struct ltt_ctl *ctl;
	int r;

	if (cli_wants_help(argc, argv, disable_help))
		return 0;
	if ((r = parse(argc, argv, false, &session, &timer, &size)))
		return r;
	if (!(session = cli_session_or_current(session)) || cli_connect(false, &ctl))
		return 1;
	r = ltt_rotation_disable(ctl, session, timer != NULL, size != NULL);
	if (r < 0) {
		r = cli_fail(ctl, r, "cannot unschedule rotations of session '%s'", session);
	} else {
		if (timer)
			cli_say("Disabled periodic rotation on session %s\n", session);
		if (size)
			cli_say("Disabled size-based rotation on session %s\n", session);
	}
	ltt_ctl_close(ctl);
	return r;
}
