/*
 * trace.c - opening trace directories, walking the packets of stream files
 * (read, not mapped), and merging every stream into one time-ordered sequence.
 *
 * Model (as babeltrace2's src.ctf.fs + muxer): a directory holding a
 * `metadata` file is a trace; its other regular files are data stream files;
 * files of one stream class and stream_instance_id are one stream, read in
 * the order of their first packet's timestamp. Each stream holds its next
 * record decoded (event, or a discarded-events/packets notice); a binary heap
 * over streams gives the oldest, ties broken in babeltrace2's muxer order.
 *
 * Memory: per stream, the value buffers of one packet and of each event
 * class, and two buffers: the packet's header and context, and a window of
 * RD_READ_WINDOW bytes of its events, both read with pread(2) (files are not
 * mapped: mapping pages and dropping them again cost more than copying them,
 * and copied bytes are in the cache when the decoder reads them). The
 * resident size grows neither with the trace nor with its packets; only an
 * event larger than the window grows it, to that event's size.
 */
#include "reader-internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/macros.h"

#define CTF_MAGIC 0xC1FC1FC1u
#define RD_READ_WINDOW (256u << 10)	/* bytes of a packet read ahead of the decoder */
#define RD_WINDOW_ALIGN 4096u		/* windows start this many bytes apart in a packet:
					 * a multiple of any alignment (bits from the packet) */
#define RD_WINDOW_MARGIN (16u << 10)	/* an event starting this close to the window's end
					 * is read again at the start of the next one */
#define RD_HEAD_BYTES 4096u		/* first guess at a packet's header and context */

struct rd_trace {
	char *path;		/* absolute */
	char *name;		/* babeltrace2's trace name */
	struct rd_meta *meta;
	uint64_t next_stream_id;
};

struct rd_file {
	char *path;
	const uint8_t *map;	/* rd_reader_open_mem(): the caller's bytes; else NULL (read) */
	size_t size;
	int64_t begin_ns;
	uint64_t begin_raw;
	bool has_begin;
};

/* What a packet's header and context say. */
struct pkt_props {
	struct rd_stream_class *sc;
	uint64_t instance_id;
	bool has_instance_id;
	uint64_t packet_bits, content_bits;
	uint64_t begin_raw, end_raw;
	bool has_begin, has_end;
	uint64_t discarded, seq;
	bool has_discarded, has_seq;
	int64_t cpu;
};

struct ltt_event {
	struct rd_stream *st;
	int kind;		/* enum ltt_record */
	const struct rd_event_class *ec;
	uint64_t cycles;
	/* the time: events keep their clock's cycles, converted when asked
	 * (rec_ns()); other records their ns (INT64_MIN: none) */
	const struct rd_clock *clock;	/* events with a time; else NULL */
	int64_t ns;
	bool has_time;
	/* discarded */
	uint64_t count;
	int64_t begin_ns, end_ns;
	bool has_range;
	/* its packet context's root, and the buffer its class's program
	 * decoded its other scopes into (scope_root()) */
	const struct rd_val *packet_context;
	const struct rd_vbuf *body;
};

struct rd_stream {
	struct ltt_reader *r;
	struct rd_trace *trace;
	struct rd_stream_class *sc;
	uint64_t id;
	char *name;
	struct rd_file *files;
	size_t nfiles, cur_file;
	uint64_t off;		/* byte offset of the current packet in the file */
	bool in_packet;
	/* the current file (fd_file: its index), open while the stream reads it
	 * (-1 after giving its descriptor up, see open_file()); fd_used: the
	 * reader's fd_clock at its last read */
	int fd;
	size_t fd_file;
	uint64_t fd_used;
	/* the packet's header and context (their values point there) */
	uint8_t *head;
	size_t head_cap;
	/* the window: the packet's bytes from byte win_from, the decoder's buf
	 * (d.pos and d.end count from it, d.end is the window's end or the
	 * content's); win_size bytes are read at a time (more after an event
	 * that did not fit; win_cap: allocated); at bit refill_at the next
	 * event is near its end (UINT64_MAX: it holds the content's end) */
	uint8_t *win;
	size_t win_cap, win_size;
	uint64_t win_from, refill_at;
	bool done;
	struct pkt_props pp;
	const struct rd_val *packet_context;	/* its root in vb, or NULL */
	struct rd_decoder d;
	uint64_t clock;
	const struct rd_clock *time_clock;	/* its class's clock, or NULL */
	/* the packet's scopes and the event header; then, per event class (by
	 * index), its contexts and payload: each buffer is decoded by one program */
	struct rd_vbuf vb[RD_SC_EVENT_HEADER + 1];
	struct rd_vbuf *class_vb;
	/* snapshots of the previous packet */
	uint64_t prev_discarded, prev_seq, prev_end_raw;
	bool have_prev;
	/* records queued by a packet start */
	struct ltt_event queued[2];
	size_t nqueued, qhead;
	struct ltt_event next;	/* the decoded next record */
	bool has_next;
	size_t major;		/* rank by (trace uuid, trace name, class id, stream id) */
	size_t minor;		/* rank by stream name */
	int64_t cpu;
};

struct ltt_reader {
	struct rd_trace **traces;
	size_t ntraces;
	struct rd_stream **streams;
	size_t nstreams;
	struct rd_stream **heap;
	size_t nheap;
	struct rd_stream *last;	/* whose record was returned last */
	struct ltt_event cur;
	uint64_t fd_clock;	/* counts the streams' reads (rd_stream.fd_used) */
	char errmsg[1024];
	/* rd_reader_open_mem(): the caller's stream buffers instead of files */
	const uint8_t *const *mem_data;
	const size_t *mem_size;
	size_t nmem;
};

static void seterr(struct ltt_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void seterr(struct ltt_reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->errmsg, sizeof(r->errmsg), fmt, ap);
	va_end(ap);
}

const char *ltt_reader_errmsg(const struct ltt_reader *r)
{
	return r->errmsg;
}

size_t ltt_reader_trace_count(const struct ltt_reader *r)
{
	return r->ntraces;
}

size_t ltt_reader_stream_count(const struct ltt_reader *r)
{
	return r->nstreams;
}

/* --- time ---------------------------------------------------------------------- */

static int64_t cycles_to_ns_slow(const struct rd_clock *c, uint64_t v)
{
	uint64_t ns;

	if (c->freq == 1000000000) {
		ns = v;
	} else {
		double d = 1e9 * (double)v / (double)c->freq;

		ns = d >= (double)UINT64_MAX ? UINT64_MAX : (uint64_t)d;
	}
	if (ns >= (uint64_t)INT64_MAX)
		return INT64_MAX;
	if (c->base_ns > 0 && (int64_t)ns > INT64_MAX - c->base_ns)
		return INT64_MAX;
	return c->base_ns + (int64_t)ns;
}

