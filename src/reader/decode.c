/*
 * decode.c - CTF field decoding: bytes of a packet to struct rd_val arrays.
 *
 * Each scope is decoded by running its decode program (program.c): one loop
 * over flat ops, no recursion. Every read is checked against d->end (the
 * packet's content size) and every count against RD_MAX_VALUES, so that a
 * corrupt packet gives an error, never a read out of bounds or a hang.
 * Nothing is allocated per event: the value buffer is reused and only grows.
 */
#include "reader-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/macros.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "read_bits() loads little-endian fields directly: a big-endian host needs the swap the other way"
#endif

void rd_vbuf_free(struct rd_vbuf *vb)
{
	if (!vb)
		return;
	free(vb->v);
	vb->v = NULL;
	vb->n = vb->cap = 0;
	vb->prog = NULL;
}

static int vbuf_grow(struct rd_decoder *d, struct rd_vbuf *vb, uint64_t n)
{
	size_t cap = vb->cap ? vb->cap : 64;
	struct rd_val *g;

	while (cap < vb->n + n)
		cap *= 2;
	g = realloc(vb->v, cap * sizeof(*g));
	if (!g) {
		d->errmsg = "out of memory";
		return -1;
	}
	vb->v = g;
	vb->cap = cap;
	return 0;
}

/* Appends n slots; *first is the first. */
static inline int vbuf_reserve(struct rd_decoder *d, struct rd_vbuf *vb, uint64_t n,
			       size_t *first)
{
	if (unlikely(n > RD_MAX_VALUES || vb->n + n > RD_MAX_VALUES)) {
		d->errmsg = "too many fields in one event (corrupt length?)";
		return -1;
	}
	if (unlikely(vb->n + n > vb->cap) && vbuf_grow(d, vb, n) < 0)
		return -1;
	*first = vb->n;
	vb->n += n;
	return 0;
}

/* Reads size bits at bit position pos (bounds already checked). */
static inline uint64_t read_bits(const uint8_t *buf, uint64_t pos, unsigned size, bool be)
{
	const uint8_t *p = buf + (pos >> 3);
	unsigned off = (unsigned)(pos & 7);
	unsigned nbytes = (off + size + 7) >> 3;
	unsigned __int128 x = 0;
	uint64_t mask;

	if (!be) {
		/* byte-aligned: direct loads (x86-64 and the other LE hosts) */
		if (off == 0) {
			switch (size) {
			case 8:
				return p[0];
			case 16: {
				uint16_t v;

				memcpy(&v, p, 2);
				return v;
			}
			case 32: {
				uint32_t v;

				memcpy(&v, p, 4);
				return v;
			}
			case 64: {
				uint64_t v;

				memcpy(&v, p, 8);
				return v;
			}
			default:
				break;
			}
		}
		mask = size == 64 ? UINT64_MAX : ((UINT64_C(1) << size) - 1);
		for (unsigned i = 0; i < nbytes; i++)
			x |= (unsigned __int128)p[i] << (8 * i);
		return (uint64_t)(x >> off) & mask;
	}
	mask = size == 64 ? UINT64_MAX : ((UINT64_C(1) << size) - 1);
	if (off == 0 && size == 32) {
		uint32_t v;

		memcpy(&v, p, 4);
		return __builtin_bswap32(v);
	}
	if (off == 0 && size == 64) {
		uint64_t v;

		memcpy(&v, p, 8);
		return __builtin_bswap64(v);
	}
	if (off == 0 && size == 16) {
		uint16_t v;

		memcpy(&v, p, 2);
		return __builtin_bswap16(v);
	}
	for (unsigned i = 0; i < nbytes; i++)
		x = x << 8 | p[i];
	return (uint64_t)(x >> (nbytes * 8 - off - size)) & mask;
}

static inline void clock_update(uint64_t *clock, uint64_t v, unsigned size)
{
	if (size >= 64) {
		*clock = v;
	} else {
		uint64_t mask = (UINT64_C(1) << size) - 1;
		uint64_t nv = (*clock & ~mask) | v;

		if (nv < *clock)	/* the low bits wrapped */
			nv += mask + 1;
		*clock = nv;
	}
}

