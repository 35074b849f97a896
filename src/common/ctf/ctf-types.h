/*
 * ctf-types.h - the CTF 1.8 field type model.
 *
 * A field type is a tree of struct ctf_type built with the constructors
 * below; it is checked as a whole (names, sequence lengths, enum ranges)
 * when it is attached to a stream or event class (ctf-trace.h), which is
 * where errors carry a message naming the offending field.
 *
 * Ownership: a type belongs to whoever created it until it is handed to a
 * container (ctf_type_array_create, ctf_type_struct_add, the trace), which
 * then owns it and frees it with itself. Functions that take ownership do
 * so even when they fail (the type is freed), so that builder code needs no
 * cleanup on every line. Off the fast path; not thread-safe.
 */
#ifndef LTT_CTF_TYPES_H
#define LTT_CTF_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ctf_type_kind {
	CTF_TYPE_INT = 1,
	CTF_TYPE_FLOAT,
	CTF_TYPE_STRING,
	CTF_TYPE_ARRAY,		/* fixed length */
	CTF_TYPE_SEQUENCE,	/* length = an earlier unsigned integer sibling */
	CTF_TYPE_ENUM,
	CTF_TYPE_STRUCT,
};

/* NATIVE follows the trace's byte order; BE/LE force one (network order). */
enum ctf_byte_order {
	CTF_BO_NATIVE = 0,
	CTF_BO_LE,
	CTF_BO_BE,
};

enum ctf_encoding {
	CTF_ENC_NONE = 0,
	CTF_ENC_UTF8,
	CTF_ENC_ASCII,
};

/* Parameters of an integer type. Zero-initialize, then set what differs. */
struct ctf_int_params {
	unsigned size;			/* bits, 1..64 */
	unsigned align;			/* bits, power of two; 0 = 8 if size % 8 == 0 else 1 */
	bool is_signed;
	unsigned base;			/* 10 (0 means 10), 16, 8 or 2 */
	enum ctf_byte_order byte_order;
	enum ctf_encoding encoding;	/* UTF8/ASCII: 8-bit chars of text arrays */
	const char *map_clock;		/* NULL, or a clock name: map = clock.NAME.value */
};

struct ctf_enum_mapping {
	char *label;
	uint64_t start, end;	/* inclusive; as int64_t when the container is signed */
};

struct ctf_type;

struct ctf_field {
	char *name;		/* without the leading underscore TSDL gets */
	struct ctf_type *type;	/* NULL: unknown type (rejected by validation) */
};

struct ctf_type {
	enum ctf_type_kind kind;
	unsigned align;		/* effective alignment in bits (set by validation) */
	union {
		struct {
			unsigned size, align, base;
			bool is_signed;
			enum ctf_byte_order byte_order;
			enum ctf_encoding encoding;
			char *map_clock;
		} i;
		struct {
			unsigned exp_dig, mant_dig, align;
			enum ctf_byte_order byte_order;
		} f;
		struct {
			enum ctf_encoding encoding;
		} s;
		struct {		/* ARRAY and SEQUENCE */
			struct ctf_type *elem;
			uint64_t length;	/* ARRAY */
			char *length_name;	/* SEQUENCE: sibling field name */
			size_t length_index;	/* SEQUENCE: resolved by validation */
		} a;
		struct {
			struct ctf_type *container;
			struct ctf_enum_mapping *maps;
			size_t n, cap;
		} e;
		struct {
			struct ctf_field *fields;
			size_t n, cap;
			unsigned min_align;
		} st;
	};
};

/*
 * Constructors. Each returns 0 and sets *ret_type (owned by the caller), or
 * -ENOMEM, or -EINVAL for an argument no type can have (size 0, alignment
 * not a power of two...). Semantic checks come later (ctf_type_validate).
 */
int ctf_type_int_create(const struct ctf_int_params *p, struct ctf_type **ret_type);
/* 32-bit float: exp_dig 8, mant_dig 24; double: 11, 53. align 0 = natural. */
int ctf_type_float_create(unsigned exp_dig, unsigned mant_dig, unsigned align,
			  enum ctf_byte_order bo, struct ctf_type **ret_type);
int ctf_type_string_create(enum ctf_encoding enc, struct ctf_type **ret_type);
/* Takes ownership of elem (freed on failure). */
int ctf_type_array_create(struct ctf_type *elem, uint64_t length,
			  struct ctf_type **ret_type);
/* Takes ownership of elem; length_field names an earlier unsigned sibling. */
int ctf_type_sequence_create(struct ctf_type *elem, const char *length_field,
			     struct ctf_type **ret_type);
/* Takes ownership of container, an integer type. */
int ctf_type_enum_create(struct ctf_type *container, struct ctf_type **ret_type);
/* Adds "label" = start ... end (signed containers: pass int64_t values cast). */
int ctf_type_enum_add(struct ctf_type *en, const char *label, uint64_t start,
		      uint64_t end);
/* min_align: explicit align(N) in bits, 0 or 1 for none. */
int ctf_type_struct_create(unsigned min_align, struct ctf_type **ret_type);
/*
 * Appends a field; takes ownership of type (freed on failure). type may be
 * NULL (e.g. a failed lookup): validation then reports the field as having
 * an unknown type.
 */
int ctf_type_struct_add(struct ctf_type *st, const char *name, struct ctf_type *type);

/*
 * The standard named types, as C and LTTng spell them: uint8_t .. uint64_t,
 * int8_t .. int64_t, "unsigned long", "long", "char" (8-bit, UTF8), "float",
 * "double", "string". -ENOENT if the name is unknown (the caller names it in
 * its message).
 */
int ctf_type_by_name(const char *name, struct ctf_type **ret_type);

/* Deep copy (-ENOMEM). */
int ctf_type_copy(const struct ctf_type *t, struct ctf_type **ret_type);

void ctf_type_free(struct ctf_type *t);

/* Field index by name in a struct, or -ENOENT. */
int ctf_type_struct_find(const struct ctf_type *st, const char *name);

/*
 * Whether values of t are the plain concatenation of their parts' bytes:
 * every integer, float and enum whole bytes, byte aligned and in the
 * trace's byte order, strings NUL-terminated, arrays and sequences of such
 * elements, structs of such fields (no align(N) above 8). A caller may then
 * serialize such values itself (ctf_stream_writer_event_raw).
 */
bool ctf_type_byte_packed(const struct ctf_type *t);

#endif /* LTT_CTF_TYPES_H */