static inline int64_t cycles_to_ns(const struct rd_clock *c, uint64_t v)
{
	/* the common case inline: nanoseconds, a small offset, no overflow */
	if (likely(c->freq == 1000000000 && v < (uint64_t)INT64_MAX / 2 && c->base_ns >= 0 &&
		   c->base_ns < INT64_MAX / 2))
		return c->base_ns + (int64_t)v;
	return cycles_to_ns_slow(c, v);
}

/* A record's time in ns, INT64_MIN if it has none. */
static inline int64_t rec_ns(const struct ltt_event *ev)
{
	return ev->clock ? cycles_to_ns(ev->clock, ev->cycles) : ev->ns;
}

/* --- packets -------------------------------------------------------------------- */

static uint64_t member_u64(const struct rd_vbuf *vb, int64_t root, const char *name, bool *found)
{
	const struct rd_val *s = &vb->v[root];
	int idx = rd_struct_index(s->type, name);
	const struct rd_val *m;

	*found = false;
	if (idx < 0)
		return 0;
	m = s + s->kids.first + idx;
	if (m->type->kind != RD_INT && m->type->kind != RD_ENUM)
		return 0;
	*found = true;
	return m->u;
}

/*
 * Decodes the packet header and context at byte off of a file, `left` bytes
 * before its end, from buf: the first len (<= left) of those bytes; with
 * decoder d (its buffers in vb; d->buf is buf after). Returns 0, -EAGAIN if
 * they do not decode from len < left bytes (more bytes may do), or -EBADMSG
 * with the reason in r->errmsg.
 */
static int read_packet(struct ltt_reader *r, struct rd_trace *tr, const char *path,
		       const uint8_t *buf, uint64_t len, uint64_t left, uint64_t off,
		       struct rd_decoder *d, struct rd_vbuf *vb, uint64_t *clock,
		       struct pkt_props *pp)
{
	struct rd_meta *m = tr->meta;
	uint64_t avail = left * 8;
	bool f;
	uint64_t v;

	memset(pp, 0, sizeof(*pp));
	pp->cpu = -1;
	d->buf = buf;
	d->pos = 0;
	d->end = len * 8;
	d->clock = clock;
	for (int i = 0; i < RD_SC_COUNT; i++) {
		d->scope_buf[i] = NULL;
		d->scope_root[i] = -1;
	}
	if (m->packet_header) {
		int64_t root;

		vb[RD_SC_PACKET_HEADER].n = 0;
		root = rd_decode(d, m->packet_header_prog, &vb[RD_SC_PACKET_HEADER]) < 0 ? -1 :
			d->scope_root[RD_SC_PACKET_HEADER];
		if (root < 0 && len < left)
			return -EAGAIN;
		if (root < 0) {
			seterr(r, "%s: offset %llu: packet header: %s", path,
			       (unsigned long long)off, d->errmsg);
			return -EBADMSG;
		}
		v = member_u64(&vb[RD_SC_PACKET_HEADER], root, "magic", &f);
		if (f && v != CTF_MAGIC) {
			seterr(r, "%s: offset %llu: bad packet magic 0x%llx (expected 0x%x)", path,
			       (unsigned long long)off, (unsigned long long)v, CTF_MAGIC);
			return -EBADMSG;
		}
		if (m->has_uuid) {
			const struct rd_val *s = &vb[RD_SC_PACKET_HEADER].v[root];
			int idx = rd_struct_index(s->type, "uuid");

			if (idx >= 0) {
				const struct rd_val *u = s + s->kids.first + idx;
				uint8_t got[16];
				bool ok = u->type->kind == RD_ARRAY && u->kids.count == 16;

				if (ok) {
					for (int i = 0; i < 16; i++)
						got[i] = (uint8_t)u[u->kids.first + i].u;
				} else if (u->type->kind == RD_ARRAY && u->type->text && u->str.len == 16) {
					memcpy(got, u->str.s, 16);
					ok = true;
				}
				if (ok && memcmp(got, m->uuid, 16) != 0) {
					seterr(r, "%s: offset %llu: packet UUID does not match the trace's",
					       path, (unsigned long long)off);
					return -EBADMSG;
				}
			}
		}
		v = member_u64(&vb[RD_SC_PACKET_HEADER], root, "stream_id", &f);
		pp->sc = f ? rd_meta_stream(m, v) : (m->nstreams == 1 ? m->streams[0] : rd_meta_stream(m, 0));
		if (!pp->sc) {
			seterr(r, "%s: offset %llu: no stream class with id %llu", path,
			       (unsigned long long)off, (unsigned long long)v);
			return -EBADMSG;
		}
		pp->instance_id = member_u64(&vb[RD_SC_PACKET_HEADER], root, "stream_instance_id",
					     &pp->has_instance_id);
	} else {
		pp->sc = m->nstreams == 1 ? m->streams[0] : rd_meta_stream(m, 0);
		if (!pp->sc) {
			seterr(r, "%s: offset %llu: no packet header and no stream class 0", path,
			       (unsigned long long)off);
			return -EBADMSG;
		}
	}
	pp->packet_bits = avail;
	pp->content_bits = avail;
	if (pp->sc->packet_context) {
		int64_t root;
		struct rd_vbuf *pv = &vb[RD_SC_PACKET_CONTEXT];

		pv->n = 0;
		root = rd_decode(d, pp->sc->packet_context_prog, pv) < 0 ? -1 :
			d->scope_root[RD_SC_PACKET_CONTEXT];
		if (root < 0 && len < left)
			return -EAGAIN;
		if (root < 0) {
			seterr(r, "%s: offset %llu: packet context: %s", path,
			       (unsigned long long)off, d->errmsg);
			return -EBADMSG;
		}
		v = member_u64(pv, root, "packet_size", &f);
		if (f)
			pp->packet_bits = v;
		v = member_u64(pv, root, "content_size", &f);
		pp->content_bits = f ? v : pp->packet_bits;
		pp->begin_raw = member_u64(pv, root, "timestamp_begin", &pp->has_begin);
		pp->end_raw = member_u64(pv, root, "timestamp_end", &pp->has_end);
		pp->discarded = member_u64(pv, root, "events_discarded", &pp->has_discarded);
		pp->seq = member_u64(pv, root, "packet_seq_num", &pp->has_seq);
		v = member_u64(pv, root, "cpu_id", &f);
		if (f)
			pp->cpu = (int64_t)v;
	}
	if (pp->packet_bits > avail) {
		seterr(r, "%s: offset %llu: packet size %llu bits goes beyond the end of the file (%llu bits left)",
		       path, (unsigned long long)off, (unsigned long long)pp->packet_bits,
		       (unsigned long long)avail);
		return -EBADMSG;
	}
	if (pp->packet_bits % 8 || pp->packet_bits == 0 || pp->content_bits > pp->packet_bits ||
	    pp->content_bits < d->pos) {
		seterr(r, "%s: offset %llu: bad packet sizes (packet %llu bits, content %llu bits, headers %llu bits)",
		       path, (unsigned long long)off, (unsigned long long)pp->packet_bits,
		       (unsigned long long)pp->content_bits, (unsigned long long)d->pos);
		return -EBADMSG;
	}
	d->end = pp->content_bits;
	return 0;
}

