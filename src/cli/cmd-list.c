/* ltt list - list sessions, or describe one. ltt status - describe the current one. */
#include "cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <string.h>

static const char list_help[] =
	"Usage: ltt list [NAME]\n"
	"       ltt list -u\n"
	"       ltt list -k [--syscall]\n"
	"\n"
	"Without NAME, lists the tracing sessions of this user; with NAME, shows\n"
	"that session's channels, their attributes and their event rules.\n"
	"\n"
	"  -u, --userspace   list the tracepoints of the running applications\n"
	"  -k, --kernel      list the kernel's tracepoints, by their LTTng names\n"
	"      --syscall     with -k: list the kernel's system calls instead\n"
	"  -h, --help        show this help\n";

static const char status_help[] =
	"Usage: ltt status\n"
	"\n"
	"Shows the current session as `ltt list NAME` does.\n"
	"\n"
	"  -h, --help   show this help\n";

static void print_timer(const char *what, uint64_t us)
{
	if (us)
		printf("      %-18s%" PRIu64 " us\n", what, us);
	else
		printf("      %-18sinactive\n", what);
}

static void print_rule(const struct ltt_event_rule *r, bool enabled)
{
	printf("      %s", r->pattern);
	if (r->n_exclusions) {
		printf(" (excluding ");
		for (size_t i = 0; i < r->n_exclusions; i++)
			printf("%s%s", i ? ", " : "", r->exclusions[i]);
		printf(")");
	}
	if (r->loglevel_match == LTT_LOGLEVEL_RANGE)
		printf(" (loglevel: TRACE_%s or more severe)", cli_loglevel_name(r->loglevel));
	else if (r->loglevel_match == LTT_LOGLEVEL_SINGLE)
		printf(" (loglevel: TRACE_%s only)", cli_loglevel_name(r->loglevel));
	if (r->filter)
		printf(" (filter: %s)", r->filter);
	if (r->location)
		printf(" (location: %s)", r->location);
	printf(" (type: %s) [%s]\n",
	       r->type == LTT_EVENT_SYSCALL ? "syscall" :
	       r->type == LTT_EVENT_FUNCTION ? "function" :
	       r->type == LTT_EVENT_USERSPACE_PROBE ? "userspace-probe" : "tracepoint",
	       enabled ? "enabled" : "disabled");
}

static void print_channel(const struct ltt_channel *c)
{
	struct ltt_channel_attr a;
	uint64_t recorded, discarded;

	ltt_channel_get_attr(c, &a);
	printf("- %s: [enabled]\n\n    Attributes:\n", ltt_channel_name(c));
	printf("      %-18s%s\n", "Event-loss mode:", a.overwrite ? "overwrite" : "discard");
	printf("      %-18s%" PRIu64 " bytes\n", "Sub-buffer size:", a.subbuf_size);
	printf("      %-18s%" PRIu32 "\n", "Sub-buffer count:", a.num_subbuf);
	print_timer("Switch timer:", a.switch_timer_us);
	print_timer("Read timer:", a.read_timer_us);
	if (a.blocking_timeout_us < 0)
		printf("      %-18sinfinite\n", "Blocking timeout:");
	else
		printf("      %-18s%" PRId64 " us\n", "Blocking timeout:", a.blocking_timeout_us);
	printf("      %-18s%s\n", "Buffering:",
	       a.buffers == LTT_BUFFERS_PID ? "per-process" :
	       a.buffers == LTT_BUFFERS_UID ? "per-user" : "global");
	if (a.tracefile_count)
		printf("      %-18s%" PRIu32 " per stream\n", "Trace file count:", a.tracefile_count);
	else
		printf("      %-18s%s per stream\n", "Trace file count:",
		       a.tracefile_size ? "unlimited" : "1");
	if (a.tracefile_size)
		printf("      %-18s%" PRIu64 " bytes\n", "Trace file size:", a.tracefile_size);
	else
		printf("      %-18sunlimited\n", "Trace file size:");
	if (ltt_channel_context_count(c)) {
		printf("\n    Context fields:\n");
		for (size_t k = 0; k < ltt_channel_context_count(c); k++)
			printf("      %s\n", ltt_channel_context(c, k));
	}
	if (ltt_channel_get_stats(c, &recorded, &discarded))
		printf("\n    Statistics:\n      %-18s%" PRIu64 "\n      %-18s%" PRIu64 "\n",
		       "Recorded events:", recorded, "Discarded events:", discarded);
	printf("\n    Recording event rules:\n");
	if (ltt_channel_rule_count(c) == 0)
		printf("      None\n");
	for (size_t k = 0; k < ltt_channel_rule_count(c); k++) {
		struct ltt_event_rule r;
		bool enabled;

		ltt_channel_get_rule(c, k, &r, &enabled);
		print_rule(&r, enabled);
	}
	printf("\n");
}

