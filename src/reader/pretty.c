/*
 * pretty.c - values in babeltrace2's text layout (its sink.text.pretty), the
 * printer of `ltt view`, here so that it reads the decoded values directly.
 *
 * Two printers that give the same bytes: put_value() walks any value;
 * ltt_event_format_pretty() runs the event class's print program, compiled
 * on first use for each set of flags: the text between two values (braces,
 * ", name = ") is one precomputed literal, and every value that structs
 * lead to is one op that knows how to print it; what varies from event to
 * event in shape (arrays, variants) is left to put_value().
 */
#include "reader-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/macros.h"
#include "util/numfmt.h"

struct tbuf {
	char **buf;
	size_t *len, *cap;
	int err;
};

/* Room for n more bytes: where they go, or NULL (t->err set). */
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

/* Copies n bytes (room reserved); short copies without a call. */
static inline void copy_short(char *d, const char *s, size_t n)
{
	/* overlapping fixed-size moves within [s, s + n) */
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
}

static inline void put(struct tbuf *t, const char *s, size_t n)
{
	char *d = reserve(t, n);

	if (!d)
		return;
	copy_short(d, s, n);
	*t->len += n;
}

#define PUT_LIT(t, s) put(t, s, sizeof(s) - 1)

/*
 * How babeltrace2 escapes a byte of a string: 0 if it is printed as is,
 * else the letter after the backslash ('x': \xHH).
 */
static const char escape_of[256] = {
	['\0'] = '0', ['\a'] = 'a', ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\v'] = 'v',
	['\f'] = 'f', ['\r'] = 'r', [0x1b] = 'e', ['"'] = '"', ['\''] = '\'', ['?'] = '?',
	['\\'] = '\\',
	[0x01] = 'x', [0x02] = 'x', [0x03] = 'x', [0x04] = 'x', [0x05] = 'x', [0x06] = 'x',
	[0x0e] = 'x', [0x0f] = 'x', [0x10] = 'x', [0x11] = 'x', [0x12] = 'x', [0x13] = 'x',
	[0x14] = 'x', [0x15] = 'x', [0x16] = 'x', [0x17] = 'x', [0x18] = 'x', [0x19] = 'x',
	[0x1a] = 'x', [0x1c] = 'x', [0x1d] = 'x', [0x1e] = 'x', [0x1f] = 'x', [0x7f] = 'x',
};

/* s in double quotes, escaped. */
static void put_escaped(struct tbuf *t, const char *s, size_t len)
{
	static const char hexd[] = "0123456789abcdef";
	/* at worst 4 bytes per byte (\xHH) and the quotes */
	char *d = reserve(t, 4 * len + 2), *d0 = d;

	if (!d)
		return;
	*d++ = '"';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char e = escape_of[c];

		if (likely(!e)) {
			*d++ = (char)c;
		} else if (e != 'x') {
			*d++ = '\\';
			*d++ = e;
		} else {
			d[0] = '\\';
			d[1] = 'x';
			d[2] = hexd[c >> 4];
			d[3] = hexd[c & 15];
			d += 4;
		}
	}
	*d++ = '"';
	*t->len += (size_t)(d - d0);
}

/* Longest integer text: "0b" and 64 binary digits. */
#define INT_MAX_TEXT 66

/* An integer of type ty (raw bits in u) in its display base, at d; its length. */
static size_t format_integer(char *d, const struct rd_type *ty, uint64_t u)
{
	unsigned len = ty->size;

	switch (ty->base) {
	case 2:
		d[0] = '0';
		d[1] = 'b';
		u = len >= 64 ? u : u << (64 - len);
		for (unsigned b = 0; b < len; b++, u <<= 1)
			d[2 + b] = (u & (UINT64_C(1) << 63)) ? '1' : '0';
		return 2 + len;
	case 8:
		if (ty->is_signed && len < 64) {
			unsigned rl = ((len - 1) / 3 + 1) * 3;

			if (rl < 64)
				u &= (UINT64_C(1) << rl) - 1;
		}
		d[0] = '0';
		return 1 + numfmt_oct(d + 1, u);
	case 16:
		if (len < 64) {
			unsigned rl = (len + 3) & ~3u;

			if (rl < 64)
				u &= (UINT64_C(1) << rl) - 1;
		}
		d[0] = '0';
		d[1] = 'x';
		return 2 + numfmt_hex(d + 2, u);
	default:
		return ty->is_signed ? numfmt_i64(d, (int64_t)u) : numfmt_u64(d, u);
	}
}