/* The root of scope sc decoded by p into vb, or NULL. */
static inline const struct rd_val *scope_value(const struct rd_vbuf *vb, const struct rd_prog *p,
					       int sc)
{
	return p->root[sc] < 0 ? NULL : &vb->v[p->root[sc]];
}

static void queue_discarded(struct rd_stream *st, int kind, uint64_t count,
			    uint64_t begin_raw, uint64_t end_raw, bool has_range)
{
	struct ltt_event *q = &st->queued[st->nqueued++];
	const struct rd_clock *c = st->sc->clock >= 0 ? &st->trace->meta->clocks[st->sc->clock] : NULL;

	memset(q, 0, sizeof(*q));
	q->st = st;
	q->kind = kind;
	q->count = count;
	q->has_range = has_range && c;
	if (q->has_range) {
		q->begin_ns = cycles_to_ns(c, begin_raw);
		q->end_ns = cycles_to_ns(c, end_raw);
		q->ns = q->begin_ns;
		q->cycles = begin_raw;
		q->has_time = true;
	} else {
		q->ns = INT64_MIN;
	}
}

/* Reads len bytes at off of fd into *buf (grown to len, *cap its size): 0 or -errno. */
static int read_at(int fd, uint8_t **buf, size_t *cap, size_t len, uint64_t off)
{
	size_t got = 0;

	if (len > *cap) {
		uint8_t *g = realloc(*buf, len);

		if (!g)
			return -ENOMEM;
		*buf = g;
		*cap = len;
	}
	while (got < len) {
		ssize_t n = pread(fd, *buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;	/* the file shrank under us */
		got += (size_t)n;
	}
	return 0;
}

/*
 * Decodes the header and context of the packet at byte off of file f (open
 * as fd unless in memory), reading them into *buf (*cap: its size), RD_HEAD_BYTES
 * first and twice as many until they decode. Returns as read_packet(), or
 * -errno (r->errmsg set).
 */
static int decode_head(struct ltt_reader *r, struct rd_trace *tr, const struct rd_file *f, int fd,
		       uint64_t off, uint8_t **buf, size_t *cap, struct rd_decoder *d,
		       struct rd_vbuf *vb, uint64_t *clock, struct pkt_props *pp)
{
	uint64_t left = f->size - off;
	uint64_t len = left < RD_HEAD_BYTES ? left : RD_HEAD_BYTES;
	int ret;

	if (f->map)
		return read_packet(r, tr, f->path, f->map + off, left, left, off, d, vb, clock, pp);
	for (;;) {
		ret = read_at(fd, buf, cap, (size_t)len, off);
		if (ret < 0) {
			seterr(r, "%s: offset %llu: %s", f->path, (unsigned long long)off,
			       strerror(-ret));
			return ret;
		}
		ret = read_packet(r, tr, f->path, *buf, len, left, off, d, vb, clock, pp);
		if (ret != -EAGAIN)
			return ret;
		len = len * 2 < left ? len * 2 : left;
	}
}

/*
 * Closes the descriptor of the open stream of r, other than keep, that read
 * least recently (it opens its file again when it reads next). Returns
 * whether there was one. O(streams): only when descriptors run out.
 */
static bool give_up_fd(struct ltt_reader *r, const struct rd_stream *keep)
{
	struct rd_stream *oldest = NULL;

	for (size_t i = 0; i < r->nstreams; i++) {
		struct rd_stream *st = r->streams[i];

		if (st != keep && st->fd >= 0 && (!oldest || st->fd_used < oldest->fd_used))
			oldest = st;
	}
	if (!oldest)
		return false;
	close(oldest->fd);
	oldest->fd = -1;
	return true;
}

/*
 * Opens file i of the stream (st->fd) unless open or in memory: 0 or
 * -errno. A trace may have more streams than the process may open files
 * (RLIMIT_NOFILE): then the stream that read least recently gives its
 * descriptor up, and the open is tried again.
 */
static int open_file(struct rd_stream *st, size_t i)
{
	const struct rd_file *f = &st->files[i];

	st->fd_used = ++st->r->fd_clock;
	if (f->map || (st->fd >= 0 && st->fd_file == i))
		return 0;
	if (st->fd >= 0)
		close(st->fd);
	while ((st->fd = open(f->path, O_RDONLY | O_CLOEXEC)) < 0 &&
	       (errno == EMFILE || errno == ENFILE) && give_up_fd(st->r, st))
		;
	if (st->fd < 0) {
		int ret = -errno;

		seterr(st->r, "%s: %s", f->path, strerror(-ret));
		return ret;
	}
	st->fd_file = i;
	return 0;
}

/*
 * Makes the window hold the packet's content from bit `at` of the packet
 * (RD_WINDOW_ALIGN bytes before it at most: alignments stay), win_size
 * bytes of it or up to its end, and points the decoder at it. Returns 0,
 * or -errno (r->errmsg set).
 */
static int fill_window(struct rd_stream *st, uint64_t at)
{
	const struct rd_file *f = &st->files[st->cur_file];
	uint64_t content = st->pp.content_bits;
	uint64_t from = (at / 8) & ~(uint64_t)(RD_WINDOW_ALIGN - 1);
	uint64_t len = (content + 7) / 8 - from;
	int ret;

	if (f->map) {
		/* in memory: the whole packet at once */
		st->d.buf = f->map + st->off;
		st->d.pos = at;
		st->d.end = content;
		st->win_from = 0;
		st->refill_at = UINT64_MAX;
		return 0;
	}
	if (len > st->win_size)
		len = st->win_size;
	if ((ret = open_file(st, st->cur_file)) < 0)
		return ret;
	ret = read_at(st->fd, &st->win, &st->win_cap, (size_t)len, st->off + from);
	if (ret < 0) {
		seterr(st->r, "%s: offset %llu: %s", f->path, (unsigned long long)(st->off + from),
		       strerror(-ret));
		return ret;
	}
	st->win_from = from;
	st->d.buf = st->win;
	st->d.pos = at - from * 8;
	if ((from + len) * 8 >= content) {
		st->d.end = content - from * 8;
		st->refill_at = UINT64_MAX;
	} else {
		st->d.end = len * 8;
		st->refill_at = len > RD_WINDOW_MARGIN ? (len - RD_WINDOW_MARGIN) * 8 : 0;
	}
	return 0;
}

/*
 * An event did not decode from the window, which ends before the packet's
 * content: reads it again from the event's start, twice as much if it
 * started the window already. Returns 1 (decode again), 0 (the window
 * cannot help: the error stands) or -errno.
 */
static int widen_window(struct rd_stream *st, uint64_t start)
{
	uint64_t at = st->win_from * 8 + start;	/* bits from the packet */

	if (st->refill_at == UINT64_MAX)
		return 0;
	if ((at / 8 & ~(uint64_t)(RD_WINDOW_ALIGN - 1)) == st->win_from) {
		if (st->win_size > SIZE_MAX / 2)
			return 0;
		st->win_size *= 2;
	}
	return fill_window(st, at) < 0 ? -EIO : 1;
}

/* Opens the packet at st->off of the current file; 0, 1 at end of stream, or -errno. */
static int open_packet(struct rd_stream *st)
{
	struct ltt_reader *r = st->r;
	struct rd_file *f;
	int ret;

	for (;;) {
		if (st->cur_file >= st->nfiles)
			return 1;
		f = &st->files[st->cur_file];
		if (st->off < f->size)
			break;
		st->cur_file++;
		st->off = 0;
	}
	ret = open_file(st, st->cur_file);
	if (ret < 0)
		return ret;
	ret = decode_head(r, st->trace, f, st->fd, st->off, &st->head, &st->head_cap, &st->d,
			  st->vb, &st->clock, &st->pp);
	if (ret < 0)
		return ret;
	/* the window after an event larger than it: back to its size */
	st->win_size = RD_READ_WINDOW;
	ret = fill_window(st, st->d.pos);
	if (ret < 0)
		return ret;
	st->in_packet = true;
	st->cpu = st->pp.cpu;
	st->packet_context = st->sc->packet_context ?
		scope_value(&st->vb[RD_SC_PACKET_CONTEXT], st->sc->packet_context_prog,
			    RD_SC_PACKET_CONTEXT) : NULL;
	st->nqueued = st->qhead = 0;
	if (st->sc->has_discarded && st->pp.has_discarded) {
		if (!st->have_prev) {
			if (st->pp.discarded != 0)
				queue_discarded(st, LTT_RECORD_DISCARDED_EVENTS, UINT64_MAX,
						st->pp.begin_raw, st->pp.end_raw,
						st->pp.has_begin && st->pp.has_end);
		} else if (st->pp.discarded != st->prev_discarded) {
			queue_discarded(st, LTT_RECORD_DISCARDED_EVENTS,
					st->pp.discarded - st->prev_discarded, st->prev_end_raw,
					st->pp.end_raw, st->pp.has_end);
		}
	}
	if (st->sc->has_seq_num && st->pp.has_seq && st->have_prev &&
	    st->pp.seq - st->prev_seq > 1)
		queue_discarded(st, LTT_RECORD_DISCARDED_PACKETS, st->pp.seq - st->prev_seq - 1,
				st->prev_end_raw, st->pp.begin_raw, st->pp.has_begin);
	return 0;
}

static void close_packet(struct rd_stream *st)
{
	st->prev_discarded = st->pp.discarded;
	st->prev_seq = st->pp.seq;
	st->prev_end_raw = st->pp.end_raw;
	st->have_prev = true;
	st->off += st->pp.packet_bits / 8;
	st->in_packet = false;
}

/*
 * Decodes the stream's next record into st->next. Returns 0, 1 at the end of
 * the stream, or -EBADMSG.
 */
static inline __attribute__((always_inline)) int stream_advance(struct rd_stream *st)
{
	struct ltt_reader *r = st->r;
	struct rd_decoder *d = &st->d;

	for (;;) {
		const struct rd_event_class *ec;
		struct rd_vbuf *vb;
		uint64_t start;
		int ret;

		if (st->qhead < st->nqueued) {
			st->next = st->queued[st->qhead++];
			return 0;
		}
		if (!st->in_packet) {
			ret = open_packet(st);
			if (ret)
				return ret;
			continue;
		}
		if (unlikely(d->pos >= st->refill_at)) {
			/* near the window's end: the next window from this event */
			ret = fill_window(st, st->win_from * 8 + d->pos);
			if (ret < 0)
				return -EBADMSG;
		}
		if (d->pos >= d->end) {
			close_packet(st);
			continue;
		}
		start = d->pos;
		d->has_event_id = false;
		if (st->sc->event_header) {
			/* the header, then the class's contexts and payload */
			ret = rd_decode(d, st->sc->event_header_prog, &st->vb[RD_SC_EVENT_HEADER]);
			ec = d->ec;
		} else {
			ec = rd_stream_event(st->sc, 0);
			if (!ec && st->sc->nevents == 1)
				ec = st->sc->events[0];
			ret = ec ? rd_decode(d, ec->prog, &st->class_vb[ec->index]) : RD_UNKNOWN_EVENT;
		}
		if (ret == RD_UNKNOWN_EVENT) {
			seterr(r, "%s: offset %llu: unknown event id %llu in stream class %llu",
			       st->files[st->cur_file].path,
			       (unsigned long long)(st->off + st->win_from + start / 8),
			       (unsigned long long)(d->has_event_id ? d->event_id : 0),
			       (unsigned long long)st->sc->id);
			return -EBADMSG;
		}
		if (ret < 0) {
			/* cut by the window's end rather than the content's? */
			ret = widen_window(st, start);
			if (ret > 0)
				continue;
			if (ret < 0)
				return -EBADMSG;
			goto bad;
		}
		vb = &st->class_vb[ec->index];
		st->next.body = vb;
		if (d->pos == start) {
			seterr(r, "%s: offset %llu: event of size zero", st->files[st->cur_file].path,
			       (unsigned long long)(st->off + st->win_from + start / 8));
			return -EBADMSG;
		}
		st->next.packet_context = st->packet_context;
		st->next.st = st;
		st->next.kind = LTT_RECORD_EVENT;
		st->next.ec = ec;
		st->next.cycles = st->clock;
		/* converted to ns when asked: --count never does with one stream */
		st->next.clock = st->time_clock;
		st->next.has_time = st->time_clock != NULL;
		return 0;
bad:
		seterr(r, "%s: offset %llu: event: %s", st->files[st->cur_file].path,
		       (unsigned long long)(st->off + st->win_from + start / 8), d->errmsg);
		return -EBADMSG;
	}
}

/* --- the merge ------------------------------------------------------------------ */

static int weight(int kind)
{
	/* babeltrace2's muxer: events before discarded events before discarded packets */
	return kind == LTT_RECORD_EVENT ? 5 : kind == LTT_RECORD_DISCARDED_EVENTS ? 4 : 1;
}

static int cmp_str(const char *a, const char *b)
{
	if (a && b)
		return strcmp(a, b);
	return a ? 1 : b ? -1 : 0;
}

/* < 0 if a's next record goes first. */
static int rec_cmp(const struct rd_stream *a, const struct rd_stream *b)
{
	const struct ltt_event *x = &a->next, *y = &b->next;
	int64_t xns = rec_ns(x), yns = rec_ns(y);
	int c;

	if (xns != yns)
		return xns < yns ? -1 : 1;
	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (x->kind != y->kind)
		return weight(y->kind) - weight(x->kind);
	if (x->kind == LTT_RECORD_EVENT) {
		if (x->ec->id != y->ec->id)
			return x->ec->id < y->ec->id ? -1 : 1;
		c = cmp_str(x->ec->name, y->ec->name);
		if (c)
			return c;
		if (x->ec->has_loglevel != y->ec->has_loglevel)
			return x->ec->has_loglevel ? -1 : 1;
		if (x->ec->loglevel != y->ec->loglevel)
			return x->ec->loglevel < y->ec->loglevel ? -1 : 1;
		c = cmp_str(x->ec->emf_uri, y->ec->emf_uri);
		if (c)
			return c;
	}
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	return 0;
}

static void heap_up(struct ltt_reader *r, size_t i)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (rec_cmp(r->heap[i], r->heap[p]) >= 0)
			break;
		struct rd_stream *t = r->heap[i];
		r->heap[i] = r->heap[p];
		r->heap[p] = t;
		i = p;
	}
}

