/*
 * ltt-consumerd - drains the ring buffers of a session daemon's channels
 * into CTF trace files. Started by ltt-sessiond with its control socket as
 * standard input (see proto/consumer-protocol.h); exits, after writing what
 * the buffers hold, when that socket closes.
 *
 * One thread. It sleeps in poll() on the control socket, on each user
 * channel's wake-up eventfd (which writers signal only after
 * rb_consumer_prepare_sleep() said the consumer sleeps) and on each kernel
 * channel's per-CPU trace_pipe_raw (readable when the kernel buffer is
 * buffer_percent full), waking at least every read period to run the
 * channels' timers: the switch timer (close quiet sub-buffers so that
 * packets keep coming), the detection of sub-buffers a dead writer left
 * incomplete (skipped and counted after STUCK_NS), the kernel channels'
 * read timer. User channels are drained here (stream.c), kernel channels in
 * kernel-channel.c.
 *
 * When the session daemon is gone (its socket closes), the consumer writes
 * out what every buffer holds and, if the daemon died without removing its
 * tracefs instances, removes them (kt_instance_cleanup_stale: instances of
 * dead daemons only), so that a crash leaves tracefs as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctf/ctf-rb-client.h"
#include "kernel-channel.h"
#include "kernel/kernel.h"
#include "log.h"
#include "ltt-config.h"
#include "proto/consumer-protocol.h"
#include "channel.h"
#include "util/fs.h"

#define MAX_CHANNELS 256
#define DEFAULT_READ_NS (200 * 1000000ull)
#define STUCK_NS (1000 * 1000000ull)
#define FLUSH_WAIT_NS (1000 * 1000000ull)

static struct channel *channels[MAX_CHANNELS];
static unsigned n_channels;
static struct kernel_channel *kchannels[MAX_CHANNELS];
static unsigned n_kchannels;

#define MAX_KERNEL_FDS 1024

static uint64_t now_ns(void)
{
	return rb_clock_monotonic();
}

static void channel_free(struct channel *c)
{
	if (!c)
		return;
	for (unsigned i = 0; c->streams && i < c->ncpu; i++)
		cons_stream_free(c->streams[i]);
	free(c->streams);
	rotation_channel_fini(c);
	rb_channel_free(c->chan);
	if (c->wakeup_fd >= 0)
		close(c->wakeup_fd);
	free(c);
}

static struct channel *find(uint64_t key, unsigned *ret_index)
{
	for (unsigned i = 0; i < n_channels; i++)
		if (channels[i]->key == key) {
			if (ret_index)
				*ret_index = i;
			return channels[i];
		}
	return NULL;
}

static struct kernel_channel *find_kernel(uint64_t key, unsigned *ret_index)
{
	for (unsigned i = 0; i < n_kchannels; i++)
		if (kernel_channel_key(kchannels[i]) == key) {
			if (ret_index)
				*ret_index = i;
			return kchannels[i];
		}
	return NULL;
}

static int add_kernel_channel(const struct proto_msg *m, const char **detail)
{
	struct kernel_channel *k;
	uint64_t key;
	int r;

	if (proto_get_u64(&m->attrs, CONS_A_KEY, &key) < 0) {
		*detail = "malformed ADD_KERNEL_CHANNEL";
		return -EBADMSG;
	}
	if (find(key, NULL) || find_kernel(key, NULL))
		return -EEXIST;
	if (n_kchannels == MAX_CHANNELS)
		return -ENOSPC;
	r = kernel_channel_create(m, &k, detail);
	if (r < 0)
		return r;
	kchannels[n_kchannels++] = k;
	return 0;
}

/* The requests on a kernel channel; -ENOENT if key is none. */
static int handle_kernel(const struct proto_msg *m, uint64_t key, struct proto_builder *reply,
			 const char **detail)
{
	unsigned index;
	struct kernel_channel *k = find_kernel(key, &index);

	if (!k)
		return -ENOENT;
	switch (m->hdr.type) {
	case CONS_KERNEL_START:
		return kernel_channel_start(k, &m->attrs, detail);
	case CONS_KERNEL_FILTERS:
		return kernel_channel_set_filters(k, &m->attrs, detail);
	case CONS_ROTATE: {
		const char *dir = NULL;

		if (proto_get_str(&m->attrs, CONS_A_DIR, &dir) == -EBADMSG || (dir && dir[0] != '/'))
			return -EBADMSG;
		return kernel_channel_rotate(k, dir, detail);
	}
	case CONS_CLEAR:
		return kernel_channel_clear(k, detail);
	case CONS_KERNEL_CLOCK:
		return kernel_channel_set_clock(k, &m->attrs, detail);
	case CONS_FLUSH:
		return kernel_channel_flush(k, detail);
	case CONS_STATS:
		kernel_channel_stats(k, reply);
		return 0;
	case CONS_DEL_CHANNEL:
		kernel_channel_free(k);
		kchannels[index] = kchannels[--n_kchannels];
		return 0;
	default:
		*detail = "not a request for a kernel channel";
		return -EINVAL;
	}
}