/* Stores the scalar v (raw bits) of type t read at the current position. */
static inline void store_scalar(struct rd_decoder *d, const struct rd_type *t, uint64_t v,
				struct rd_val *out)
{
	out->type = t;
	if (t->kind == RD_FLOAT) {
		if (t->size == 32) {
			uint32_t w = (uint32_t)v;
			float f;

			memcpy(&f, &w, sizeof(f));
			out->d = f;
		} else {
			memcpy(&out->d, &v, sizeof(double));
		}
		return;
	}
	if (unlikely(t->clock >= 0) && d->clock)
		clock_update(d->clock, v, t->size);
	if (t->is_signed && t->size < 64 && (v >> (t->size - 1)) & 1)
		v |= ~((UINT64_C(1) << t->size) - 1);
	if (unlikely(t->is_event_id)) {
		d->event_id = v;
		d->has_event_id = true;
	}
	out->u = v;
}

/* Whether u is in [lo, hi], compared as enum e compares. */
static inline bool in_range(const struct rd_type *e, uint64_t u, int64_t lo, int64_t hi)
{
	return e->is_signed ? (int64_t)u >= lo && (int64_t)u <= hi
			    : u >= (uint64_t)lo && u <= (uint64_t)hi;
}

static bool ranges_overlap(const struct rd_type *e, int64_t a, int64_t b, int64_t c, int64_t d)
{
	return e->is_signed ? a <= d && c <= b : (uint64_t)a <= (uint64_t)d && (uint64_t)c <= (uint64_t)b;
}

/* The value at an absolute path (in a scope decoded before), or NULL. */
static const struct rd_val *path_value(const struct rd_decoder *d, const struct rd_path *p)
{
	const struct rd_vbuf *vb = d->scope_buf[p->scope];
	size_t at;

	if (!vb || d->scope_root[p->scope] < 0)
		return NULL;
	at = (size_t)d->scope_root[p->scope];
	for (size_t i = 0; i < p->depth; i++) {
		const struct rd_val *s = &vb->v[at];

		if (!s->type || s->type->kind != RD_STRUCT || p->idx[i] >= s->kids.count)
			return NULL;
		at = at + s->kids.first + p->idx[i];
	}
	if (at >= vb->n || vb->v[at].type != p->target)
		return NULL;
	return &vb->v[at];
}

/*
 * The first mapping of enum e whose ranges hold u, or -1; and in *lo, *hi
 * a range of values around u that all map there (the mapping's range that
 * holds u if no earlier mapping overlaps it, else u alone).
 */
static int find_mapping(const struct rd_type *e, uint64_t u, int64_t *lo, int64_t *hi)
{
	for (size_t i = 0; i < e->nmappings; i++) {
		const struct rd_mapping *m = &e->mappings[i];

		for (size_t r = 0; r < m->nranges; r++) {
			int64_t a = m->ranges[r].lo, b = m->ranges[r].hi;

			if (!in_range(e, u, a, b))
				continue;
			*lo = *hi = (int64_t)u;
			for (size_t j = 0; j < i; j++)
				for (size_t k = 0; k < e->mappings[j].nranges; k++)
					if (ranges_overlap(e, a, b, e->mappings[j].ranges[k].lo,
							   e->mappings[j].ranges[k].hi))
						return (int)i;
			*lo = a;
			*hi = b;
			return (int)i;
		}
	}
	return -1;
}

/* The value a sequence length or variant tag op refers to, or NULL. */
static inline const struct rd_val *op_ref(const struct rd_decoder *d, const struct rd_op *op,
					  const struct rd_val *v, const size_t *bases,
					  const struct rd_path *path)
{
	switch (op->ref_kind) {
	case RD_REF_SLOT:
		return &v[bases[op->ref_level] + op->ref];
	case RD_REF_PATH:
		return path_value(d, path);
	default:
		return NULL;
	}
}