static void heap_down(struct ltt_reader *r, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, s = i;

		if (l < r->nheap && rec_cmp(r->heap[l], r->heap[s]) < 0)
			s = l;
		if (l + 1 < r->nheap && rec_cmp(r->heap[l + 1], r->heap[s]) < 0)
			s = l + 1;
		if (s == i)
			return;
		struct rd_stream *t = r->heap[i];
		r->heap[i] = r->heap[s];
		r->heap[s] = t;
		i = s;
	}
}

int ltt_reader_next(struct ltt_reader *r, const struct ltt_event **ret_event)
{
	if (r->errmsg[0])
		return -EBADMSG;
	if (r->last) {
		struct rd_stream *st = r->last;
		int ret;

		r->last = NULL;
		ret = stream_advance(st);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			/* mostly the same stream again: no need to look further */
			r->heap[0] = st;
			if (r->nheap > 1)
				heap_down(r, 0);
		} else {
			st->done = true;
			r->heap[0] = r->heap[--r->nheap];
			if (r->nheap)
				heap_down(r, 0);
		}
	}
	if (!r->nheap)
		return LTT_RECORD_END;
	r->last = r->heap[0];
	*ret_event = &r->last->next;
	return r->last->next.kind;
}

/* --- opening ------------------------------------------------------------------ */