int cons_channel_drain(struct channel *c)
{
	int total = 0;

	for (unsigned cpu = 0; cpu < c->ncpu; cpu++) {
		int r = cons_stream_drain(c->streams[cpu], c->chan);

		if (r < 0) {
			cons_log("channel %llu, CPU %u: cannot write a packet: %s",
				(unsigned long long)c->key, cpu, strerror(-r));
			return r;
		}
		total += r;
	}
	return total;
}

int cons_channel_settle(struct channel *c, unsigned flags, int (*consume)(struct channel *c))
{
	uint64_t deadline = now_ns() + FLUSH_WAIT_NS;
	int r;

	for (unsigned cpu = 0; cpu < c->ncpu; cpu++) {
		/* rseq channels: this thread moves to CPU cpu for it (ringbuf.h) */
		r = rb_flush(c->chan, cpu, flags);
		if (r < 0 && r != -ENOBUFS)
			cons_log("channel %llu, CPU %u: cannot close the open sub-buffer: %s",
				(unsigned long long)c->key, cpu, strerror(-r));
	}
	for (;;) {
		bool pending = false;

		if ((r = consume(c)) < 0)
			return r;
		for (unsigned cpu = 0; cpu < c->ncpu && !pending; cpu++) {
			struct rb_stats st;

			rb_buffer_stats(c->chan, cpu, &st);
			pending = st.consumed != st.write_pos &&
				  (st.write_pos & (c->chan->g.subbuf_size - 1)) == 0;
		}
		if (!pending || now_ns() > deadline)
			return 0;
		sched_yield();
	}
}

static int add_channel(const struct proto_msg *m, const char **detail)
{
	uint64_t key, stream_id, sw = 0, rd = 0, snapshot = 0, tf_count = 0;
	struct tracefile_limits limits = { 0 };
	const char *dir, *name;
	const void *uuid;
	size_t uuid_len;
	struct channel *c;
	int r;

	if (proto_get_u64(&m->attrs, CONS_A_KEY, &key) < 0 ||
	    proto_get_str(&m->attrs, CONS_A_DIR, &dir) < 0 ||
	    proto_get_str(&m->attrs, CONS_A_CHANNEL, &name) < 0 ||
	    proto_get_u64(&m->attrs, CONS_A_STREAM_ID, &stream_id) < 0 ||
	    proto_get_bytes(&m->attrs, CONS_A_UUID, &uuid, &uuid_len) < 0 || uuid_len != 16 ||
	    proto_get_u64(&m->attrs, CONS_A_SWITCH_TIMER, &sw) == -EBADMSG ||
	    proto_get_u64(&m->attrs, CONS_A_READ_TIMER, &rd) == -EBADMSG || m->n_fds != 2 ||
	    proto_get_u64(&m->attrs, CONS_A_SNAPSHOT, &snapshot) == -EBADMSG ||
	    proto_get_u64(&m->attrs, CONS_A_TRACEFILE_SIZE, &limits.size) == -EBADMSG ||
	    proto_get_u64(&m->attrs, CONS_A_TRACEFILE_COUNT, &tf_count) == -EBADMSG ||
	    tf_count > UINT32_MAX || stream_id > UINT32_MAX || dir[0] != '/' ||
	    strlen(name) >= sizeof(c->name)) {
		*detail = "malformed ADD_CHANNEL";
		return -EBADMSG;
	}
	if (find(key, NULL))
		return -EEXIST;
	if (n_channels == MAX_CHANNELS)
		return -ENOSPC;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->key = key;
	c->wakeup_fd = -1;
	c->snapshot = snapshot;
	c->stream_id = (uint32_t)stream_id;
	memcpy(c->uuid, uuid, 16);
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->switch_ns = sw * 1000;
	c->read_ns = rd ? rd * 1000 : DEFAULT_READ_NS;
	r = rb_channel_map(m->fds[0], &ctf_rb_client_large, &c->chan);
	if (r < 0) {
		*detail = "cannot map the channel's shared memory";
		goto err;
	}
	c->ncpu = c->chan->g.nr_cpus;
	c->streams = calloc(c->ncpu, sizeof(*c->streams));
	if (!c->streams || rotation_channel_init(c) < 0) {
		r = -ENOMEM;
		goto err;
	}
	limits.count = (uint32_t)tf_count;
	for (unsigned cpu = 0; cpu < c->ncpu && !snapshot; cpu++) {
		r = cons_stream_create(dir, name, cpu, (uint32_t)stream_id, uuid, &limits,
				       &c->streams[cpu]);
		if (r < 0) {
			*detail = "cannot create the stream files";
			goto err;
		}
	}
	c->wakeup_fd = m->fds[1];
	((struct proto_msg *)m)->fds[1] = -1;	/* taken */
	channels[n_channels++] = c;
	return 0;
err:
	channel_free(c);
	return r;
}