/* A sequence's length (or an array's): 0, or -1 with d->errmsg set. */
static inline int op_length(struct rd_decoder *d, const struct rd_op *op, const struct rd_val *v,
			    const size_t *bases, uint64_t *n)
{
	const struct rd_type *t = op->type;
	const struct rd_val *lv;

	if (t->kind == RD_ARRAY) {
		*n = t->length;
		return 0;
	}
	lv = op_ref(d, op, v, bases, &t->len);
	if (unlikely(!lv)) {
		d->errmsg = "sequence length field not decoded";
		return -1;
	}
	if (unlikely(lv->type->is_signed && (int64_t)lv->u < 0)) {
		d->errmsg = "negative sequence length";
		return -1;
	}
	*n = lv->u;
	return 0;
}

/* The option a variant's tag selects: its index, or -1 with d->errmsg set. */
static inline int variant_option(struct rd_decoder *d, const struct rd_op *op,
				 const struct rd_val *v, const size_t *bases)
{
	const struct rd_type *t = op->type;
	const struct rd_val *tv = op_ref(d, op, v, bases, &t->tag);
	int64_t lo, hi;
	int m, opt;

	if (unlikely(!tv)) {
		d->errmsg = "variant tag field not decoded";
		return -1;
	}
	if (likely(t->last_opt >= 0 && in_range(t->tag.target, tv->u, t->last_lo, t->last_hi)))
		return t->last_opt;
	m = find_mapping(t->tag.target, tv->u, &lo, &hi);
	opt = m < 0 ? -1 : t->opt_of_mapping[m];
	if (unlikely(opt < 0)) {
		d->errmsg = "variant tag value selects no option";
		return -1;
	}
	/* decoding state kept in the type (see rd_type.last_lo) */
	((struct rd_type *)t)->last_lo = lo;
	((struct rd_type *)t)->last_hi = hi;
	((struct rd_type *)t)->last_opt = opt;
	return opt;
}

/* A text array or sequence of n bytes at pos (byte-aligned); the new pos, or -1. */
static inline int64_t decode_text(struct rd_decoder *d, uint64_t pos, uint64_t n, struct rd_val *out,
				  const struct rd_type *t)
{
	const char *s;
	const void *nul;

	if (unlikely(pos > d->end || n > (d->end - pos) / 8)) {
		d->errmsg = "text array goes past the end of the packet content";
		return -1;
	}
	s = (const char *)d->buf + pos / 8;
	nul = memchr(s, '\0', n);
	out->type = t;
	out->str.s = s;
	out->str.len = nul ? (uint64_t)((const char *)nul - s) : n;
	return (int64_t)(pos + n * 8);
}

/* A NUL-terminated string at pos (byte-aligned); the new pos, or -1. */
static inline int64_t decode_string(struct rd_decoder *d, uint64_t pos, struct rd_val *out,
				    const struct rd_type *t)
{
	const uint8_t *s, *nul;

	if (unlikely(pos >= d->end)) {
		d->errmsg = "string goes past the end of the packet content";
		return -1;
	}
	s = d->buf + pos / 8;
	nul = memchr(s, '\0', (d->end - pos) / 8);
	if (unlikely(!nul)) {
		d->errmsg = "string without its terminating NUL before the end of the packet content";
		return -1;
	}
	out->type = t;
	out->str.s = (const char *)s;
	out->str.len = (uint64_t)(nul - s);
	return (int64_t)(pos + ((uint64_t)(nul - s) + 1) * 8);
}

/* Unaligned native loads. */
static inline uint16_t load16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t load32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A little-endian integer of 8, 16, 32 or 64 bits at p. */
static inline uint64_t load_le(const uint8_t *p, unsigned size)
{
	switch (size) {
	case 8:
		return p[0];
	case 16:
		return load16(p);
	case 32:
		return load32(p);
	default:
		return load64(p);
	}
}

/*
 * n integers, enums or floats of type et from pos into out; the new pos, or
 * -1. loads: et is little-endian, 8/16/32/64 bits aligned to a byte and to
 * no more than its size, no clock, no id (RD_OPF_BYTES).
 */