static char *path_join(const char *a, const char *b)
{
	char *p;

	if (asprintf(&p, "%s/%s", a, b) < 0)
		return NULL;
	return p;
}

static int map_file(const char *path, const uint8_t **ret_map, size_t *ret_size)
{
	struct stat stt;
	void *map;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &stt) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	if (stt.st_size == 0) {
		close(fd);
		*ret_map = NULL;
		*ret_size = 0;
		return 0;
	}
	map = mmap(NULL, (size_t)stt.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		r = -errno;
		close(fd);
		return r;
	}
	close(fd);
	madvise(map, (size_t)stt.st_size, MADV_SEQUENTIAL);
	*ret_map = map;
	*ret_size = (size_t)stt.st_size;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void stream_free(struct rd_stream *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nfiles; i++)
		free(st->files[i].path);
	free(st->files);
	if (st->fd >= 0)
		close(st->fd);
	free(st->head);
	free(st->win);
	for (size_t i = 0; i < ARRAY_SIZE(st->vb); i++)
		rd_vbuf_free(&st->vb[i]);
	for (size_t i = 0; st->class_vb && i < st->sc->nevents; i++)
		rd_vbuf_free(&st->class_vb[i]);
	free(st->class_vb);
	free(st->name);
	free(st);
}

static int add_stream(struct ltt_reader *r, struct rd_stream *st)
{
	struct rd_stream **g = realloc(r->streams, (r->nstreams + 1) * sizeof(*g));

	if (!g)
		return -ENOMEM;
	r->streams = g;
	g[r->nstreams++] = st;
	return 0;
}

