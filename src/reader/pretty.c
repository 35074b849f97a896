/*
 * pretty.c - values in babeltrace2's text layout (its sink.text.pretty), the
 * printer of `ltt view`, here so that it reads the decoded values directly.
 */
#include "reader-internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/macros.h"

struct tbuf {
	char **buf;
	size_t *len, *cap;
	int err;
};

static inline char *reserve(struct tbuf *t, size_t n)
{
	if (unlikely(*t->cap - *t->len < n)) {
		size_t cap = *t->cap ? *t->cap : 4096;
		char *g;

		while (cap - *t->len < n)
			cap *= 2;
		g = realloc(*t->buf, cap);
		if (!g) {
			t->err = -ENOMEM;
			return NULL;
		}
		*t->buf = g;
		*t->cap = cap;
	}
	return *t->buf + *t->len;
}

static inline void put(struct tbuf *t, const char *s, size_t n)
{
	char *d = reserve(t, n);

	if (!d)
		return;
	/* short copies without a call: overlapping fixed-size moves within [s, s + n) */
	if (n >= 8 && n <= 16) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4 && n < 8) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n < 4) {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	} else {
		memcpy(d, s, n);
	}
	*t->len += n;
}

#define PUT_LIT(t, s) put(t, s, sizeof(s) - 1)

