/* ltt enable-event - enable event rules. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: ltt enable-event -u [-s SESSION] [-c CHANNEL] (--all | NAME[,NAME...])\n"
	"                        [--loglevel LEVEL | --loglevel-only LEVEL]\n"
	"                        [--exclude NAMES] [--filter EXPR]\n"
	"       ltt enable-event -k [-s SESSION] [-c CHANNEL] [--tracepoint | --syscall]\n"
	"                        (--all | NAME[,NAME...]) [--filter EXPR]\n"
	"       ltt enable-event -k [-s SESSION] [-c CHANNEL]\n"
	"                        (--function SYMBOL | --userspace-probe LOCATION) NAME\n"
	"\n"
	"Enables event rules: the events whose name matches NAME (a name, or a\n"
	"pattern where '*' matches anything) are recorded in the channel.\n"
	"\n"
	"  -u, --userspace        user-space tracepoints\n"
	"  -k, --kernel           kernel events (tracefs: needs root or the tracing group)\n"
	"  -s, --session NAME     the session (default: the current one)\n"
	"  -c, --channel NAME     the channel (default: channel0, created if missing;\n"
	"                         kernel: the session's kernel channel)\n"
	"  -a, --all              every event (the pattern '*'); with -k and no\n"
	"                         --tracepoint or --syscall: every tracepoint and syscall\n"
	"      --tracepoint       kernel tracepoints, by LTTng or tracefs name\n"
	"                         (sched_switch, sched:sched_switch, irq_softirq_*)\n"
	"      --syscall          the entry and exit of system calls (openat, read, ...)\n"
	"      --function SYMBOL  each call of a kernel function (the function tracer),\n"
	"                         recorded as event NAME\n"
	"      --userspace-probe LOCATION  each call of a user-space function, LOCATION\n"
	"                         being [elf:]PATH:SYMBOL (a uprobe), recorded as NAME\n"
	"      --loglevel LEVEL   events of LEVEL or more severe (TRACE_EMERG .. TRACE_DEBUG,\n"
	"                         or 0 .. 14)\n"
	"      --loglevel-only LEVEL  events of exactly LEVEL\n"
	"  -x, --exclude NAMES    names or patterns not to record (comma-separated);\n"
	"                         only with a pattern containing '*'\n"
	"  -f, --filter EXPR      record only the events for which EXPR is true\n"
	"                         (LTTng's filter language, see ltt-enable-event(1); kernel\n"
	"                         filters go into tracefs when its grammar says them)\n"
	"  -h, --help             show this help\n";

enum { OPT_LOGLEVEL = 256, OPT_LOGLEVEL_ONLY, OPT_TRACEPOINT, OPT_SYSCALL, OPT_FUNCTION,
       OPT_USERSPACE_PROBE };

static const char *type_name(enum ltt_event_type t)
{
	switch (t) {
	case LTT_EVENT_SYSCALL: return "syscall";
	case LTT_EVENT_FUNCTION: return "function";
	case LTT_EVENT_USERSPACE_PROBE: return "userspace probe";
	default: return "event";
	}
}

/* The channel a rule went to: the one named, else the session's of the domain. */
static const char *channel_of(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			      const char *channel, struct ltt_session **desc)
{
	if (channel || domain != LTT_DOMAIN_KERNEL)
		return channel ? channel : "channel0";
	if (!*desc && ltt_session_get(ctl, session, desc) < 0)
		return "channel0";
	for (size_t i = 0; i < ltt_session_channel_count(*desc); i++)
		if (ltt_channel_domain(ltt_session_channel(*desc, i)) == LTT_DOMAIN_KERNEL)
			return ltt_channel_name(ltt_session_channel(*desc, i));
	return "channel0";
}

/* Enables one rule and says so; 0 or the exit status. */
static int enable(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		  const char *channel, const struct ltt_event_rule *rule, bool all)
{
	struct ltt_session *desc = NULL;
	int r = ltt_event_enable(ctl, session, domain, channel, rule);

	if (r < 0)
		return cli_fail(ctl, r, "cannot enable %s %s '%s' in session '%s'",
				cli_domain_name(domain), type_name(rule->type), rule->pattern,
				session);
	if (all)
		cli_say("All %s %ss are enabled in channel %s\n", cli_domain_name(domain),
			rule->type == LTT_EVENT_SYSCALL ? "syscall" : "event",
			channel_of(ctl, session, domain, channel, &desc));
	else
		cli_say("%s %s %s created in channel %s\n", cli_domain_name(domain),
			type_name(rule->type), rule->pattern,
			channel_of(ctl, session, domain, channel, &desc));
	ltt_session_free(desc);
	return 0;
}

int cmd_enable_event(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "userspace", no_argument, NULL, 'u' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "session", required_argument, NULL, 's' },
		{ "channel", required_argument, NULL, 'c' },
		{ "all", no_argument, NULL, 'a' },
		{ "tracepoint", no_argument, NULL, OPT_TRACEPOINT },
		{ "syscall", no_argument, NULL, OPT_SYSCALL },
		{ "function", required_argument, NULL, OPT_FUNCTION },
		{ "userspace-probe", required_argument, NULL, OPT_USERSPACE_PROBE },
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
	bool all = false, type_set = false;
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
		case OPT_TRACEPOINT:
		case OPT_SYSCALL:
		case OPT_FUNCTION:
		case OPT_USERSPACE_PROBE:
			if (type_set) {
				cli_error("--tracepoint, --syscall, --function and --userspace-probe "
					  "exclude each other");
				r = 2;
				goto out;
			}
			type_set = true;
			rule.type = c == OPT_TRACEPOINT ? LTT_EVENT_TRACEPOINT :
				    c == OPT_SYSCALL ? LTT_EVENT_SYSCALL :
				    c == OPT_FUNCTION ? LTT_EVENT_FUNCTION : LTT_EVENT_USERSPACE_PROBE;
			if (c == OPT_FUNCTION || c == OPT_USERSPACE_PROBE)
				rule.location = optarg;
			break;
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
	r = 2;
	if (domain == LTT_DOMAIN_USER && rule.type != LTT_EVENT_TRACEPOINT) {
		cli_error("--syscall, --function and --userspace-probe are kernel rules (-k)");
		goto out;
	}
	if (domain == LTT_DOMAIN_KERNEL && (rule.loglevel_match != LTT_LOGLEVEL_ALL ||
					    rule.n_exclusions)) {
		cli_error("--loglevel, --loglevel-only and --exclude are for user-space rules (-u)");
		goto out;
	}
	if (rule.location && (all || argc - optind != 1 || strchr(argv[optind], ','))) {
		cli_error("--function and --userspace-probe take one event NAME to record as");
		goto out;
	}
	if (all == (argc - optind == 1) || argc - optind > 1) {
		cli_error("give either --all or the event names, separated by commas");
		goto out;
	}
	names = all ? all_pattern : argv[optind];
	r = 1;
	if (!(session = cli_session_or_current(session)) || cli_connect(false, &ctl))
		goto out;
	r = 0;
	while (r == 0 && (name = cli_next_name(&names))) {
		rule.pattern = name;
		r = enable(ctl, session, domain, channel, &rule, all);
		/* -k --all alone: the tracepoints, then the syscalls, as lttng's */
		if (r == 0 && all && domain == LTT_DOMAIN_KERNEL && !type_set) {
			rule.type = LTT_EVENT_SYSCALL;
			r = enable(ctl, session, domain, channel, &rule, all);
		}
	}
	ltt_ctl_close(ctl);
out:
	free(exclusions);
	return r;
}
