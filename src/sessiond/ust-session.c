/* ust-session.c - a session's user-space buffers; see ust-session.h. */
#include "ust-session.h"

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ctf/ctf-rb-client.h"
#include "context.h"
#include "ctf/ctf.h"
#include "ltt-config.h"
#include "util/fs.h"

/* An event class of a channel: same name and fields give the same id. */
struct ust_event_class {
	char *name;
	uint8_t *sig;		/* the encoded field list, as the application sent it */
	size_t sig_len;
	uint32_t id;
};

struct ust_channel {
	uint64_t key;		/* the consumer's name for it */
	unsigned slot;		/* the applications' channel number */
	size_t reg_index;	/* its struct reg_channel in the session */
	uint32_t stream_id;
	struct rb_channel *rb;
	int wakeup_fd;
	struct ust_event_class *events;
	size_t n_events;
};

/* One set of buffers: the per-UID one of a session, or one application's (per-PID). */
struct ust_session {
	pid_t pid;		/* 0: per-UID */
	struct ctf_trace *trace;
	uint8_t uuid[16];
	char rel[PATH_MAX / 2];	/* ust/uid/UID/64-bit or ust/pid/NAME-PID-DATE */
	char dir[PATH_MAX];	/* CHUNK/rel, in the session's current trace chunk */
	struct ust_channel *channels;
	size_t n_channels;
};

static uint64_t slots_used;	/* bit s: slot s belongs to a channel */

static int slot_alloc(unsigned *ret)
{
	if (slots_used == UINT64_MAX)
		return -ENOSPC;
	*ret = (unsigned)__builtin_ctzll(~slots_used);
	slots_used |= UINT64_C(1) << *ret;
	return 0;
}

/* A new random uuid (version 4) for the trace of u. */
static int new_uuid(struct ust_session *u)
{
	if (getrandom(u->uuid, sizeof(u->uuid), 0) != sizeof(u->uuid))
		return -errno;
	u->uuid[6] = (uint8_t)((u->uuid[6] & 0x0f) | 0x40);
	u->uuid[8] = (uint8_t)((u->uuid[8] & 0x3f) | 0x80);
	return 0;
}

/* Whether channel c of a session belongs in the buffer set u (its scheme). */
static bool in_set(const struct reg_channel *c, const struct ust_session *u)
{
	return c->domain == LTT_DOMAIN_USER &&
	       (c->attr.buffers == LTT_BUFFERS_PID) == (u->pid != 0);
}

/*
 * The trace class: LTTng's ust env (per-PID: with the application's vpid,
 * procname and registration time), the session's clock, the host's layout
 * (packed on x86, as the tracer writes), one stream class per channel of
 * the set.
 */
