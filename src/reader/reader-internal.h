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
	/* variant */
	struct rd_path tag;
	int32_t *opt_of_mapping;	/* tag mapping index -> option index (-1) */
	/* the tag values that selected the last option taken, [last_lo,
	 * last_hi] (as the tag compares them), and that option: decoding state,
	 * not metadata (a reader is used by one thread; LTTng's event headers
	 * take one option for most ids) */
	int64_t last_lo, last_hi;
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
	size_t index;			/* in its stream class's events */
	uint64_t stream_id;
	int64_t loglevel;
	bool has_loglevel;
	char *emf_uri;
	struct rd_type *context;	/* or NULL */
	struct rd_type *fields;		/* or NULL */
	/* decodes the stream's event context, the event context and the fields */
	struct rd_prog *prog;
	/* print programs (pretty.c), by enum ltt_format_flag, compiled on first
	 * use, and the scope types they were compiled for */
	struct rd_fmt *fmt[8];
	const struct rd_type *fmt_types[8][4];
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
	struct rd_prog *packet_context_prog;	/* or NULL */
	struct rd_prog *event_header_prog;	/* or NULL */
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
	struct rd_prog *packet_header_prog;	/* or NULL */
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

/* --- decode programs ------------------------------------------------------ */

/*
 * Scopes' type trees flattened into a list of ops, compiled once from the
 * metadata (program.c) and run for every event (decode.c). Values have
 * fixed slots: each op writes slot `slot` of its block. Block 0 holds the
 * program's values (each option of a variant its own); each element of an
 * array of compounds is a block of its own, of the array's `arg` slots;
 * elements of scalar arrays are appended after all that. Values of block 0
 * keep their type from event to event: their types and their structs come
 * from the program's template, their ops write the value alone (the
 * one-load ops below); in arrays' blocks ops write types too.
 *
 * Fields of fixed size whose offsets from the first one are fixed (no
 * alignment larger than the first one's in between) form a run: a RUN op
 * aligns the position, checks the whole run against the content end once
 * and moves past it; the run's ops read at their offset without checks.
 */
enum rd_opcode {
	RD_OP_RUN,		/* the next `arg` bits hold ops up to op `target` */
	/* in a run, integers and enums of block 0 read with one load:
	 * byte-aligned, 8/16/32/64 bits, no clock and not an event id;
	 * S: sign-extended; BE: byte-swapped; the type is the template's */
	RD_OP_U8, RD_OP_U16, RD_OP_U32, RD_OP_U64, RD_OP_S8, RD_OP_S16, RD_OP_S32,
	RD_OP_BE16, RD_OP_BE32, RD_OP_BE64, RD_OP_SBE16, RD_OP_SBE32,
	RD_OP_F32, RD_OP_F64,	/* in a run, of block 0: byte-aligned little-endian floats */
	RD_OP_CLOCK, RD_OP_ID,	/* in a run, of block 0: an unsigned integer of 8/16/32/64
				 * bits at a byte, little-endian, that updates the stream's
				 * clock / is the event id */
	RD_OP_INT,		/* in a run: any other integer or enum (bit fields, clocks, ids) */
	RD_OP_FLOAT,		/* in a run: any other float */
	RD_OP_STRUCT,		/* in a run, in a variant or array: a struct, its members
				 * in slots arg, arg + 1, ... */
	RD_OP_STRING,
	RD_OP_TEXT,		/* text array or sequence: a string of known length */
	RD_OP_SCALARS,		/* array or sequence of integers, enums or floats */
	RD_OP_VARIANT,		/* jumps to options[target + option].op; the option's
				 * value is in its own slot, options[...].slot */
	RD_OP_JUMP,		/* end of a variant's option: goes on at op target */
	RD_OP_ARRAY,		/* array or sequence of compounds, elements of arg slots:
				 * the element's ops follow, then RD_OP_NEXT; ends at op target */
	RD_OP_NEXT,		/* next element: back to op target, or the array is done */
	RD_OP_EVENT,		/* ends an event header: runs the program of the event's
				 * class into its buffer (struct rd_decoder) */
	RD_OP_HEADER,		/* an event header of LTTng's shape read at once
				 * (struct rd_hdr), then on at op target (its EVENT);
				 * when it cannot (near the content end, a tag that
				 * selects neither option), the header's own ops that
				 * follow it decode it. Without that shape: a no-op */
	RD_OP_RETURN,
};

