/*
 * reader-internal.h - the reader's data model, shared by its files only.
 *
 * metadata (tsdl.c) -> struct rd_meta: field types (struct rd_type trees,
 * each use of a named type a copy of its own, so that per-field flags such
 * as "is the event id" or "hidden" stay local), stream and event classes.
 * decode.c turns bytes into struct rd_val arrays (the children of a compound
 * value are contiguous; a decoded scope is a root index into a per-stream
 * buffer that is reused from event to event).
 */
#ifndef LTT_READER_INTERNAL_H
#define LTT_READER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ltt/reader.h"

/* Bounds on outside input: metadata and packets cannot make us loop or blow up. */
#define RD_MAX_DEPTH 64			/* nesting of types and of the parser */
#define RD_MAX_TYPES (1u << 17)		/* type nodes per trace (under 100 MiB at worst) */
#define RD_MAX_VALUES (1u << 22)	/* values decoded for one scope */
#define RD_MAX_METADATA (64u << 20)	/* bytes of metadata text */

enum rd_kind {
	RD_INT, RD_ENUM, RD_FLOAT, RD_STRING, RD_STRUCT, RD_ARRAY, RD_SEQ, RD_VARIANT,
};

enum rd_bo { RD_BO_NATIVE = 0, RD_BO_LE, RD_BO_BE };

struct rd_type;

struct rd_member {
	char *name;		/* as written (leading '_' kept) */
	const char *shown;	/* name without its leading '_' */
	size_t shown_len;
	char *sep;		/* ", SHOWN = " for the pretty printer (sep + 1: the first) */
	struct rd_type *type;
};

struct rd_mapping {
	char *label;
	size_t nranges;
	struct { int64_t lo, hi; } *ranges;	/* unsigned enums compare as uint64_t */
};

/* Where a sequence length or a variant tag lives. */
struct rd_path {
	char *text;
	/* resolved: */
	int scope;		/* -1 relative, else enum rd_scope_id */
	int up;			/* relative: how many enclosing structs to go up */
	size_t depth;
	uint32_t idx[RD_MAX_DEPTH];	/* member indices from the start struct */
	const struct rd_type *target;
};

enum rd_scope_id {
	RD_SC_PACKET_HEADER, RD_SC_PACKET_CONTEXT, RD_SC_EVENT_HEADER,
	RD_SC_COMMON_CONTEXT, RD_SC_SPECIFIC_CONTEXT, RD_SC_PAYLOAD, RD_SC_COUNT,
};

struct rd_type {
	enum rd_kind kind;
	uint32_t align;		/* bits, power of two */
	bool hidden;		/* not in babeltrace2's IR: not shown */
	bool is_event_id;	/* event header "id" */
	/* integers, enums, floats */
	uint32_t size;		/* bits */
	bool is_signed;
	uint8_t base;		/* 2, 8, 10, 16 */
	enum rd_bo bo;
	bool text;		/* integers: encoding is not none; arrays: text */
	int clock;		/* index into rd_meta.clocks, or -1 */
	uint32_t mant_dig;
	/* enum */
	struct rd_type *container;
	size_t nmappings;
	struct rd_mapping *mappings;
	/* struct / variant */
	size_t nmembers;
	struct rd_member *members;
	size_t nshown;
	uint32_t *shown;	/* indices of shown members */
	/* structs: the leading scalar members have offsets fixed relative to the
	 * (aligned) struct start: decoded without per-member checks */
	size_t nstatic;
	uint32_t *static_off;	/* bits from the struct start */
	uint64_t static_bits;	/* end of the last static member */
	/* variant */
	struct rd_path tag;
	int32_t *opt_of_mapping;	/* tag mapping index -> option index (-1) */
	/* the last tag value seen and its option: decoding state, not metadata
	 * (a reader is used by one thread; LTTng's headers repeat one tag) */
	uint64_t last_tag;
	int32_t last_opt;	/* -1: none yet */
	/* array / sequence */
	struct rd_type *elem;
	uint64_t length;
	struct rd_path len;
};

struct rd_clock {
	char *name;
	uint64_t freq;
	int64_t offset_s;
	uint64_t offset;	/* cycles, < freq after normalization */
	int64_t base_ns;	/* offset in ns */
	uint8_t uuid[16];
	bool has_uuid;
};

struct rd_event_class {
	char *name;
	uint64_t id;
	uint64_t stream_id;
	int64_t loglevel;
	bool has_loglevel;
	char *emf_uri;
	struct rd_type *context;	/* or NULL */
	struct rd_type *fields;		/* or NULL */
};