static int cmp_file_begin(const void *a, const void *b)
{
	const struct rd_file *x = a, *y = b;

	if (x->begin_ns != y->begin_ns)
		return x->begin_ns < y->begin_ns ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Reads the data stream files of a trace directory into streams. */
static int open_streams(struct ltt_reader *r, struct rd_trace *tr)
{
	DIR *dir = r->mem_data ? NULL : opendir(tr->path);
	struct dirent *de;
	char **names = NULL;
	size_t nnames = 0;
	struct rd_stream **mine = NULL;
	size_t nmine = 0;
	struct rd_vbuf vb[RD_SC_COUNT] = { 0 };
	uint8_t *head = NULL;		/* each file's first packet's header and context */
	size_t head_cap = 0;
	int fd = -1;
	int ret = 0;

	if (r->mem_data) {
		names = calloc(r->nmem + 1, sizeof(*names));
		if (!names)
			return -ENOMEM;
		for (; nnames < r->nmem; nnames++)
			if (asprintf(&names[nnames], "%s/stream%03zu", tr->path, nnames) < 0) {
				names[nnames] = NULL;
				ret = -ENOMEM;
				goto out;
			}
	} else if (!dir) {
		ret = -errno;
		seterr(r, "%s: %s", tr->path, strerror(-ret));
		return ret;
	}
	while (dir && (de = readdir(dir))) {
		char **g;
		char *full;
		struct stat stt;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata"))
			continue;
		full = path_join(tr->path, de->d_name);
		if (!full) {
			ret = -ENOMEM;
			goto out;
		}
		if (stat(full, &stt) < 0 || !S_ISREG(stt.st_mode)) {
			free(full);
			continue;
		}
		g = realloc(names, (nnames + 1) * sizeof(*g));
		if (!g) {
			free(full);
			ret = -ENOMEM;
			goto out;
		}
		names = g;
		names[nnames++] = full;
	}
	if (nnames)
		qsort(names, nnames, sizeof(*names), cmp_names);
	for (size_t i = 0; i < nnames; i++) {
		struct rd_file f = { .path = names[i] };
		struct pkt_props pp;
		struct rd_decoder d = { 0 };
		uint64_t clock = 0;
		struct rd_stream *st = NULL;
		struct rd_file *g;

		if (r->mem_data) {
			f.map = r->mem_data[i];
			f.size = r->mem_size[i];
		} else {
			struct stat stt;

			fd = open(f.path, O_RDONLY | O_CLOEXEC);
			if (fd < 0 || fstat(fd, &stt) < 0) {
				ret = -errno;
				seterr(r, "%s: %s", f.path, strerror(-ret));
				goto out;
			}
			f.size = (size_t)stt.st_size;
		}
		if (f.size == 0) {
			if (fd >= 0)
				close(fd);
			fd = -1;
			continue;	/* babeltrace2 ignores empty stream files */
		}
		/* its first packet: the stream it belongs to, its first time */
		ret = decode_head(r, tr, &f, fd, 0, &head, &head_cap, &d, vb, &clock, &pp);
		if (fd >= 0)
			close(fd);
		fd = -1;
		if (ret < 0)
			goto out;
		f.has_begin = pp.has_begin && pp.sc->clock >= 0;
		if (f.has_begin) {
			f.begin_raw = pp.begin_raw;
			f.begin_ns = cycles_to_ns(&tr->meta->clocks[pp.sc->clock], pp.begin_raw);
		}
		if (pp.has_instance_id && f.has_begin) {
			for (size_t j = 0; j < nmine; j++)
				if (mine[j]->sc == pp.sc && mine[j]->id == pp.instance_id &&
				    mine[j]->files[0].has_begin) {
					st = mine[j];
					break;
				}
		}
		if (!st) {
			struct rd_stream **gm;

			st = calloc(1, sizeof(*st));
			if (st)
				st->class_vb = calloc(pp.sc->nevents + 1, sizeof(*st->class_vb));
			gm = st && st->class_vb ? realloc(mine, (nmine + 1) * sizeof(*gm)) : NULL;
			if (!gm) {
				if (st)
					free(st->class_vb);
				free(st);
				ret = -ENOMEM;
				goto out;
			}
			mine = gm;
			mine[nmine++] = st;
			st->r = r;
			st->trace = tr;
			st->sc = pp.sc;
			st->time_clock = pp.sc->clock >= 0 ? &tr->meta->clocks[pp.sc->clock] : NULL;
			st->d.sc = pp.sc;
			st->d.class_vb = st->class_vb;
			st->id = pp.has_instance_id && f.has_begin ? pp.instance_id : UINT64_MAX;
			st->cpu = -1;
			st->fd = -1;
		}
		g = realloc(st->files, (st->nfiles + 1) * sizeof(*g));
		if (!g) {
			ret = -ENOMEM;
			goto out;
		}
		st->files = g;
		names[i] = NULL;	/* owned by the stream now */
		st->files[st->nfiles++] = f;
	}
	for (size_t j = 0; j < nmine; j++) {
		struct rd_stream *st = mine[j];

		qsort(st->files, st->nfiles, sizeof(*st->files), cmp_file_begin);
		/* the stream's name is its earliest file's path */
		st->name = strdup(st->files[0].path);
		if (!st->name) {
			ret = -ENOMEM;
			goto out;
		}
	}
	/* babeltrace2 sorts streams by first path, then numbers those without an id */
	for (size_t a = 1; a < nmine; a++)
		for (size_t b = a; b > 0 && strcmp(mine[b - 1]->name, mine[b]->name) > 0; b--) {
			struct rd_stream *t = mine[b];
			mine[b] = mine[b - 1];
			mine[b - 1] = t;
		}
	for (size_t j = 0; j < nmine; j++) {
		if (mine[j]->id == UINT64_MAX)
			mine[j]->id = tr->next_stream_id++;
		ret = add_stream(r, mine[j]);
		if (ret < 0)
			goto out;
		mine[j] = NULL;
	}
out:
	for (size_t j = 0; j < nmine; j++)
		stream_free(mine[j]);
	free(mine);
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	for (int i = 0; i < RD_SC_COUNT; i++)
		rd_vbuf_free(&vb[i]);
	free(head);
	if (fd >= 0)
		close(fd);
	if (dir)
		closedir(dir);
	return ret;
}

static int open_trace(struct ltt_reader *r, const char *dir, const char *rel)
{
	char *mpath = path_join(dir, "metadata");
	const uint8_t *map = NULL;
	size_t size = 0;
	char *text = NULL;
	size_t len;
	char err[512];
	struct rd_trace *tr = NULL;
	struct rd_trace **g;
	const struct rd_env *host;
	int ret;

	if (!mpath)
		return -ENOMEM;
	ret = map_file(mpath, &map, &size);
	if (ret < 0) {
		seterr(r, "%s: %s", mpath, strerror(-ret));
		goto out;
	}
	ret = rd_metadata_text(map, size, &text, &len, err, sizeof(err));
	if (ret < 0) {
		seterr(r, "%s: %s", mpath, ret == -ENOMEM ? "out of memory" : err);
		goto out;
	}
	tr = calloc(1, sizeof(*tr));
	if (!tr) {
		ret = -ENOMEM;
		goto out;
	}
	ret = rd_meta_parse(text, len, &tr->meta, err, sizeof(err));
	if (ret < 0) {
		seterr(r, "%s: %s", mpath, err);
		goto out;
	}
	tr->path = realpath(dir, NULL);
	if (!tr->path) {
		ret = -errno;
		seterr(r, "%s: %s", dir, strerror(-ret));
		goto out;
	}
	host = rd_meta_env(tr->meta, "hostname");
	if (host && host->str) {
		if (asprintf(&tr->name, "%s%s%s", host->str, rel[0] ? "/" : "", rel) < 0)
			tr->name = NULL;
	} else {
		tr->name = strdup(rel);
	}
	if (!tr->name) {
		ret = -ENOMEM;
		goto out;
	}
	g = realloc(r->traces, (r->ntraces + 1) * sizeof(*g));
	if (!g) {
		ret = -ENOMEM;
		goto out;
	}
	r->traces = g;
	g[r->ntraces++] = tr;
	ret = open_streams(r, tr);
	tr = NULL;
out:
	if (tr) {
		rd_meta_free(tr->meta);
		free(tr->path);
		free(tr->name);
		free(tr);
	}
	if (map)
		munmap((void *)map, size);
	free(text);
	free(mpath);
	return ret;
}

/* Finds traces under dir (rel: its path relative to the input), depth-first, sorted. */
static int scan(struct ltt_reader *r, const char *dir, const char *rel, unsigned depth)
{
	char *m = path_join(dir, "metadata");
	struct stat stt;
	DIR *d;
	struct dirent *de;
	char **subs = NULL;
	size_t nsubs = 0;
	int ret = 0;

	if (!m)
		return -ENOMEM;
	if (stat(m, &stt) == 0 && S_ISREG(stt.st_mode)) {
		free(m);
		return open_trace(r, dir, rel);
	}
	free(m);
	if (depth > 32)
		return 0;
	d = opendir(dir);
	if (!d)
		return depth == 0 ? -errno : 0;
	while ((de = readdir(d))) {
		char *full, **g;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		full = path_join(dir, de->d_name);
		if (!full) {
			ret = -ENOMEM;
			break;
		}
		if (stat(full, &stt) < 0 || !S_ISDIR(stt.st_mode)) {
			free(full);
			continue;
		}
		free(full);
		g = realloc(subs, (nsubs + 1) * sizeof(*g));
		if (!g || !(g[nsubs] = strdup(de->d_name))) {
			free(g ? g : subs);
			subs = NULL;
			nsubs = 0;
			ret = -ENOMEM;
			break;
		}
		subs = g;
		nsubs++;
	}
	closedir(d);
	if (nsubs)	/* qsort() wants an array, even of nothing */
		qsort(subs, nsubs, sizeof(*subs), cmp_names);
	for (size_t i = 0; i < nsubs && ret == 0; i++) {
		char *full = path_join(dir, subs[i]);
		char *srel = rel[0] ? path_join(rel, subs[i]) : strdup(subs[i]);

		if (!full || !srel)
			ret = -ENOMEM;
		else
			ret = scan(r, full, srel, depth + 1);
		free(full);
		free(srel);
	}
	for (size_t i = 0; i < nsubs; i++)
		free(subs[i]);
	free(subs);
	return ret;
}

static int cmp_major(const void *a, const void *b)
{
	const struct rd_stream *x = *(struct rd_stream *const *)a, *y = *(struct rd_stream *const *)b;
	const struct rd_meta *mx = x->trace->meta, *my = y->trace->meta;
	int c;

	if (mx->has_uuid != my->has_uuid)
		return mx->has_uuid ? -1 : 1;
	if (mx->has_uuid && (c = memcmp(mx->uuid, my->uuid, 16)))
		return c;
	c = strcmp(x->trace->name, y->trace->name);
	if (c)
		return c;
	if (x->sc->id != y->sc->id)
		return x->sc->id < y->sc->id ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return 0;
}

static int cmp_minor(const void *a, const void *b)
{
	const struct rd_stream *x = *(struct rd_stream *const *)a, *y = *(struct rd_stream *const *)b;

	return strcmp(x->name, y->name);
}

static int finish_open(struct ltt_reader *r, struct ltt_reader **ret_reader, char **ret_errmsg);

int ltt_reader_open(const char *path, struct ltt_reader **ret_reader, char **ret_errmsg)
{
	struct ltt_reader *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	ret = scan(r, path, "", 0);
	if (ret == 0 && r->ntraces == 0) {
		ret = -ENOENT;
		seterr(r, "%s: no CTF trace found (no metadata file)", path);
	} else if (ret < 0 && !r->errmsg[0]) {
		seterr(r, "%s: %s", path, strerror(-ret));
	}
	if (ret < 0)
		goto err;
	return finish_open(r, ret_reader, ret_errmsg);
err:
	if (ret_errmsg)
		*ret_errmsg = strdup(r->errmsg[0] ? r->errmsg : strerror(-ret));
	ltt_reader_free(r);
	return ret;
}

int rd_reader_open_mem(const char *metadata, size_t len, const uint8_t *const *data,
		       const size_t *sizes, size_t n, struct ltt_reader **ret_reader,
		       char **ret_errmsg)
{
	struct ltt_reader *r = calloc(1, sizeof(*r));
	struct rd_trace *tr = NULL;
	char err[512];
	int ret;

	if (!r)
		return -ENOMEM;
	r->mem_data = data;
	r->mem_size = sizes;
	r->nmem = n;
	tr = calloc(1, sizeof(*tr));
	r->traces = calloc(1, sizeof(*r->traces));
	if (!tr || !r->traces || !(tr->path = strdup("(memory)")) || !(tr->name = strdup(""))) {
		ret = -ENOMEM;
		goto err;
	}
	ret = rd_meta_parse(metadata, len, &tr->meta, err, sizeof(err));
	if (ret < 0) {
		seterr(r, "metadata: %s", err);
		goto err;
	}
	r->traces[r->ntraces++] = tr;
	tr = NULL;
	ret = open_streams(r, r->traces[0]);
	if (ret < 0)
		goto err;
	return finish_open(r, ret_reader, ret_errmsg);
err:
	if (tr) {
		free(tr->path);
		free(tr->name);
		free(tr);
	}
	if (ret_errmsg)
		*ret_errmsg = strdup(r->errmsg[0] ? r->errmsg : strerror(-ret));
	ltt_reader_free(r);
	return ret;
}

/* Ranks the streams and decodes each one's first record. */
static int finish_open(struct ltt_reader *r, struct ltt_reader **ret_reader, char **ret_errmsg)
{
	struct rd_stream **order = NULL;
	int ret;

	/* ranks for the muxer's tie-breaks */
	order = malloc((r->nstreams + 1) * sizeof(*order));
	r->heap = malloc((r->nstreams + 1) * sizeof(*r->heap));
	if (!order || !r->heap) {
		ret = -ENOMEM;
		seterr(r, "out of memory");
		goto err;
	}
	if (r->nstreams)
		memcpy(order, r->streams, r->nstreams * sizeof(*order));
	qsort(order, r->nstreams, sizeof(*order), cmp_major);
	for (size_t i = 0, rank = 0; i < r->nstreams; i++) {
		if (i && cmp_major(&order[i - 1], &order[i]))
			rank++;
		order[i]->major = rank;
	}
	qsort(order, r->nstreams, sizeof(*order), cmp_minor);
	for (size_t i = 0; i < r->nstreams; i++)
		order[i]->minor = i;
	free(order);
	order = NULL;
	for (size_t i = 0; i < r->nstreams; i++) {
		struct rd_stream *st = r->streams[i];

		ret = stream_advance(st);
		if (ret < 0)
			goto err;
		if (ret == 0) {
			r->heap[r->nheap++] = st;
			heap_up(r, r->nheap - 1);
		}
	}
	*ret_reader = r;
	return 0;
err:
	free(order);
	if (ret_errmsg)
		*ret_errmsg = strdup(r->errmsg[0] ? r->errmsg : strerror(-ret));
	ltt_reader_free(r);
	return ret;
}

void ltt_reader_free(struct ltt_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nstreams; i++)
		stream_free(r->streams[i]);
	free(r->streams);
	for (size_t i = 0; i < r->ntraces; i++) {
		rd_meta_free(r->traces[i]->meta);
		free(r->traces[i]->path);
		free(r->traces[i]->name);
		free(r->traces[i]);
	}
	free(r->traces);
	free(r->heap);
	free(r);
}

