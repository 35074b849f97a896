/* ltt enable-event - enable event rules. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: ltt enable-event (-u | -k) [-s SESSION] [-c CHANNEL]\n"
	"                        (--all | NAME[,NAME...]) [OPTIONS]\n"
	"\n"
	"Enables event rules: the events whose name matches NAME (a name, or a\n"
	"pattern where '*' matches anything) are recorded in the channel.\n"
	"\n"
	"  -u, --userspace        user-space tracepoints\n"
	"  -k, --kernel           kernel events\n"
	"  -s, --session NAME     the session (default: the current one)\n"
	"  -c, --channel NAME     the channel (default: channel0, created if missing)\n"
	"  -a, --all              every event (the pattern '*')\n"
	"      --loglevel LEVEL   events of LEVEL or more severe (TRACE_EMERG .. TRACE_DEBUG,\n"
	"                         or 0 .. 14)\n"
	"      --loglevel-only LEVEL  events of exactly LEVEL\n"
	"  -x, --exclude NAMES    names or patterns not to record (comma-separated);\n"
	"                         only with a pattern containing '*'\n"
	"  -f, --filter EXPR      record only the events for which EXPR is true\n"
	"                         (LTTng's filter language, see ltt-enable-event(1))\n"
	"  -h, --help             show this help\n";

enum { OPT_LOGLEVEL = 256, OPT_LOGLEVEL_ONLY };

int cmd_enable_event(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "userspace", no_argument, NULL, 'u' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "session", required_argument, NULL, 's' },
		{ "channel", required_argument, NULL, 'c' },
		{ "all", no_argument, NULL, 'a' },
		{ "loglevel", required_argument, NULL, OPT_LOGLEVEL },
		{ "loglevel-only", required_argument, NULL, OPT_LOGLEVEL_ONLY },
		{ "exclude", required_argument, NULL, 'x' },
		{ "filter", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct ltt_event_rule rule;
	enum ltt_domain domain = 0;
	const char *session = NULL, *channel = NULL, **exclusions = NULL;
	char *names = NULL, *name, all_pattern[] = "*";
	struct ltt_ctl *ctl;
	bool all = false;
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	ltt_event_rule_init(&rule);
	while ((c = getopt_long(argc, argv, "uks:c:ax:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
		case 'k':
			if ((r = cli_set_domain(&domain, c == 'u' ? LTT_DOMAIN_USER : LTT_DOMAIN_KERNEL)))
				goto out;
			break;
		case 's': session = optarg; break;
		case 'c': channel = optarg; break;
		case 'a': all = true; break;
		case OPT_LOGLEVEL:
		case OPT_LOGLEVEL_ONLY:
			rule.loglevel = cli_parse_loglevel(optarg);
			if (rule.loglevel < 0) {
				cli_error("unknown log level '%s'", optarg);
				r = 2;
				goto out;
			}
			rule.loglevel_match = c == OPT_LOGLEVEL ? LTT_LOGLEVEL_RANGE : LTT_LOGLEVEL_SINGLE;
			break;
		case 'f':
			rule.filter = optarg;
			break;
		case 'x':
			free(exclusions);
			exclusions = cli_split_list(optarg, &rule.n_exclusions);
			rule.exclusions = exclusions;
			break;
		default:
			fputs(help, stderr);
			r = 2;
			goto out;
		}
	}
	if ((r = cli_check_domain(domain)))
		goto out;
	if (all == (argc - optind == 1) || argc - optind > 1) {
		cli_error("give either --all or the event names, separated by commas");
		r = 2;
		goto out;
	}
	names = all ? all_pattern : argv[optind];
	r = 1;
	if (!(session = cli_session_or_current(session)) || cli_connect(false, &ctl))
		goto out;
	r = 0;
	while ((name = cli_next_name(&names))) {
		rule.pattern = name;
		c = ltt_event_enable(ctl, session, domain, channel, &rule);
		if (c < 0) {
			r = cli_fail(ctl, c, "cannot enable %s event '%s' in session '%s'",
				     cli_domain_name(domain), name, session);
			break;
		}
		if (all)
			cli_say("All %s events are enabled in channel %s\n", cli_domain_name(domain),
				channel ? channel : "channel0");
		else
			cli_say("%s event %s created in channel %s\n", cli_domain_name(domain), name,
				channel ? channel : "channel0");
	}
	ltt_ctl_close(ctl);
out:
	free(exclusions);
	return r;
}
