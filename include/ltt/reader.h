/*
 * <ltt/reader.h> - libltt-reader: a fast CTF 1.8 trace reader.
 *
 * Reads ltt's traces and LTTng's (every `metadata` + stream file found under
 * a directory, recursively), decodes packets from memory-mapped files without
 * per-event allocation, and merges every stream into one time-ordered
 * sequence, in the order babeltrace2 2.0 gives (ties broken like its muxer).
 *
 * Threading: one reader is used by one thread at a time. Memory grows with
 * the number of streams and the size of the largest event, never with the
 * size of the trace.
 *
 * Errors: functions return 0 (or a count) or a negative errno. A malformed
 * trace gives -EBADMSG (or -EPROTO for metadata) and ltt_reader_errmsg()
 * says which file, at which offset, and what is wrong.
 */
#ifndef LTT_READER_H
#define LTT_READER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ltt_reader;
struct ltt_event;	/* borrowed from the reader, valid until the next call */
struct ltt_value;	/* a decoded field, borrowed like its event */

/*
 * ltt_reader_open - opens every CTF trace under path (a trace directory or a
 * directory holding several, at any depth).
 * Returns 0 and *ret_reader (free with ltt_reader_free()), -ENOENT if no
 * trace is found, -EPROTO for bad metadata, -EBADMSG for a bad stream file,
 * another negative errno if a file cannot be read. On failure, and if
 * ret_errmsg is not NULL, *ret_errmsg is set to a malloc()ed message naming
 * the file (free it).
 */
int ltt_reader_open(const char *path, struct ltt_reader **ret_reader,
		    char **ret_errmsg);

/* Frees the reader and everything it lent out. NULL is a no-op. */
void ltt_reader_free(struct ltt_reader *reader);

/* What ltt_reader_next() produced. */
enum ltt_record {
	LTT_RECORD_END = 0,		/* no more events */
	LTT_RECORD_EVENT = 1,		/* an event */
	LTT_RECORD_DISCARDED_EVENTS = 2,	/* the tracer lost events */
	LTT_RECORD_DISCARDED_PACKETS = 3,	/* packets are missing */
};

/*
 * ltt_reader_next - the next record in time order.
 * Returns an enum ltt_record (>= 0) and sets *ret_event (for discarded
 * records, the event describes the loss: ltt_event_discarded()), or a
 * negative errno (then ltt_reader_errmsg() says why; the reader is done).
 * The event stays valid until the next call.
 */
int ltt_reader_next(struct ltt_reader *reader, const struct ltt_event **ret_event);

/* The last error's message ("" if none); owned by the reader. */
const char *ltt_reader_errmsg(const struct ltt_reader *reader);

/* Number of traces and streams opened. */
size_t ltt_reader_trace_count(const struct ltt_reader *reader);
size_t ltt_reader_stream_count(const struct ltt_reader *reader);

/* --- events ------------------------------------------------------------ */

const char *ltt_event_name(const struct ltt_event *ev);
/* Event class id within its stream class. */
uint64_t ltt_event_class_id(const struct ltt_event *ev);
/* 1 if the event has a timestamp (its stream class has a clock). */
int ltt_event_has_time(const struct ltt_event *ev);
/* Nanoseconds from the clock's origin (the Unix epoch for LTTng's clocks). */
int64_t ltt_event_ns(const struct ltt_event *ev);
/* Raw clock value, in cycles of the stream's clock. */
uint64_t ltt_event_cycles(const struct ltt_event *ev);
/* The packet context's cpu_id, or -1 if there is none. */
int64_t ltt_event_cpu(const struct ltt_event *ev);
uint64_t ltt_event_stream_class_id(const struct ltt_event *ev);
uint64_t ltt_event_stream_id(const struct ltt_event *ev);
/* Path of the (first) file of the event's stream. */
const char *ltt_event_stream_name(const struct ltt_event *ev);
/* The trace's name as babeltrace2 gives it: "HOSTNAME/relative/path". */
const char *ltt_event_trace_name(const struct ltt_event *ev);
/* The event class's log level: 0 and *ret, or -ENOENT if it has none. */
int ltt_event_loglevel(const struct ltt_event *ev, int64_t *ret);
/* The event class's model.emf.uri, or NULL. */
const char *ltt_event_emf_uri(const struct ltt_event *ev);
/* The trace UUID (16 bytes) or NULL. */
const uint8_t *ltt_event_trace_uuid(const struct ltt_event *ev);

/*
 * For LTT_RECORD_DISCARDED_*: the count (UINT64_MAX if unknown) and the time
 * range [*begin_ns, *end_ns] (both 0 and *has_range 0 if unknown).
 */
uint64_t ltt_event_discarded(const struct ltt_event *ev, int64_t *begin_ns,
			     int64_t *end_ns, int *has_range);

/* The env entry of the event's trace: a string, or NULL. */
const char *ltt_event_env_string(const struct ltt_event *ev, const char *key);
/* The env entry as an integer: 0 and *ret, or -ENOENT / -EINVAL. */
int ltt_event_env_int(const struct ltt_event *ev, const char *key, int64_t *ret);

