/*
 * ctf-stream.c - one stream's packets built in memory (see ctf-event.h).
 *
 * A packet is opened lazily by its first event (timestamp_begin = that
 * event's timestamp, so that its header is compact) and closed by the
 * caller (ctf_stream_writer_close_packet), which also happens when the next
 * event does not fit. The reader's clock state is tracked in last_ts: it is
 * timestamp_begin at a packet's start and each event's full timestamp
 * after it; the event header escape follows ctf_event_header_extended().
 */
#include "ctf/ctf-event.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/macros.h"

struct ctf_stream_writer {
	const struct ctf_trace *trace;
	const struct ctf_stream_class *sc;
	enum ctf_byte_order bo;
	uint8_t *buf;
	uint64_t packet_bits;
	uint64_t pad_bits;		/* closed packets end at a multiple; 0: packet_bits */
	struct ctf_cursor cur;
	bool open;			/* a packet is open */
	uint64_t last_ts;		/* the reader's clock value */
	bool have_ts;
	uint64_t seq_num;		/* of the next packet closed */
	uint64_t discarded;		/* cumulative, counted so far */
	uint64_t discarded_reported;	/* cumulative, in the last packet closed */
	struct ctf_packet_info info;
};

int ctf_stream_writer_create(const struct ctf_trace *t, uint32_t stream_class_id,
			     uint64_t stream_instance_id, uint32_t cpu_id,
			     size_t packet_size, struct ctf_stream_writer **ret_w)
{
	const struct ctf_stream_class *sc = ctf_trace_stream_class(t, stream_class_id);
	struct ctf_stream_writer *w;

	if (!sc || packet_size % 8 || packet_size < CTF_PACKET_HEADER_SIZE + 8 ||
	    packet_size > UINT32_MAX)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->buf = calloc(1, packet_size);
	if (!w->buf) {
		free(w);
		return -ENOMEM;
	}
	w->trace = t;
	w->sc = sc;
	w->bo = ctf_trace_byte_order(t);
	w->packet_bits = 8 * (uint64_t)packet_size;
	w->info.stream_id = stream_class_id;
	w->info.stream_instance_id = stream_instance_id;
	w->info.cpu_id = cpu_id;
	w->info.packet_size = w->packet_bits;
	*ret_w = w;
	return 0;
}

void ctf_stream_writer_free(struct ctf_stream_writer *w)
{
	if (!w)
		return;
	free(w->buf);
	free(w);
}

static void packet_open(struct ctf_stream_writer *w, uint64_t ts)
{
	memset(w->buf, 0, w->packet_bits / 8);
	w->cur.base = w->buf;
	w->cur.off = 8 * (uint64_t)CTF_PACKET_HEADER_SIZE;
	w->cur.cap = w->packet_bits;
	w->info.ts_begin = ts;
	w->last_ts = ts;
	w->have_ts = true;
	w->open = true;
}

/* Encodes the event at the cursor; 0, -ENOSPC (nothing written), -EINVAL. */
static int encode(struct ctf_stream_writer *w, const struct ctf_event_class *ec,
		  uint64_t ts, const struct ctf_value *ctx, size_t nctx,
		  const struct ctf_value *payload, size_t npayload)
{
	enum ctf_header_kind kind = w->sc->header;
	enum ctf_layout layout = ctf_trace_layout(w->trace);
	bool ext = ctf_event_header_extended(kind, ec->id, ts, w->last_ts);
	uint64_t start = w->cur.off, end = ctf_event_header_end(kind, layout, start, ext);
	int r;

	if (end > w->cur.cap)
		return -ENOSPC;
	ctf_event_header_write(w->buf, start, kind, layout, w->bo, ec->id, ts, ext);
	w->cur.off = end;
	if (w->sc->event_context) {
		r = ctf_serialize_struct(&w->cur, w->bo, w->sc->event_context, ctx, nctx);
		if (r < 0)
			goto err;
	} else if (nctx) {
		r = -EINVAL;
		goto err;
	}
	r = ctf_serialize_struct(&w->cur, w->bo, ec->payload, payload, npayload);
	if (r < 0)
		goto err;
	w->last_ts = ts;
	return 0;
err:
	/* Undo the header and context: the packet content ended at start. */
	if (start & 7) {
		unsigned keep = start & 7;
		uint8_t *p = &w->buf[start >> 3];

		/* Event headers start at a byte boundary in both layouts: start is byte aligned
		 * in practice; clear conservatively per byte order anyway. */
		*p &= w->bo == CTF_BO_BE ? (uint8_t)(0xff << (8 - keep))
					 : (uint8_t)((1u << keep) - 1);
		memset(p + 1, 0, ((w->cur.off + 7) >> 3) - (start >> 3) - 1);
	} else {
		memset(&w->buf[start >> 3], 0, ((w->cur.off + 7) >> 3) - (start >> 3));
	}
	w->cur.off = start;
	return r;
}