static inline void putc_(struct tbuf *t, char c)
{
	char *d = reserve(t, 1);

	if (d) {
		*d = c;
		(*t->len)++;
	}
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static void put_u64(struct tbuf *t, uint64_t v)
{
	char tmp[24];
	char *p = tmp + sizeof(tmp);
	uint32_t w;

	while (v > UINT32_MAX) {
		unsigned d = (unsigned)(v % 100) * 2;

		v /= 100;
		*--p = digit_pairs[d + 1];
		*--p = digit_pairs[d];
	}
	/* 32-bit divisions are cheaper */
	for (w = (uint32_t)v; w >= 100; w /= 100) {
		unsigned d = (w % 100) * 2;

		*--p = digit_pairs[d + 1];
		*--p = digit_pairs[d];
	}
	v = w;
	if (v >= 10) {
		unsigned d = (unsigned)v * 2;

		*--p = digit_pairs[d + 1];
		*--p = digit_pairs[d];
	} else {
		*--p = (char)('0' + v);
	}
	put(t, p, (size_t)(tmp + sizeof(tmp) - p));
}

static void put_i64(struct tbuf *t, int64_t v)
{
	if (v < 0) {
		putc_(t, '-');
		put_u64(t, (uint64_t)0 - (uint64_t)v);
	} else {
		put_u64(t, (uint64_t)v);
	}
}

static void put_escaped(struct tbuf *t, const char *s, size_t len)
{
	static const char hexd[] = "0123456789abcdef";
	size_t run = 0;

	putc_(t, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char hx[4];

		if (c >= 0x20 && c != 0x7f && c != '\\' && c != '\'' && c != '"' && c != '?')
			continue;	/* plain: copied in runs */
		if (i > run)
			put(t, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '\\': esc = "\\\\"; break;
		case '\'': esc = "\\'"; break;
		case '"': esc = "\\\""; break;
		case '?': esc = "\\?"; break;
		case '\0': esc = "\\0"; break;
		case '\a': esc = "\\a"; break;
		case '\b': esc = "\\b"; break;
		case 0x1b: esc = "\\e"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		case '\v': esc = "\\v"; break;
		default:
			hx[0] = '\\';
			hx[1] = 'x';
			hx[2] = hexd[c >> 4];
			hx[3] = hexd[c & 15];
			put(t, hx, 4);
			continue;
		}
		put(t, esc, 2);
	}
	if (len > run)
		put(t, s + run, len - run);
	putc_(t, '"');
}

static void put_integer(struct tbuf *t, const struct rd_val *v)
{
	const struct rd_type *ty = v->type;
	uint64_t u = v->u;
	unsigned len = ty->size;

	switch (ty->base) {
	case 2:
		PUT_LIT(t, "0b");
		u = len >= 64 ? u : u << (64 - len);
		for (unsigned b = 0; b < len; b++) {
			putc_(t, (u & (UINT64_C(1) << 63)) ? '1' : '0');
			u <<= 1;
		}
		return;
	case 8: {
		char tmp[24];
		char *p = tmp + sizeof(tmp);

		if (ty->is_signed && len < 64) {
			unsigned rl = ((len - 1) / 3 + 1) * 3;

			if (rl < 64)
				u &= (UINT64_C(1) << rl) - 1;
		}
		do {
			*--p = (char)('0' + (u & 7));
			u >>= 3;
		} while (u);
		putc_(t, '0');
		put(t, p, (size_t)(tmp + sizeof(tmp) - p));
		return;
	}
	case 16: {
		static const char hexd[] = "0123456789ABCDEF";
		char tmp[20];
		char *p = tmp + sizeof(tmp);

		if (len < 64) {
			unsigned rl = (len + 3) & ~3u;

			if (rl < 64)
				u &= (UINT64_C(1) << rl) - 1;
		}
		do {
			*--p = hexd[u & 15];
			u >>= 4;
		} while (u);
		PUT_LIT(t, "0x");
		put(t, p, (size_t)(tmp + sizeof(tmp) - p));
		return;
	}
	default:
		if (ty->is_signed)
			put_i64(t, v->i);
		else
			put_u64(t, u);
		return;
	}
}

static void put_double(struct tbuf *t, double d)
{
	char tmp[64];
	int n;

	/* %g prints integers below 10^6 as integers: the common case, without printf */
	if (d > -1e6 && d < 1e6 && d == (double)(int64_t)d && (d != 0 || !signbit(d))) {
		put_i64(t, (int64_t)d);
		return;
	}
	n = snprintf(tmp, sizeof(tmp), "%g", d);
	put(t, tmp, (size_t)n);
}

static void put_value(struct tbuf *t, const struct rd_val *v, bool names, unsigned depth)
{
	const struct rd_type *ty = v->type;

	if (depth > 2 * RD_MAX_DEPTH + 2)
		return;		/* cannot happen: decoding refused deeper values */
	switch (ty->kind) {
	case RD_INT:
		put_integer(t, v);
		return;
	case RD_ENUM: {
		size_t nl = 0;

		PUT_LIT(t, "( ");
		for (size_t i = 0; i < ty->nmappings; i++) {
			const struct rd_mapping *m = &ty->mappings[i];

			for (size_t r = 0; r < m->nranges; r++) {
				bool in = ty->is_signed ?
					(v->i >= m->ranges[r].lo && v->i <= m->ranges[r].hi) :
					(v->u >= (uint64_t)m->ranges[r].lo && v->u <= (uint64_t)m->ranges[r].hi);

				if (in) {
					if (nl++)
						PUT_LIT(t, ", ");
					put_escaped(t, m->label, strlen(m->label));
					break;
				}
			}
		}
		if (!nl)
			PUT_LIT(t, "<unknown>");
		PUT_LIT(t, " : container = ");
		put_integer(t, v);
		PUT_LIT(t, " )");
		return;
	}
	case RD_FLOAT:
		put_double(t, v->d);
		return;
	case RD_STRING:
		put_escaped(t, v->str.s, v->str.len);
		return;
	case RD_STRUCT:
		putc_(t, '{');
		for (size_t i = 0; i < ty->nshown; i++) {
			const struct rd_member *m = &ty->members[ty->shown[i]];

			if (names && m->sep) {
				/* ", name = " in one copy (without the comma first) */
				if (i)
					put(t, m->sep, m->shown_len + 5);
				else
					put(t, m->sep + 1, m->shown_len + 4);
			} else if (i) {
				PUT_LIT(t, ", ");
			} else {
				putc_(t, ' ');
			}
			put_value(t, v + v->kids.first + ty->shown[i], names, depth + 1);
		}
		PUT_LIT(t, " }");
		return;
	case RD_ARRAY:
	case RD_SEQ:
		if (ty->text) {
			put_escaped(t, v->str.s, v->str.len);
			return;
		}
		putc_(t, '[');
		for (uint32_t i = 0; i < v->kids.count; i++) {
			if (i)
				PUT_LIT(t, ", ");
			else
				putc_(t, ' ');
			if (names) {
				putc_(t, '[');
				put_u64(t, i);
				PUT_LIT(t, "] = ");
			}
			put_value(t, v + v->kids.first + i, names, depth + 1);
		}
		PUT_LIT(t, " ]");
		return;
	case RD_VARIANT:
		PUT_LIT(t, "{ ");
		put_value(t, v + v->kids.first, names, depth + 1);
		PUT_LIT(t, " }");
		return;
	}
}

int ltt_value_format_pretty(const struct ltt_value *v, int field_names, char **buf,
			    size_t *len, size_t *cap)
{
	struct tbuf t = { buf, len, cap, 0 };

	put_value(&t, (const struct rd_val *)v, field_names != 0, 0);
	return t.err;
}