static void put_integer(struct tbuf *t, const struct rd_val *v)
{
	char *d = reserve(t, INT_MAX_TEXT);

	if (d)
		*t->len += format_integer(d, v->type, v->u);
}

static void put_double(struct tbuf *t, double x)
{
	char *d = reserve(t, NUMFMT_MAX);

	if (d)
		*t->len += numfmt_double_g(d, x);
}

/* `( "LABEL", ... : container = N )` */
static void put_enum(struct tbuf *t, const struct rd_val *v)
{
	const struct rd_type *ty = v->type;
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
}

/*
 * What comes before member i of a struct: ", name = " (the first one:
 * " name = "), or ", " / " " without names. Returns its length.
 */
static inline const char *member_sep(const struct rd_member *m, size_t i, bool names, size_t *len)
{
	if (names && m->sep) {
		*len = m->shown_len + 4 + (i != 0);
		return i ? m->sep : m->sep + 1;
	}
	*len = i ? 2 : 1;
	return i ? ", " : " ";
}

static const char *const scope_names[] = { "stream.packet.context = ",
	"stream.event.context = ", "event.context = ", "event.fields = " };

static inline bool scope_with_names(unsigned scope, unsigned flags)
{
	return flags & (scope == LTT_SCOPE_PAYLOAD ? LTT_FORMAT_PAYLOAD_NAMES : LTT_FORMAT_CONTEXT_NAMES);
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
	case RD_ENUM:
		put_enum(t, v);
		return;
	case RD_FLOAT:
		put_double(t, v->d);
		return;
	case RD_STRING:
		put_escaped(t, v->str.s, v->str.len);
		return;
	case RD_STRUCT:
		put(t, "{", 1);
		for (size_t i = 0; i < ty->nshown; i++) {
			size_t n;
			const char *sep = member_sep(&ty->members[ty->shown[i]], i, names, &n);

			put(t, sep, n);
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
		put(t, "[", 1);
		for (uint32_t i = 0; i < v->kids.count; i++) {
			const struct rd_val *e = v + v->kids.first + i * v->kids.stride;
			/* ", [i] = " and, for an integer, the element itself */
			char *d = reserve(t, 2 + 1 + NUMFMT_MAX + 4 + INT_MAX_TEXT), *d0 = d;

			if (!d)
				return;
			if (i)
				*d++ = ',';
			*d++ = ' ';
			if (names) {
				*d++ = '[';
				d += numfmt_u64(d, i);
				memcpy(d, "] = ", 4);
				d += 4;
			}
			if (e->type->kind == RD_INT)
				d += format_integer(d, e->type, e->u);
			*t->len += (size_t)(d - d0);
			if (e->type->kind != RD_INT)
				put_value(t, e, names, depth + 1);
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

/* --- print programs -------------------------------------------------------------- */

enum fmt_code {
	FMT_INT,		/* an integer, by format_integer() */
	FMT_DEC,		/* an unsigned base-10 integer */
	FMT_SDEC,		/* a signed base-10 integer */
	FMT_FLOAT,
	FMT_TEXT,		/* a string, text array or text sequence */
	FMT_ENUM,
	FMT_VALUE,		/* anything else (arrays, variants): put_value() */
	FMT_END,		/* the last literal */
};

/*
 * One value to print, after a literal. Values that a scope's root leads to
 * through structs alone have fixed places in the decode program's block 0
 * (see program.c): off from the packet context's root (block FMT_PACKET) or
 * from the start of the values of the event's contexts and payload
 * (FMT_EVENT).
 */
enum fmt_block { FMT_PACKET, FMT_EVENT };

struct fmt_op {
	uint8_t code;		/* enum fmt_code */
	uint8_t block;		/* enum fmt_block off counts in */
	bool names;		/* FMT_VALUE: member names */
	uint32_t off;		/* the value's index in its block */
	uint32_t lit, lit_len;	/* text printed before: in rd_fmt.lits */
};

/* The print program of an event class, for one set of enum ltt_format_flag. */
struct rd_fmt {
	struct fmt_op *ops;
	size_t nops, cap;
	char *lits;
	size_t nlits, litcap;
	size_t pending;		/* compiling: literal bytes not attached to an op yet */
	unsigned depth;
	unsigned scopes;	/* 1 << enum ltt_scope of each scope it prints */
	int err;
};

static void fmt_lit(struct rd_fmt *f, const char *s, size_t n)
{
	if (f->err)
		return;
	if (f->nlits + n > f->litcap) {
		size_t cap = f->litcap ? f->litcap : 256;
		char *g;

		while (cap < f->nlits + n)
			cap *= 2;
		/* 16 bytes of slack: fmt_run() copies short literals 16 bytes at once */
		g = realloc(f->lits, cap + 16);
		if (!g) {
			f->err = -ENOMEM;
			return;
		}
		memset(g + f->nlits, 0, cap + 16 - f->nlits);
		f->lits = g;
		f->litcap = cap;
	}
	memcpy(f->lits + f->nlits, s, n);
	f->nlits += n;
	f->pending += n;
}

#define FMT_LIT(f, s) fmt_lit(f, s, sizeof(s) - 1)

/* Appends an op that prints the pending literal, then value off of block. */
static void fmt_op(struct rd_fmt *f, enum fmt_code code, unsigned block, size_t off, bool names)
{
	struct fmt_op *op;

	if (f->err)
		return;
	if (off > UINT32_MAX) {
		f->err = -E2BIG;
		return;
	}
	if (f->nops == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 16;
		struct fmt_op *g = realloc(f->ops, cap * sizeof(*g));

		if (!g) {
			f->err = -ENOMEM;
			return;
		}
		f->ops = g;
		f->cap = cap;
	}
	op = &f->ops[f->nops++];
	op->code = (uint8_t)code;
	op->block = (uint8_t)block;
	op->names = names;
	op->off = (uint32_t)off;
	op->lit = (uint32_t)(f->nlits - f->pending);
	op->lit_len = (uint32_t)f->pending;
	f->pending = 0;
}

/* How a value of type ty (not a struct) is printed. */
static enum fmt_code fmt_code_of(const struct rd_type *ty)
{
	switch (ty->kind) {
	case RD_INT:
		return ty->base != 10 ? FMT_INT : ty->is_signed ? FMT_SDEC : FMT_DEC;
	case RD_ENUM:
		return FMT_ENUM;
	case RD_FLOAT:
		return FMT_FLOAT;
	case RD_STRING:
		return FMT_TEXT;
	case RD_ARRAY:
	case RD_SEQ:
		return ty->text ? FMT_TEXT : FMT_VALUE;
	default:
		return FMT_VALUE;
	}
}

/*
 * The struct at off in block (value sv, of an event of the class): as
 * put_value() prints it.
 */
static void fmt_struct(struct rd_fmt *f, unsigned block, const struct rd_val *sv, size_t off,
		       bool names)
{
	const struct rd_type *st = sv->type;

	if (++f->depth > RD_MAX_FRAMES) {
		f->err = -E2BIG;
		return;
	}
	FMT_LIT(f, "{");
	for (size_t i = 0; i < st->nshown && !f->err; i++) {
		size_t k = sv->kids.first + st->shown[i];
		const struct rd_val *mv = sv + k;
		const struct rd_type *ty = mv->type;

		{
			size_t n;
			const char *sep = member_sep(&st->members[st->shown[i]], i, names, &n);

			fmt_lit(f, sep, n);
		}
		if (ty->kind == RD_STRUCT)
			fmt_struct(f, block, mv, off + k, names);
		else
			fmt_op(f, fmt_code_of(ty), block, off + k, names);
	}
	FMT_LIT(f, " }");
	f->depth--;
}

static void fmt_free(struct rd_fmt *f)
{
	if (!f)
		return;
	free(f->ops);
	free(f->lits);
	free(f);
}

/*
 * The print program of an event's scopes roots[] (NULL: absent or hidden),
 * in blocks[] (enum fmt_block), with flags, or NULL (out of memory or
 * nested too deeply).
 */
static struct rd_fmt *fmt_compile(const struct rd_val *const roots[4],
				  const struct rd_val *const blocks[2], unsigned flags)
{
	struct rd_fmt *f = calloc(1, sizeof(*f));
	bool first = true;

	if (!f)
		return NULL;
	for (unsigned s = 0; s < 4; s++) {
		if (!roots[s])
			continue;
		f->scopes |= 1u << s;
		if (!first)
			FMT_LIT(f, ", ");
		first = false;
		if (flags & LTT_FORMAT_SCOPE_NAMES)
			fmt_lit(f, scope_names[s], strlen(scope_names[s]));
		{
			unsigned block = s == LTT_SCOPE_PACKET_CONTEXT ? FMT_PACKET : FMT_EVENT;

			fmt_struct(f, block, roots[s], (size_t)(roots[s] - blocks[block]),
				   scope_with_names(s, flags));
		}
	}
	fmt_op(f, FMT_END, 0, 0, false);
	if (f->err) {
		fmt_free(f);
		return NULL;
	}
	return f;
}

/*
 * Runs print program f over an event's blocks. Writes through a local
 * cursor, with room checked once per op for its literal and any number;
 * strings, enums and other values go through t.
 */
static void fmt_run(const struct rd_fmt *f, const struct rd_val *const blocks[2], struct tbuf *t)
{
	char *d, *lim;

	/* the buffer may not exist yet (NULL/0/0) */
	if (!reserve(t, f->ops[0].lit_len + INT_MAX_TEXT))
		return;
	d = *t->buf + *t->len;
	lim = *t->buf + *t->cap;

/* hands the cursor over to t's functions, and takes it back */
#define SYNC() (*t->len = (size_t)(d - *t->buf))
#define RELOAD() (d = *t->buf + *t->len, lim = *t->buf + *t->cap)

	for (const struct fmt_op *op = f->ops;; op++) {
		const char *lit = f->lits + op->lit;
		/* (not for FMT_END, whose block may be absent) */
		const struct rd_val *v = op->code == FMT_END ? NULL : blocks[op->block] + op->off;

		if (unlikely((size_t)(lim - d) < op->lit_len + INT_MAX_TEXT)) {
			SYNC();
			if (!reserve(t, op->lit_len + INT_MAX_TEXT))
				return;
			RELOAD();
		}
		/* 16 bytes at once: the pool has slack, the room is there */
		if (likely(op->lit_len <= 16))
			memcpy(d, lit, 16);
		else
			memcpy(d, lit, op->lit_len);
		d += op->lit_len;
		switch ((enum fmt_code)op->code) {
		case FMT_DEC:
			d += numfmt_u64(d, v->u);
			break;
		case FMT_SDEC:
			d += numfmt_i64(d, v->i);
			break;
		case FMT_INT:
			d += format_integer(d, v->type, v->u);
			break;
		case FMT_FLOAT:
			d += numfmt_double_g(d, v->d);
			break;
		case FMT_TEXT:
			SYNC();
			put_escaped(t, v->str.s, v->str.len);
			RELOAD();
			break;
		case FMT_ENUM:
			SYNC();
			put_enum(t, v);
			RELOAD();
			break;
		case FMT_VALUE:
			SYNC();
			put_value(t, v, op->names, 0);
			RELOAD();
			break;
		case FMT_END:
			SYNC();
			return;
		}
	}
#undef RELOAD
#undef SYNC
}

void rd_fmt_free(struct rd_fmt *f)
{
	fmt_free(f);
}

/* The scopes one by one with put_value(), as fmt_run() prints them. */
static void put_scopes(struct tbuf *t, const struct rd_val *const roots[4], unsigned flags)
{
	bool first = true;

	for (int s = 0; s < 4; s++) {
		if (!roots[s])
			continue;
		if (!first)
			PUT_LIT(t, ", ");
		first = false;
		if (flags & LTT_FORMAT_SCOPE_NAMES)
			put(t, scope_names[s], strlen(scope_names[s]));
		put_value(t, roots[s], scope_with_names(s, flags), 0);
	}
}

int ltt_event_format_pretty(const struct ltt_event *ev, unsigned flags, char **buf, size_t *len,
			    size_t *cap)
{
	struct tbuf t = { buf, len, cap, 0 };
	const struct rd_val *roots[4], *blocks[2];
	struct rd_event_class *ec = rd_event_class(ev);
	const struct rd_fmt *f;

	if (!ec)
		return -EINVAL;
	flags &= LTT_FORMAT_PAYLOAD_NAMES | LTT_FORMAT_CONTEXT_NAMES | LTT_FORMAT_SCOPE_NAMES;
	rd_event_blocks(ev, &blocks[FMT_PACKET], &blocks[FMT_EVENT]);
	f = ec->fmt[flags];
	if (unlikely(!f)) {
		rd_event_roots(ev, roots);
		f = ec->fmt[flags] = fmt_compile(roots, blocks, flags);
	}
	/* every event of a class has the same scopes, in the same places; else
	 * (or without a program: out of memory) the slow way */
	if (likely(f && (blocks[FMT_PACKET] || !(f->scopes & 1u << LTT_SCOPE_PACKET_CONTEXT)))) {
		fmt_run(f, blocks, &t);
	} else {
		rd_event_roots(ev, roots);
		put_scopes(&t, roots, flags);
	}
	return t.err;
}