/* Where an op finds the sequence length or variant tag it depends on. */
enum rd_ref {
	RD_REF_NONE,		/* it needs none */
	RD_REF_SLOT,		/* in this program: slot ref of block level ref_level */
	RD_REF_PATH,		/* in a scope decoded before: by path */
	RD_REF_LATER,		/* in this program, but decoded after: an error when run */
};

/* What ops do besides reading (RD_OP_INT, RD_OP_FLOAT, RD_OP_VARIANT). */
enum rd_op_flag {
	RD_OPF_BE = 1,		/* big-endian */
	RD_OPF_SIGNED = 2,	/* sign-extended */
	RD_OPF_CLOCK = 4,	/* updates the stream's clock */
	RD_OPF_ID = 8,		/* is the event id */
	RD_OPF_BYTES = 16,	/* little-endian, 8/16/32/64 bits at a byte: one load */
	RD_OPF_DYNAMIC = 32,	/* VARIANT: in an array's block, not in the template */
};

struct rd_op {
	const void *addr;	/* where its code is in decode.c's run(), once it ran */
	uint8_t code;		/* enum rd_opcode */
	uint8_t ref_kind;	/* enum rd_ref */
	uint8_t flags;		/* enum rd_op_flag */
	uint16_t size;		/* bits, for scalars */
	uint32_t amask;		/* ops out of runs and RUN: alignment - 1, in bits */
	uint32_t off;		/* ops in a run: bits from the run's start */
	uint32_t boff;		/* the same in bytes (off / 8), for the one-load ops */
	uint32_t slot;		/* the value's index in its block */
	uint32_t voff;		/* the same in bytes: slot * sizeof(struct rd_val) */
	uint32_t arg;		/* see enum rd_opcode */
	uint32_t target;	/* op index or first entry of options */
	uint32_t ref;
	uint32_t ref_level;
	const struct rd_type *type;
};

struct rd_prog {
	struct rd_op *ops;
	size_t nops;
	struct rd_option { uint32_t op, slot; } *options;	/* variants': first op, value */
	size_t noptions;
	uint32_t nslots;	/* values of block 0 */
	/* block 0 as it starts: the types of the values whose type never
	 * changes, and the structs (not in the ops) */
	struct rd_val *tmpl;
	unsigned depth;		/* deepest nesting of array blocks */
	struct rd_hdr *hdr;	/* RD_OP_HEADER's, or NULL */
	bool threaded;		/* its ops' addr are set */
	unsigned scopes;	/* 1 << enum rd_scope_id of each scope it decodes */
	int32_t root[RD_SC_COUNT];	/* slot of each scope's root, -1 if none */
	/* the same, as a list, for later programs' paths (none refer to an
	 * event's contexts and payload: decoded last, they are not listed) */
	unsigned nscopes;
	struct { int sc; int32_t root; } scope[RD_SC_COUNT];
};

/*
 * An event header of LTTng's shape: a struct aligned to a byte or more whose
 * first member is an unsigned little-endian integer or enum tag (the event
 * id), and whose second and last is a variant on it of one or two structs of
 * unsigned little-endian integers (two at most: an event id, a timestamp),
 * each selected by one range of the tag. Every alignment inside is no
 * larger than the struct's, so that each field is at a fixed bit offset
 * from the header's start: `event_header_compact` (5-bit id; 27-bit
 * timestamp, or 32-bit id and 64-bit timestamp) and `event_header_large`
 * (16-bit id; 32-bit timestamp, or the same). RD_OP_HEADER reads it with
 * one 64-bit load (fields within its first 64 bits) and byte loads (the
 * others), from offsets and value slots computed here once.
 */
struct rd_hdr {
	uint64_t tag_mask;		/* the tag: the low bits of the first word */
	uint32_t tag_voff;		/* its value's byte offset in block 0 */
	uint32_t var_voff;		/* the variant's */
	bool tag_is_id;
	/* the first option is a clock field alone within the first 64 bits
	 * and the tag is the event id: LTTng's compact option, a straight path */
	bool compact;
	unsigned nopts;
	struct rd_hdr_opt {
		uint64_t lo, hi;	/* the tag values that select it */
		uint32_t bits;		/* from the header's start to its end */
		uint32_t kids_first;	/* the variant's kids.first when taken */
		unsigned nfields;
		struct rd_hdr_field {
			uint32_t off;	/* bits from the header's start */
			uint32_t voff;	/* its value's byte offset in block 0 */
			uint16_t size;	/* bits */
			bool word;	/* within the first 64 bits; else a load at off / 8 */
			bool is_id, has_clock;
			uint64_t mask;
		} f[2];
	} opt[2];
};