/* The scopes of an event, as babeltrace2 names them. */
enum ltt_scope {
	LTT_SCOPE_PACKET_CONTEXT = 0,	/* stream.packet.context */
	LTT_SCOPE_COMMON_CONTEXT = 1,	/* stream.event.context */
	LTT_SCOPE_SPECIFIC_CONTEXT = 2,	/* event.context */
	LTT_SCOPE_PAYLOAD = 3,		/* event.fields */
};

/* The root structure of a scope, or NULL if the event has none. */
const struct ltt_value *ltt_event_scope(const struct ltt_event *ev, enum ltt_scope scope);
/*
 * A top-level field of the payload by name (leading '_' stripped, as
 * babeltrace2 does), else of the event context, the stream event context,
 * then the packet context; NULL if there is none.
 */
const struct ltt_value *ltt_event_field(const struct ltt_event *ev, const char *name);

/* --- values -------------------------------------------------------------- */

enum ltt_value_kind {
	LTT_VALUE_UNSIGNED = 0,
	LTT_VALUE_SIGNED,
	LTT_VALUE_ENUM_UNSIGNED,
	LTT_VALUE_ENUM_SIGNED,
	LTT_VALUE_FLOAT,	/* 32-bit */
	LTT_VALUE_DOUBLE,	/* any other floating point size */
	LTT_VALUE_STRING,	/* also text arrays and sequences */
	LTT_VALUE_STRUCT,
	LTT_VALUE_ARRAY,	/* static array */
	LTT_VALUE_SEQUENCE,	/* dynamic array */
	LTT_VALUE_VARIANT,	/* one child: the selected option */
};

enum ltt_value_kind ltt_value_kind(const struct ltt_value *v);
uint64_t ltt_value_u64(const struct ltt_value *v);	/* integers, enums */
int64_t ltt_value_i64(const struct ltt_value *v);	/* integers, enums */
double ltt_value_double(const struct ltt_value *v);	/* floats; integers converted */
/* Strings: the bytes (not NUL-terminated) and *len. */
const char *ltt_value_string(const struct ltt_value *v, size_t *len);
/* Integers: display base (2, 8, 10, 16) and size in bits. */
int ltt_value_base(const struct ltt_value *v);
unsigned ltt_value_bits(const struct ltt_value *v);
/*
 * Enums: the idx-th label whose ranges contain the value (in declaration
 * order), or NULL past the last.
 */
const char *ltt_value_enum_label(const struct ltt_value *v, size_t idx);
/*
 * Compound values: the number of children shown (babeltrace2 hides fields
 * with a special meaning or mapped to a clock), the idx-th child, and for
 * structures its member name.
 */
size_t ltt_value_count(const struct ltt_value *v);
const struct ltt_value *ltt_value_child(const struct ltt_value *v, size_t idx);
const char *ltt_value_member_name(const struct ltt_value *v, size_t idx);
/* The same, with its length in *len. */
const char *ltt_value_member_name_len(const struct ltt_value *v, size_t idx, size_t *len);
/* A structure member by name (leading '_' stripped), or NULL. */
const struct ltt_value *ltt_value_member(const struct ltt_value *v, const char *name);

/*
 * ltt_value_format_pretty - appends v in babeltrace2's text layout (its
 * sink.text.pretty: `{ a = 1, s = "x" }`, `[ [0] = 1 ]`, enums as
 * `( "L" : container = 1 )`, display bases, %g floats, escaped strings) to
 * the growable buffer *buf (malloc()ed, *cap bytes, *len used; NULL/0/0 to
 * start; realloc()ed as needed, owned by the caller). field_names: print
 * member names and array indices. Returns 0 or -ENOMEM (then the text is
 * cut short).
 */
int ltt_value_format_pretty(const struct ltt_value *v, int field_names, char **buf,
			    size_t *len, size_t *cap);

/* What ltt_event_format_pretty() prints besides the values. */
enum ltt_format_flag {
	LTT_FORMAT_PAYLOAD_NAMES = 1,	/* member names and indices in the payload */
	LTT_FORMAT_CONTEXT_NAMES = 2,	/* the same in the packet and event contexts */
	LTT_FORMAT_SCOPE_NAMES = 4,	/* "event.fields = " etc. before each scope */
};

/*
 * ltt_event_format_pretty - appends the scopes of an event shown by
 * ltt_event_scope() (packet context, stream event context, event context,
 * payload), as babeltrace2's text layout prints them after the event name:
 * `{ cpu_id = 0 }, { vpid = 1 }, { a = 1, s = "x" }` (the same bytes as
 * ltt_value_format_pretty() on each, joined with ", "), to the buffer as
 * ltt_value_format_pretty() does. Each event class is compiled, the first
 * time, into a program that prints its events faster. Returns 0, -ENOMEM
 * (then the text is cut short), or -EINVAL for a discarded-events record.
 */
int ltt_event_format_pretty(const struct ltt_event *ev, unsigned flags, char **buf,
			    size_t *len, size_t *cap);

#ifdef __cplusplus
}
#endif

#endif /* LTT_READER_H */
