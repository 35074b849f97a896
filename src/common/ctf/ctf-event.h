/*
 * ctf-event.h - the generic event serializer: field values encoded with the
 * type model, and the in-memory packet builder of one stream.
 *
 * Values: one struct ctf_value per field, built on the caller's stack
 * (no allocation): integers (S64/U64, also for enums), DOUBLE (for float
 * and double fields), STRING (for strings and text arrays), LIST (the
 * elements of an array or sequence, the fields of a struct) and BYTES (an
 * array or sequence of 8-bit byte-aligned integers from a buffer). Each
 * value is checked against its type: a kind that does not fit, an integer
 * out of its field's range, an array of the wrong length or a sequence
 * whose count differs from its length field's value give -EINVAL (-ERANGE
 * for a range), and nothing is written.
 *
 *   struct ctf_value v[] = { CTF_U64(3), CTF_STR("hi"), CTF_DOUBLE(-0.0) };
 */
#ifndef LTT_CTF_EVENT_H
#define LTT_CTF_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "ctf/ctf-encode.h"
#include "ctf/ctf-trace.h"

enum ctf_value_kind {
	CTF_VALUE_S64 = 1,
	CTF_VALUE_U64,
	CTF_VALUE_DOUBLE,
	CTF_VALUE_STRING,
	CTF_VALUE_LIST,
	CTF_VALUE_BYTES,
};

struct ctf_value {
	enum ctf_value_kind kind;
	uint32_t count;			/* LIST: elements; BYTES: bytes */
	union {
		int64_t s64;
		uint64_t u64;
		double d;
		const char *str;
		const struct ctf_value *list;
		const void *bytes;
	};
};

#define CTF_S64(v) ((struct ctf_value){ .kind = CTF_VALUE_S64, .s64 = (v) })
#define CTF_U64(v) ((struct ctf_value){ .kind = CTF_VALUE_U64, .u64 = (v) })
#define CTF_DOUBLE(v) ((struct ctf_value){ .kind = CTF_VALUE_DOUBLE, .d = (v) })
#define CTF_STR(v) ((struct ctf_value){ .kind = CTF_VALUE_STRING, .str = (v) })
#define CTF_LIST(arr, n) \
	((struct ctf_value){ .kind = CTF_VALUE_LIST, .count = (n), .list = (arr) })
#define CTF_BYTES(p, n) \
	((struct ctf_value){ .kind = CTF_VALUE_BYTES, .count = (n), .bytes = (p) })

/* A bit cursor over a packet buffer: offsets from the packet start. */
struct ctf_cursor {
	uint8_t *base;
	uint64_t off;		/* bits */
	uint64_t cap;		/* bits */
};

/*
 * Encodes the fields of struct type st from vals[0..n) (n must equal its
 * field count) at c->off, advancing it. bo: the trace's byte order
 * (CTF_BO_LE/BE). Returns 0; -ENOSPC if it does not fit before c->cap;
 * -EINVAL/-ERANGE (see above). On error c and the buffer are as before.
 * Context: any; no allocation.
 */
int ctf_serialize_struct(struct ctf_cursor *c, enum ctf_byte_order bo,
			 const struct ctf_type *st, const struct ctf_value *vals,
			 size_t n);

/* ---- one stream's packets, built in memory ---- */

struct ctf_stream_writer;

/*
 * A packet builder for stream class stream_class_id of trace t (borrowed:
 * it must outlive the writer), with packets of packet_size bytes (a
 * multiple of 8, large enough for the headers). Returns 0 and *ret_w
 * (ctf_stream_writer_free), -EINVAL (unknown stream class, bad size),
 * -ENOMEM.
 */
int ctf_stream_writer_create(const struct ctf_trace *t, uint32_t stream_class_id,
			     uint64_t stream_instance_id, uint32_t cpu_id,
			     size_t packet_size, struct ctf_stream_writer **ret_w);
void ctf_stream_writer_free(struct ctf_stream_writer *w);

/*
 * Appends an event of class ec (of this stream class) at timestamp ts
 * (clock cycles), with ctx values for the stream's event context (nctx = its
 * field count, 0 if it has none) and payload values. Opens a packet if none
 * is open (timestamp_begin = ts). Returns 0; -ENOSPC: it does not fit in
 * the open packet (nothing written: close the packet, then retry);
 * -EMSGSIZE: it does not fit even in an empty packet; -ERANGE: ts is below
 * the previous timestamp or a value is out of range; -EINVAL: ec is not of
 * this stream class or a value does not fit its type.
 */
int ctf_stream_writer_event(struct ctf_stream_writer *w, const struct ctf_event_class *ec,
			    uint64_t ts, const struct ctf_value *ctx, size_t nctx,
			    const struct ctf_value *payload, size_t npayload);

/*
 * Packets closed from now on are cut after their content, rounded up to a
 * multiple of pad bytes (a power of two, multiple of 8; 0: the whole
 * packet_size, the default): their packet_size says so, and a consumer
 * writes only that much, as LTTng's does with page-aligned sub-buffers.
 */
void ctf_stream_writer_set_padding(struct ctf_stream_writer *w, size_t pad);

/*
 * ctf_stream_writer_event with the event context and payload given as the
 * bytes they encode to, back to back (len bytes), for streams and classes
 * whose context and payload are byte packed (ec->byte_packed, checked
 * here: -EINVAL otherwise): a converter that knows its records' layout
 * skips the value model. The bytes are not checked. Returns as
 * ctf_stream_writer_event.
 */
int ctf_stream_writer_event_raw(struct ctf_stream_writer *w, const struct ctf_event_class *ec,
				uint64_t ts, const void *bytes, size_t len);

/* Counts n more discarded events: the next packet closed reports them. */
void ctf_stream_writer_add_discarded(struct ctf_stream_writer *w, uint64_t n);

/*
 * Whether a packet must be closed to report something: events are in the
 * open packet, or discarded events were counted since the last packet.
 */
bool ctf_stream_writer_pending(const struct ctf_stream_writer *w);

/*
 * Closes the open packet (opening an empty one first if only discarded
 * events are pending) with timestamp_end = ts_end (0: the last timestamp;
 * else it must be >= it, and later events must not be earlier). Returns 0
 * and the packet (*data, valid until the next call on w; info->packet_size /
 * 8 bytes, padded with zeros: the writer's packet size, or less with
 * ctf_stream_writer_set_padding) and its header values in *info; -ENODATA if
 * nothing is pending; -ERANGE if ts_end is below the last timestamp.
 */
int ctf_stream_writer_close_packet(struct ctf_stream_writer *w, uint64_t ts_end,
				   const void **data, struct ctf_packet_info *info);

#endif /* LTT_CTF_EVENT_H */