static int make_trace(const struct reg_session *s, struct ust_session *u, const char *procname,
		      const char *app_stamp, const char **detail)
{
	char host[256] = "", stamp[32];
	struct ctf_error err;
	struct tm tm;
	struct ctf_clock_desc clock = ctf_clock_desc(&s->clock);
	uint32_t stream_id = 0;
	int r;

	if ((r = new_uuid(u)) < 0)
		return r;
	gethostname(host, sizeof(host) - 1);
	localtime_r(&s->created, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S%z", &tm);
	struct ctf_env_lttng env = {
		.domain = "ust",
		.tracer_name = "lttng-ust",
		.tracer_major = 2,
		.tracer_minor = 13,
		.hostname = host,
		.trace_name = s->name,
		.trace_creation_datetime = stamp,
		.buffering_scheme = u->pid ? "pid" : "uid",
		.buffering_id = u->pid ? (int64_t)u->pid : (int64_t)geteuid(),
		.architecture_bit_width = 64,
		.vpid = u->pid,
		.procname = u->pid ? procname : NULL,
		.vpid_datetime = u->pid ? app_stamp : NULL,
		.ltt_version = LTT_VERSION,
	};

	*detail = "cannot describe the trace";
	if ((r = ctf_trace_create(u->uuid, CTF_BO_LE, &u->trace)) < 0 ||
	    (r = ctf_trace_set_layout(u->trace, CTF_LAYOUT_HOST, &err)) < 0 ||
	    (r = ctf_trace_env_lttng(u->trace, &env, &err)) < 0 ||
	    (r = ctf_trace_add_clock(u->trace, &clock, &err)) < 0)
		return r;
	for (size_t i = 0; i < s->n_channels; i++) {
		struct ctf_type *event_context;

		if (!in_set(&s->channels[i], u))
			continue;
		/* the channel's context fields: every record carries them after its header */
		if ((r = context_ctf_type(&s->channels[i], &event_context)) < 0)
			return r;
		r = ctf_trace_add_stream_class(u->trace, stream_id++, CTF_HEADER_LARGE, clock.name,
					       event_context, &err, NULL);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Sends the set's metadata, as it is now, to be written in dir. */
static int send_metadata(struct ust_session *u, struct consumer *c, const char *dir,
			 const char **detail)
{
	struct proto_builder b;
	const char *text;
	size_t len;
	int r = ctf_trace_metadata(u->trace, &text, &len);

	if (r < 0)
		return r;
	consumer_begin(c, &b, CONS_METADATA);
	proto_put_str(&b, CONS_A_DIR, dir);
	proto_put_bytes(&b, CONS_A_TEXT, text, len);
	return consumer_request(c, &b, NULL, 0, detail);
}

/*
 * How a channel's writers synchronize (ringbuf.h): in restartable sequences
 * when the session's clock is the TSC (the sequences read it), the channel
 * discards (overwriting writers push the consumer with a CAS), this build
 * runs them, and the consumer, which inherits this daemon's affinity, may
 * run on every CPU (it flushes a CPU's buffer from that CPU). Otherwise
 * atomic: any writer, any CPU.
 */
static enum rb_sync channel_sync(const struct reg_session *s, const struct reg_channel *rc)
{
	cpu_set_t set;
	long n = sysconf(_SC_NPROCESSORS_CONF);

	if (s->clock.kind != CTF_CLOCK_TSC || rc->attr.overwrite || !rb_rseq_usable() ||
	    n < 1 || n > CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set) < 0)
		return RB_SYNC_ATOMIC;
	for (long cpu = 0; cpu < n; cpu++)
		if (!CPU_ISSET(cpu, &set))
			return RB_SYNC_ATOMIC;
	return RB_SYNC_RSEQ;
}

static int add_channel(struct ust_session *u, struct consumer *c, const struct reg_session *s,
		       size_t reg_index, uint32_t stream_id, const char **detail)
{
	const struct reg_channel *rc = &s->channels[reg_index];
	struct ust_channel *uc = &u->channels[u->n_channels];
	struct proto_builder b;
	char name[REG_NAME_MAX + 32];
	int fds[2], r;

	snprintf(name, sizeof(name), "ltt-%s", rc->name);
	struct rb_config cfg = {
		.subbuf_size = rc->attr.subbuf_size,
		.num_subbufs = rc->attr.num_subbuf,
		.hdr_area_size = CTF_RB_HDR_AREA_SIZE,
		.mode = rc->attr.overwrite ? RB_MODE_OVERWRITE : RB_MODE_DISCARD,
		.clock = s->clock.kind == CTF_CLOCK_TSC ? RB_CLOCK_TSC : RB_CLOCK_MONOTONIC,
		.sync = channel_sync(s, rc),
		.name = name,
		.client = &ctf_rb_client_large,
	};
	*uc = (struct ust_channel){ .key = consumer_new_key(), .reg_index = reg_index,
				    .stream_id = stream_id, .wakeup_fd = -1 };
	if (slot_alloc(&uc->slot) < 0) {
		*detail = "64 user channels are traced already";
		return -ENOSPC;
	}
	r = rb_channel_create(&cfg, &uc->rb);
	if (r < 0) {
		slots_used &= ~(UINT64_C(1) << uc->slot);
		*detail = "cannot create the channel's shared memory";
		return r;
	}
	uc->wakeup_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (uc->wakeup_fd < 0) {
		r = -errno;
		slots_used &= ~(UINT64_C(1) << uc->slot);
		rb_channel_free(uc->rb);
		return r;
	}
	rb_channel_set_wakeup_fd(uc->rb, uc->wakeup_fd);
	u->n_channels++;	/* from here ust_session_free() releases it */
	consumer_begin(c, &b, CONS_ADD_CHANNEL);
	proto_put_u64(&b, CONS_A_KEY, uc->key);
	proto_put_str(&b, CONS_A_DIR, u->dir);
	proto_put_str(&b, CONS_A_CHANNEL, rc->name);
	proto_put_u64(&b, CONS_A_STREAM_ID, stream_id);
	proto_put_bytes(&b, CONS_A_UUID, u->uuid, 16);
	proto_put_u64(&b, CONS_A_SWITCH_TIMER, rc->attr.switch_timer_us);
	proto_put_u64(&b, CONS_A_READ_TIMER, rc->attr.read_timer_us);
	if (s->snapshot)
		proto_put_u64(&b, CONS_A_SNAPSHOT, 1);
	if (rc->attr.tracefile_size) {
		proto_put_u64(&b, CONS_A_TRACEFILE_SIZE, rc->attr.tracefile_size);
		proto_put_u64(&b, CONS_A_TRACEFILE_COUNT, rc->attr.tracefile_count);
	}
	fds[0] = rb_channel_fd(uc->rb);
	fds[1] = uc->wakeup_fd;
	return consumer_request(c, &b, fds, 2, detail);
}

static void set_free(struct ust_session *u, struct consumer *c);

/*
 * Creates the buffer set of scheme pid (0: per-UID) for session s: its
 * directory, trace class and channels, handed to the consumer; appended to
 * s->ust. No channel of that scheme: nothing. 0 or a negative errno.
 */
static int set_create(struct reg_session *s, struct consumer *c, pid_t pid, const char *procname,
		      const char **detail)
{
	struct ust_session *u, **grown;
	uint32_t stream_id = 0;
	char stamp[32];
	size_t n = 0;
	time_t now = time(NULL);
	struct tm tm;
	int r;

	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->pid = pid;
	for (size_t i = 0; i < s->n_channels; i++)
		n += in_set(&s->channels[i], u);
	if (n == 0) {
		free(u);
		return 0;
	}
	grown = realloc(s->ust, (s->n_ust + 1) * sizeof(*grown));
	if (!grown || !(u->channels = calloc(n, sizeof(*u->channels)))) {
		if (grown)
			s->ust = grown;
		free(u);
		return -ENOMEM;
	}
	s->ust = grown;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	if ((pid ? snprintf(u->rel, sizeof(u->rel), "ust/pid/%s-%d-%s", procname, (int)pid, stamp)
		 : snprintf(u->rel, sizeof(u->rel), "ust/uid/%u/64-bit", (unsigned)geteuid())) >=
		    (int)sizeof(u->rel) ||
	    snprintf(u->dir, sizeof(u->dir), "%s/%s", s->chunk.dir, u->rel) >= (int)sizeof(u->dir))
		r = -ENAMETOOLONG;
	else if (s->snapshot)
		r = 0;	/* snapshots write their own directories */
	else if ((r = mkdir_p(u->dir, 0750)) < 0)
		*detail = "cannot create the trace directory";
	if (r == 0) {
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S%z", &tm);
		r = make_trace(s, u, procname, stamp, detail);
	}
	if (r == 0 && !s->snapshot)
		r = send_metadata(u, c, u->dir, detail);
	for (size_t i = 0; r == 0 && i < s->n_channels; i++)
		if (in_set(&s->channels[i], u))
			r = add_channel(u, c, s, i, stream_id++, detail);
	if (r < 0) {
		set_free(u, c);
		return r;
	}
	s->ust[s->n_ust++] = u;
	return 0;
}

/* Whether the session records anything: an output, or snapshots in memory. */
static bool records(const struct reg_session *s)
{
	return s->output[0] || s->snapshot;
}

static int request_all(struct reg_session *s, struct consumer *c, enum cons_msg_type type,
		       const char **detail);

int ust_session_start(struct reg_session *s, struct consumer *c, const char **detail)
{
	int r;

	if (!records(s))
		return 0;
	/* started before: the consumer's timers run again */
	if ((r = request_all(s, c, CONS_START, detail)) < 0)
		return r;
	for (size_t k = 0; k < s->n_ust; k++)
		if (s->ust[k]->pid == 0)
			return 0;
	return set_create(s, c, 0, NULL, detail);
}

int ust_session_snapshot(struct reg_session *s, struct consumer *c, const char *dir,
			 uint64_t max_packets, const char **detail)
{
	char path[PATH_MAX];
	int r = 0;

	for (size_t k = 0; r == 0 && k < s->n_ust; k++) {
		struct ust_session *u = s->ust[k];

		if (snprintf(path, sizeof(path), "%s/%s", dir, u->rel) >= (int)sizeof(path))
			return -ENAMETOOLONG;
		if ((r = mkdir_p(path, 0750)) < 0) {
			*detail = "cannot create the snapshot's directory";
			break;
		}
		r = send_metadata(u, c, path, detail);
		for (size_t i = 0; r == 0 && i < u->n_channels; i++) {
			struct proto_builder b;

			consumer_begin(c, &b, CONS_SNAPSHOT);
			proto_put_u64(&b, CONS_A_KEY, u->channels[i].key);
			proto_put_str(&b, CONS_A_DIR, path);
			if (max_packets)
				proto_put_u64(&b, CONS_A_MAX_PACKETS, max_packets);
			r = consumer_request(c, &b, NULL, 0, detail);
		}
	}
	return r;
}

uint64_t ust_session_snapshot_size(const struct reg_session *s, uint64_t packets)
{
	uint64_t total = 0;

	for (size_t k = 0; k < s->n_ust; k++)
		for (size_t i = 0; i < s->ust[k]->n_channels; i++) {
			const struct rb_geometry *g = &s->ust[k]->channels[i].rb->g;
			uint64_t n = packets < g->num_subbufs ? packets : g->num_subbufs;

			total += (n * g->subbuf_size + g->hdr_area_size) * g->nr_cpus;
		}
	return total;
}

int ust_session_rotate(struct reg_session *s, struct consumer *c, const char *dir,
		       const char **detail)
{
	int r = 0;

	for (size_t k = 0; k < s->n_ust && r == 0; k++) {
		struct ust_session *u = s->ust[k];

		/* each chunk is a trace of its own, read alone or with the others */
		if ((r = new_uuid(u)) < 0 || (r = ctf_trace_set_uuid(u->trace, u->uuid)) < 0)
			break;
		if (dir) {
			if (snprintf(u->dir, sizeof(u->dir), "%s/%s", dir, u->rel) >=
			    (int)sizeof(u->dir))
				return -ENAMETOOLONG;
			if ((r = mkdir_p(u->dir, 0750)) < 0) {
				*detail = "cannot create the next chunk's directory";
				break;
			}
			r = send_metadata(u, c, u->dir, detail);
		}
		for (size_t i = 0; r == 0 && i < u->n_channels; i++) {
			struct proto_builder b;

			consumer_begin(c, &b, CONS_ROTATE);
			proto_put_u64(&b, CONS_A_KEY, u->channels[i].key);
			proto_put_bytes(&b, CONS_A_UUID, u->uuid, 16);
			if (dir)
				proto_put_str(&b, CONS_A_DIR, u->dir);
			r = consumer_request(c, &b, NULL, 0, detail);
		}
	}
	return r;
}

int ust_session_add_app(struct reg_session *s, struct consumer *c, pid_t pid,
			const char *procname, const char **detail)
{
	if (!records(s))
		return 0;
	for (size_t i = 0; i < s->n_ust; i++)
		if (s->ust[i]->pid == pid)
			return 0;
	return set_create(s, c, pid, procname, detail);
}

static int channel_request(struct consumer *c, enum cons_msg_type type, uint64_t key,
			   const char **detail)
{
	struct proto_builder b;

	consumer_begin(c, &b, type);
	proto_put_u64(&b, CONS_A_KEY, key);
	return consumer_request(c, &b, NULL, 0, detail);
}

/* Sends request `type` for every channel of every buffer set, until one fails. */
static int request_all(struct reg_session *s, struct consumer *c, enum cons_msg_type type,
		       const char **detail)
{
	int r = 0;

	for (size_t k = 0; k < s->n_ust && r == 0; k++)
		for (size_t i = 0; i < s->ust[k]->n_channels && r == 0; i++)
			r = channel_request(c, type, s->ust[k]->channels[i].key, detail);
	return r;
}

int ust_session_flush(struct reg_session *s, struct consumer *c, const char **detail)
{
	return request_all(s, c, CONS_FLUSH, detail);
}

int ust_session_clear(struct reg_session *s, struct consumer *c, const char **detail)
{
	return request_all(s, c, CONS_CLEAR, detail);
}

int ust_session_regenerate_metadata(struct reg_session *s, struct consumer *c,
				    const char **detail)
{
	struct ctf_clock_info now;
	int r;

	/* the wall time resampled (its offset), the clock itself kept */
	if ((r = ctf_clock_describe(s->clock.kind, &now)) < 0)
		return r;
	s->clock = now;
	for (size_t k = 0; k < s->n_ust && r == 0; k++) {
		struct ust_session *u = s->ust[k];

		r = ctf_trace_set_clock_offset(u->trace, ctf_clock_kind_name(now.kind),
					       now.offset_s, now.offset);
		if (r == 0 && !s->snapshot && s->chunk.open)
			r = send_metadata(u, c, u->dir, detail);
	}
	return r;
}

int ust_session_written(struct reg_session *s, struct consumer *c, uint64_t *ret,
			const char **detail)
{
	uint64_t total = 0;
	int r = 0;

	for (size_t k = 0; k < s->n_ust && r == 0; k++)
		for (size_t i = 0; i < s->ust[k]->n_channels && r == 0; i++) {
			struct proto_builder b;
			uint64_t bytes;

			struct proto_msg reply;

			consumer_begin(c, &b, CONS_STATS);
			proto_put_u64(&b, CONS_A_KEY, s->ust[k]->channels[i].key);
			r = consumer_call(c, &b, NULL, 0, &reply, detail);
			if (r < 0)
				break;
			if (proto_get_u64(&reply.attrs, CONS_A_BYTES, &bytes) < 0)
				r = -EPROTO;
			else
				total += bytes;
			proto_msg_free(&reply);
		}
	if (r == 0)
		*ret = total;
	return r;
}

/* Releases a buffer set: the consumer writes what it holds and closes its files. */
static void set_free(struct ust_session *u, struct consumer *c)
{
	const char *detail;

	for (size_t i = 0; i < u->n_channels; i++) {
		struct ust_channel *uc = &u->channels[i];

		if (c)
			channel_request(c, CONS_DEL_CHANNEL, uc->key, &detail);
		rb_channel_free(uc->rb);
		if (uc->wakeup_fd >= 0)
			close(uc->wakeup_fd);
		slots_used &= ~(UINT64_C(1) << uc->slot);
		for (size_t k = 0; k < uc->n_events; k++) {
			free(uc->events[k].name);
			free(uc->events[k].sig);
		}
		free(uc->events);
	}
	free(u->channels);
	ctf_trace_free(u->trace);
	free(u);
}

void ust_session_remove_app(struct reg_session *s, struct consumer *c, pid_t pid)
{
	for (size_t i = 0; i < s->n_ust; i++)
		if (s->ust[i]->pid == pid && pid != 0) {
			set_free(s->ust[i], c);
			s->ust[i] = s->ust[--s->n_ust];
			return;
		}
}

void ust_session_free(struct reg_session *s, struct consumer *c)
{
	for (size_t i = 0; i < s->n_ust; i++)
		set_free(s->ust[i], c);
	free(s->ust);
	s->ust = NULL;
	s->n_ust = 0;
}

size_t ust_session_channel_count(const struct reg_session *s)
{
	size_t n = 0;

	for (size_t k = 0; k < s->n_ust; k++)
		n += s->ust[k]->n_channels;
	return n;
}

/* Channel i of all the sets, in order; its set in *ret_set. */
static struct ust_channel *nth_channel(const struct reg_session *s, size_t i,
				       struct ust_session **ret_set)
{
	for (size_t k = 0; k < s->n_ust; k++) {
		if (i < s->ust[k]->n_channels) {
			*ret_set = s->ust[k];
			return &s->ust[k]->channels[i];
		}
		i -= s->ust[k]->n_channels;
	}
	return NULL;
}

void ust_session_channel(const struct reg_session *s, size_t i, struct ust_channel_info *ret)
{
	struct ust_session *u = NULL;
	const struct ust_channel *uc = nth_channel(s, i, &u);

	*ret = (struct ust_channel_info){
		.slot = uc->slot,
		.key = uc->key,
		.pid = u->pid,
		.shm_fd = rb_channel_fd(uc->rb),
		.wakeup_fd = uc->wakeup_fd,
		.channel = &s->channels[uc->reg_index],
	};
}

struct reg_session *ust_session_by_slot(const struct registry *reg, unsigned slot,
					size_t *ret_index)
{
	for (size_t i = 0; i < reg->n_sessions; i++) {
		struct reg_session *s = reg->sessions[i];
		struct ust_session *u = NULL;

		for (size_t k = 0; k < ust_session_channel_count(s); k++)
			if (nth_channel(s, k, &u)->slot == slot) {
				*ret_index = k;
				return s;
			}
	}
	return NULL;
}

int ust_session_event_id(struct reg_session *s, size_t index, const struct ust_event_desc *ev,
			 struct consumer *c, uint32_t *ret_id, const char **detail)
{
	struct ust_session *u = NULL;
	struct ust_channel *uc = nth_channel(s, index, &u);
	struct ust_event_class *grown, *ec;
	struct ctf_error err;
	int r;

	if (!uc)
		return -ENOENT;

	for (size_t k = 0; k < uc->n_events; k++) {
		ec = &uc->events[k];
		if (!strcmp(ec->name, ev->name) && ec->sig_len == ev->sig_len &&
		    !memcmp(ec->sig, ev->sig, ev->sig_len)) {
			*ret_id = ec->id;
			return 0;
		}
	}
	if (uc->n_events >= CTF_LARGE_ID_MAX) {
		*detail = "too many event classes in the channel";
		return -ENOSPC;
	}
	grown = realloc(uc->events, (uc->n_events + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	uc->events = grown;
	ec = &grown[uc->n_events];
	*ec = (struct ust_event_class){ .id = (uint32_t)uc->n_events };
	ec->name = strdup(ev->name);
	ec->sig = malloc(ev->sig_len ? ev->sig_len : 1);
	if (!ec->name || !ec->sig) {
		free(ec->name);
		free(ec->sig);
		return -ENOMEM;
	}
	memcpy(ec->sig, ev->sig, ev->sig_len);
	ec->sig_len = ev->sig_len;
	struct ctf_event_class_desc d = {
		.name = ev->name,
		.id = ec->id,
		.stream_id = uc->stream_id,
		.has_loglevel = true,
		.loglevel = ev->loglevel,
		.emf_uri = ev->emf_uri,
	};
	/* the payload type is consumed (freed on failure) */
	r = ctf_trace_add_event_class(u->trace, &d, ev->payload, &err, NULL);
	if (r == 0 && !s->snapshot)
		r = send_metadata(u, c, u->dir, detail);
	if (r < 0) {
		static char text[300];	/* the daemon is single-threaded */

		snprintf(text, sizeof(text), "event '%s': %s", ev->name, err.msg);
		*detail = text;
		free(ec->name);
		free(ec->sig);
		return r;
	}
	uc->n_events++;
	*ret_id = ec->id;
	return 0;
}