/* The process attributes each domain tracks, in lttng's order. */
static const enum ltt_process_attr user_attrs[] = {
	LTT_PROCESS_ATTR_VPID, LTT_PROCESS_ATTR_VUID, LTT_PROCESS_ATTR_VGID, 0,
};
static const enum ltt_process_attr kernel_attrs[] = {
	LTT_PROCESS_ATTR_PID, LTT_PROCESS_ATTR_VPID, LTT_PROCESS_ATTR_UID,
	LTT_PROCESS_ATTR_VUID, LTT_PROCESS_ATTR_GID, LTT_PROCESS_ATTR_VGID, 0,
};

static const char *const tracker_titles[] = {
	[LTT_PROCESS_ATTR_PID] = "Process IDs:",
	[LTT_PROCESS_ATTR_VPID] = "Virtual process IDs:",
	[LTT_PROCESS_ATTR_UID] = "User IDs:",
	[LTT_PROCESS_ATTR_VUID] = "Virtual user IDs:",
	[LTT_PROCESS_ATTR_GID] = "Group IDs:",
	[LTT_PROCESS_ATTR_VGID] = "Virtual group IDs:",
};

/* Whether a tracker of the domain restricts recording (does not include all). */
static bool domain_tracks(const struct ltt_session *s, enum ltt_domain d)
{
	const int64_t *values;
	size_t n;

	for (const enum ltt_process_attr *a = d == LTT_DOMAIN_USER ? user_attrs : kernel_attrs;
	     *a; a++)
		if (!ltt_session_tracker(s, d, *a, &values, &n))
			return true;
	return false;
}

/* The inclusion sets of the domain, as lttng list shows them. */
static void print_trackers(const struct ltt_session *s, enum ltt_domain d)
{
	printf("Tracked process attributes\n");
	for (const enum ltt_process_attr *a = d == LTT_DOMAIN_USER ? user_attrs : kernel_attrs;
	     *a; a++) {
		const int64_t *values;
		size_t n;

		printf("  %-22s", tracker_titles[*a]);
		if (ltt_session_tracker(s, d, *a, &values, &n))
			printf("all\n");
		else if (n == 0)
			printf("none\n");
		else
			for (size_t i = 0; i < n; i++)
				printf("%" PRId64 "%s", values[i], i + 1 < n ? ", " : "\n");
	}
	printf("\n");
}

static void print_session(const struct ltt_session *s)
{
	static const struct {
		enum ltt_domain domain;
		const char *title;
	} domains[] = { { LTT_DOMAIN_KERNEL, "Linux kernel" }, { LTT_DOMAIN_USER, "User space" } };

	printf("Tracing session %s: [%s%s]\n", ltt_session_name(s),
	       ltt_session_active(s) ? "active" : "inactive",
	       ltt_session_snapshot(s) ? " snapshot" : "");
	uint64_t timer_us, size;

	if (ltt_session_output(s)[0])
		printf("    Trace output: %s\n", ltt_session_output(s));
	else
		printf("    Trace output: none (memory only)\n");
	ltt_session_rotation(s, &timer_us, &size);
	if (timer_us || size)
		printf("\nAutomatic rotation schedules:\n");
	if (timer_us)
		printf("    timer period: %" PRIu64 " us\n", timer_us);
	if (size)
		printf("    size threshold: %" PRIu64 " bytes\n", size);
	for (size_t d = 0; d < 2; d++) {
		enum ltt_domain domain = domains[d].domain;
		size_t n = 0;

		for (size_t i = 0; i < ltt_session_channel_count(s); i++)
			n += ltt_channel_domain(ltt_session_channel(s, i)) == domain;
		/* a domain is shown if it has channels or restricts recording */
		if (n == 0 && !domain_tracks(s, domain))
			continue;
		printf("\n=== Domain: %s ===\n\n", domains[d].title);
		print_trackers(s, domain);
		printf("Channels:\n-------------\n");
		if (n == 0)
			printf("None\n\n");
		for (size_t i = 0; i < ltt_session_channel_count(s); i++)
			if (ltt_channel_domain(ltt_session_channel(s, i)) == domain)
				print_channel(ltt_session_channel(s, i));
	}
}

static int describe(struct ltt_ctl *ctl, const char *name)
{
	struct ltt_session *s;
	int r = ltt_session_get(ctl, name, &s);

	if (r < 0)
		return cli_fail(ctl, r, "cannot describe session '%s'", name);
	print_session(s);
	ltt_session_free(s);
	return 0;
}

