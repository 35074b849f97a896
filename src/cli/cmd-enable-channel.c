/* ltt enable-channel - create channels. */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: ltt enable-channel (-u | -k) [-s SESSION] [OPTIONS] CHANNEL[,CHANNEL...]\n"
	"\n"
	"Creates channels in a session (default: the current one), before it starts.\n"
	"\n"
	"  -u, --userspace          user-space channel\n"
	"  -k, --kernel             kernel channel\n"
	"  -s, --session NAME       the session (default: the current one)\n"
	"      --discard            drop new events when the buffers are full (default)\n"
	"      --overwrite          overwrite the oldest events instead (flight recorder;\n"
	"                           the default in snapshot sessions)\n"
	"      --subbuf-size SIZE   sub-buffer size, a power of two: 4k .. 64M\n"
	"                           (default 512k user, 1M kernel)\n"
	"      --num-subbuf N       sub-buffers per CPU, a power of two >= 2\n"
	"                           (default 8 user, 4 kernel)\n"
	"      --switch-timer US    close sub-buffers every US microseconds (default: off)\n"
	"      --read-timer US      check for full sub-buffers every US microseconds\n"
	"      --blocking-timeout US  how long a tracepoint may wait for room: 0 (never,\n"
	"                           default), inf, or a duration (the app must opt in)\n"
	"      --buffers-uid        one set of buffers per user (default)\n"
	"      --buffers-pid        one set of buffers per process\n"
	"  -C, --tracefile-size SIZE  split each stream into files of SIZE bytes at\n"
	"                           most (CHANNEL_CPU_K; at least the sub-buffer size)\n"
	"  -W, --tracefile-count N  keep N files per stream, the oldest replaced\n"
	"                           (needs --tracefile-size; default: all)\n"
	"  -h, --help               show this help\n"
	"Durations take a unit: us (default), ms, s, m, h. Sizes: k, M, G.\n";

enum { OPT_DISCARD = 256, OPT_OVERWRITE, OPT_SUBBUF_SIZE, OPT_NUM_SUBBUF, OPT_SWITCH_TIMER,
       OPT_READ_TIMER, OPT_BLOCKING_TIMEOUT, OPT_BUFFERS_UID, OPT_BUFFERS_PID };

struct channel_opts {
	bool overwrite_set, overwrite, buffers_set;
	enum ltt_buffers buffers;
	const char *subbuf_size, *num_subbuf, *switch_timer, *read_timer, *blocking;
	const char *tracefile_size, *tracefile_count;
};

/* Applies --tracefile-size and --tracefile-count as LTTng does; 0 or exit status 2. */
static int apply_tracefile(const struct channel_opts *o, struct ltt_channel_attr *attr)
{
	uint64_t v;

	if (o->tracefile_size && cli_parse_size(o->tracefile_size, &attr->tracefile_size) < 0) {
		cli_error("invalid trace file size '%s'", o->tracefile_size);
		return 2;
	}
	if (o->tracefile_count) {
		if (cli_parse_size(o->tracefile_count, &v) < 0 || v > UINT32_MAX) {
			cli_error("invalid trace file count '%s'", o->tracefile_count);
			return 2;
		}
		attr->tracefile_count = (uint32_t)v;
	}
	if (attr->tracefile_count && !attr->tracefile_size) {
		cli_error("a trace file count needs a trace file size (--tracefile-size)");
		return 2;
	}
	if (attr->tracefile_size && attr->tracefile_size < attr->subbuf_size) {
		fprintf(stderr, "Warning: trace file size rounded up from %llu to the sub-buffer "
			"size (%llu)\n", (unsigned long long)attr->tracefile_size,
			(unsigned long long)attr->subbuf_size);
		attr->tracefile_size = attr->subbuf_size;
	}
	return 0;
}

/* Applies the options to attr (holding the domain's defaults); 0 or exit status 2. */
static int apply(const struct channel_opts *o, struct ltt_channel_attr *attr)
{
	uint64_t v;

	if (o->overwrite_set)
		attr->overwrite = o->overwrite;
	if (o->buffers_set)
		attr->buffers = o->buffers;
	if (o->subbuf_size) {
		if (cli_parse_size(o->subbuf_size, &attr->subbuf_size) < 0)
			goto bad;
	}
	if (o->num_subbuf) {
		if (cli_parse_size(o->num_subbuf, &v) < 0 || v > UINT32_MAX)
			goto bad;
		attr->num_subbuf = (uint32_t)v;
	}
	if (o->switch_timer && cli_parse_usec(o->switch_timer, &attr->switch_timer_us) < 0)
		goto bad;
	if (o->read_timer && cli_parse_usec(o->read_timer, &attr->read_timer_us) < 0)
		goto bad;
	if (o->blocking) {
		if (strcmp(o->blocking, "inf") == 0)
			attr->blocking_timeout_us = -1;
		else if (cli_parse_usec(o->blocking, &v) < 0 || v > INT64_MAX)
			goto bad;
		else
			attr->blocking_timeout_us = (int64_t)v;
	}
	return apply_tracefile(o, attr);
bad:
	cli_error("invalid size or duration in the channel options");
	return 2;
}

