/* ltt track / ltt untrack - allow or disallow processes to record events. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "util/macros.h"

/* The options, as both commands take them. */
#define OPTIONS \
	"  -u, --userspace        user-space inclusion sets (--vpid, --vuid, --vgid)\n" \
	"  -k, --kernel           kernel inclusion sets (--pid: its threads, and what\n" \
	"                         it forks from then on)\n" \
	"  -s, --session NAME     the session (default: the current one)\n" \
	"  -p, --pid[=PID,...]    process IDs (kernel; with -u: as --vpid)\n" \
	"      --vpid[=VPID,...]  process IDs as the processes see them\n" \
	"      --uid[=USER,...]   user IDs or names (kernel)\n" \
	"      --vuid[=USER,...]  user IDs or names as the processes see them\n" \
	"      --gid[=GROUP,...]  group IDs or names (kernel)\n" \
	"      --vgid[=GROUP,...] group IDs or names as the processes see them\n" \
	"  -a, --all              with the attribute options: every value\n" \
	"  -h, --help             show this help\n"

static const char track_help[] =
	"Usage: ltt track -u [-s SESSION]\n"
	"                 (--vpid=VPID[,VPID...] | --vuid=USER[,USER...] |\n"
	"                  --vgid=GROUP[,GROUP...])...\n"
	"       ltt track -u [-s SESSION] --all (--vpid | --vuid | --vgid)...\n"
	"       ltt track -k [-s SESSION] (--pid=PID[,PID...] | --all --pid)\n"
	"\n"
	"Allows processes to record events: adds values to the inclusion sets of\n"
	"process attributes of the session's domain. A process records events only\n"
	"if each of its attributes is in the set for it; every set includes all\n"
	"values at first, and the first values tracked replace that. Takes effect\n"
	"at once, also while the session records.\n"
	"\n"
	OPTIONS;

static const char untrack_help[] =
	"Usage: ltt untrack -u [-s SESSION]\n"
	"                   (--vpid=VPID[,VPID...] | --vuid=USER[,USER...] |\n"
	"                    --vgid=GROUP[,GROUP...])...\n"
	"       ltt untrack -u [-s SESSION] --all (--vpid | --vuid | --vgid)...\n"
	"       ltt untrack -k [-s SESSION] (--pid=PID[,PID...] | --all --pid)\n"
	"\n"
	"Disallows processes to record events: removes values from the inclusion\n"
	"sets of process attributes of the session's domain (see ltt-track(1));\n"
	"with --all, the sets become empty and no process records. Takes effect at\n"
	"once, also while the session records.\n"
	"\n"
	OPTIONS;

/* As lttng names them in its messages. */
static const char *const attr_names[] = {
	[LTT_PROCESS_ATTR_PID] = "process ID",
	[LTT_PROCESS_ATTR_VPID] = "virtual process ID",
	[LTT_PROCESS_ATTR_UID] = "user ID",
	[LTT_PROCESS_ATTR_VUID] = "virtual user ID",
	[LTT_PROCESS_ATTR_GID] = "group ID",
	[LTT_PROCESS_ATTR_VGID] = "virtual group ID",
};

/* One attribute option: its values (a comma-separated list), or NULL. */
struct attr_arg {
	enum ltt_process_attr attr;
	char *values;
};

/* A value: a number, or for user and group attributes a name. 0 or -EINVAL. */
static int parse_value(enum ltt_process_attr attr, const char *s, int64_t *ret)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (*s && !*end && !errno && v >= 0 && v <= INT32_MAX) {
		*ret = v;
		return 0;
	}
	if (attr == LTT_PROCESS_ATTR_UID || attr == LTT_PROCESS_ATTR_VUID) {
		const struct passwd *pw = getpwnam(s);

		if (pw) {
			*ret = pw->pw_uid;
			return 0;
		}
	} else if (attr == LTT_PROCESS_ATTR_GID || attr == LTT_PROCESS_ATTR_VGID) {
		const struct group *gr = getgrnam(s);

		if (gr) {
			*ret = gr->gr_gid;
			return 0;
		}
	}
	return -EINVAL;
}