static int list_all(struct ltt_ctl *ctl)
{
	struct ltt_session **list;
	size_t n;
	int r = ltt_session_list(ctl, &list, &n);

	if (r < 0)
		return cli_fail(ctl, r, "cannot list the sessions");
	if (n == 0) {
		printf("Currently no available tracing session\n");
	} else {
		printf("Available tracing sessions:\n");
		for (size_t i = 0; i < n; i++) {
			const char *out = ltt_session_output(list[i]);

			printf("  %zu) %s (%s) [%s]\n", i + 1, ltt_session_name(list[i]),
			       out[0] ? out : "no output",
			       ltt_session_active(list[i]) ? "active" : "inactive");
		}
		printf("\nUse ltt list <session_name> for more details\n");
	}
	ltt_session_list_free(list, n);
	return 0;
}

static int parse_no_options(int argc, char **argv, const char *help)
{
	static const struct option opts[] = { { "help", no_argument, NULL, 'h' }, { 0 } };

	if (getopt_long(argc, argv, "h", opts, NULL) != -1) {
		fputs(help, stderr);
		return 2;
	}
	return 0;
}

/* ltt list -k [--syscall]: as lttng prints them. */
static int list_kernel(struct ltt_ctl *ctl, bool syscalls)
{
	struct ltt_tracepoint_list *l;
	int r = syscalls ? ltt_syscall_list_get(ctl, &l)
			 : ltt_tracepoint_list_get(ctl, LTT_DOMAIN_KERNEL, &l);

	if (r < 0)
		return cli_fail(ctl, r, "cannot list the kernel's %s",
				syscalls ? "system calls" : "tracepoints");
	printf("%s:\n-------------\n", syscalls ? "System calls" : "Kernel events");
	for (size_t i = 0; i < ltt_tracepoint_list_count(l); i++) {
		const char *procname, *name;
		int pid, level;

		ltt_tracepoint_list_entry(l, i, &pid, &procname, &name, &level);
		if (syscalls)
			printf("      %s (type: syscall) [64-bit]\n", name);
		else
			printf("      %s (loglevel: TRACE_EMERG (0)) (type: tracepoint)\n", name);
	}
	printf("\n");
	ltt_tracepoint_list_free(l);
	return 0;
}

static int list_tracepoints(struct ltt_ctl *ctl)
{
	struct ltt_tracepoint_list *l;
	int r = ltt_tracepoint_list_get(ctl, LTT_DOMAIN_USER, &l), last_pid = -1;

	if (r < 0)
		return cli_fail(ctl, r, "cannot list the tracepoints of the applications");
	printf("UST events:\n-------------\n");
	if (ltt_tracepoint_list_count(l) == 0)
		printf("\nNone\n");
	for (size_t i = 0; i < ltt_tracepoint_list_count(l); i++) {
		const char *procname, *name;
		int pid, level;

		ltt_tracepoint_list_entry(l, i, &pid, &procname, &name, &level);
		if (pid != last_pid)
			printf("\nPID: %d - Name: %s\n", pid, procname);
		last_pid = pid;
		printf("      %s (loglevel: TRACE_%s (%d)) (type: tracepoint)\n", name,
		       cli_loglevel_name(level), level);
	}
	printf("\n");
	ltt_tracepoint_list_free(l);
	return 0;
}

enum { OPT_SYSCALL = 256 };

int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "userspace", no_argument, NULL, 'u' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "syscall", no_argument, NULL, OPT_SYSCALL },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum ltt_domain domain = 0;
	struct ltt_ctl *ctl;
	bool syscalls = false;
	int c, r;

	if (cli_wants_help(argc, argv, list_help))
		return 0;
	while ((c = getopt_long(argc, argv, "ukh", opts, NULL)) != -1) {
		if (c == 'u' || c == 'k') {
			if ((r = cli_set_domain(&domain, c == 'u' ? LTT_DOMAIN_USER : LTT_DOMAIN_KERNEL)))
				return r;
		} else if (c == OPT_SYSCALL) {
			syscalls = true;
		} else {
			fputs(list_help, stderr);
			return 2;
		}
	}
	if (argc - optind > (domain ? 0 : 1) || (syscalls && domain != LTT_DOMAIN_KERNEL)) {
		fputs(list_help, stderr);
		return 2;
	}
	if (cli_connect(false, &ctl))
		return 1;
	if (domain == LTT_DOMAIN_KERNEL)
		r = list_kernel(ctl, syscalls);
	else if (domain == LTT_DOMAIN_USER)
		r = list_tracepoints(ctl);
	else
		r = optind < argc ? describe(ctl, argv[optind]) : list_all(ctl);
	ltt_ctl_close(ctl);
	return r;
}

int cmd_status(int argc, char **argv)
{
	struct ltt_ctl *ctl;
	const char *name;
	int r;

	if (cli_wants_help(argc, argv, status_help))
		return 0;
	if ((r = parse_no_options(argc, argv, status_help)))
		return r;
	if (argc > optind) {
		fputs(status_help, stderr);
		return 2;
	}
	if (!(name = cli_session_or_current(NULL)) || cli_connect(false, &ctl))
		return 1;
	r = describe(ctl, name);
	ltt_ctl_close(ctl);
	return r;
}
