/*
 * <ltt/tracepoint-event.h> - included at the end of every provider header,
 * outside its guard. Does nothing unless TRACEPOINT_CREATE_PROBES (or
 * LTT_TRACEPOINT_CREATE_PROBES) is defined; then it re-reads the provider
 * header (TRACEPOINT_INCLUDE) once per pass, with TRACEPOINT_HEADER_MULTI_READ
 * defined, each pass giving the declaration and field macros another
 * meaning:
 *
 *   1. enums      TRACEPOINT_ENUM -> its mapping table and descriptor
 *   2. attrs      each event gets a tentative NULL pointer for its log level
 *                 and model.emf.uri, which TRACEPOINT_LOGLEVEL /
 *                 TRACEPOINT_MODEL_EMF_URI then define (C tentative
 *                 definitions: this is why the probe pass is C only)
 *   3. fields     each class's field descriptors (struct ltt_field[])
 *   4. counts     each class's number of dynamic lengths (strings, sequences)
 *   5. size       each class's payload size, every field at its alignment
 *   6. filter     each class's filter values (struct ltt_filter_value[])
 *   7. write      each class's serializer
 *   8. probe      each class's probe: size, filter values if a filter
 *                 applies, then reserve / write / commit for every channel
 *   9. events     each event's state, descriptor, and its probe (extern,
 *                 called directly by call sites)
 *  10. provider   the provider descriptor and the constructor/destructor
 *                 that register it with libltt-ust
 *
 * Layout of a record (what the metadata must declare): fields in order,
 * each integer/float/enum at its type's alignment (LTT__TP_ALIGNOF: one
 * byte on x86, where records are packed as lttng-ust packs them; the
 * natural __alignof__ elsewhere), strings byte-aligned with their NUL,
 * arrays at their element's alignment, and a sequence preceded by its
 * length field "_NAME_length" (an integer of the length type, at its own
 * alignment), elements after it at theirs; _nowrite fields are absent.
 * Padding is zeroed. The descriptors carry each alignment, so the metadata
 * says what the probe wrote. See doc/design/tracepoint.md.
 */
#if defined(TRACEPOINT_CREATE_PROBES) && !defined(LTT_TRACEPOINT_NO_CLASSIC)
#undef TRACEPOINT_CREATE_PROBES
#ifndef LTT_TRACEPOINT_CREATE_PROBES
#define LTT_TRACEPOINT_CREATE_PROBES
#endif
#endif

#ifdef LTT_TRACEPOINT_CREATE_PROBES
/* Nested inclusions (the provider header re-read below) are no-ops. */
#undef LTT_TRACEPOINT_CREATE_PROBES

#ifdef __cplusplus
#error "the probe pass (TRACEPOINT_CREATE_PROBES) must be compiled as C"
#endif

#include <float.h>
#include <stdint.h>
#include <string.h>
#include <ltt/tracepoint.h>

#if !defined(LTT_TRACEPOINT_INCLUDE)
#ifdef TRACEPOINT_INCLUDE
#define LTT_TRACEPOINT_INCLUDE TRACEPOINT_INCLUDE
#define LTT__TP_UNDEF_INCLUDE
#else
#error "define TRACEPOINT_INCLUDE (the provider header's path) before including <ltt/tracepoint-event.h>"
#endif
#endif
#if !defined(LTT_TRACEPOINT_PROVIDER)
#ifdef TRACEPOINT_PROVIDER
#define LTT_TRACEPOINT_PROVIDER TRACEPOINT_PROVIDER
#define LTT__TP_UNDEF_PROVIDER
#else
#error "define TRACEPOINT_PROVIDER before including <ltt/tracepoint-event.h>"
#endif
#endif

#define LTT__TP_IN_PROBE_PASS
#define LTT_TRACEPOINT_HEADER_MULTI_READ
#ifndef LTT_TRACEPOINT_NO_CLASSIC
#define TRACEPOINT_HEADER_MULTI_READ
#endif

/*
 * GCC 12 with -fsanitize=address reports -Wstringop-overflow ("writing 1
 * byte into a region of size 0") for the serializer's stores through the
 * pointer the tracer returns, a region GCC cannot know the size of: a
 * false positive, silenced for the generated code only.
 */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#define LTT__TP_POP_DIAGNOSTIC
#endif