#define RD_MAX_FRAMES (2 * RD_MAX_DEPTH + 2)

/*
 * rd_prog_compile - the decode program of the scopes in the mask scopes
 * (1 << enum rd_scope_id), whose root types are roots[scope] (NULL: absent),
 * decoded one after the other; with RD_SC_EVENT_HEADER, it goes on with the
 * event's class's program (RD_OP_EVENT). Returns 0 and *ret_prog (free with
 * rd_prog_free()), -ENOMEM, or -E2BIG if arrays nest deeper than
 * RD_MAX_FRAMES or a block needs more than RD_MAX_VALUES values.
 */
int rd_prog_compile(const struct rd_type *const roots[RD_SC_COUNT], unsigned scopes,
		    struct rd_prog **ret_prog);
void rd_prog_free(struct rd_prog *prog);
/* Whether a length or tag of p is in scope sc (of an earlier program). */
bool rd_prog_refers_to(const struct rd_prog *prog, int sc);

/* --- decoding ------------------------------------------------------------ */

struct rd_val {
	const struct rd_type *type;
	union {
		uint64_t u;
		int64_t i;
		double d;
		struct { const char *s; uint64_t len; } str;
		/* compounds: child i is at this + first + i * stride */
		struct { uint32_t first, count, stride; } kids;
	};
};

/* A growable array of values, reused from event to event. */
struct rd_vbuf {
	struct rd_val *v;
	size_t n, cap;
	const struct rd_prog *prog;	/* whose block 0 v starts with, or NULL */
};

/* Decoding state of one scope chain (one stream's current packet/event). */
struct rd_decoder {
	const uint8_t *buf;	/* packet start */
	uint64_t pos;		/* bits from buf */
	uint64_t end;		/* bits: content end (never read past) */
	uint64_t *clock;	/* current clock value, or NULL */
	uint64_t event_id;
	bool has_event_id;
	/* scopes decoded so far, for absolute paths */
	struct rd_vbuf *scope_buf[RD_SC_COUNT];
	int64_t scope_root[RD_SC_COUNT];	/* -1: none */
	const char *errmsg;	/* static text */
	/* events (RD_OP_EVENT): the stream class, a value buffer per event
	 * class (by index), and the class of the event decoded last */
	const struct rd_stream_class *sc;
	struct rd_vbuf *class_vb;
	const struct rd_event_class *ec;
};

/* rd_decode(): the event header names no event class of the stream class. */
#define RD_UNKNOWN_EVENT (-2)

/*
 * rd_decode - runs program p at d->pos into vb (its values replace vb's;
 * vb is best kept for p alone: its block 0 starts from p's template when it
 * held another program's) and sets d->scope_buf and d->scope_root of each
 * scope p lists (root -1 if absent); an event header's program decodes the
 * event's contexts and payload too, and sets d->ec. Returns 0,
 * RD_UNKNOWN_EVENT, or -1 with d->errmsg set (never reads past d->end; the
 * scopes' values are then partial: a reader fails for good).
 */
int rd_decode(struct rd_decoder *d, const struct rd_prog *p, struct rd_vbuf *vb);
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

/* The class of an event record (NULL for discarded-event records). */
struct rd_event_class *rd_event_class(const struct ltt_event *ev);
/*
 * The roots of the scopes ltt_event_scope() gives, by enum ltt_scope (NULL
 * if none); returns a mask of those there (1 << scope).
 */
unsigned rd_event_roots(const struct ltt_event *ev, const struct rd_val *roots[4]);
/*
 * The values of an event record: its packet context's root (NULL if none)
 * and the start of the values its class's program decoded (its contexts
 * and payload, block 0 of that program).
 */
void rd_event_blocks(const struct ltt_event *ev, const struct rd_val **packet,
		     const struct rd_val **body);

struct rd_fmt;
void rd_fmt_free(struct rd_fmt *f);

/* --- the public objects ---------------------------------------------------- */

struct ltt_value {
	struct rd_val v;	/* never instantiated: ltt_value pointers are rd_val pointers */
};

#endif /* LTT_READER_INTERNAL_H */