/* Applies one attribute option; an exit status. */
static int apply(struct ltt_ctl *ctl, bool track, const char *session, enum ltt_domain domain,
		 const struct attr_arg *a)
{
	int (*op)(struct ltt_ctl *, const char *, enum ltt_domain, enum ltt_process_attr,
		  const int64_t *, size_t) = track ? ltt_tracker_track : ltt_tracker_untrack;
	const char *what = attr_names[a->attr];
	const char **names = NULL;
	int64_t *values = NULL;
	size_t n = 0;
	int r = 0;

	if (a->values && !(names = cli_split_list(a->values, &n))) {
		cli_error("give the %ss, separated by commas", what);
		return 2;
	}
	if (n && !(values = calloc(n, sizeof(*values)))) {
		free(names);
		cli_error("out of memory");
		return 1;
	}
	for (size_t i = 0; i < n && !r; i++)
		if (parse_value(a->attr, names[i], &values[i]) < 0) {
			cli_error("'%s' is not a valid %s%s", names[i], what,
				  a->attr == LTT_PROCESS_ATTR_PID || a->attr == LTT_PROCESS_ATTR_VPID
					  ? "" : " (nor a known name)");
			r = 1;
		}
	if (!r && (r = op(ctl, session, domain, a->attr, values, n)) < 0) {
		r = cli_fail(ctl, r, "cannot %s the %s%s of session '%s'",
			     track ? "add to" : "remove from", what,
			     n ? " inclusion set" : " tracker", session);
	} else if (!r && n == 0) {
		/* "Virtual process ID tracking policy set to `include all`", as lttng */
		cli_say("%c%s tracking policy set to `%s`\n", what[0] - 'a' + 'A', what + 1,
			track ? "include all" : "exclude all");
	} else if (!r) {
		for (size_t i = 0; i < n; i++)
			cli_say("%s %s %s the %s tracker inclusion set\n", track ? "Added" : "Removed",
				names[i], track ? "to" : "from", what);
	}
	free(values);
	free(names);
	return r;
}

enum { OPT_PID = 'p', OPT_VPID = 256, OPT_UID, OPT_VUID, OPT_GID, OPT_VGID };

static int run(int argc, char **argv, bool track)
{
	static const struct option opts[] = {
		{ "userspace", no_argument, NULL, 'u' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "session", required_argument, NULL, 's' },
		{ "pid", optional_argument, NULL, OPT_PID },
		{ "vpid", optional_argument, NULL, OPT_VPID },
		{ "uid", optional_argument, NULL, OPT_UID },
		{ "vuid", optional_argument, NULL, OPT_VUID },
		{ "gid", optional_argument, NULL, OPT_GID },
		{ "vgid", optional_argument, NULL, OPT_VGID },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	static const enum ltt_process_attr by_opt[] = {
		[OPT_VPID - OPT_VPID] = LTT_PROCESS_ATTR_VPID,
		[OPT_UID - OPT_VPID] = LTT_PROCESS_ATTR_UID,
		[OPT_VUID - OPT_VPID] = LTT_PROCESS_ATTR_VUID,
		[OPT_GID - OPT_VPID] = LTT_PROCESS_ATTR_GID,
		[OPT_VGID - OPT_VPID] = LTT_PROCESS_ATTR_VGID,
	};
	const char *help = track ? track_help : untrack_help, *session = NULL;
	struct attr_arg args[16];
	enum ltt_domain domain = 0;
	struct ltt_ctl *ctl;
	size_t n = 0;
	bool all = false;
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	while ((c = getopt_long(argc, argv, "uks:p::ah", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
		case 'k':
			if ((r = cli_set_domain(&domain, c == 'u' ? LTT_DOMAIN_USER : LTT_DOMAIN_KERNEL)))
				return r;
			break;
		case 's': session = optarg; break;
		case 'a': all = true; break;
		case OPT_PID:
		case OPT_VPID:
		case OPT_UID:
		case OPT_VUID:
		case OPT_GID:
		case OPT_VGID:
			if (n == ARRAY_SIZE(args)) {
				cli_error("too many attribute options");
				return 2;
			}
			/* "--vpid 12" as "--vpid=12" (lttng accepts both) */
			if (!optarg && optind < argc && argv[optind][0] != '-')
				optarg = argv[optind++];
			args[n++] = (struct attr_arg){
				.attr = c == OPT_PID ? LTT_PROCESS_ATTR_PID : by_opt[c - OPT_VPID],
				.values = optarg,
			};
			break;
		default:
			fputs(help, stderr);
			return 2;
		}
	}
	if ((r = cli_check_domain(domain)))
		return r;
	if (optind < argc || n == 0) {
		cli_error("give --vpid, --vuid or --vgid (with values, or with --all)");
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		if (all == (args[i].values != NULL)) {
			cli_error(all ? "--all applies to attribute options without values"
				      : "give the values of each attribute option, or --all");
			return 2;
		}
		/* lttng's compatibility: in user space a pid is the process's own */
		if (domain == LTT_DOMAIN_USER && args[i].attr == LTT_PROCESS_ATTR_PID)
			args[i].attr = LTT_PROCESS_ATTR_VPID;
	}
	if (!(session = cli_session_or_current(session)) || cli_connect(false, &ctl))
		return 1;
	for (size_t i = 0; i < n && !r; i++)
		r = apply(ctl, track, session, domain, &args[i]);
	ltt_ctl_close(ctl);
	return r;
}

int cmd_track(int argc, char **argv)
{
	return run(argc, argv, true);
}

int cmd_untrack(int argc, char **argv)
{
	return run(argc, argv, false);
}