/* Writes DIR/metadata (whole, through a temporary name). */
static int write_metadata(const struct proto_msg *m, const char **detail)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	const char *dir;
	const void *text;
	size_t len;
	int fd, r = 0;

	if (proto_get_str(&m->attrs, CONS_A_DIR, &dir) < 0 || dir[0] != '/' ||
	    proto_get_bytes(&m->attrs, CONS_A_TEXT, &text, &len) < 0) {
		*detail = "malformed METADATA";
		return -EBADMSG;
	}
	if (snprintf(path, sizeof(path), "%s/metadata", dir) >= (int)sizeof(path) ||
	    snprintf(tmp, sizeof(tmp), "%s/.metadata.tmp", dir) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (fd < 0)
		return -errno;
	r = write_all(fd, text, len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

static void handle(int sock, struct proto_msg *m)
{
	struct proto_builder reply;
	const char *detail = NULL;
	struct channel *c = NULL;
	uint64_t key = 0;
	unsigned index = 0;
	int r;

	proto_builder_init(&reply, CONS_REPLY, m->hdr.seq);
	if (m->hdr.type == CONS_FLUSH || m->hdr.type == CONS_DEL_CHANNEL ||
	    m->hdr.type == CONS_STATS || m->hdr.type == CONS_SNAPSHOT ||
	    m->hdr.type == CONS_ROTATE || m->hdr.type == CONS_CLEAR || m->hdr.type == CONS_START ||
	    m->hdr.type == CONS_KERNEL_START || m->hdr.type == CONS_KERNEL_FILTERS ||
	    m->hdr.type == CONS_KERNEL_CLOCK) {
		if (proto_get_u64(&m->attrs, CONS_A_KEY, &key) < 0) {
			r = -EBADMSG;
			goto out;
		}
		if (!(c = find(key, &index))) {
			r = handle_kernel(m, key, &reply, &detail);
			goto out;
		}
	}
	switch (m->hdr.type) {
	case CONS_ADD_KERNEL_CHANNEL:
		r = add_kernel_channel(m, &detail);
		break;
	case CONS_ADD_CHANNEL:
		r = add_channel(m, &detail);
		break;
	case CONS_METADATA:
		r = write_metadata(m, &detail);
		break;
	case CONS_FLUSH:
		r = c->snapshot ? 0 : cons_channel_settle(c, RB_FLUSH_EMPTY, cons_channel_drain);
		c->stopped = true;
		break;
	case CONS_START:
		c->stopped = false;
		r = 0;
		break;
	case CONS_SNAPSHOT: {
		const char *dir;
		uint64_t max = 0;

		r = proto_get_str(&m->attrs, CONS_A_DIR, &dir) == 0 && dir[0] == '/' &&
				    proto_get_u64(&m->attrs, CONS_A_MAX_PACKETS, &max) != -EBADMSG
			    ? rotation_snapshot(c, dir, max, &reply, &detail) : -EBADMSG;
		break;
	}
	case CONS_ROTATE: {
		const char *dir = NULL;
		const void *uuid;
		size_t len;

		r = (proto_get_str(&m->attrs, CONS_A_DIR, &dir) == -ENOENT || dir[0] == '/') &&
				    proto_get_bytes(&m->attrs, CONS_A_UUID, &uuid, &len) == 0 &&
				    len == 16
			    ? rotation_rotate(c, dir, uuid, &detail) : -EBADMSG;
		break;
	}
	case CONS_CLEAR:
		r = rotation_clear(c, &detail);
		break;
	case CONS_DEL_CHANNEL:
		r = c->snapshot ? 0 : cons_channel_settle(c, 0, cons_channel_drain);
		channel_free(c);
		channels[index] = channels[--n_channels];
		break;
	case CONS_STATS: {
		struct cons_stream_stats st;
		uint64_t packets = 0, bytes = 0;

		for (unsigned cpu = 0; cpu < c->ncpu && c->streams[cpu]; cpu++) {
			cons_stream_get_stats(c->streams[cpu], &st);
			packets += st.packets;
			bytes += st.bytes;
		}
		proto_put_u64(&reply, CONS_A_PACKETS, packets);
		proto_put_u64(&reply, CONS_A_BYTES, bytes);
		r = 0;
		break;
	}
	default:
		r = -EBADMSG;
		detail = "unknown request";
	}
out:
	proto_put_i64(&reply, CONS_A_STATUS, r);
	if (detail)
		proto_put_str(&reply, CONS_A_DETAIL, detail);
	if (proto_send(sock, &reply, NULL, 0, 5000) < 0)
		cons_log("cannot answer the session daemon");
	proto_builder_free(&reply);
}

/*
 * Runs timers and drains every channel (the kernel channels whose
 * descriptors in fds[0..n) polled readable too); returns the poll timeout
 * in ms.
 */
static int service(const struct pollfd *kfds, const unsigned *kfd_channel, unsigned nkfds)
{
	uint64_t now = now_ns(), period = DEFAULT_READ_NS;
	bool busy = false;

	for (unsigned i = 0; i < n_kchannels; i++) {
		bool readable = false;
		uint64_t next;

		for (unsigned f = 0; f < nkfds; f++)
			readable |= kfd_channel[f] == i && (kfds[f].revents & POLLIN);
		next = kernel_channel_service(kchannels[i], now, readable);
		if (next <= now)
			busy = true;
		else if (next - now < period)
			period = next - now;
	}

	for (unsigned i = 0; i < n_channels; i++) {
		struct channel *c = channels[i];

		if (c->snapshot)
			continue;	/* the buffers keep the newest data until a snapshot */
		/* a stopped session's packets are all out: no more (empty) ones */
		rb_consumer_tick(c->chan, now, c->stopped ? 0 : c->switch_ns, STUCK_NS);
		cons_channel_drain(c);
		if (c->read_ns < period)
			period = c->read_ns;
		if (c->switch_ns && !c->stopped && c->switch_ns < period)
			period = c->switch_ns;
		/* announce the sleep; a delivery meanwhile means: do not sleep */
		if (rb_consumer_prepare_sleep(c->chan) == 1)
			busy = true;
	}
	return busy ? 0 : (int)((period + 999999) / 1000000);
}

int main(int argc, char **argv)
{
	struct pollfd fds[1 + MAX_CHANNELS + MAX_KERNEL_FDS];
	unsigned kfd_channel[MAX_KERNEL_FDS], nkfds = 0, kfd_first = 0;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: ltt-consumerd\n\nStarted by ltt-sessiond (its control socket on "
		       "standard input); not run by hand.\n");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("ltt-consumerd %s\n", LTT_VERSION);
		return 0;
	}
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		/* the kernel descriptors of the last poll, if the channels are the same */
		int timeout = service(fds + kfd_first, kfd_channel, nkfds);
		unsigned n = 1;

		fds[0] = (struct pollfd){ .fd = 0, .events = POLLIN };
		for (unsigned i = 0; i < n_channels; i++)
			fds[n++] = (struct pollfd){ .fd = channels[i]->wakeup_fd, .events = POLLIN };
		kfd_first = n;
		nkfds = 0;
		for (unsigned i = 0; i < n_kchannels; i++) {
			unsigned got = kernel_channel_pollfds(kchannels[i], fds + n + nkfds,
							      MAX_KERNEL_FDS - nkfds);

			for (unsigned f = 0; f < got; f++)
				kfd_channel[nkfds + f] = i;
			nkfds += got;
		}
		n += nkfds;
		if (poll(fds, n, timeout) < 0 && errno != EINTR)
			break;
		for (unsigned i = 1; i < kfd_first; i++)
			if (fds[i].revents & POLLIN) {
				uint64_t v;

				if (read(fds[i].fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
					cons_log("wake-up eventfd: %s", strerror(errno));
			}
		for (unsigned i = 0; i < n_channels; i++)
			rb_consumer_woken(channels[i]->chan);
		if (fds[0].revents & (POLLIN | POLLHUP)) {
			struct proto_msg m;
			int r = proto_recv(0, &m, 5000);

			if (r < 0)
				break;	/* the session daemon is gone (or broke the protocol) */
			handle(0, &m);
			proto_msg_free(&m);
			nkfds = 0;	/* kernel channels may have come or gone */
		}
	}
	/* write out what the buffers hold before leaving */
	while (n_channels) {
		if (!channels[n_channels - 1]->snapshot)
			cons_channel_settle(channels[n_channels - 1], 0, cons_channel_drain);
		channel_free(channels[--n_channels]);
	}
	if (n_kchannels) {
		/* the daemon died with its instances: remove them, now unmapped */
		while (n_kchannels)
			kernel_channel_free(kchannels[--n_kchannels]);
		if (kt_instance_cleanup_stale(NULL, NULL) < 0)
			cons_log("could not remove the tracefs instances of the session daemon");
	}
	return 0;
}
