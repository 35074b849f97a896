/*
 * ctf-trace.h - a CTF 1.8 trace class and its TSDL metadata.
 *
 * A struct ctf_trace holds what the metadata says: uuid, byte order, env,
 * clocks, stream classes (LTTng's packet header and context, compact or
 * large event headers) and event classes. Metadata grows as LTTng's does:
 * the preamble (typealiases, trace, env, clocks, streams) is generated the
 * first time the text is asked for, or when the first event class is added;
 * from then on env, clocks and stream classes are frozen (-EBUSY) and each
 * new event class appends its `event { ... };` block.
 *
 * Every declaration is checked when it is added: TSDL identifiers that are
 * not keywords, no duplicate fields, sequence lengths naming an earlier
 * unsigned integer sibling, enum mappings that fit their container, known
 * types; on error the trace is unchanged, the call returns -EINVAL (or
 * -EEXIST for a duplicate id) and *err says what is wrong.
 *
 * Context: setup and control paths (allocates); not thread-safe: the owner
 * serializes calls. Event classes stay valid (and at the same address) until
 * ctf_trace_free().
 */
#ifndef LTT_CTF_TRACE_H
#define LTT_CTF_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctf/ctf-error.h"
#include "ctf/ctf-types.h"

enum ctf_header_kind {
	CTF_HEADER_COMPACT = 0,	/* 5-bit id (31 = extended) + 27-bit timestamp */
	CTF_HEADER_LARGE,	/* 16-bit id (65535 = extended) + 32-bit timestamp */
};

/*
 * How a trace's fixed fields are aligned. Natural: each at its own
 * alignment (uint32_t at 32 bits...). Packed: every integer at a byte
 * boundary (declared align = 8), the way LTTng lays out its traces on x86,
 * where unaligned accesses are cheap: fewer bytes per event. Event payloads
 * follow their own types' alignments either way.
 */
enum ctf_layout {
	CTF_LAYOUT_NATURAL = 0,
	CTF_LAYOUT_PACKED,
};

#if defined(__i386__) || defined(__x86_64__)
#define CTF_LAYOUT_HOST CTF_LAYOUT_PACKED
#else
#define CTF_LAYOUT_HOST CTF_LAYOUT_NATURAL
#endif

struct ctf_clock_desc {
	const char *name;		/* TSDL identifier, e.g. "monotonic" */
	const uint8_t *uuid;		/* 16 bytes, or NULL */
	const char *description;	/* or NULL */
	uint64_t freq;			/* Hz, > 0 */
	int64_t offset_s;		/* seconds from the origin */
	uint64_t offset;		/* plus cycles */
	uint64_t precision;		/* cycles */
	bool absolute;
};

struct ctf_event_class_desc {
	const char *name;		/* printable, may contain ':' */
	uint32_t id;			/* unique within the stream class */
	uint32_t stream_id;
	bool has_loglevel;
	int loglevel;
	const char *emf_uri;		/* model.emf.uri, or NULL */
};

struct ctf_stream_class {
	uint32_t id;
	enum ctf_header_kind header;
	unsigned clock;			/* index in the trace's clocks */
	struct ctf_type *event_context;	/* struct or NULL */
	struct ctf_event_class **events;	/* in the order added */
	size_t nevents, cap;
};

struct ctf_event_class {
	char *name;
	uint32_t id;
	uint32_t stream_id;
	bool has_loglevel;
	int loglevel;
	char *emf_uri;
	struct ctf_type *payload;	/* a struct (maybe empty) */
	const struct ctf_stream_class *stream;
	bool byte_packed;		/* payload and stream event context: ctf_type_byte_packed */
};

struct ctf_trace;

/*
 * A trace with the given uuid (16 bytes) and byte order (CTF_BO_LE or
 * CTF_BO_BE). Returns 0 and *ret_trace (free with ctf_trace_free), -EINVAL,
 * -ENOMEM.
 */
int ctf_trace_create(const uint8_t uuid[16], enum ctf_byte_order bo,
		     struct ctf_trace **ret_trace);
void ctf_trace_free(struct ctf_trace *t);

const uint8_t *ctf_trace_uuid(const struct ctf_trace *t);

/*
 * The layout of the packet header and context and of the event headers
 * (natural until set). -EBUSY once the preamble is generated, -EINVAL.
 */
int ctf_trace_set_layout(struct ctf_trace *t, enum ctf_layout layout, struct ctf_error *err);
enum ctf_layout ctf_trace_layout(const struct ctf_trace *t);
/* CTF_BO_LE or CTF_BO_BE. */
enum ctf_byte_order ctf_trace_byte_order(const struct ctf_trace *t);

/*
 * Gives the trace another uuid (a new trace, e.g. the next chunk of a
 * rotated session), or a clock (by name) another offset (the wall time
 * resampled): the metadata text is rewritten, its event classes kept.
 * 0, -ENOENT (no such clock) or -ENOMEM (the trace is then unchanged).
 */
int ctf_trace_set_uuid(struct ctf_trace *t, const uint8_t uuid[16]);
int ctf_trace_set_clock_offset(struct ctf_trace *t, const char *clock, int64_t offset_s,
			       uint64_t offset);

/*
 * env entries, in the order first set (setting a key again replaces its
 * value). Keys are TSDL identifiers. -EINVAL (bad key), -EBUSY (preamble
 * already generated), -ENOMEM.
 */