/* --- events ----------------------------------------------------------------------- */

struct rd_event_class *rd_event_class(const struct ltt_event *ev)
{
	/* the metadata is the reader's: its classes hold the reader's caches */
	return ev->kind == LTT_RECORD_EVENT ? (struct rd_event_class *)ev->ec : NULL;
}

const char *ltt_event_name(const struct ltt_event *ev)
{
	return ev->ec && ev->ec->name ? ev->ec->name : "<unknown>";
}

uint64_t ltt_event_class_id(const struct ltt_event *ev)
{
	return ev->ec ? ev->ec->id : 0;
}

int ltt_event_has_time(const struct ltt_event *ev)
{
	return ev->has_time;
}

int64_t ltt_event_ns(const struct ltt_event *ev)
{
	return rec_ns(ev);
}

uint64_t ltt_event_cycles(const struct ltt_event *ev)
{
	return ev->cycles;
}

int64_t ltt_event_cpu(const struct ltt_event *ev)
{
	return ev->st->cpu;
}

uint64_t ltt_event_stream_class_id(const struct ltt_event *ev)
{
	return ev->st->sc->id;
}

uint64_t ltt_event_stream_id(const struct ltt_event *ev)
{
	return ev->st->id;
}

const char *ltt_event_stream_name(const struct ltt_event *ev)
{
	return ev->st->name;
}

