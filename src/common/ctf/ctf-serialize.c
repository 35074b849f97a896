/*
 * ctf-serialize.c - encodes field values with the type model (see
 * ctf-event.h). Alignment is relative to the cursor base, the packet start.
 */
#include "ctf/ctf-event.h"

#include <errno.h>
#include <string.h>

static inline enum ctf_byte_order field_bo(enum ctf_byte_order own,
					   enum ctf_byte_order trace)
{
	return own == CTF_BO_NATIVE ? trace : own;
}

static inline int reserve(struct ctf_cursor *c, unsigned align, uint64_t bits)
{
	uint64_t off = align_up(c->off, align);

	if (unlikely(off + bits > c->cap || off + bits < off))
		return -ENOSPC;
	c->off = off;
	return 0;
}

static int put_int(struct ctf_cursor *c, enum ctf_byte_order bo, const struct ctf_type *t,
		   const struct ctf_value *v)
{
	unsigned n = t->i.size;
	uint64_t raw;
	int r;

	if (v->kind == CTF_VALUE_S64) {
		int64_t s = v->s64;

		if (t->i.is_signed) {
			if (n < 64 && (s < -((int64_t)1 << (n - 1)) || s >= ((int64_t)1 << (n - 1))))
				return -ERANGE;
		} else if (s < 0 || (n < 64 && (uint64_t)s >> n)) {
			return -ERANGE;
		}
		raw = (uint64_t)s;
	} else if (v->kind == CTF_VALUE_U64) {
		raw = v->u64;
		if (t->i.is_signed ? raw >> (n - 1) != 0 : (n < 64 && raw >> n))
			return -ERANGE;
	} else {
		return -EINVAL;
	}
	if ((r = reserve(c, t->i.align, n)) < 0)
		return r;
	if (n < 64)
		raw &= (UINT64_C(1) << n) - 1;
	ctf_bits_write(c->base, c->off, n, raw, field_bo(t->i.byte_order, bo));
	c->off += n;
	return 0;
}

static int put_float(struct ctf_cursor *c, enum ctf_byte_order bo, const struct ctf_type *t,
		     const struct ctf_value *v)
{
	unsigned n = t->f.exp_dig + t->f.mant_dig;
	uint64_t raw;
	int r;

	if (v->kind != CTF_VALUE_DOUBLE)
		return -EINVAL;
	if (n == 32) {
		float f = (float)v->d;
		uint32_t u;

		memcpy(&u, &f, 4);
		raw = u;
	} else {
		memcpy(&raw, &v->d, 8);
	}
	if ((r = reserve(c, t->f.align, n)) < 0)
		return r;
	ctf_bits_write(c->base, c->off, n, raw, field_bo(t->f.byte_order, bo));
	c->off += n;
	return 0;
}

static int put_bytes(struct ctf_cursor *c, const void *src, size_t len, size_t total)
{
	uint8_t *p;
	int r;

	if ((r = reserve(c, 8, 8 * (uint64_t)total)) < 0)
		return r;
	p = c->base + (c->off >> 3);
	memcpy(p, src, len);
	memset(p + len, 0, total - len);
	c->off += 8 * (uint64_t)total;
	return 0;
}

static bool is_byte_elem(const struct ctf_type *e)
{
	return e->kind == CTF_TYPE_INT && e->i.size == 8 && e->i.align <= 8;
}

static int put(struct ctf_cursor *c, enum ctf_byte_order bo, const struct ctf_type *t,
	       const struct ctf_value *v, uint64_t seq_len);

static int put_array(struct ctf_cursor *c, enum ctf_byte_order bo,
		     const struct ctf_type *t, const struct ctf_value *v, uint64_t len)
{
	const struct ctf_type *e = t->a.elem;
	int r;

	if (v->kind == CTF_VALUE_STRING && is_byte_elem(e)) {
		size_t sl = strnlen(v->str, len + 1);

		/* Text arrays: the string, NUL-padded; sequences: exactly len bytes. */
		if (t->kind == CTF_TYPE_SEQUENCE ? sl != len : sl > len)
			return -EINVAL;
		return put_bytes(c, v->str, sl, len);
	}
	if (v->kind == CTF_VALUE_BYTES && is_byte_elem(e)) {
		if (v->count != len)
			return -EINVAL;
		return put_bytes(c, v->bytes, len, len);
	}
	if (v->kind != CTF_VALUE_LIST || v->count != len)
		return -EINVAL;
	/* Aligned on the element's alignment even when empty (CTF 1.8 4.2.3). */
	if ((r = reserve(c, t->align, 0)) < 0)
		return r;
	for (uint64_t i = 0; i < len; i++)
		if ((r = put(c, bo, e, &v->list[i], 0)) < 0)
			return r;
	return 0;
}

static int put_struct(struct ctf_cursor *c, enum ctf_byte_order bo,
		      const struct ctf_type *t, const struct ctf_value *vals, size_t n)
{
	int r;

	if (n != t->st.n)
		return -EINVAL;
	if ((r = reserve(c, t->align, 0)) < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		const struct ctf_type *ft = t->st.fields[i].type;
		uint64_t seq_len = 0;

		if (ft->kind == CTF_TYPE_SEQUENCE) {
			const struct ctf_value *lv = &vals[ft->a.length_index];

			if (lv->kind != CTF_VALUE_U64 && lv->kind != CTF_VALUE_S64)
				return -EINVAL;
			seq_len = lv->u64;
		}
		if ((r = put(c, bo, ft, &vals[i], seq_len)) < 0)
			return r;
	}
	return 0;
}

static int put(struct ctf_cursor *c, enum ctf_byte_order bo, const struct ctf_type *t,
	       const struct ctf_value *v, uint64_t seq_len)
{
	size_t len;
	int r;

	switch (t->kind) {
	case CTF_TYPE_INT:
		return put_int(c, bo, t, v);
	case CTF_TYPE_ENUM:
		return put_int(c, bo, t->e.container, v);
	case CTF_TYPE_FLOAT:
		return put_float(c, bo, t, v);
	case CTF_TYPE_STRING:
		if (v->kind != CTF_VALUE_STRING || !v->str)
			return -EINVAL;
		len = strlen(v->str) + 1;
		if ((r = reserve(c, 8, 8 * (uint64_t)len)) < 0)
			return r;
		memcpy(c->base + (c->off >> 3), v->str, len);
		c->off += 8 * (uint64_t)len;
		return 0;
	case CTF_TYPE_ARRAY:
		return put_array(c, bo, t, v, t->a.length);
	case CTF_TYPE_SEQUENCE:
		return put_array(c, bo, t, v, seq_len);
	case CTF_TYPE_STRUCT:
		if (v->kind != CTF_VALUE_LIST)
			return -EINVAL;
		return put_struct(c, bo, t, v->list, v->count);
	}
	return -EINVAL;
}

int ctf_serialize_struct(struct ctf_cursor *c, enum ctf_byte_order bo,
			 const struct ctf_type *st, const struct ctf_value *vals,
			 size_t n)
{
	uint64_t start = c->off;
	uint8_t first = start < c->cap ? c->base[start >> 3] : 0;
	int r;

	r = put_struct(c, bo, st, vals, n);
	if (unlikely(r < 0)) {
		/* Undo: bytes past the start byte were zero, the start byte is saved. */
		uint64_t from = (start >> 3) + 1, to = (c->off + 7) >> 3;

		if (start < c->cap)
			c->base[start >> 3] = first;
		if (to > from)
			memset(c->base + from, 0, to - from);
		c->off = start;
	}
	return r;
}