int ctf_trace_env_set_string(struct ctf_trace *t, const char *key,
			     const char *value, struct ctf_error *err);
int ctf_trace_env_set_int(struct ctf_trace *t, const char *key, int64_t value,
			  struct ctf_error *err);

/* What LTTng's env blocks say; NULL/0 members are left out. */
struct ctf_env_lttng {
	const char *domain;		/* "ust" or "kernel" */
	const char *tracer_name;	/* "lttng-ust" / "lttng-modules" (the layout followed) */
	int tracer_major, tracer_minor, tracer_patchlevel;
	const char *hostname;
	const char *trace_name;
	const char *trace_creation_datetime;	/* ISO 8601, e.g. 20260102T030405+0000 */
	/* ust */
	const char *buffering_scheme;	/* "uid" or "pid" */
	int64_t buffering_id;
	int architecture_bit_width;
	int64_t vpid;			/* per-PID buffers: vpid, procname, vpid_datetime */
	const char *procname;
	const char *vpid_datetime;
	/* kernel */
	const char *sysname, *kernel_release, *kernel_version;
	/* ours: written as ltt_tracer = "ltt", ltt_version = ... */
	const char *ltt_version;
};

/*
 * Fills the env keys LTTng writes for a domain ("ust": tracer_buffering_scheme,
 * tracer_buffering_id, architecture_bit_width...; "kernel": sysname,
 * kernel_release, kernel_version, trace_buffering_scheme = "global"), plus
 * ltt_tracer/ltt_version naming ltt itself. Same errors as the setters.
 */
int ctf_trace_env_lttng(struct ctf_trace *t, const struct ctf_env_lttng *e,
			struct ctf_error *err);

/* Adds a clock; -EINVAL (bad name, freq 0, duplicate), -EBUSY, -ENOMEM. */
int ctf_trace_add_clock(struct ctf_trace *t, const struct ctf_clock_desc *c,
			struct ctf_error *err);

/*
 * Adds a stream class whose timestamps map to clock `clock_name`; takes
 * ownership of event_context (a struct, or NULL; freed on failure).
 * Returns 0 and *ret_sc (owned by the trace; ret_sc may be NULL), -EINVAL,
 * -EEXIST (id taken), -EBUSY, -ENOMEM.
 */
int ctf_trace_add_stream_class(struct ctf_trace *t, uint32_t id,
			       enum ctf_header_kind header, const char *clock_name,
			       struct ctf_type *event_context, struct ctf_error *err,
			       const struct ctf_stream_class **ret_sc);

/*
 * Adds an event class; takes ownership of payload (a struct, or NULL for
 * no fields; freed on failure). Generates the preamble if needed and
 * appends the event's TSDL. Returns 0 and *ret_ec (owned by the trace;
 * may be NULL), -EINVAL, -EEXIST (id taken in its stream), -ENOMEM.
 */
int ctf_trace_add_event_class(struct ctf_trace *t, const struct ctf_event_class_desc *d,
			      struct ctf_type *payload, struct ctf_error *err,
			      const struct ctf_event_class **ret_ec);

const struct ctf_stream_class *ctf_trace_stream_class(const struct ctf_trace *t,
						      uint32_t id);
const struct ctf_event_class *ctf_trace_event_class(const struct ctf_trace *t,
						    uint32_t stream_id, uint32_t id);

/*
 * The metadata text so far (generating the preamble if not yet done):
 * *text is NUL-terminated, valid until the next call that changes the
 * trace; *len excludes the NUL. Returns 0 or -ENOMEM. Callers that stream
 * metadata remember how many bytes they wrote and send the rest.
 */
int ctf_trace_metadata(struct ctf_trace *t, const char **text, size_t *len);

/* ---- packetized metadata (the form LTTng's consumer writes) ---- */

#define CTF_METADATA_MAGIC 0x75D11D57u
#define CTF_METADATA_HEADER_SIZE 37	/* bytes */
#define CTF_METADATA_PACKET_SIZE 4096	/* LTTng's metadata sub-buffer */

/*
 * Writes one metadata packet header at dst (CTF_METADATA_HEADER_SIZE bytes):
 * magic, uuid, checksum 0, content_size and packet_size in bits (header
 * included), no compression/encryption/checksum, version 1.8, in byte
 * order bo. Context: any; no allocation.
 */
void ctf_metadata_packet_header_write(void *dst, const uint8_t uuid[16],
				      enum ctf_byte_order bo, uint32_t content_bytes,
				      uint32_t packet_bytes);

/*
 * Packetizes text[0..len) into packets of packet_size bytes (> header size;
 * the last packet padded with zeros): returns the number of bytes written to
 * dst, or -ENOSPC if dst_cap is too small (ctf_metadata_packetized_size says
 * how much is needed), -EINVAL.
 */
size_t ctf_metadata_packetized_size(size_t len, size_t packet_size);
long ctf_metadata_packetize(const uint8_t uuid[16], enum ctf_byte_order bo,
			    const char *text, size_t len, size_t packet_size,
			    void *dst, size_t dst_cap);

/* ---- names ---- */

/* true if s is a TSDL identifier ([A-Za-z_][A-Za-z0-9_]*) and not a keyword. */
bool ctf_is_identifier(const char *s);
bool ctf_is_keyword(const char *s);

#endif /* LTT_CTF_TRACE_H */