int ctf_stream_writer_event(struct ctf_stream_writer *w, const struct ctf_event_class *ec,
			    uint64_t ts, const struct ctf_value *ctx, size_t nctx,
			    const struct ctf_value *payload, size_t npayload)
{
	uint64_t last_ts = w->last_ts;
	bool have_ts = w->have_ts;
	int r;

	if (!ec || ec->stream != w->sc)
		return -EINVAL;
	if (w->have_ts && ts < w->last_ts)
		return -ERANGE;
	if (w->open)
		return encode(w, ec, ts, ctx, nctx, payload, npayload);
	packet_open(w, ts);
	r = encode(w, ec, ts, ctx, nctx, payload, npayload);
	if (r < 0) {
		w->open = false;
		w->last_ts = last_ts;
		w->have_ts = have_ts;
		if (r == -ENOSPC)
			r = -EMSGSIZE;
	}
	return r;
}

/* Writes the header and the bytes at the cursor; 0 or -ENOSPC (nothing written). */
static int encode_raw(struct ctf_stream_writer *w, const struct ctf_event_class *ec,
		      uint64_t ts, const void *bytes, size_t len)
{
	enum ctf_header_kind kind = w->sc->header;
	enum ctf_layout layout = ctf_trace_layout(w->trace);
	bool ext = ctf_event_header_extended(kind, ec->id, ts, w->last_ts);
	uint64_t end = ctf_event_header_end(kind, layout, w->cur.off, ext);

	if (end > w->cur.cap || 8 * (uint64_t)len > w->cur.cap - end)
		return -ENOSPC;
	end = ctf_event_header_write(w->buf, w->cur.off, kind, layout, w->bo, ec->id, ts, ext);
	memcpy(&w->buf[end / 8], bytes, len);	/* headers end on a byte */
	w->cur.off = end + 8 * (uint64_t)len;
	w->last_ts = ts;
	return 0;
}

int ctf_stream_writer_event_raw(struct ctf_stream_writer *w, const struct ctf_event_class *ec,
				uint64_t ts, const void *bytes, size_t len)
{
	uint64_t last_ts = w->last_ts;
	bool have_ts = w->have_ts;
	int r;

	if (!ec || ec->stream != w->sc || !ec->byte_packed)
		return -EINVAL;
	if (w->have_ts && ts < w->last_ts)
		return -ERANGE;
	if (w->open)
		return encode_raw(w, ec, ts, bytes, len);
	packet_open(w, ts);
	r = encode_raw(w, ec, ts, bytes, len);
	if (r < 0) {
		w->open = false;
		w->last_ts = last_ts;
		w->have_ts = have_ts;
		r = -EMSGSIZE;
	}
	return r;
}

void ctf_stream_writer_set_padding(struct ctf_stream_writer *w, size_t pad)
{
	w->pad_bits = 8 * (uint64_t)pad;
}

void ctf_stream_writer_add_discarded(struct ctf_stream_writer *w, uint64_t n)
{
	w->discarded += n;
}

bool ctf_stream_writer_pending(const struct ctf_stream_writer *w)
{
	return w->open || w->discarded != w->discarded_reported;
}

int ctf_stream_writer_close_packet(struct ctf_stream_writer *w, uint64_t ts_end,
				   const void **data, struct ctf_packet_info *info)
{
	if (!ctf_stream_writer_pending(w))
		return -ENODATA;
	if (ts_end && w->have_ts && ts_end < w->last_ts)
		return -ERANGE;
	if (!w->open)
		packet_open(w, ts_end ? ts_end : w->last_ts);
	if (!ts_end)
		ts_end = w->last_ts;
	w->info.ts_end = ts_end;
	w->info.content_size = w->cur.off;
	w->info.packet_size = w->packet_bits;
	if (w->pad_bits && align_up(w->cur.off, w->pad_bits) < w->packet_bits)
		w->info.packet_size = align_up(w->cur.off, w->pad_bits);
	w->info.seq_num = w->seq_num++;
	w->info.events_discarded = w->discarded;
	ctf_packet_header_write(w->buf, ctf_trace_uuid(w->trace), w->bo, &w->info);
	w->discarded_reported = w->discarded;
	w->last_ts = ts_end;
	w->open = false;
	*data = w->buf;
	*info = w->info;
	return 0;
}