struct rd_stream_class {
	uint64_t id;
	struct rd_type *packet_context;
	struct rd_type *event_header;
	struct rd_type *event_context;
	int clock;			/* default clock, or -1 */
	struct rd_event_class **events;	/* indexed by id when dense */
	size_t nevents;
	struct rd_event_class **by_id;	/* dense map, size nby_id */
	size_t nby_id;
	bool has_discarded;		/* packet context has events_discarded */
	bool has_seq_num;		/* packet context has packet_seq_num */
};

struct rd_env {
	char *key;
	char *str;		/* NULL for an integer */
	int64_t num;
};

struct rd_meta {
	int bo;			/* RD_BO_LE or RD_BO_BE */
	uint8_t uuid[16];
	bool has_uuid;
	struct rd_type *packet_header;
	struct rd_env *env;
	size_t nenv;
	struct rd_clock *clocks;
	size_t nclocks;
	struct rd_stream_class **streams;
	size_t nstreams;
	/* every type node, for freeing */
	struct rd_type **types;
	size_t ntypes, captypes;
};

/*
 * rd_meta_parse - parses TSDL text (len bytes) into a new struct rd_meta.
 * Returns 0 and *ret_meta (free with rd_meta_free()), or -EPROTO with a
 * message "line N: ..." in errbuf, or -ENOMEM.
 */
int rd_meta_parse(const char *text, size_t len, struct rd_meta **ret_meta,
		  char *errbuf, size_t errlen);
void rd_meta_free(struct rd_meta *meta);

/*
 * rd_metadata_text - the TSDL text of a metadata file's bytes: plain text is
 * copied, packetized metadata is unpacked. Returns 0 and *ret_text
 * (malloc()ed, NUL-terminated) and *ret_len, or -EPROTO (message in
 * errbuf) or -ENOMEM.
 */
int rd_metadata_text(const uint8_t *data, size_t size, char **ret_text,
		     size_t *ret_len, char *errbuf, size_t errlen);

const struct rd_env *rd_meta_env(const struct rd_meta *meta, const char *key);
struct rd_stream_class *rd_meta_stream(const struct rd_meta *meta, uint64_t id);
struct rd_event_class *rd_stream_event(const struct rd_stream_class *sc, uint64_t id);

/* --- decoding ------------------------------------------------------------ */

struct rd_val {
	const struct rd_type *type;
	union {
		uint64_t u;
		int64_t i;
		double d;
		struct { const char *s; uint64_t len; } str;
		struct { uint32_t first, count; } kids;
	};
};

/* A growable array of values, reused from event to event. */
struct rd_vbuf {
	struct rd_val *v;
	size_t n, cap;
};

/* Decoding state of one scope chain (one stream's current packet/event). */
struct rd_decoder {
	const uint8_t *buf;	/* packet start */
	uint64_t pos;		/* bits from buf */
	uint64_t end;		/* bits: content end (never read past) */
	int bo_trace;
	uint64_t *clock;	/* current clock value, or NULL */
	uint64_t event_id;
	bool has_event_id;
	/* scopes decoded so far, for absolute paths */
	struct rd_vbuf *scope_buf[RD_SC_COUNT];
	int64_t scope_root[RD_SC_COUNT];	/* -1: none */
	const char *errmsg;	/* static text */
	/* structs being decoded (value indices), for relative paths */
	uint32_t stack[2 * RD_MAX_DEPTH + 2];
	size_t nstack;
	unsigned depth;
	struct rd_vbuf *cur;
};

/*
 * rd_decode_scope - decodes a value of type t at d->pos into vb (appended:
 * vb is reset by the caller) as scope sc. Returns the root's index, or -1
 * with d->errmsg set (never reads past d->end).
 */
int64_t rd_decode_scope(struct rd_decoder *d, const struct rd_type *t,
			struct rd_vbuf *vb, int sc);
void rd_vbuf_free(struct rd_vbuf *vb);

/* The index of a member named name (as written, or shown) in struct t, or -1. */
int rd_struct_index(const struct rd_type *t, const char *name);

/*
 * rd_reader_open_mem - a reader over one trace given as metadata text and n
 * stream buffers (not copied: they must outlive the reader), as if they were
 * files "(memory)/streamNNN". For tests and fuzzing. Returns as
 * ltt_reader_open().
 */
int rd_reader_open_mem(const char *metadata, size_t len, const uint8_t *const *data,
		       const size_t *sizes, size_t n, struct ltt_reader **ret_reader,
		       char **ret_errmsg);

/* --- the public objects ---------------------------------------------------- */

struct ltt_value {
	struct rd_val v;	/* never instantiated: ltt_value pointers are rd_val pointers */
};

#endif /* LTT_READER_INTERNAL_H */