const char *ltt_event_trace_name(const struct ltt_event *ev)
{
	return ev->st->trace->name;
}

int ltt_event_loglevel(const struct ltt_event *ev, int64_t *ret)
{
	if (!ev->ec || !ev->ec->has_loglevel)
		return -ENOENT;
	*ret = ev->ec->loglevel;
	return 0;
}

const char *ltt_event_emf_uri(const struct ltt_event *ev)
{
	return ev->ec ? ev->ec->emf_uri : NULL;
}

const uint8_t *ltt_event_trace_uuid(const struct ltt_event *ev)
{
	return ev->st->trace->meta->has_uuid ? ev->st->trace->meta->uuid : NULL;
}

uint64_t ltt_event_discarded(const struct ltt_event *ev, int64_t *begin_ns,
			     int64_t *end_ns, int *has_range)
{
	*has_range = ev->has_range;
	*begin_ns = ev->has_range ? ev->begin_ns : 0;
	*end_ns = ev->has_range ? ev->end_ns : 0;
	return ev->count;
}

const char *ltt_event_env_string(const struct ltt_event *ev, const char *key)
{
	const struct rd_env *e = rd_meta_env(ev->st->trace->meta, key);

	return e ? e->str : NULL;
}

int ltt_event_env_int(const struct ltt_event *ev, const char *key, int64_t *ret)
{
	const struct rd_env *e = rd_meta_env(ev->st->trace->meta, key);

	if (!e)
		return -ENOENT;
	if (e->str)
		return -EINVAL;
	*ret = e->num;
	return 0;
}

static inline const struct rd_val *scope_root(const struct ltt_event *ev, unsigned scope)
{
	/* an event's contexts and payload: its class's program's scopes */
	static const int sc_of[] = { RD_SC_PACKET_CONTEXT, RD_SC_COMMON_CONTEXT,
		RD_SC_SPECIFIC_CONTEXT, RD_SC_PAYLOAD };
	const struct rd_val *v = scope == LTT_SCOPE_PACKET_CONTEXT ? ev->packet_context :
		scope_value(ev->body, ev->ec->prog, sc_of[scope]);

	return v && !v->type->hidden ? v : NULL;
}

const struct ltt_value *ltt_event_scope(const struct ltt_event *ev, enum ltt_scope scope)
{
	if ((unsigned)scope > LTT_SCOPE_PAYLOAD || ev->kind != LTT_RECORD_EVENT)
		return NULL;
	return (const struct ltt_value *)scope_root(ev, scope);
}

void rd_event_blocks(const struct ltt_event *ev, const struct rd_val **packet,
		     const struct rd_val **body)
{
	*packet = ev->packet_context;
	*body = ev->body ? ev->body->v : NULL;
}

unsigned rd_event_roots(const struct ltt_event *ev, const struct rd_val *roots[4])
{
	unsigned present = 0;

	if (ev->kind != LTT_RECORD_EVENT) {
		memset(roots, 0, 4 * sizeof(*roots));
		return 0;
	}
	for (unsigned s = 0; s < 4; s++) {
		roots[s] = scope_root(ev, s);
		present |= (unsigned)(roots[s] != NULL) << s;
	}
	return present;
}

const struct ltt_value *ltt_event_field(const struct ltt_event *ev, const char *name)
{
	static const enum ltt_scope order[] = { LTT_SCOPE_PAYLOAD, LTT_SCOPE_SPECIFIC_CONTEXT,
		LTT_SCOPE_COMMON_CONTEXT, LTT_SCOPE_PACKET_CONTEXT };

	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		const struct ltt_value *s = ltt_event_scope(ev, order[i]);
		const struct ltt_value *v = s ? ltt_value_member(s, name) : NULL;

		if (v)
			return v;
	}
	return NULL;
}