/* --- helpers of the generated code --- */
#ifndef LTT__TP_PROBE_HELPERS
#define LTT__TP_PROBE_HELPERS
#define LTT__TP_NULL_STRING "(null)"
/* Alignment of a field of this type in a record: packed on x86 (unaligned
 * accesses cost nothing there: fewer bytes per event). */
#if defined(__i386__) || defined(__x86_64__)
#define LTT__TP_ALIGNOF(_type) 1
#else
#define LTT__TP_ALIGNOF(_type) __alignof__(_type)
#endif
#define LTT__TP_MAX(_a, _b) ((_a) > (_b) ? (_a) : (_b))
#define LTT__TP_MANT_DIG(_type)                                                \
	(sizeof(_type) == sizeof(float) ? FLT_MANT_DIG :                       \
	 sizeof(_type) == sizeof(double) ? DBL_MANT_DIG : LDBL_MANT_DIG)
#define LTT__TP_INT_TYPE(_type, _byte_order, _base)                            \
	{ .size = sizeof(_type) * 8, .alignment = LTT__TP_ALIGNOF(_type) * 8,  \
	  .is_signed = LTT__TP_IS_SIGNED(_type), .base = (_base),              \
	  .byte_order = (_byte_order) }

static inline size_t ltt__tp_align(size_t pos, size_t align)
{
	return (pos + align - 1) & ~(align - 1);
}

/* Zeroes the padding before the next field; returns its offset. */
static inline size_t ltt__tp_pad(char *p, size_t pos, size_t align)
{
	while (pos & (align - 1))
		p[pos++] = 0;
	return pos;
}

static inline void ltt__tp_bswap(void *v, size_t size)
{
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 2:
		memcpy(&u16, v, 2);
		u16 = __builtin_bswap16(u16);
		memcpy(v, &u16, 2);
		break;
	case 4:
		memcpy(&u32, v, 4);
		u32 = __builtin_bswap32(u32);
		memcpy(v, &u32, 4);
		break;
	case 8:
		memcpy(&u64, v, 8);
		u64 = __builtin_bswap64(u64);
		memcpy(v, &u64, 8);
		break;
	default:
		break;
	}
}

/* Copies n elements of size bytes, swapping each if byte_order is not the host's. */
static inline void ltt__tp_copy(char *dst, const void *src, size_t size, size_t n,
				int byte_order)
{
	size_t i;

	memcpy(dst, src, size * n);
	if (byte_order != LTT_BYTE_ORDER_HOST && size > 1)
		for (i = 0; i < n; i++)
			ltt__tp_bswap(dst + i * size, size);
}

/*
 * A string of exactly len bytes, the last one its NUL: if src got shorter
 * since its length was taken (another thread), pad with '#' so that the
 * record keeps the size its metadata implies.
 */
static inline void ltt__tp_strcpy(char *dst, const char *src, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = src[i];
	for (; i + 1 < len; i++)
		dst[i] = '#';
	dst[len - 1] = '\0';
}

/* A sequence length: negative or above 2^32 - 1 (a bug) records 0 elements. */
static inline size_t ltt__tp_seq_len(uint64_t v, int is_signed)
{
	if ((is_signed && (int64_t)v < 0) || v > UINT32_MAX)
		return 0;
	return (size_t)v;
}

/* A text array of len bytes: the string, then NULs. */
static inline void ltt__tp_textcpy(char *dst, const char *src, size_t len)
{
	size_t i;

	for (i = 0; i < len && src[i]; i++)
		dst[i] = src[i];
	for (; i < len; i++)
		dst[i] = '\0';
}
#endif /* LTT__TP_PROBE_HELPERS */

#undef LTT_TRACEPOINT_EVENT_CLASS
#undef LTT_TRACEPOINT_EVENT_INSTANCE
#undef LTT_TRACEPOINT_LOGLEVEL
#undef LTT_TRACEPOINT_MODEL_EMF_URI
#undef LTT_TRACEPOINT_ENUM
#undef LTT__FI
#undef LTT__FF
#undef LTT__FS
#undef LTT__FA
#undef LTT__FQ
#undef LTT__FE
#undef LTT__FU