static int64_t decode_scalars(struct rd_decoder *d, uint64_t pos, uint64_t n, struct rd_val *out,
			      const struct rd_type *et, bool loads)
{
	bool be = et->bo == RD_BO_BE;
	uint64_t amask = et->align - 1;

	if (loads) {
		/* byte-aligned, each element aligned after the first: one check, loads */
		const uint8_t *p;
		unsigned bytes = et->size / 8, sh = 64 - et->size;

		pos = (pos + amask) & ~amask;
		if (unlikely(pos > d->end || n > (d->end - pos) / et->size)) {
			d->errmsg = "array goes past the end of the packet content";
			return -1;
		}
		p = d->buf + pos / 8;
		/* a loop per size: the load and the sign extension known in each */
#define SCALARS_LOOP(load)						\
		for (uint64_t i = 0; i < n; i++, p += bytes) {		\
			uint64_t u = (load);				\
									\
			out[i].type = et;				\
			out[i].u = et->is_signed && sh ? (uint64_t)((int64_t)(u << sh) >> sh) : u; \
		}
		switch (et->size) {
		case 8:
			SCALARS_LOOP(p[0]);
			break;
		case 16:
			SCALARS_LOOP(load16(p));
			break;
		case 32:
			SCALARS_LOOP(load32(p));
			break;
		default:
			SCALARS_LOOP(load64(p));
			break;
		}
#undef SCALARS_LOOP
		return (int64_t)(pos + n * et->size);
	}
	for (uint64_t i = 0; i < n; i++) {
		pos = (pos + amask) & ~amask;
		if (unlikely(pos > d->end || d->end - pos < et->size)) {
			d->errmsg = "array goes past the end of the packet content";
			return -1;
		}
		store_scalar(d, et, read_bits(d->buf, pos, et->size, be), &out[i]);
		pos += et->size;
	}
	return (int64_t)pos;
}

/* Sets v[at] to a compound of type t with n children from first, stride apart. */
static inline void set_compound(struct rd_val *v, size_t at, const struct rd_type *t, size_t first,
				uint64_t n, uint32_t stride)
{
	v[at].type = t;
	v[at].kids.first = (uint32_t)(first - at);
	v[at].kids.count = (uint32_t)n;
	v[at].kids.stride = stride;
}

/*
 * A run's bounds check failed: the error of its first op that does not fit,
 * as if each had been checked in turn.
 */
static int run_past_end(struct rd_decoder *d, const struct rd_op *run, const struct rd_op *ops,
			uint64_t start)
{
	for (const struct rd_op *op = run + 1; op < &ops[run->target]; op++) {
		if (op->code == RD_OP_STRUCT) {
			if (start + op->off > d->end) {
				d->errmsg = "field alignment goes past the end of the packet content";
				return -1;
			}
		} else if (start + op->off + op->size > d->end) {
			d->errmsg = op->type->kind == RD_FLOAT ?
				"float goes past the end of the packet content" :
				"integer goes past the end of the packet content";
			return -1;
		}
	}
	d->errmsg = "field alignment goes past the end of the packet content";
	return -1;
}

/* Sets each op's addr, from code: its handler in run(), by opcode. */
static void thread_ops(struct rd_prog *p, const void *const *code)
{
	/* the program is the reader's, used by one thread: a cache like rd_type.last_tag */
	for (size_t i = 0; i < p->nops; i++)
		p->ops[i].addr = code[p->ops[i].code];
	p->threaded = true;
}

/* Makes vb hold p's values: block 0 from p's template (once), nothing after it. */
static inline __attribute__((always_inline)) int prepare(struct rd_decoder *d, const struct rd_prog *p, struct rd_vbuf *vb)
{
	if (unlikely(vb->prog != p)) {
		vb->n = 0;
		vb->prog = NULL;
		if (vbuf_reserve(d, vb, p->nslots, &(size_t){ 0 }) < 0)
			return -1;
		memcpy(vb->v, p->tmpl, p->nslots * sizeof(*vb->v));
		vb->prog = p;
	}
	vb->n = p->nslots;
	for (unsigned i = 0; i < p->nscopes; i++) {
		d->scope_buf[p->scope[i].sc] = vb;
		d->scope_root[p->scope[i].sc] = p->scope[i].root;
	}
	return 0;
}

/*
 * rd_decode - see reader-internal.h. Each run is checked against the
 * content end before its ops read; every other op checks what it reads; ops
 * that reserve values count them against RD_MAX_VALUES. Dispatch is
 * threaded: each op jumps to the next one's code. An event header's program
 * goes on with the program of the event's class (RD_OP_EVENT), in the same
 * loop.
 */
