/* ltt add-context - add context fields to the events of channels. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: ltt add-context (-u | -k) [-s SESSION] [-c CHANNEL] -t TYPE [-t TYPE...]\n"
	"       ltt add-context --list [-u | -k]\n"
	"\n"
	"Adds context fields, recorded with every event of the channel (default:\n"
	"every channel of the domain; channel0 is created if the domain has none),\n"
	"before the session is started for the first time. The types are added\n"
	"all together or not at all.\n"
	"\n"
	"  -u, --userspace        user-space channels\n"
	"  -k, --kernel           kernel channels\n"
	"  -s, --session NAME     the session (default: the current one)\n"
	"  -c, --channel NAME     the channel (default: every channel of the domain)\n"
	"  -t, --type TYPE        a context type: vpid, vtid, pid, tid, procname, ip,\n"
	"                         pthread_id, cpu_id, cgroup_ns, ..., vuid, ...,\n"
	"                         perf:thread:task-clock, ... (see --list); repeat\n"
	"                         it or separate types with commas\n"
	"      --list             list the context types (of the domain given)\n"
	"  -h, --help             show this help\n";

enum { OPT_LIST = 256 };

/* Prints the context types (those of domain, if given), one per line, as lttng does. */
static int list_types(enum ltt_domain domain)
{
	const char *name;
	unsigned domains;

	for (size_t i = 0; (name = ltt_context_type_name(i, &domains)); i++)
		if (!domain || (domains & (1u << domain)))
			printf("%s\n", name);
	return 0;
}

/* Whether name is a context type ltt knows (in any domain). */
static bool known_type(const char *name)
{
	const char *t;

	for (size_t i = 0; (t = ltt_context_type_name(i, NULL)); i++)
		if (strcmp(t, name) == 0)
			return true;
	return false;
}

static int add(enum ltt_domain domain, const char *session, const char *channel,
	       const char **types, size_t n)
{
	struct ltt_ctl *ctl;
	int r;

	for (size_t i = 0; i < n; i++)
		if (!known_type(types[i])) {
			cli_error("unknown context type '%s' (see `ltt add-context --list`)",
				  types[i]);
			return 1;
		}
	if (!(session = cli_session_or_current(session)) || cli_connect(false, &ctl))
		return 1;
	r = ltt_context_add(ctl, session, domain, channel, types, n);
	if (r < 0) {
		r = cli_fail(ctl, r, "cannot add %s context%s to session '%s'",
			     cli_domain_name(domain), n > 1 ? "s" : "", session);
	} else {
		for (size_t i = 0; i < n; i++)
			if (channel)
				cli_say("%s context %s added to channel %s\n",
					cli_domain_name(domain), types[i], channel);
			else
				cli_say("%s context %s added to all channels\n",
					cli_domain_name(domain), types[i]);
	}
	ltt_ctl_close(ctl);
	return r;
}

int cmd_add_context(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "userspace", no_argument, NULL, 'u' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "session", required_argument, NULL, 's' },
		{ "channel", required_argument, NULL, 'c' },
		{ "type", required_argument, NULL, 't' },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	enum ltt_domain domain = 0;
	const char *session = NULL, *channel = NULL, **types = NULL;
	size_t n = 0;
	bool list = false;
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	while ((c = getopt_long(argc, argv, "uks:c:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
		case 'k':
			if ((r = cli_set_domain(&domain, c == 'u' ? LTT_DOMAIN_USER : LTT_DOMAIN_KERNEL)))
				goto out;
			break;
		case 's': session = optarg; break;
		case 'c': channel = optarg; break;
		case 't': {
			size_t more;
			const char **some = cli_split_list(optarg, &more), **grown;

			if (!some) {	/* no name in it (or no memory) */
				cli_error("give the context types with -t TYPE");
				r = 2;
				goto out;
			}
			grown = realloc(types, (n + more) * sizeof(*types));
			if (!grown) {
				free(some);
				cli_error("out of memory");
				r = 1;
				goto out;
			}
			memcpy(grown + n, some, more * sizeof(*some));
			free(some);
			types = grown;
			n += more;
			break;
		}
		case OPT_LIST: list = true; break;
		default:
			fputs(help, stderr);
			r = 2;
			goto out;
		}
	}
	r = 2;
	if (optind < argc) {
		fputs(help, stderr);
	} else if (list) {
		r = n || session || channel ? (cli_error("--list takes no other option but -u or -k"), 2)
					   : list_types(domain);
	} else if (!(r = cli_check_domain(domain))) {
		if (n == 0) {
			cli_error("give the context types with -t TYPE");
			r = 2;
		} else {
			r = add(domain, session, channel, types, n);
		}
	}
out:
	free(types);
	return r;
}
