/*
 * decode.c - CTF field decoding: bytes of a packet to struct rd_val arrays.
 *
 * Every read is checked against d->end (the packet's content size), every
 * count against RD_MAX_VALUES, every recursion against the type depth, so
 * that a corrupt packet gives an error, never a read out of bounds or a hang.
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

/* Appends n slots; those from init on get a NULL type (not decoded yet). */
static inline int vbuf_reserve(struct rd_decoder *d, struct rd_vbuf *vb, uint64_t n,
			       size_t *first, uint64_t init)
{
	if (unlikely(n > RD_MAX_VALUES || vb->n + n > RD_MAX_VALUES)) {
		d->errmsg = "too many fields in one event (corrupt length?)";
		return -1;
	}
	if (unlikely(vb->n + n > vb->cap) && vbuf_grow(d, vb, n) < 0)
		return -1;
	*first = vb->n;
	for (uint64_t i = init; i < n; i++)
		vb->v[vb->n + i].type = NULL;
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

static inline const struct rd_val *path_value(struct rd_decoder *d, const struct rd_path *p)
{
	const struct rd_vbuf *vb;
	size_t at;

	/* the common case: a sibling member (LTTng's lengths and tags) */
	if (likely(p->scope < 0 && p->up == 0 && p->depth == 1 && d->nstack)) {
		const struct rd_val *s = &d->cur->v[d->stack[d->nstack - 1]];
		const struct rd_val *m;

		if (unlikely(p->idx[0] >= s->kids.count))
			return NULL;
		m = s + s->kids.first + p->idx[0];
		return m->type == p->target ? m : NULL;
	}
	if (p->scope < 0) {
		if ((size_t)p->up >= d->nstack)
			return NULL;
		vb = d->cur;
		at = d->stack[d->nstack - 1 - (size_t)p->up];
	} else {
		vb = d->scope_buf[p->scope];
		if (!vb || d->scope_root[p->scope] < 0)
			return NULL;
		at = (size_t)d->scope_root[p->scope];
	}
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

static int find_mapping(const struct rd_type *e, uint64_t u)
{
	for (size_t i = 0; i < e->nmappings; i++) {
		const struct rd_mapping *m = &e->mappings[i];

		for (size_t r = 0; r < m->nranges; r++) {
			if (e->is_signed ? ((int64_t)u >= m->ranges[r].lo && (int64_t)u <= m->ranges[r].hi)
					 : (u >= (uint64_t)m->ranges[r].lo && u <= (uint64_t)m->ranges[r].hi))
				return (int)i;
		}
	}
	return -1;
}

static int decode(struct rd_decoder *d, const struct rd_type *t, struct rd_vbuf *vb, size_t idx)
{
	uint64_t pos = d->pos;

	if (t->align > 1)
		pos = align_up(pos, t->align);
	if (unlikely(pos > d->end)) {
		d->errmsg = "field alignment goes past the end of the packet content";
		return -1;
	}
	switch (t->kind) {
	case RD_INT:
	case RD_ENUM: {
		uint64_t v;

		if (unlikely(d->end - pos < t->size)) {
			d->errmsg = "integer goes past the end of the packet content";
			return -1;
		}
		v = read_bits(d->buf, pos, t->size, t->bo == RD_BO_BE);
		d->pos = pos + t->size;
		if (t->clock >= 0 && d->clock)
			clock_update(d->clock, v, t->size);
		if (t->is_signed && t->size < 64 && (v >> (t->size - 1)) & 1)
			v |= ~((UINT64_C(1) << t->size) - 1);
		if (t->is_event_id) {
			d->event_id = v;
			d->has_event_id = true;
		}
		vb->v[idx].type = t;
		vb->v[idx].u = v;
		return 0;
	}
	case RD_FLOAT: {
		uint64_t v;

		if (unlikely(d->end - pos < t->size)) {
			d->errmsg = "float goes past the end of the packet content";
			return -1;
		}
		v = read_bits(d->buf, pos, t->size, t->bo == RD_BO_BE);
		d->pos = pos + t->size;
		if (t->size == 32) {
			uint32_t w = (uint32_t)v;
			float f;

			memcpy(&f, &w, sizeof(f));
			vb->v[idx].d = f;
		} else {
			memcpy(&vb->v[idx].d, &v, sizeof(double));
		}
		vb->v[idx].type = t;
		return 0;
	}
	case RD_STRING: {
		const uint8_t *s, *nul;

		pos = align_up(pos, 8);
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
		vb->v[idx].type = t;
		vb->v[idx].str.s = (const char *)s;
		vb->v[idx].str.len = (uint64_t)(nul - s);
		d->pos = pos + ((uint64_t)(nul - s) + 1) * 8;
		return 0;
	}
	case RD_STRUCT: {
		size_t first;

		if (unlikely(++d->depth > 2 * RD_MAX_DEPTH || d->nstack >= ARRAY_SIZE(d->stack))) {
			d->errmsg = "types nested too deeply";
			return -1;
		}
		if (vbuf_reserve(d, vb, t->nmembers, &first, t->nstatic) < 0)
			return -1;
		vb->v[idx].type = t;
		vb->v[idx].kids.first = (uint32_t)(first - idx);
		vb->v[idx].kids.count = (uint32_t)t->nmembers;
		d->pos = pos;
		d->stack[d->nstack++] = (uint32_t)idx;
		size_t i = 0;
		if (t->nstatic && d->end - pos >= t->static_bits) {
			struct rd_val *out = &vb->v[first];

			for (; i < t->nstatic; i++) {
				const struct rd_type *mt = t->members[i].type;

				store_scalar(d, mt, read_bits(d->buf, pos + t->static_off[i], mt->size,
							      mt->bo == RD_BO_BE), &out[i]);
			}
			d->pos = pos + t->static_bits;
		}
		for (; i < t->nmembers; i++)
			if (decode(d, t->members[i].type, vb, first + i) < 0)
				return -1;
		d->nstack--;
		d->depth--;
		return 0;
	}
	case RD_ARRAY:
	case RD_SEQ: {
		uint64_t n = t->length;
		size_t first;

		if (t->kind == RD_SEQ) {
			const struct rd_val *lv = path_value(d, &t->len);

			if (unlikely(!lv)) {
				d->errmsg = "sequence length field not decoded";
				return -1;
			}
			n = lv->u;
			if (lv->type->is_signed && (int64_t)n < 0) {
				d->errmsg = "negative sequence length";
				return -1;
			}
		}
		if (t->text) {
			const char *s;
			const void *nul;

			pos = align_up(pos, 8);
			if (unlikely(pos > d->end || n > (d->end - pos) / 8)) {
				d->errmsg = "text array goes past the end of the packet content";
				return -1;
			}
			s = (const char *)d->buf + pos / 8;
			nul = memchr(s, '\0', n);
			vb->v[idx].type = t;
			vb->v[idx].str.s = s;
			vb->v[idx].str.len = nul ? (uint64_t)((const char *)nul - s) : n;
			d->pos = pos + n * 8;
			return 0;
		}
		if (unlikely(t->elem->kind <= RD_STRING && n > d->end - pos)) {
			d->errmsg = "array goes past the end of the packet content";
			return -1;
		}
		if (unlikely(++d->depth > 2 * RD_MAX_DEPTH)) {
			d->errmsg = "types nested too deeply";
			return -1;
		}
		if (t->elem->kind == RD_INT || t->elem->kind == RD_ENUM || t->elem->kind == RD_FLOAT) {
			/* scalars: no recursion, one bounds check per element */
			const struct rd_type *et = t->elem;
			bool be = et->bo == RD_BO_BE;
			struct rd_val *out;

			if (vbuf_reserve(d, vb, n, &first, n) < 0)
				return -1;
			vb->v[idx].type = t;
			vb->v[idx].kids.first = (uint32_t)(first - idx);
			vb->v[idx].kids.count = (uint32_t)n;
			out = &vb->v[first];
			for (uint64_t i = 0; i < n; i++) {
				if (et->align > 1)
					pos = align_up(pos, et->align);
				if (unlikely(pos > d->end || d->end - pos < et->size)) {
					d->errmsg = "array goes past the end of the packet content";
					return -1;
				}
				store_scalar(d, et, read_bits(d->buf, pos, et->size, be), &out[i]);
				pos += et->size;
			}
			d->pos = pos;
			d->depth--;
			return 0;
		}
		if (vbuf_reserve(d, vb, n, &first, 0) < 0)
			return -1;
		vb->v[idx].type = t;
		vb->v[idx].kids.first = (uint32_t)(first - idx);
		vb->v[idx].kids.count = (uint32_t)n;
		d->pos = pos;
		for (uint64_t i = 0; i < n; i++)
			if (decode(d, t->elem, vb, first + i) < 0)
				return -1;
		d->depth--;
		return 0;
	}
	case RD_VARIANT: {
		const struct rd_val *tv = path_value(d, &t->tag);
		size_t first;
		int m, opt;

		if (unlikely(!tv)) {
			d->errmsg = "variant tag field not decoded";
			return -1;
		}
		if (likely(t->last_opt >= 0 && t->last_tag == tv->u)) {
			opt = t->last_opt;
		} else {
			m = find_mapping(t->tag.target, tv->u);
			opt = m < 0 ? -1 : t->opt_of_mapping[m];
			if (unlikely(opt < 0)) {
				d->errmsg = "variant tag value selects no option";
				return -1;
			}
			/* decoding state kept in the type (see rd_type.last_tag) */
			((struct rd_type *)t)->last_tag = tv->u;
			((struct rd_type *)t)->last_opt = opt;
		}
		if (unlikely(++d->depth > 2 * RD_MAX_DEPTH)) {
			d->errmsg = "types nested too deeply";
			return -1;
		}
		if (vbuf_reserve(d, vb, 1, &first, 0) < 0)
			return -1;
		vb->v[idx].type = t;
		vb->v[idx].kids.first = (uint32_t)(first - idx);
		vb->v[idx].kids.count = 1;
		d->pos = pos;
		if (decode(d, t->members[opt].type, vb, first) < 0)
			return -1;
		d->depth--;
		return 0;
	}
	}
	d->errmsg = "unknown type";
	return -1;
}

int64_t rd_decode_scope(struct rd_decoder *d, const struct rd_type *t,
			struct rd_vbuf *vb, int sc)
{
	size_t root;

	d->nstack = 0;
	d->depth = 0;
	d->cur = vb;
	d->scope_buf[sc] = vb;
	if (vbuf_reserve(d, vb, 1, &root, 0) < 0)
		return -1;
	d->scope_root[sc] = (int64_t)root;
	if (decode(d, t, vb, root) < 0) {
		d->scope_root[sc] = -1;
		return -1;
	}
	return (int64_t)root;
}