/* ===== 1. enums ===== */
#define LTT_TRACEPOINT_EVENT_CLASS(_provider, _name, _args, _fields)
#define LTT_TRACEPOINT_EVENT_INSTANCE(_provider, _class_name, _name, _args)
#define LTT_TRACEPOINT_LOGLEVEL(_provider, _name, _loglevel)
#define LTT_TRACEPOINT_MODEL_EMF_URI(_provider, _name, _uri)
#define LTT_TRACEPOINT_ENUM(_provider, _name, _values)                         \
	static const struct ltt_enum_entry ltt_enum_entries__##_provider##__##_name[] = { \
		_values { NULL, { 0, 0 }, { 0, 0 }, 0 }                        \
	};                                                                     \
	static const struct ltt_enum_desc ltt_enum__##_provider##__##_name = { \
		sizeof(struct ltt_enum_desc), sizeof(struct ltt_enum_entry),   \
		#_provider, #_name, ltt_enum_entries__##_provider##__##_name,  \
		sizeof(ltt_enum_entries__##_provider##__##_name) /             \
			sizeof(ltt_enum_entries__##_provider##__##_name[0]) - 1 \
	};
#include LTT_TRACEPOINT_INCLUDE

/* ===== 2. attrs ===== */
#undef LTT_TRACEPOINT_EVENT_INSTANCE
#undef LTT_TRACEPOINT_LOGLEVEL
#undef LTT_TRACEPOINT_MODEL_EMF_URI
#undef LTT_TRACEPOINT_ENUM
#define LTT_TRACEPOINT_ENUM(_provider, _name, _values)
#define LTT_TRACEPOINT_EVENT_INSTANCE(_provider, _class_name, _name, _args)    \
	static const int *LTT__TP_SYM(ltt_loglevel_ref__, _provider, _name);   \
	static const char *const *LTT__TP_SYM(ltt_emf_ref__, _provider, _name);
#define LTT_TRACEPOINT_LOGLEVEL(_provider, _name, _loglevel)                   \
	static const int LTT__TP_SYM(ltt_loglevel__, _provider, _name) = (_loglevel); \
	static const int *LTT__TP_SYM(ltt_loglevel_ref__, _provider, _name) =  \
		&LTT__TP_SYM(ltt_loglevel__, _provider, _name);
#define LTT_TRACEPOINT_MODEL_EMF_URI(_provider, _name, _uri)                   \
	static const char *const LTT__TP_SYM(ltt_emf__, _provider, _name) = (_uri); \
	static const char *const *LTT__TP_SYM(ltt_emf_ref__, _provider, _name) = \
		&LTT__TP_SYM(ltt_emf__, _provider, _name);
#include LTT_TRACEPOINT_INCLUDE

/* ===== 3. fields ===== */
#undef LTT_TRACEPOINT_EVENT_CLASS
#undef LTT_TRACEPOINT_EVENT_INSTANCE
#undef LTT_TRACEPOINT_LOGLEVEL
#undef LTT_TRACEPOINT_MODEL_EMF_URI
#define LTT_TRACEPOINT_LOGLEVEL(_provider, _name, _loglevel)
#define LTT_TRACEPOINT_MODEL_EMF_URI(_provider, _name, _uri)
#define LTT_TRACEPOINT_EVENT_INSTANCE(_provider, _class_name, _name, _args)
#define LTT__TP_NOWRITE(_nowrite) ((_nowrite) ? LTT_FIELD_NOWRITE : 0)
#define LTT__FI(_type, _name, _src, _byte_order, _base, _nowrite)              \
	{ .name = #_name,                                                      \
	  .type = { .kind = LTT_TYPE_INTEGER,                                  \
		    .u = { .integer = LTT__TP_INT_TYPE(_type, _byte_order, _base) } }, \
	  .flags = LTT__TP_NOWRITE(_nowrite) },
#define LTT__FF(_type, _name, _src, _nowrite)                                  \
	{ .name = #_name,                                                      \
	  .type = { .kind = LTT_TYPE_FLOAT,                                    \
		    .u = { .fp = { .exp_dig = sizeof(_type) * 8 - LTT__TP_MANT_DIG(_type), \
				   .mant_dig = LTT__TP_MANT_DIG(_type),        \
				   .alignment = LTT__TP_ALIGNOF(_type) * 8,    \
				   .byte_order = LTT_BYTE_ORDER_HOST } } },    \
	  .flags = LTT__TP_NOWRITE(_nowrite) },
#define LTT__FS(_name, _src, _nowrite)                                         \
	{ .name = #_name,                                                      \
	  .type = { .kind = LTT_TYPE_STRING, .encoding = LTT_ENCODING_UTF8 },  \
	  .flags = LTT__TP_NOWRITE(_nowrite) },
#define LTT__FA(_type, _name, _src, _length, _encoding, _base, _byte_order, _nowrite) \
	{ .name = #_name,                                                      \
	  .type = { .kind = LTT_TYPE_ARRAY, .encoding = (_encoding),           \
		    .u = { .integer = LTT__TP_INT_TYPE(_type, _byte_order, _base) }, \
		    .length = (_length) },                                     \
	  .flags = LTT__TP_NOWRITE(_nowrite) },
#define LTT__FQ(_type, _name, _src, _length_type, _length, _encoding, _base, _byte_order, _nowrite) \
	{ .name = "_" #_name "_length",                                        \
	  .type = { .kind = LTT_TYPE_INTEGER,                                  \
		    .u = { .integer = LTT__TP_INT_TYPE(_length_type, LTT_BYTE_ORDER_HOST, 10) } }, \
	  .flags = LTT__TP_NOWRITE(_nowrite) | LTT_FIELD_SEQUENCE_LENGTH },    \
	{ .name = #_name,                                                      \
	  .type = { .kind = LTT_TYPE_SEQUENCE, .encoding = (_encoding),        \
		    .u = { .integer = LTT__TP_INT_TYPE(_type, _byte_order, _base) }, \
		    .length_name = "_" #_name "_length" },                     \
	  .flags = LTT__TP_NOWRITE(_nowrite) },
#define LTT__FE(_provider, _enum_name, _type, _name, _src, _nowrite)           \
	{ .name = #_name,                                                      \
	  .type = { .kind = LTT_TYPE_ENUM,                                     \
		    .u = { .integer = LTT__TP_INT_TYPE(_type, LTT_BYTE_ORDER_HOST, 10) }, \
		    .enum_desc = &ltt_enum__##_provider##__##_enum_name },     \
	  .flags = LTT__TP_NOWRITE(_nowrite) },
#define LTT__FU(_src)
#define LTT_TRACEPOINT_EVENT_CLASS(_provider, _name, _args, _fields)           \
	static const struct ltt_field LTT__TP_SYM(ltt_fields__, _provider, _name)[] = { \
		_fields { .name = NULL }                                       \
	};
#include LTT_TRACEPOINT_INCLUDE

/* The number of fields of a class (the array ends with a NULL sentinel). */
#define LTT__TP_NR_FIELDS(_provider, _name)                                    \
	(sizeof(LTT__TP_SYM(ltt_fields__, _provider, _name)) /                 \
	 sizeof(struct ltt_field) - 1)

/* ===== 4. counts ===== */
#undef LTT_TRACEPOINT_EVENT_CLASS
#undef LTT__FI
#undef LTT__FF
#undef LTT__FS
#undef LTT__FA
#undef LTT__FQ
#undef LTT__FE
#define LTT__FI(_type, _name, _src, _byte_order, _base, _nowrite)
#define LTT__FF(_type, _name, _src, _nowrite)
#define LTT__FS(_name, _src, _nowrite) + 1
#define LTT__FA(_type, _name, _src, _length, _encoding, _base, _byte_order, _nowrite)
#define LTT__FQ(_type, _name, _src, _length_type, _length, _encoding, _base, _byte_order, _nowrite) + 1
#define LTT__FE(_provider, _enum_name, _type, _name, _src, _nowrite)
#define LTT_TRACEPOINT_EVENT_CLASS(_provider, _name, _args, _fields)           \
	enum { LTT__TP_SYM(ltt_ndyn__, _provider, _name) = 0 _fields };
#include LTT_TRACEPOINT_INCLUDE

/* ===== 5. size ===== */
#undef LTT_TRACEPOINT_EVENT_CLASS
#undef LTT__FI
#undef LTT__FF
#undef LTT__FS
#undef LTT__FA
#undef LTT__FQ
#undef LTT__FE
#undef LTT__FU
/* A fixed-size field of n elements of type. */
#define LTT__TP_SIZE_FIXED(_type, _n, _nowrite)                                \
	if (!(_nowrite)) {                                                     \
		ltt__len = ltt__tp_align(ltt__len, LTT__TP_ALIGNOF(_type)) + sizeof(_type) * (_n); \
		ltt__align = LTT__TP_MAX(ltt__align, LTT__TP_ALIGNOF(_type));  \
	}
#define LTT__FI(_type, _name, _src, _byte_order, _base, _nowrite)              \
	LTT__TP_SIZE_FIXED(_type, 1, _nowrite)
#define LTT__FF(_type, _name, _src, _nowrite) LTT__TP_SIZE_FIXED(_type, 1, _nowrite)
#define LTT__FS(_name, _src, _nowrite)                                         \
	if (!(_nowrite)) {                                                     \
		const char *ltt__s = (_src);                                   \
		ltt__dyn[ltt__di] = strlen(ltt__s ? ltt__s : LTT__TP_NULL_STRING) + 1; \
		ltt__len += ltt__dyn[ltt__di];                                 \
	}                                                                      \
	ltt__di++;
#define LTT__FA(_type, _name, _src, _length, _encoding, _base, _byte_order, _nowrite) \
	LTT__TP_SIZE_FIXED(_type, _length, _nowrite)
/* The length as recorded: what its type holds (see ltt__tp_seq_len). */
#define LTT__FQ(_type, _name, _src, _length_type, _length, _encoding, _base, _byte_order, _nowrite) \
	{                                                                      \
		_length_type ltt__l = (_length_type)(_length);                 \
		ltt__dyn[ltt__di] = ltt__tp_seq_len((uint64_t)ltt__l,          \
						    LTT__TP_IS_SIGNED(_length_type)); \
		LTT__TP_SIZE_FIXED(_length_type, 1, _nowrite)                  \
		LTT__TP_SIZE_FIXED(_type, ltt__dyn[ltt__di], _nowrite)         \
		ltt__di++;                                                     \
	}
#define LTT__FE(_provider, _enum_name, _type, _name, _src, _nowrite)           \
	LTT__TP_SIZE_FIXED(_type, 1, _nowrite)
#define LTT__FU(_src)
#define LTT_TRACEPOINT_EVENT_CLASS(_provider, _name, _args, _fields)           \
	static inline size_t LTT__TP_SYM(ltt_size__, _provider, _name)(        \
		size_t *ltt__dyn, size_t *ltt__ret_align LTT__TP_XPROTO(_args)) \
	{                                                                      \
		size_t ltt__len = 0, ltt__align = 1, ltt__di = 0;              \
		LTT__TP_UNUSED(_args)                                          \
		(void)ltt__dyn;                                                \
		(void)ltt__di;                                                 \
		_fields                                                        \
		*ltt__ret_align = ltt__align;                                  \
		return ltt__len;                                               \
	}
#include LTT_TRACEPOINT_INCLUDE

/* ===== 6. filter ===== */
#undef LTT_TRACEPOINT_EVENT_CLASS
#undef LTT__FI
#undef LTT__FF
#undef LTT__FS
#undef LTT__FA
#undef LTT__FQ
#undef LTT__FE
#define LTT__TP_FILTER_INT(_type, _src)                                        \
	{                                                                      \
		_type ltt__v = (_type)(_src);                                  \
		if (LTT__TP_IS_SIGNED(_type))                                  \
			ltt__fv[ltt__fi].v.s = (int64_t)ltt__v;                \
		else                                                           \
			ltt__fv[ltt__fi].v.u = (uint64_t)ltt__v;               \
		ltt__fv[ltt__fi++].len = 0;                                    \
	}
#define LTT__FI(_type, _name, _src, _byte_order, _base, _nowrite) LTT__TP_FILTER_INT(_type, _src)
#define LTT__FF(_type, _name, _src, _nowrite)                                  \
	ltt__fv[ltt__fi].v.d = (double)(_src);                                 \
	ltt__fv[ltt__fi++].len = 0;
#define LTT__FS(_name, _src, _nowrite)                                         \
	{                                                                      \
		const char *ltt__s = (_src);                                   \
		ltt__fv[ltt__fi].v.ptr = ltt__s ? ltt__s : LTT__TP_NULL_STRING; \
		ltt__fv[ltt__fi++].len = 0;                                    \
		ltt__di++;                                                     \
	}
#define LTT__FA(_type, _name, _src, _length, _encoding, _base, _byte_order, _nowrite) \
	ltt__fv[ltt__fi].v.ptr = (const void *)(_src);                         \
	ltt__fv[ltt__fi++].len = (_length);
#define LTT__FQ(_type, _name, _src, _length_type, _length, _encoding, _base, _byte_order, _nowrite) \
	ltt__fv[ltt__fi].v.u = ltt__dyn[ltt__di];                              \
	ltt__fv[ltt__fi++].len = 0;                                            \
	ltt__fv[ltt__fi].v.ptr = (const void *)(_src);                         \
	ltt__fv[ltt__fi++].len = ltt__dyn[ltt__di++];
#define LTT__FE(_provider, _enum_name, _type, _name, _src, _nowrite) LTT__TP_FILTER_INT(_type, _src)
#define LTT_TRACEPOINT_EVENT_CLASS(_provider, _name, _args, _fields)           \
	static inline void LTT__TP_SYM(ltt_filter__, _provider, _name)(        \
		struct ltt_filter_value *ltt__fv, const size_t *ltt__dyn       \
		LTT__TP_XPROTO(_args))                                         \
	{                                                                      \
		size_t ltt__fi = 0, ltt__di = 0;                               \
		LTT__TP_UNUSED(_args)                                          \
		(void)ltt__fv;                                                 \
		(void)ltt__dyn;                                                \
		(void)ltt__fi;                                                 \
		(void)ltt__di;                                                 \
		_fields                                                        \
	}
#include LTT_TRACEPOINT_INCLUDE

/* ===== 7. write ===== */
#undef LTT_TRACEPOINT_EVENT_CLASS
#undef LTT__FI
#undef LTT__FF
#undef LTT__FS
#undef LTT__FA
#undef LTT__FQ
#undef LTT__FE
#define LTT__TP_WRITE_SCALAR(_type, _src, _byte_order, _nowrite)               \
	if (!(_nowrite)) {                                                     \
		_type ltt__v = (_type)(_src);                                  \
		ltt__pos = ltt__tp_pad(ltt__p, ltt__pos, LTT__TP_ALIGNOF(_type)); \
		ltt__tp_copy(ltt__p + ltt__pos, &ltt__v, sizeof(_type), 1, (_byte_order)); \
		ltt__pos += sizeof(_type);                                     \
	}
#define LTT__FI(_type, _name, _src, _byte_order, _base, _nowrite)              \
	LTT__TP_WRITE_SCALAR(_type, _src, _byte_order, _nowrite)
#define LTT__FF(_type, _name, _src, _nowrite)                                  \
	LTT__TP_WRITE_SCALAR(_type, _src, LTT_BYTE_ORDER_HOST, _nowrite)
#define LTT__FS(_name, _src, _nowrite)                                         \
	if (!(_nowrite)) {                                                     \
		const char *ltt__s = (_src);                                   \
		ltt__tp_strcpy(ltt__p + ltt__pos, ltt__s ? ltt__s : LTT__TP_NULL_STRING, \
			       ltt__dyn[ltt__di]);                             \
		ltt__pos += ltt__dyn[ltt__di];                                 \
	}                                                                      \
	ltt__di++;
#define LTT__TP_WRITE_ELEMENTS(_type, _src, _n, _encoding, _byte_order)        \
	ltt__pos = ltt__tp_pad(ltt__p, ltt__pos, LTT__TP_ALIGNOF(_type));      \
	if ((_encoding) != LTT_ENCODING_NONE)                                  \
		ltt__tp_textcpy(ltt__p + ltt__pos, (const char *)(_src), sizeof(_type) * (_n)); \
	else                                                                   \
		ltt__tp_copy(ltt__p + ltt__pos, (_src), sizeof(_type), (_n), (_byte_order)); \
	ltt__pos += sizeof(_type) * (_n);
#define LTT__FA(_type, _name, _src, _length, _encoding, _base, _byte_order, _nowrite) \
	if (!(_nowrite)) {                                                     \
		LTT__TP_WRITE_ELEMENTS(_type, _src, _length, _encoding, _byte_order) \
	}
#define LTT__FQ(_type, _name, _src, _length_type, _length, _encoding, _base, _byte_order, _nowrite) \
	if (!(_nowrite)) {                                                     \
		LTT__TP_WRITE_SCALAR(_length_type, ltt__dyn[ltt__di], LTT_BYTE_ORDER_HOST, 0) \
		LTT__TP_WRITE_ELEMENTS(_type, _src, ltt__dyn[ltt__di], _encoding, _byte_order) \
	}                                                                      \
	ltt__di++;
#define LTT__FE(_provider, _enum_name, _type, _name, _src, _nowrite)           \
	LTT__TP_WRITE_SCALAR(_type, _src, LTT_BYTE_ORDER_HOST, _nowrite)
#define LTT_TRACEPOINT_EVENT_CLASS(_provider, _name, _args, _fields)           \
	static inline void LTT__TP_SYM(ltt_write__, _provider, _name)(         \
		char *ltt__p, const size_t *ltt__dyn LTT__TP_XPROTO(_args))    \
	{                                                                      \
		size_t ltt__pos = 0, ltt__di = 0;                              \
		LTT__TP_UNUSED(_args)                                          \
		(void)ltt__p;                                                  \
		(void)ltt__dyn;                                                \
		(void)ltt__di;                                                 \
		_fields                                                        \
		(void)ltt__pos;                                                \
	}
#include LTT_TRACEPOINT_INCLUDE

/* ===== 8. probe ===== */
#undef LTT_TRACEPOINT_EVENT_CLASS
#define LTT_TRACEPOINT_EVENT_CLASS(_provider, _name, _args, _fields)           \
	static void LTT__TP_SYM(ltt_pclass__, _provider, _name)(               \
		const struct ltt_event_desc *ltt__desc,                        \
		const void *ltt__ip LTT__TP_XPROTO(_args))                     \
	{                                                                      \
		size_t ltt__dyn[LTT__TP_SYM(ltt_ndyn__, _provider, _name) + 1]; \
		struct ltt_filter_value                                        \
			ltt__fv[LTT__TP_NR_FIELDS(_provider, _name) + 1];      \
		struct ltt_ust_ctx ltt__ctx;                                   \
		size_t ltt__len, ltt__align;                                   \
                                                                               \
		ltt__len = LTT__TP_SYM(ltt_size__, _provider, _name)(          \
			ltt__dyn, &ltt__align LTT__TP_XARGS(_args));           \
		ltt__ctx.struct_size = sizeof(ltt__ctx);                       \
		ltt__ctx.cursor = 0;                                           \
		ltt__ctx.desc = ltt__desc;                                     \
		ltt__ctx.filter_values = NULL;                                 \
		ltt__ctx.ip = ltt__ip;                                         \
		/* Relaxed: a filter attached a moment ago may miss one event. */ \
		if (__builtin_expect(__atomic_load_n(&ltt__desc->state->flags, \
						     __ATOMIC_RELAXED) &       \
				     LTT_EVENT_STATE_FILTER, 0)) {             \
			LTT__TP_SYM(ltt_filter__, _provider, _name)(           \
				ltt__fv, ltt__dyn LTT__TP_XARGS(_args));       \
			ltt__ctx.filter_values = ltt__fv;                      \
		}                                                              \
		while (ltt_ust_event_reserve(&ltt__ctx, ltt__len, ltt__align) == 0) { \
			LTT__TP_SYM(ltt_write__, _provider, _name)(            \
				ltt__ctx.data, ltt__dyn LTT__TP_XARGS(_args)); \
			ltt_ust_event_commit(&ltt__ctx);                       \
		}                                                              \
	}
#include LTT_TRACEPOINT_INCLUDE

/* ===== 9. events ===== */
#undef LTT_TRACEPOINT_EVENT_CLASS
#undef LTT_TRACEPOINT_EVENT_INSTANCE
#define LTT_TRACEPOINT_EVENT_CLASS(_provider, _name, _args, _fields)
#define LTT_TRACEPOINT_EVENT_INSTANCE(_provider, _class_name, _name, _args)    \
	void LTT__TP_SYM(ltt_probe__, _provider, _name)(LTT__TP_PROTO(_args)); \
	static struct ltt_event_state LTT__TP_SYM(ltt_state__, _provider, _name) = { \
		sizeof(struct ltt_event_state), 0, 0, NULL                     \
	};                                                                     \
	static const struct ltt_event_desc LTT__TP_SYM(ltt_event__, _provider, _name) = { \
		.struct_size = sizeof(struct ltt_event_desc),                  \
		.field_size = sizeof(struct ltt_field),                        \
		.name = #_provider ":" #_name,                                 \
		.provider = #_provider,                                        \
		.event = #_name,                                               \
		.signature = LTT__TP_STR(_args),                               \
		.loglevel_ref = &LTT__TP_SYM(ltt_loglevel_ref__, _provider, _name), \
		.model_emf_uri_ref = &LTT__TP_SYM(ltt_emf_ref__, _provider, _name), \
		.fields = LTT__TP_SYM(ltt_fields__, _provider, _class_name),   \
		.nr_fields = LTT__TP_NR_FIELDS(_provider, _class_name),        \
		.probe = (void (*)(void))LTT__TP_SYM(ltt_probe__, _provider, _name), \
		.state = &LTT__TP_SYM(ltt_state__, _provider, _name),          \
	};                                                                     \
	/* never inlined into a call site of the same file: its return     \
	 * address is the call site (the `ip` context) */                      \
	__attribute__((noinline))                                              \
	void LTT__TP_SYM(ltt_probe__, _provider, _name)(LTT__TP_PROTO(_args))  \
	{                                                                      \
		LTT__TP_SYM(ltt_pclass__, _provider, _class_name)(             \
			&LTT__TP_SYM(ltt_event__, _provider, _name),           \
			__builtin_return_address(0) LTT__TP_XARGS(_args));     \
	}
#include LTT_TRACEPOINT_INCLUDE

/* ===== 10. provider ===== */
#undef LTT_TRACEPOINT_EVENT_INSTANCE
#define LTT_TRACEPOINT_EVENT_INSTANCE(_provider, _class_name, _name, _args)    \
	&LTT__TP_SYM(ltt_event__, _provider, _name),
#define LTT__TP_PROVIDER_SYM(_prefix, _provider) LTT__TP_CAT(_prefix, _provider)
static const struct ltt_event_desc *const
	LTT__TP_PROVIDER_SYM(ltt_events__, LTT_TRACEPOINT_PROVIDER)[] = {
#include LTT_TRACEPOINT_INCLUDE
	NULL
};

/* With dynamic linkage the probe object need not define its call sites. */
extern const struct ltt_provider_desc
	LTT__TP_PROVIDER_SYM(ltt_provider__, LTT_TRACEPOINT_PROVIDER);
const struct ltt_provider_desc
	LTT__TP_PROVIDER_SYM(ltt_provider__, LTT_TRACEPOINT_PROVIDER) = {
	sizeof(struct ltt_provider_desc),
	LTT__TP_STR(LTT_TRACEPOINT_PROVIDER),
	LTT__TP_PROVIDER_SYM(ltt_events__, LTT_TRACEPOINT_PROVIDER),
	sizeof(LTT__TP_PROVIDER_SYM(ltt_events__, LTT_TRACEPOINT_PROVIDER)) /
		sizeof(const struct ltt_event_desc *) - 1
};

static void __attribute__((constructor))
LTT__TP_PROVIDER_SYM(ltt_provider_register__, LTT_TRACEPOINT_PROVIDER)(void)
{
	(void)ltt_ust_provider_register(
		&LTT__TP_PROVIDER_SYM(ltt_provider__, LTT_TRACEPOINT_PROVIDER));
}

static void __attribute__((destructor))
LTT__TP_PROVIDER_SYM(ltt_provider_unregister__, LTT_TRACEPOINT_PROVIDER)(void)
{
	ltt_ust_provider_unregister(
		&LTT__TP_PROVIDER_SYM(ltt_provider__, LTT_TRACEPOINT_PROVIDER));
}

#ifdef LTT__TP_POP_DIAGNOSTIC
#pragma GCC diagnostic pop
#undef LTT__TP_POP_DIAGNOSTIC
#endif

/* ===== restore the call-site meaning for headers that follow ===== */
#undef LTT__TP_IN_PROBE_PASS
#undef LTT_TRACEPOINT_HEADER_MULTI_READ
#ifndef LTT_TRACEPOINT_NO_CLASSIC
#undef TRACEPOINT_HEADER_MULTI_READ
#endif
#undef LTT__FI
#undef LTT__FF
#undef LTT__FS
#undef LTT__FA
#undef LTT__FQ
#undef LTT__FE
#undef LTT__FU
#include <ltt/tracepoint-callsite.h>
#ifdef LTT__TP_UNDEF_INCLUDE
#undef LTT_TRACEPOINT_INCLUDE
#undef LTT__TP_UNDEF_INCLUDE
#endif
#ifdef LTT__TP_UNDEF_PROVIDER
#undef LTT_TRACEPOINT_PROVIDER
#undef LTT__TP_UNDEF_PROVIDER
#endif

#endif /* LTT_TRACEPOINT_CREATE_PROBES */
