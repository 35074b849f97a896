/* ltt disable-event - disable event rules. */
#include "cli.h"

#include <getopt.h>

static const char help[] =
	"Usage: ltt disable-event (-u | -k) [-s SESSION] [-c CHANNEL]\n"
	"                         (--all-events | NAME[,NAME...])\n"
	"\n"
	"Disables the enabled event rules whose pattern is NAME (as given to\n"
	"enable-event), or every rule of the channel.\n"
	"\n"
	"  -u, --userspace      user-space rules\n"
	"  -k, --kernel         kernel rules\n"
	"  -s, --session NAME   the session (default: the current one)\n"
	"  -c, --channel NAME   the channel (default: channel0)\n"
	"  -a, --all-events     every rule of the channel\n"
	"  -h, --help           show this help\n";

int cmd_disable_event(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "userspace", no_argument, NULL, 'u' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "session", required_argument, NULL, 's' },
		{ "channel", required_argument, NULL, 'c' },
		{ "all-events", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum ltt_domain domain = 0;
	const char *session = NULL, *channel = NULL;
	char *names, *name, all_pattern[] = "*";
	struct ltt_ctl *ctl;
	bool all = false;
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	while ((c = getopt_long(argc, argv, "uks:c:ah", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
		case 'k':
			if ((r = cli_set_domain(&domain, c == 'u' ? LTT_DOMAIN_USER : LTT_DOMAIN_KERNEL)))
				return r;
			break;
		case 's': session = optarg; break;
		case 'c': channel = optarg; break;
		case 'a': all = true; break;
		default:
			fputs(help, stderr);
			return 2;
		}
	}
	if ((r = cli_check_domain(domain)))
		return r;
	if (all == (argc - optind == 1) || argc - optind > 1) {
		cli_error("give either --all-events or the event names, separated by commas");
		return 2;
	}
	if (!(session = cli_session_or_current(session)) || cli_connect(false, &ctl))
		return 1;
	names = all ? all_pattern : argv[optind];
	r = 0;
	while ((name = cli_next_name(&names))) {
		c = ltt_event_disable(ctl, session, domain, channel, name, all);
		if (c < 0) {
			r = cli_fail(ctl, c, "cannot disable %s event '%s' in session '%s'",
				     cli_domain_name(domain), name, session);
			break;
		}
		if (all)
			cli_say("All %s events are disabled in channel %s\n", cli_domain_name(domain),
				channel ? channel : "channel0");
		else
			cli_say("%s event %s disabled in channel %s\n", cli_domain_name(domain), name,
				channel ? channel : "channel0");
	}
	ltt_ctl_close(ctl);
	return r;
}