int rd_decode(struct rd_decoder *d, const struct rd_prog *p, struct rd_vbuf *vb)
{
	static const void *const code[] = {
		[RD_OP_RUN] = &&op_run,
		[RD_OP_U8] = &&op_u8, [RD_OP_U16] = &&op_u16, [RD_OP_U32] = &&op_u32,
		[RD_OP_U64] = &&op_u64, [RD_OP_S8] = &&op_s8, [RD_OP_S16] = &&op_s16,
		[RD_OP_S32] = &&op_s32, [RD_OP_BE16] = &&op_be16, [RD_OP_BE32] = &&op_be32,
		[RD_OP_BE64] = &&op_be64, [RD_OP_SBE16] = &&op_sbe16, [RD_OP_SBE32] = &&op_sbe32,
		[RD_OP_F32] = &&op_f32, [RD_OP_F64] = &&op_f64, [RD_OP_CLOCK] = &&op_clock,
		[RD_OP_ID] = &&op_id, [RD_OP_INT] = &&op_int,
		[RD_OP_FLOAT] = &&op_float, [RD_OP_STRUCT] = &&op_struct, [RD_OP_STRING] = &&op_string,
		[RD_OP_TEXT] = &&op_text, [RD_OP_SCALARS] = &&op_array, [RD_OP_VARIANT] = &&op_variant,
		[RD_OP_JUMP] = &&op_jump, [RD_OP_ARRAY] = &&op_array, [RD_OP_NEXT] = &&op_next,
		[RD_OP_EVENT] = &&op_event, [RD_OP_HEADER] = &&op_header,
		[RD_OP_RETURN] = &&op_return,
	};
	const struct rd_op *ops = p->ops;
	const struct rd_op *op = ops;
	const uint8_t *const buf = d->buf;
	const uint64_t end = d->end;
	uint64_t pos = d->pos;
	uint64_t start = 0;		/* bit where the current run starts */
	const uint8_t *at = buf;	/* its byte */
	struct rd_val *v;
	char *frame;			/* &v[base]: ops' voff count from it */
	struct rd_val *out;
	size_t bases[RD_MAX_FRAMES + 1];	/* bases[k]: slot 0 of block level k */
	uint64_t left[RD_MAX_FRAMES + 1];	/* elements still to decode at level k */
	unsigned level = 0;
	size_t base = 0;
	size_t first;
	int64_t np;
	uint64_t n;
	int opt;

	bases[0] = 0;

/* the op's value, and its code: threaded, each op holds its handler's address */
#define OUT ((struct rd_val *)(frame + op->voff))
#define DISPATCH() goto *op->addr
#define NEXT() do { op++; DISPATCH(); } while (0)
#define ALIGN() (pos = (pos + op->amask) & ~(uint64_t)op->amask)
/* base or v moved */
#define REFRAME() (frame = (char *)&v[base])
/* A scalar of a run, read by expr from at_ (its first byte); its type is the template's. */
#define SCALAR(expr)							\
	do {								\
		const uint8_t *at_ = at + op->boff;			\
		OUT->u = (expr);					\
		NEXT();							\
	} while (0)

	if (prepare(d, p, vb) < 0)
		return -1;
	v = vb->v;
	frame = (char *)v;
	if (unlikely(!p->threaded))
		thread_ops((struct rd_prog *)p, code);
	DISPATCH();
op_run:
	ALIGN();
	if (unlikely(pos + op->arg > end))
		return run_past_end(d, op, ops, pos);
	start = pos;
	at = buf + (pos >> 3);
	pos += op->arg;
	NEXT();
op_u8:
	SCALAR(at_[0]);
op_u16:
	SCALAR(load16(at_));
op_u32:
	SCALAR(load32(at_));
op_u64:
	SCALAR(load64(at_));
op_s8:
	SCALAR((uint64_t)(int64_t)(int8_t)at_[0]);
op_s16:
	SCALAR((uint64_t)(int64_t)(int16_t)load16(at_));
op_s32:
	SCALAR((uint64_t)(int64_t)(int32_t)load32(at_));
op_be16:
	SCALAR(__builtin_bswap16(load16(at_)));
op_be32:
	SCALAR(__builtin_bswap32(load32(at_)));
op_be64:
	SCALAR(__builtin_bswap64(load64(at_)));
op_sbe16:
	SCALAR((uint64_t)(int64_t)(int16_t)__builtin_bswap16(load16(at_)));
op_sbe32:
	SCALAR((uint64_t)(int64_t)(int32_t)__builtin_bswap32(load32(at_)));
op_f32: {
	float f;

	memcpy(&f, at + op->boff, sizeof(f));
	OUT->d = f;
	NEXT();
}
op_f64:
	memcpy(&OUT->d, at + op->boff, sizeof(double));
	NEXT();
op_clock:
	n = load_le(at + op->boff, op->size);
	if (d->clock)
		clock_update(d->clock, n, op->size);
	OUT->u = n;
	NEXT();
op_id:
	OUT->u = d->event_id = load_le(at + op->boff, op->size);
	d->has_event_id = true;
	NEXT();
op_int:
	if (likely(op->flags & RD_OPF_BYTES))
		n = load_le(at + op->boff, op->size);
	else
		n = read_bits(buf, start + op->off, op->size, op->flags & RD_OPF_BE);
	if (unlikely(op->flags & (RD_OPF_SIGNED | RD_OPF_CLOCK | RD_OPF_ID))) {
		if (op->flags & RD_OPF_CLOCK && d->clock)
			clock_update(d->clock, n, op->size);
		if (op->flags & RD_OPF_SIGNED && op->size < 64)
			n = (uint64_t)((int64_t)(n << (64 - op->size)) >> (64 - op->size));
		if (op->flags & RD_OPF_ID) {
			d->event_id = n;
			d->has_event_id = true;
		}
	}
	out = OUT;
	out->type = op->type;
	out->u = n;
	NEXT();
op_float:
	store_scalar(d, op->type, read_bits(buf, start + op->off, op->size, op->flags & RD_OPF_BE),
		     OUT);
	NEXT();
op_struct:
	set_compound(v, base + op->slot, op->type, base + op->arg, op->type->nmembers, 1);
	NEXT();
op_string:
	ALIGN();
	np = decode_string(d, pos, OUT, op->type);
	if (np < 0)
		return -1;
	pos = (uint64_t)np;
	NEXT();
op_text:
	ALIGN();
	if (op_length(d, op, v, bases, &n) < 0)
		return -1;
	np = decode_text(d, pos, n, OUT, op->type);
	if (np < 0)
		return -1;
	pos = (uint64_t)np;
	NEXT();
op_array:	/* and arrays of scalars */
	ALIGN();
	if (op_length(d, op, v, bases, &n) < 0)
		return -1;
	if (op->code == RD_OP_SCALARS) {
		/* every element takes at least one bit */
		if (unlikely(pos > end || n > end - pos)) {
			d->errmsg = "array goes past the end of the packet content";
			return -1;
		}
		if (vbuf_reserve(d, vb, n, &first) < 0)
			return -1;
		v = vb->v;
		REFRAME();
		set_compound(v, base + op->slot, op->type, first, n, 1);
		np = decode_scalars(d, pos, n, &v[first], op->type->elem, op->flags & RD_OPF_BYTES);
		if (np < 0)
			return -1;
		pos = (uint64_t)np;
		NEXT();
	}
	if (unlikely(pos > end)) {
		d->errmsg = "field alignment goes past the end of the packet content";
		return -1;
	}
	if (unlikely(n > RD_MAX_VALUES / op->arg)) {
		d->errmsg = "too many fields in one event (corrupt length?)";
		return -1;
	}
	if (vbuf_reserve(d, vb, n * op->arg, &first) < 0)
		return -1;
	v = vb->v;
	REFRAME();
	set_compound(v, base + op->slot, op->type, first, n, op->arg);
	if (n == 0) {
		op = &ops[op->target];
		DISPATCH();
	}
	left[++level] = n;
	bases[level] = base = first;
	REFRAME();
	NEXT();
op_next:
	if (--left[level]) {
		bases[level] = base += op->arg;
		REFRAME();
		op = &ops[op->target];
		DISPATCH();
	}
	base = bases[--level];
	REFRAME();
	NEXT();
op_variant:
	ALIGN();
	if (unlikely(pos > end)) {
		d->errmsg = "field alignment goes past the end of the packet content";
		return -1;
	}
	opt = variant_option(d, op, v, bases);
	if (opt < 0)
		return -1;
	{
		const struct rd_option *o = &p->options[op->target + (unsigned)opt];

		if (op->flags & RD_OPF_DYNAMIC)
			set_compound(v, base + op->slot, op->type, base + o->slot, 1, 1);
		else
			OUT->kids.first = o->slot - op->slot;
		op = &ops[o->op];
	}
	DISPATCH();
op_jump:
	op = &ops[op->target];
	DISPATCH();
op_header: {
	/* the whole header from one word (and byte loads past it); anything
	 * unusual goes to the header's own ops, which say what is wrong */
	const struct rd_hdr *h = p->hdr;
	const struct rd_hdr_opt *o = h->opt;
	uint64_t hp = (pos + op->amask) & ~(uint64_t)op->amask;
	const uint8_t *hat;
	uint64_t w, tag;

	if (unlikely(hp > end || end - hp < 64))
		NEXT();
	hat = buf + (hp >> 3);
	w = load64(hat);
	tag = w & h->tag_mask;
	if (likely(h->compact && tag - o->lo <= o->hi - o->lo)) {
		/* within the word checked above: no other check */
		n = (w >> o->f[0].off) & o->f[0].mask;
		((struct rd_val *)(frame + h->tag_voff))->u = tag;
		((struct rd_val *)(frame + h->var_voff))->kids.first = o->kids_first;
		((struct rd_val *)(frame + o->f[0].voff))->u = n;
		d->event_id = tag;
		d->has_event_id = true;
		if (d->clock)
			clock_update(d->clock, n, o->f[0].size);
		pos = hp + o->bits;
		op = &ops[op->target];
		DISPATCH();
	}
	if (tag - o->lo > o->hi - o->lo) {
		o++;
		if (h->nopts < 2 || tag - o->lo > o->hi - o->lo)
			NEXT();
	}
	if (unlikely(end - hp < o->bits))
		NEXT();
	((struct rd_val *)(frame + h->tag_voff))->u = tag;
	((struct rd_val *)(frame + h->var_voff))->kids.first = o->kids_first;
	if (h->tag_is_id) {
		d->event_id = tag;
		d->has_event_id = true;
	}
	for (unsigned i = 0; i < o->nfields; i++) {
		const struct rd_hdr_field *f = &o->f[i];

		n = f->word ? (w >> f->off) & f->mask : load_le(hat + (f->off >> 3), f->size);
		((struct rd_val *)(frame + f->voff))->u = n;
		if (f->has_clock && d->clock)
			clock_update(d->clock, n, f->size);
		if (f->is_id) {
			d->event_id = n;
			d->has_event_id = true;
		}
	}
	pos = hp + o->bits;
	op = &ops[op->target];
	DISPATCH();
}
op_event: {
	const struct rd_stream_class *sc = d->sc;
	uint64_t id = d->has_event_id ? d->event_id : 0;
	const struct rd_event_class *ec = id < sc->nby_id ? sc->by_id[id] : rd_stream_event(sc, id);

	if (!ec && !d->has_event_id && sc->nevents == 1)
		ec = sc->events[0];
	d->pos = pos;
	if (unlikely(!ec))
		return RD_UNKNOWN_EVENT;
	d->ec = ec;
	p = ec->prog;
	vb = &d->class_vb[ec->index];
	if (prepare(d, p, vb) < 0)
		return -1;
	if (unlikely(!p->threaded))
		thread_ops((struct rd_prog *)p, code);
	v = vb->v;
	REFRAME();
	op = ops = p->ops;
	DISPATCH();
}
op_return:
	d->pos = pos;
	return 0;
#undef SCALAR
#undef REFRAME
#undef ALIGN
#undef NEXT
#undef DISPATCH
#undef OUT
}