int cmd_enable_channel(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "userspace", no_argument, NULL, 'u' },
		{ "kernel", no_argument, NULL, 'k' },
		{ "session", required_argument, NULL, 's' },
		{ "discard", no_argument, NULL, OPT_DISCARD },
		{ "overwrite", no_argument, NULL, OPT_OVERWRITE },
		{ "subbuf-size", required_argument, NULL, OPT_SUBBUF_SIZE },
		{ "num-subbuf", required_argument, NULL, OPT_NUM_SUBBUF },
		{ "switch-timer", required_argument, NULL, OPT_SWITCH_TIMER },
		{ "read-timer", required_argument, NULL, OPT_READ_TIMER },
		{ "blocking-timeout", required_argument, NULL, OPT_BLOCKING_TIMEOUT },
		{ "buffers-uid", no_argument, NULL, OPT_BUFFERS_UID },
		{ "buffers-pid", no_argument, NULL, OPT_BUFFERS_PID },
		{ "tracefile-size", required_argument, NULL, 'C' },
		{ "tracefile-count", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct channel_opts o = { 0 };
	enum ltt_domain domain = 0;
	const char *session = NULL;
	struct ltt_ctl *ctl;
	char *names, *name;
	int c, r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	while ((c = getopt_long(argc, argv, "uks:C:W:h", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
		case 'k':
			if ((r = cli_set_domain(&domain, c == 'u' ? LTT_DOMAIN_USER : LTT_DOMAIN_KERNEL)))
				return r;
			break;
		case 's': session = optarg; break;
		case OPT_DISCARD:
		case OPT_OVERWRITE:
			o.overwrite_set = true;
			o.overwrite = c == OPT_OVERWRITE;
			break;
		case OPT_SUBBUF_SIZE: o.subbuf_size = optarg; break;
		case OPT_NUM_SUBBUF: o.num_subbuf = optarg; break;
		case OPT_SWITCH_TIMER: o.switch_timer = optarg; break;
		case OPT_READ_TIMER: o.read_timer = optarg; break;
		case OPT_BLOCKING_TIMEOUT: o.blocking = optarg; break;
		case 'C': o.tracefile_size = optarg; break;
		case 'W': o.tracefile_count = optarg; break;
		case OPT_BUFFERS_UID:
		case OPT_BUFFERS_PID:
			o.buffers_set = true;
			o.buffers = c == OPT_BUFFERS_UID ? LTT_BUFFERS_UID : LTT_BUFFERS_PID;
			break;
		default:
			fputs(help, stderr);
			return 2;
		}
	}
	if ((r = cli_check_domain(domain)))
		return r;
	if (argc - optind != 1) {
		cli_error("give the channel names, separated by commas");
		return 2;
	}
	if (domain == LTT_DOMAIN_KERNEL && o.buffers_set) {
		cli_error("kernel channels have global buffers only");
		return 2;
	}
	if (!(session = cli_session_or_current(session)))
		return 1;
	if (cli_connect(false, &ctl))
		return 1;
	if (!o.overwrite_set) {
		/* a flight recorder's channels overwrite unless told otherwise */
		struct ltt_session *desc;

		if (ltt_session_get(ctl, session, &desc) == 0) {
			o.overwrite_set = ltt_session_snapshot(desc);
			o.overwrite = o.overwrite_set;
			ltt_session_free(desc);
		}
	}
	names = argv[optind];
	r = 0;
	while ((name = cli_next_name(&names))) {
		struct ltt_channel_attr attr;

		ltt_channel_attr_init(&attr, domain);
		if ((r = apply(&o, &attr)))
			break;
		c = ltt_channel_enable(ctl, session, domain, name, &attr);
		if (c < 0) {
			r = cli_fail(ctl, c, "cannot enable %s channel '%s' in session '%s'",
				     cli_domain_name(domain), name, session);
			break;
		}
		cli_say("%s channel %s enabled for session %s\n", cli_domain_name(domain), name,
			session);
	}
	ltt_ctl_close(ctl);
	return r;
}
