/*
 * tsdl.c - a parser of CTF 1.8 TSDL metadata (the subset LTTng and ltt
 * write: typealias/typedef, integer/floating_point/string/enum/struct/
 * variant types, static arrays and sequences, trace/env/clock/stream/event
 * blocks), producing struct rd_meta.
 *
 * Hand-written recursive descent over a small lexer. Every recursion is
 * bounded by RD_MAX_DEPTH and every type copy by RD_MAX_TYPES, so that no
 * input makes it loop, overflow the stack or exhaust memory.
 */
#include "reader-internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum tok_kind { T_EOF, T_IDENT, T_INT, T_STRING, T_PUNCT };

struct tok {
	enum tok_kind kind;
	const char *start;
	size_t len;
	uint64_t num;		/* T_INT */
	char *str;		/* T_STRING, T_IDENT: owned copy */
	char punct[4];		/* T_PUNCT: "{", ":=", "...", ... */
	unsigned line;
};

struct named {
	char *name;
	struct rd_type *type;
};

struct parser {
	const char *p, *end;
	unsigned line;
	struct tok t;		/* current token */
	bool have;
	struct rd_meta *m;
	char *err;
	size_t errlen;
	int failed;
	unsigned depth;
	/* type namespaces */
	struct named *aliases, *structs, *variants, *enums;
	size_t naliases, nstructs, nvariants, nenums;
	size_t capa, caps, capv, cape;
};

static void perr(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void perr(struct parser *ps, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return;
	ps->failed = -EPROTO;
	n = snprintf(ps->err, ps->errlen, "line %u: ", ps->t.line ? ps->t.line : ps->line);
	if (n < 0 || (size_t)n >= ps->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

static void nomem(struct parser *ps)
{
	if (!ps->failed) {
		ps->failed = -ENOMEM;
		snprintf(ps->err, ps->errlen, "out of memory");
	}
}

/* --- lexer ------------------------------------------------------------------ */

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;

		if (c == '\n') {
			ps->line++;
			ps->p++;
		} else if (isspace((unsigned char)c)) {
			ps->p++;
		} else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '*') {
			ps->p += 2;
			while (ps->p < ps->end && !(*ps->p == '*' && ps->p + 1 < ps->end && ps->p[1] == '/')) {
				if (*ps->p == '\n')
					ps->line++;
				ps->p++;
			}
			if (ps->p >= ps->end) {
				perr(ps, "unterminated comment");
				return;
			}
			ps->p += 2;
		} else if (c == '/' && ps->p + 1 < ps->end && ps->p[1] == '/') {
			while (ps->p < ps->end && *ps->p != '\n')
				ps->p++;
		} else {
			break;
		}
	}
}

static void lex_string(struct parser *ps, char quote)
{
	size_t cap = 16, n = 0;
	char *s = malloc(cap);

	if (!s) {
		nomem(ps);
		return;
	}
	ps->p++;
	while (ps->p < ps->end && *ps->p != quote) {
		char c = *ps->p++;

		if (c == '\n')
			ps->line++;
		if (c == '\\' && ps->p < ps->end) {
			c = *ps->p++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case '0': c = '\0'; break;
			case 'a': c = '\a'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'v': c = '\v'; break;
			default: break;	/* \\ \" \' and others: the character */
			}
		}
		if (n + 2 > cap) {
			char *g;

			cap *= 2;
			g = realloc(s, cap);
			if (!g) {
				free(s);
				nomem(ps);
				return;
			}
			s = g;
		}
		s[n++] = c;
	}
	if (ps->p >= ps->end) {
		free(s);
		perr(ps, "unterminated string");
		return;
	}
	ps->p++;
	s[n] = '\0';
	ps->t.kind = T_STRING;
	ps->t.str = s;
}

static void lex(struct parser *ps)
{
	static const char *const puncts[] = { ":=", "...", "{", "}", "(", ")", "[", "]",
		";", ",", "=", ":", "<", ">", ".", "*", "+", "-" };
	struct tok *t = &ps->t;

	free(t->str);
	memset(t, 0, sizeof(*t));
	skip_space(ps);
	t->line = ps->line;
	t->start = ps->p;
	if (ps->failed || ps->p >= ps->end) {
		t->kind = T_EOF;
		return;
	}
	char c = *ps->p;

	if (isalpha((unsigned char)c) || c == '_') {
		const char *s = ps->p;

		while (ps->p < ps->end && (isalnum((unsigned char)*ps->p) || *ps->p == '_'))
			ps->p++;
		t->kind = T_IDENT;
		t->len = (size_t)(ps->p - s);
		t->str = strndup(s, t->len);
		if (!t->str)
			nomem(ps);
		return;
	}
	if (isdigit((unsigned char)c)) {
		uint64_t v = 0;
		unsigned base = 10;
		const char *s = ps->p;

		if (c == '0' && ps->p + 1 < ps->end && (ps->p[1] == 'x' || ps->p[1] == 'X')) {
			base = 16;
			ps->p += 2;
		} else if (c == '0') {
			base = 8;
		}
		while (ps->p < ps->end && isxdigit((unsigned char)*ps->p)) {
			unsigned d = isdigit((unsigned char)*ps->p) ? (unsigned)(*ps->p - '0')
				: (unsigned)(tolower((unsigned char)*ps->p) - 'a' + 10);

			if (d >= base) {
				perr(ps, "bad digit in number");
				return;
			}
			if (v > (UINT64_MAX - d) / base) {
				perr(ps, "number too large");
				return;
			}
			v = v * base + d;
			ps->p++;
		}
		/* integer suffixes: u, l, ul, ull */
		while (ps->p < ps->end && (*ps->p == 'u' || *ps->p == 'U' || *ps->p == 'l' || *ps->p == 'L'))
			ps->p++;
		t->kind = T_INT;
		t->num = v;
		t->len = (size_t)(ps->p - s);
		return;
	}
	if (c == '"' || c == '\'') {
		lex_string(ps, c);
		return;
	}
	for (size_t i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
		size_t l = strlen(puncts[i]);

		if ((size_t)(ps->end - ps->p) >= l && memcmp(ps->p, puncts[i], l) == 0) {
			t->kind = T_PUNCT;
			memcpy(t->punct, puncts[i], l);
			ps->p += l;
			return;
		}
	}
	perr(ps, "unexpected character '%c'", isprint((unsigned char)c) ? c : '?');
	t->kind = T_EOF;
}

static bool is_punct(struct parser *ps, const char *p)
{
	return ps->t.kind == T_PUNCT && strcmp(ps->t.punct, p) == 0;
}

static bool is_ident(struct parser *ps, const char *s)
{
	return ps->t.kind == T_IDENT && strcmp(ps->t.str, s) == 0;
}

static bool accept(struct parser *ps, const char *p)
{
	if (is_punct(ps, p)) {
		lex(ps);
		return true;
	}
	return false;
}

static bool expect(struct parser *ps, const char *p)
{
	if (accept(ps, p))
		return true;
	perr(ps, "expected '%s'", p);
	return false;
}

static char *take_ident(struct parser *ps)
{
	char *s;

	if (ps->t.kind != T_IDENT) {
		perr(ps, "expected an identifier");
		return NULL;
	}
	s = ps->t.str;
	ps->t.str = NULL;
	lex(ps);
	return s;
}

/* --- types ------------------------------------------------------------------ */

static struct rd_type *type_new(struct parser *ps, enum rd_kind kind)
{
	struct rd_meta *m = ps->m;
	struct rd_type *t;

	if (ps->failed)
		return NULL;
	if (m->ntypes >= RD_MAX_TYPES) {
		perr(ps, "too many types (more than %u)", RD_MAX_TYPES);
		return NULL;
	}
	if (m->ntypes == m->captypes) {
		size_t cap = m->captypes ? m->captypes * 2 : 64;
		struct rd_type **g = realloc(m->types, cap * sizeof(*g));

		if (!g) {
			nomem(ps);
			return NULL;
		}
		m->types = g;
		m->captypes = cap;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		nomem(ps);
		return NULL;
	}
	t->kind = kind;
	t->align = 8;
	t->clock = -1;
	t->last_opt = -1;
	t->base = 10;
	m->types[m->ntypes++] = t;
	return t;
}

static char *xstrdup(struct parser *ps, const char *s)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		nomem(ps);
	return d;
}

static int path_copy(struct parser *ps, struct rd_path *dst, const struct rd_path *src)
{
	*dst = *src;
	dst->text = xstrdup(ps, src->text);
	return ps->failed;
}

/*
 * A zeroed array of n items for a copy of an array of n: NULL (out of
 * memory, and *count 0 so that nothing is freed twice) if it cannot.
 */
static void *copy_array(struct parser *ps, size_t n, size_t size, size_t *count)
{
	void *a = calloc(n, size);

	if (!a) {
		nomem(ps);
		*count = 0;
	}
	return a;
}

/* A deep copy: each use of a named type gets nodes of its own. */
static struct rd_type *type_copy(struct parser *ps, const struct rd_type *src, unsigned depth)
{
	struct rd_type *t;

	if (!src)
		return NULL;
	if (depth > RD_MAX_DEPTH) {
		perr(ps, "types nested too deeply");
		return NULL;
	}
	t = type_new(ps, src->kind);
	if (!t)
		return NULL;
	{
		/* keep t's identity, copy the scalar fields */
		*t = *src;
		t->members = NULL;
		t->mappings = NULL;
		t->shown = NULL;
		t->opt_of_mapping = NULL;
		t->tag.text = NULL;
		t->len.text = NULL;
		t->container = NULL;
		t->elem = NULL;
	}
	if (src->container)
		t->container = type_copy(ps, src->container, depth + 1);
	if (src->elem)
		t->elem = type_copy(ps, src->elem, depth + 1);
	path_copy(ps, &t->tag, &src->tag);
	path_copy(ps, &t->len, &src->len);
	if (src->nmappings) {
		t->mappings = copy_array(ps, src->nmappings, sizeof(*t->mappings), &t->nmappings);
		if (!t->mappings)
			return NULL;
		for (size_t i = 0; i < src->nmappings; i++) {
			struct rd_mapping *d = &t->mappings[i];
			const struct rd_mapping *s = &src->mappings[i];

			d->label = xstrdup(ps, s->label);
			d->ranges = malloc(s->nranges * sizeof(*d->ranges));
			if (!d->ranges) {
				nomem(ps);
				return NULL;
			}
			memcpy(d->ranges, s->ranges, s->nranges * sizeof(*d->ranges));
			d->nranges = s->nranges;
		}
	}
	if (src->nmembers) {
		t->members = copy_array(ps, src->nmembers, sizeof(*t->members), &t->nmembers);
		if (!t->members)
			return NULL;
		for (size_t i = 0; i < src->nmembers; i++) {
			t->members[i].name = xstrdup(ps, src->members[i].name);
			t->members[i].shown = t->members[i].name ?
				t->members[i].name + (t->members[i].name[0] == '_') : NULL;
			t->members[i].shown_len = src->members[i].shown_len;
			t->members[i].sep = NULL;
			t->members[i].type = type_copy(ps, src->members[i].type, depth + 1);
			if (ps->failed)
				return NULL;
		}
	}
	return ps->failed ? NULL : t;
}

static struct named *ns_find(struct named *tab, size_t n, const char *name)
{
	for (size_t i = n; i-- > 0;)
		if (strcmp(tab[i].name, name) == 0)
			return &tab[i];
	return NULL;
}

static void ns_add(struct parser *ps, struct named **tab, size_t *n, size_t *cap,
		   const char *name, struct rd_type *type)
{
	if (ps->failed)
		return;
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct named *g = realloc(*tab, c * sizeof(*g));

		if (!g) {
			nomem(ps);
			return;
		}
		*tab = g;
		*cap = c;
	}
	(*tab)[*n].name = xstrdup(ps, name);
	(*tab)[*n].type = type;	/* the registered original; uses copy it */
	if ((*tab)[*n].name)
		(*n)++;
}

/* --- values of attributes ------------------------------------------------- */

struct attr_val {
	enum { AV_INT, AV_STRING, AV_IDENT } kind;
	int64_t i;		/* AV_INT (as signed) */
	uint64_t u;		/* AV_INT (as unsigned) */
	bool neg;
	char text[256];		/* AV_STRING, AV_IDENT (dotted path joined) */
};

static bool parse_attr_value(struct parser *ps, struct attr_val *v)
{
	memset(v, 0, sizeof(*v));
	if (accept(ps, "-")) {
		if (ps->t.kind != T_INT) {
			perr(ps, "expected a number after '-'");
			return false;
		}
		v->kind = AV_INT;
		v->neg = true;
		v->u = ps->t.num;
		v->i = -(int64_t)ps->t.num;
		lex(ps);
		return true;
	}
	accept(ps, "+");
	if (ps->t.kind == T_INT) {
		v->kind = AV_INT;
		v->u = ps->t.num;
		v->i = (int64_t)ps->t.num;
		lex(ps);
		return true;
	}
	if (ps->t.kind == T_STRING) {
		v->kind = AV_STRING;
		snprintf(v->text, sizeof(v->text), "%s", ps->t.str);
		lex(ps);
		return true;
	}
	if (ps->t.kind == T_IDENT) {
		size_t n = 0;

		v->kind = AV_IDENT;
		for (;;) {
			int w = snprintf(v->text + n, sizeof(v->text) - n, "%s%s", n ? "." : "", ps->t.str);

			if (w < 0 || (size_t)w >= sizeof(v->text) - n) {
				perr(ps, "name too long");
				return false;
			}
			n += (size_t)w;
			lex(ps);
			if (!accept(ps, "."))
				break;
			if (ps->t.kind != T_IDENT) {
				perr(ps, "expected a name after '.'");
				return false;
			}
		}
		return true;
	}
	perr(ps, "expected a value");
	return false;
}

static bool av_uint(struct parser *ps, const struct attr_val *v, const char *what, uint64_t *out)
{
	if (v->kind != AV_INT || v->neg) {
		perr(ps, "%s: expected a non-negative integer", what);
		return false;
	}
	*out = v->u;
	return true;
}

static bool av_bool(struct parser *ps, const struct attr_val *v, const char *what)
{
	if (v->kind == AV_INT)
		return v->u != 0;
	if (v->kind == AV_IDENT && (!strcmp(v->text, "true") || !strcmp(v->text, "TRUE")))
		return true;
	if (v->kind == AV_IDENT && (!strcmp(v->text, "false") || !strcmp(v->text, "FALSE")))
		return false;
	perr(ps, "%s: expected a boolean", what);
	return false;
}

static int av_byte_order(struct parser *ps, const struct attr_val *v)
{
	if (v->kind == AV_IDENT) {
		if (!strcmp(v->text, "le"))
			return RD_BO_LE;
		if (!strcmp(v->text, "be") || !strcmp(v->text, "network"))
			return RD_BO_BE;
		if (!strcmp(v->text, "native"))
			return RD_BO_NATIVE;
	}
	perr(ps, "byte_order: expected le, be, network or native");
	return RD_BO_NATIVE;
}

static int clock_index(struct parser *ps, const char *name)
{
	struct rd_meta *m = ps->m;

	for (size_t i = 0; i < m->nclocks; i++)
		if (!strcmp(m->clocks[i].name, name))
			return (int)i;
	return -1;
}

/* --- type specifiers ---------------------------------------------------------- */

static struct rd_type *parse_type_spec(struct parser *ps);
static bool parse_fields(struct parser *ps, struct rd_type *st, bool variant);
static bool parse_typealias(struct parser *ps);
static bool parse_typedef(struct parser *ps);
static int parse_type_def(struct parser *ps);

static struct rd_type *parse_integer_body(struct parser *ps, bool is_float)
{
	struct rd_type *t = type_new(ps, is_float ? RD_FLOAT : RD_INT);
	bool have_size = false, have_align = false, have_exp = false;
	uint64_t exp_dig = 0;

	if (!t || !expect(ps, "{"))
		return NULL;
	while (!ps->failed && !is_punct(ps, "}")) {
		struct attr_val v;
		char *name = take_ident(ps);

		if (!name)
			return NULL;
		if (!expect(ps, "=") || !parse_attr_value(ps, &v)) {
			free(name);
			return NULL;
		}
		if (!strcmp(name, "size")) {
			uint64_t s;

			if (av_uint(ps, &v, "size", &s)) {
				if (s == 0 || s > 64)
					perr(ps, "size %llu: must be 1 to 64", (unsigned long long)s);
				t->size = (uint32_t)s;
				have_size = true;
			}
		} else if (!strcmp(name, "align")) {
			uint64_t a;

			if (av_uint(ps, &v, "align", &a)) {
				if (a == 0 || (a & (a - 1)) || a > 4096)
					perr(ps, "align %llu: must be a power of two", (unsigned long long)a);
				t->align = (uint32_t)a;
				have_align = true;
			}
		} else if (!strcmp(name, "signed")) {
			t->is_signed = av_bool(ps, &v, "signed");
		} else if (!strcmp(name, "byte_order")) {
			t->bo = av_byte_order(ps, &v);
		} else if (!strcmp(name, "base")) {
			uint64_t b = 10;

			if (v.kind == AV_INT)
				b = v.u;
			else if (v.kind == AV_IDENT && (!strcmp(v.text, "hex") || !strcmp(v.text, "x") || !strcmp(v.text, "X") || !strcmp(v.text, "p")))
				b = 16;
			else if (v.kind == AV_IDENT && (!strcmp(v.text, "decimal") || !strcmp(v.text, "dec") || !strcmp(v.text, "d") || !strcmp(v.text, "i") || !strcmp(v.text, "u")))
				b = 10;
			else if (v.kind == AV_IDENT && (!strcmp(v.text, "octal") || !strcmp(v.text, "oct") || !strcmp(v.text, "o")))
				b = 8;
			else if (v.kind == AV_IDENT && (!strcmp(v.text, "binary") || !strcmp(v.text, "b")))
				b = 2;
			if (b != 2 && b != 8 && b != 10 && b != 16)
				perr(ps, "base: expected 2, 8, 10 or 16");
			t->base = (uint8_t)b;
		} else if (!strcmp(name, "encoding")) {
			if (v.kind != AV_IDENT)
				perr(ps, "encoding: expected none, UTF8 or ASCII");
			else
				t->text = strcmp(v.text, "none") != 0;
		} else if (!strcmp(name, "map")) {
			/* clock.NAME.value */
			if (v.kind == AV_IDENT && !strncmp(v.text, "clock.", 6)) {
				char cname[sizeof(v.text)];
				char *dot;

				memcpy(cname, v.text + 6, sizeof(v.text) - 6);
				cname[sizeof(v.text) - 6] = '\0';
				dot = strrchr(cname, '.');
				if (dot)
					*dot = '\0';
				t->clock = clock_index(ps, cname);
				if (t->clock < 0)
					perr(ps, "map: no clock named '%s'", cname);
			}
		} else if (!strcmp(name, "exp_dig")) {
			have_exp = av_uint(ps, &v, "exp_dig", &exp_dig);
		} else if (!strcmp(name, "mant_dig")) {
			uint64_t md;

			if (av_uint(ps, &v, "mant_dig", &md))
				t->mant_dig = (uint32_t)md;
		}
		/* other attributes are ignored */
		free(name);
		if (!expect(ps, ";"))
			return NULL;
	}
	if (!expect(ps, "}"))
		return NULL;
	if (is_float) {
		if (!have_exp || !t->mant_dig || exp_dig + t->mant_dig > 64) {
			perr(ps, "floating_point: needs exp_dig and mant_dig (32 or 64 bits)");
			return NULL;
		}
		t->size = (uint32_t)(exp_dig + t->mant_dig);
		if (t->size != 32 && t->size != 64) {
			perr(ps, "floating_point: only 32- and 64-bit floats are supported");
			return NULL;
		}
		if (!have_align)
			t->align = 1;
	} else {
		if (!have_size) {
			perr(ps, "integer: size is required");
			return NULL;
		}
		if (!have_align)
			t->align = (t->size % 8) ? 1 : 8;
	}
	return ps->failed ? NULL : t;
}

/*
 * The type t just defined: if it has a name (freed here), registered in
 * the table under it, and a copy of it for this use; else t itself.
 */
static struct rd_type *named_or_not(struct parser *ps, struct named **tab, size_t *n, size_t *cap,
				    char *name, struct rd_type *t)
{
	if (!name)
		return t;
	ns_add(ps, tab, n, cap, name, t);
	free(name);
	return ps->failed ? NULL : type_copy(ps, t, 0);
}

static bool parse_enum_value(struct parser *ps, int64_t *out)
{
	bool neg = accept(ps, "-");

	if (ps->t.kind != T_INT) {
		perr(ps, "enum: expected an integer");
		return false;
	}
	*out = neg ? -(int64_t)ps->t.num : (int64_t)ps->t.num;
	lex(ps);
	return true;
}

static struct rd_type *parse_enum(struct parser *ps)
{
	char *name = NULL;
	struct rd_type *cont = NULL, *t;
	int64_t next = 0;
	size_t cap = 0;

	if (ps->t.kind == T_IDENT)
		name = take_ident(ps);
	if (accept(ps, ":")) {
		cont = parse_type_spec(ps);
		if (!cont)
			goto err;
	}
	if (!is_punct(ps, "{")) {
		struct named *n = name ? ns_find(ps->enums, ps->nenums, name) : NULL;

		if (!n) {
			perr(ps, "unknown enum '%s'", name ? name : "");
			goto err;
		}
		free(name);
		return type_copy(ps, n->type, 0);
	}
	lex(ps);
	if (!cont) {
		struct named *n = ns_find(ps->aliases, ps->naliases, "int");

		if (!n) {
			perr(ps, "enum without a container type and no 'int' alias");
			goto err;
		}
		cont = type_copy(ps, n->type, 0);
		if (!cont)
			goto err;
	}
	if (cont->kind != RD_INT) {
		perr(ps, "enum: the container must be an integer");
		goto err;
	}
	t = type_new(ps, RD_ENUM);
	if (!t)
		goto err;
	t->container = cont;
	t->size = cont->size;
	t->align = cont->align;
	t->is_signed = cont->is_signed;
	t->bo = cont->bo;
	t->base = cont->base;
	t->clock = cont->clock;
	while (!ps->failed && !is_punct(ps, "}")) {
		char *label;
		int64_t lo, hi;
		struct rd_mapping *mp = NULL;

		if (ps->t.kind == T_STRING || ps->t.kind == T_IDENT) {
			label = ps->t.str;
			ps->t.str = NULL;
			lex(ps);
		} else {
			perr(ps, "enum: expected a label");
			goto err;
		}
		lo = next;
		if (accept(ps, "=")) {
			if (!parse_enum_value(ps, &lo)) {
				free(label);
				goto err;
			}
		}
		hi = lo;
		if (accept(ps, "...")) {
			if (!parse_enum_value(ps, &hi)) {
				free(label);
				goto err;
			}
		}
		next = hi + 1;
		for (size_t i = 0; i < t->nmappings; i++)
			if (!strcmp(t->mappings[i].label, label))
				mp = &t->mappings[i];
		if (!mp) {
			if (t->nmappings == cap) {
				size_t c = cap ? cap * 2 : 8;
				struct rd_mapping *g;

				if (c > RD_MAX_TYPES) {
					free(label);
					perr(ps, "enum: too many labels");
					goto err;
				}
				g = realloc(t->mappings, c * sizeof(*g));
				if (!g) {
					free(label);
					nomem(ps);
					goto err;
				}
				t->mappings = g;
				cap = c;
			}
			mp = &t->mappings[t->nmappings++];
			memset(mp, 0, sizeof(*mp));
			mp->label = label;
		} else {
			free(label);
		}
		{
			void *g = realloc(mp->ranges, (mp->nranges + 1) * sizeof(*mp->ranges));

			if (!g) {
				nomem(ps);
				goto err;
			}
			mp->ranges = g;
			mp->ranges[mp->nranges].lo = lo;
			mp->ranges[mp->nranges].hi = hi;
			mp->nranges++;
		}
		if (!accept(ps, ","))
			break;
	}
	if (!expect(ps, "}"))
		goto err;
	return named_or_not(ps, &ps->enums, &ps->nenums, &ps->cape, name, t);
err:
	free(name);
	return NULL;
}

static bool parse_path_text(struct parser *ps, char *buf, size_t len, const char *closer)
{
	size_t n = 0;

	buf[0] = '\0';
	while (!ps->failed && !is_punct(ps, closer)) {
		int w;

		if (ps->t.kind == T_IDENT)
			w = snprintf(buf + n, len - n, "%s", ps->t.str);
		else if (is_punct(ps, "."))
			w = snprintf(buf + n, len - n, ".");
		else {
			perr(ps, "bad field path");
			return false;
		}
		if (w < 0 || (size_t)w >= len - n) {
			perr(ps, "field path too long");
			return false;
		}
		n += (size_t)w;
		lex(ps);
	}
	if (!n) {
		perr(ps, "empty field path");
		return false;
	}
	return expect(ps, closer);
}

static struct rd_type *parse_compound(struct parser *ps, bool variant)
{
	char *name = NULL;
	char tag[512] = "";
	struct rd_type *t;
	struct named **tab = variant ? &ps->variants : &ps->structs;
	size_t *n = variant ? &ps->nvariants : &ps->nstructs;
	size_t *cap = variant ? &ps->capv : &ps->caps;

	if (ps->t.kind == T_IDENT)
		name = take_ident(ps);
	if (variant && accept(ps, "<")) {
		if (!parse_path_text(ps, tag, sizeof(tag), ">"))
			goto err;
	}
	if (!is_punct(ps, "{")) {
		struct named *nm = name ? ns_find(*tab, *n, name) : NULL;

		if (!nm) {
			perr(ps, "unknown %s '%s'", variant ? "variant" : "struct", name ? name : "");
			goto err;
		}
		t = type_copy(ps, nm->type, 0);
		if (t && tag[0]) {
			free(t->tag.text);
			t->tag.text = xstrdup(ps, tag);
		}
		free(name);
		return t;
	}
	lex(ps);
	t = type_new(ps, variant ? RD_VARIANT : RD_STRUCT);
	if (!t)
		goto err;
	t->align = variant ? 1 : 1;
	if (++ps->depth > RD_MAX_DEPTH) {
		perr(ps, "types nested too deeply");
		goto err;
	}
	if (!parse_fields(ps, t, variant))
		goto err;
	ps->depth--;
	if (!expect(ps, "}"))
		goto err;
	if (!variant && is_ident(ps, "align")) {
		uint64_t a;

		lex(ps);
		if (!expect(ps, "("))
			goto err;
		if (ps->t.kind != T_INT) {
			perr(ps, "align: expected an integer");
			goto err;
		}
		a = ps->t.num;
		if (a == 0 || (a & (a - 1)) || a > 4096) {
			perr(ps, "align %llu: must be a power of two", (unsigned long long)a);
			goto err;
		}
		lex(ps);
		if (!expect(ps, ")"))
			goto err;
		if (a > t->align)
			t->align = (uint32_t)a;
	}
	if (tag[0])
		t->tag.text = xstrdup(ps, tag);
	return named_or_not(ps, tab, n, cap, name, t);
err:
	free(name);
	return NULL;
}

/* A named type: one or more identifiers (`unsigned long`), not the last if a declarator follows. */
static struct rd_type *lookup_alias(struct parser *ps, const char *name)
{
	struct named *n = ns_find(ps->aliases, ps->naliases, name);

	if (!n) {
		perr(ps, "unknown type '%s'", name);
		return NULL;
	}
	return type_copy(ps, n->type, 0);
}

/* The keywords that start a type, in enum type_keyword's order. */
static const char *const keywords[] = { "integer", "floating_point", "string", "enum",
	"struct", "variant" };
enum type_keyword { KW_INTEGER, KW_FLOAT, KW_STRING, KW_ENUM, KW_STRUCT, KW_VARIANT };

/* The keyword of the current token (enum type_keyword), or -1. */
static int type_keyword(struct parser *ps)
{
	if (ps->t.kind != T_IDENT)
		return -1;
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (!strcmp(ps->t.str, keywords[i]))
			return (int)i;
	return -1;
}

static bool is_type_keyword(struct parser *ps)
{
	return type_keyword(ps) >= 0;
}

/* string [{ encoding = ...; }]: the attributes change nothing babeltrace2 shows */
static struct rd_type *parse_string_body(struct parser *ps)
{
	struct rd_type *t = type_new(ps, RD_STRING);

	if (t && accept(ps, "{")) {
		while (!ps->failed && !is_punct(ps, "}")) {
			struct attr_val v;
			char *name = take_ident(ps);

			if (!name || !expect(ps, "=") || !parse_attr_value(ps, &v)) {
				free(name);
				return NULL;
			}
			free(name);
			if (!expect(ps, ";"))
				return NULL;
		}
		expect(ps, "}");
	}
	return ps->failed ? NULL : t;
}

static struct rd_type *parse_type_keyword(struct parser *ps)
{
	int k = type_keyword(ps);

	if (k < 0)
		return NULL;
	lex(ps);
	switch ((enum type_keyword)k) {
	case KW_INTEGER:
		return parse_integer_body(ps, false);
	case KW_FLOAT:
		return parse_integer_body(ps, true);
	case KW_STRING:
		return parse_string_body(ps);
	case KW_ENUM:
		return parse_enum(ps);
	case KW_STRUCT:
		return parse_compound(ps, false);
	case KW_VARIANT:
		return parse_compound(ps, true);
	}
	return NULL;
}

/* Appends " word" (the first: "word") to name (n bytes used); false if too long. */
static bool name_append(struct parser *ps, char *name, size_t size, size_t *n, const char *word)
{
	int w = snprintf(name + *n, size - *n, "%s%s", *n ? " " : "", word);

	if (w < 0 || (size_t)w >= size - *n) {
		perr(ps, "type name too long");
		return false;
	}
	*n += (size_t)w;
	return true;
}

/*
 * A type name of one or more identifiers (`unsigned long`) into name; false
 * (an error set) if it is too long. name is "" if there is none.
 */
static bool take_type_name(struct parser *ps, char *name, size_t size)
{
	size_t n = 0;

	name[0] = '\0';
	for (; ps->t.kind == T_IDENT; lex(ps))
		if (!name_append(ps, name, size, &n, ps->t.str))
			return false;
	return true;
}

/*
 * parse_type_spec - a type where no declarator follows (after ':' of enum,
 * after ':=' of typealias): keywords, or identifiers up to a non-identifier.
 */
static struct rd_type *parse_type_spec(struct parser *ps)
{
	char name[256];

	if (is_type_keyword(ps))
		return parse_type_keyword(ps);
	if (!take_type_name(ps, name, sizeof(name)))
		return NULL;
	if (!name[0]) {
		perr(ps, "expected a type");
		return NULL;
	}
	return lookup_alias(ps, name);
}

/*
 * Applies declarator suffixes `[N]` / `[path]` to a type, innermost last as
 * in C: `x[2][3]` is 2 arrays of 3.
 */
static struct rd_type *parse_dims(struct parser *ps, struct rd_type *t)
{
	struct { bool seq; uint64_t n; char path[512]; } dims[8];
	size_t nd = 0;

	while (!ps->failed && accept(ps, "[")) {
		if (nd == sizeof(dims) / sizeof(dims[0])) {
			perr(ps, "too many array dimensions");
			return NULL;
		}
		if (ps->t.kind == T_INT) {
			dims[nd].seq = false;
			dims[nd].n = ps->t.num;
			lex(ps);
			if (!expect(ps, "]"))
				return NULL;
		} else {
			dims[nd].seq = true;
			if (!parse_path_text(ps, dims[nd].path, sizeof(dims[nd].path), "]"))
				return NULL;
		}
		nd++;
	}
	while (nd-- > 0 && !ps->failed) {
		struct rd_type *a = type_new(ps, dims[nd].seq ? RD_SEQ : RD_ARRAY);

		if (!a)
			return NULL;
		a->elem = t;
		a->align = t->align;
		if (dims[nd].seq)
			a->len.text = xstrdup(ps, dims[nd].path);
		else
			a->length = dims[nd].n;
		t = a;
	}
	return ps->failed ? NULL : t;
}

static bool add_member(struct parser *ps, struct rd_type *st, char *name, struct rd_type *t)
{
	struct rd_member *g;

	for (size_t i = 0; i < st->nmembers; i++)
		if (!strcmp(st->members[i].name, name)) {
			perr(ps, "duplicate field '%s'", name);
			free(name);
			return false;
		}
	g = realloc(st->members, (st->nmembers + 1) * sizeof(*g));
	if (!g) {
		free(name);
		nomem(ps);
		return false;
	}
	st->members = g;
	g[st->nmembers].name = name;
	g[st->nmembers].shown = name + (name[0] == '_');
	g[st->nmembers].shown_len = strlen(g[st->nmembers].shown);
	g[st->nmembers].sep = NULL;
	g[st->nmembers].type = t;
	st->nmembers++;
	if (st->kind == RD_STRUCT && t->align > st->align)
		st->align = t->align;
	return true;
}


/*
 * One declaration inside a struct/variant body: `TYPE name[dims], ...;`, or
 * typealias/typedef. Members are appended to st.
 */
static bool parse_declaration(struct parser *ps, struct rd_type *st)
{
	struct rd_type *base = NULL;
	char *pending[64];
	size_t np = 0;
	char *first = NULL;	/* the first declarator's name, when read with the type */
	int def = parse_type_def(ps);

	if (def)
		return def > 0;
	if (is_type_keyword(ps)) {
		base = parse_type_keyword(ps);
		if (!base)
			return false;
	} else {
		/* identifiers: all but the last name the type */
		char name[256] = "";
		size_t n = 0;

		while (ps->t.kind == T_IDENT) {
			if (np == sizeof(pending) / sizeof(pending[0])) {
				perr(ps, "declaration too long");
				goto fail;
			}
			pending[np++] = ps->t.str;
			ps->t.str = NULL;
			lex(ps);
		}
		if (np < 2) {
			perr(ps, "expected a type and a field name");
			goto fail;
		}
		for (size_t i = 0; i + 1 < np; i++)
			if (!name_append(ps, name, sizeof(name), &n, pending[i]))
				goto fail;
		base = lookup_alias(ps, name);
		if (!base)
			goto fail;
		first = pending[np - 1];
		for (size_t i = 0; i + 1 < np; i++)
			free(pending[i]);
		np = 0;
	}
	/* the declarators: the first one's name taken already after identifiers */
	for (;;) {
		char *fname = first ? first : take_ident(ps);
		struct rd_type *t;

		first = NULL;
		if (!fname)
			return false;
		t = parse_dims(ps, base);
		if (!t) {
			free(fname);
			return false;
		}
		if (!add_member(ps, st, fname, t))
			return false;
		if (!accept(ps, ","))
			break;
		base = type_copy(ps, base, 0);
		if (!base)
			return false;
	}
	return expect(ps, ";");
fail:
	for (size_t i = 0; i < np; i++)
		free(pending[i]);
	return false;
}

static bool parse_fields(struct parser *ps, struct rd_type *st, bool variant)
{
	(void)variant;
	while (!ps->failed && !is_punct(ps, "}") && ps->t.kind != T_EOF)
		if (!parse_declaration(ps, st))
			return false;
	return !ps->failed;
}

/* typealias TYPE [declarator-suffix] := NAME [NAME...] ; */
static bool parse_typealias(struct parser *ps)
{
	struct rd_type *t = parse_type_spec(ps);
	char name[256];

	if (!t)
		return false;
	/* an optional abstract declarator, e.g. `*` or dims: only dims are meaningful */
	t = parse_dims(ps, t);
	if (!t || !expect(ps, ":="))
		return false;
	if (!take_type_name(ps, name, sizeof(name)))
		return false;
	if (!name[0]) {
		perr(ps, "typealias: expected a name after ':='");
		return false;
	}
	t = parse_dims(ps, t);
	if (!t)
		return false;
	ns_add(ps, &ps->aliases, &ps->naliases, &ps->capa, name, t);
	return expect(ps, ";");
}

/* typedef TYPE NAME[dims] ; : a declaration whose names become type names */
static bool parse_typedef(struct parser *ps)
{
	struct rd_type holder = { .kind = RD_STRUCT, .align = 1 };
	bool ok = parse_declaration(ps, &holder);

	for (size_t i = 0; i < holder.nmembers; i++) {
		if (ok)
			ns_add(ps, &ps->aliases, &ps->naliases, &ps->capa,
			       holder.members[i].name, holder.members[i].type);
		free(holder.members[i].name);
	}
	free(holder.members);
	return ok && !ps->failed;
}

/* A typealias or typedef at the current token: 1 parsed, 0 none there, -1 an error. */
static int parse_type_def(struct parser *ps)
{
	bool alias = is_ident(ps, "typealias");

	if (!alias && !is_ident(ps, "typedef"))
		return 0;
	lex(ps);
	return (alias ? parse_typealias(ps) : parse_typedef(ps)) ? 1 : -1;
}

/* --- blocks ------------------------------------------------------------------ */

static bool parse_uuid(const char *s, uint8_t out[16])
{
	size_t n = 0;

	for (const char *p = s; *p; p++) {
		int hi, lo;

		if (*p == '-')
			continue;
		if (n == 16 || !isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]))
			return false;
		hi = isdigit((unsigned char)p[0]) ? p[0] - '0' : tolower((unsigned char)p[0]) - 'a' + 10;
		lo = isdigit((unsigned char)p[1]) ? p[1] - '0' : tolower((unsigned char)p[1]) - 'a' + 10;
		out[n++] = (uint8_t)(hi << 4 | lo);
		p++;
	}
	return n == 16;
}

/* Reads `NAME[.NAME]*` into buf. */
static bool parse_dotted(struct parser *ps, char *buf, size_t len)
{
	size_t n = 0;

	for (;;) {
		int w;

		if (ps->t.kind != T_IDENT) {
			perr(ps, "expected an attribute name");
			return false;
		}
		w = snprintf(buf + n, len - n, "%s%s", n ? "." : "", ps->t.str);
		if (w < 0 || (size_t)w >= len - n) {
			perr(ps, "attribute name too long");
			return false;
		}
		n += (size_t)w;
		lex(ps);
		if (!accept(ps, "."))
			return true;
	}
}

struct block_entry {
	char name[128];
	bool is_type;
	struct rd_type *type;
	struct attr_val v;
};

/*
 * Parses one entry of a block body: `name = value;`, `name := type;`, or a
 * typealias/typedef (then returns true with e->name empty).
 */
static bool parse_block_entry(struct parser *ps, struct block_entry *e)
{
	int def;

	memset(e, 0, sizeof(*e));
	def = parse_type_def(ps);
	if (def)
		return def > 0;
	if (!parse_dotted(ps, e->name, sizeof(e->name)))
		return false;
	if (accept(ps, ":=")) {
		e->is_type = true;
		e->type = parse_type_spec(ps);
		if (!e->type)
			return false;
	} else {
		if (!expect(ps, "=") || !parse_attr_value(ps, &e->v))
			return false;
	}
	return expect(ps, ";");
}

/*
 * Appends the size bytes at item to the array *(void **)arr of *n items;
 * false (out of memory: the error set) if it cannot.
 */
static bool append(struct parser *ps, void *arr, size_t *n, size_t size, const void *item)
{
	void **a = arr;
	char *g = realloc(*a, (*n + 1) * size);

	if (!g) {
		nomem(ps);
		return false;
	}
	memcpy(g + *n * size, item, size);
	*a = g;
	(*n)++;
	return true;
}

/*
 * The next entry of a block, up to its '}': 1 and *e, 0 at the end, or -1
 * on an error (set).
 */
static int next_entry(struct parser *ps, struct block_entry *e)
{
	if (ps->failed)
		return -1;
	if (is_punct(ps, "}"))
		return 0;
	return parse_block_entry(ps, e) ? 1 : -1;
}

static bool check_struct(struct parser *ps, struct rd_type *t, const char *what)
{
	if (t && t->kind != RD_STRUCT) {
		perr(ps, "%s must be a structure", what);
		return false;
	}
	return true;
}

static bool parse_trace_block(struct parser *ps)
{
	struct rd_meta *m = ps->m;
	struct block_entry e;
	int r;

	while ((r = next_entry(ps, &e)) > 0) {
		if (!strcmp(e.name, "packet.header") && e.is_type) {
			if (!check_struct(ps, e.type, "trace.packet.header"))
				return false;
			m->packet_header = e.type;
		} else if (!strcmp(e.name, "byte_order") && !e.is_type) {
			int bo = av_byte_order(ps, &e.v);

			m->bo = bo == RD_BO_NATIVE ? RD_BO_LE : bo;
		} else if (!strcmp(e.name, "uuid") && e.v.kind == AV_STRING) {
			if (!parse_uuid(e.v.text, m->uuid)) {
				perr(ps, "trace.uuid: malformed UUID");
				return false;
			}
			m->has_uuid = true;
		} else if (!strcmp(e.name, "major") && e.v.kind == AV_INT && e.v.u != 1) {
			perr(ps, "trace.major = %llu: only CTF 1 is supported", (unsigned long long)e.v.u);
			return false;
		}
	}
	return r == 0;
}

static bool parse_env_block(struct parser *ps)
{
	struct rd_meta *m = ps->m;
	struct block_entry e;
	int r;

	while ((r = next_entry(ps, &e)) > 0) {
		struct rd_env *g;

		if (!e.name[0] || e.is_type)
			continue;
		/* added first: rd_meta_free() frees what was set */
		if (!append(ps, &m->env, &m->nenv, sizeof(*g), &(struct rd_env){ 0 }))
			return false;
		g = &m->env[m->nenv - 1];
		g->key = xstrdup(ps, e.name);
		if (e.v.kind == AV_INT)
			g->num = e.v.i;
		else
			g->str = xstrdup(ps, e.v.text);
		if (ps->failed || !g->key)
			return false;
	}
	return r == 0;
}

static bool parse_clock_block(struct parser *ps)
{
	struct rd_meta *m = ps->m;
	struct rd_clock c = { .freq = 1000000000 };
	struct block_entry e;
	int r;

	while ((r = next_entry(ps, &e)) > 0) {
		if (!strcmp(e.name, "name") && (e.v.kind == AV_IDENT || e.v.kind == AV_STRING)) {
			free(c.name);
			c.name = xstrdup(ps, e.v.text);
		} else if (!strcmp(e.name, "freq")) {
			if (!av_uint(ps, &e.v, "clock.freq", &c.freq) || c.freq == 0) {
				perr(ps, "clock.freq must be positive");
				goto err;
			}
		} else if (!strcmp(e.name, "offset_s") && e.v.kind == AV_INT) {
			c.offset_s = e.v.i;
		} else if (!strcmp(e.name, "offset")) {
			if (!av_uint(ps, &e.v, "clock.offset", &c.offset))
				goto err;
		} else if (!strcmp(e.name, "uuid") && e.v.kind == AV_STRING) {
			c.has_uuid = parse_uuid(e.v.text, c.uuid);
		}
	}
	if (r < 0)
		goto err;
	if (!c.name) {
		perr(ps, "clock without a name");
		goto err;
	}
	/* normalize as babeltrace2 does: offset < freq */
	if (c.offset >= c.freq) {
		uint64_t s = c.offset / c.freq;

		if (s > (uint64_t)INT64_MAX / 2 || c.offset_s > INT64_MAX / 2) {
			perr(ps, "clock offset too large");
			goto err;
		}
		c.offset_s += (int64_t)s;
		c.offset -= s * c.freq;
	}
	if (c.offset_s > INT64_MAX / 1000000000 - 1 || c.offset_s < INT64_MIN / 1000000000 + 1) {
		perr(ps, "clock offset_s out of range");
		goto err;
	}
	c.base_ns = c.offset_s * 1000000000 + (int64_t)(c.freq == 1000000000 ? c.offset :
		(uint64_t)(1e9 * (double)c.offset / (double)c.freq));
	if (!append(ps, &m->clocks, &m->nclocks, sizeof(c), &c))
		goto err;
	return true;
err:
	free(c.name);
	return false;
}

struct rd_stream_class *rd_meta_stream(const struct rd_meta *m, uint64_t id)
{
	for (size_t i = 0; i < m->nstreams; i++)
		if (m->streams[i]->id == id)
			return m->streams[i];
	return NULL;
}

static bool parse_stream_block(struct parser *ps)
{
	struct rd_meta *m = ps->m;
	struct rd_stream_class *sc = calloc(1, sizeof(*sc));
	struct block_entry e;
	int r;

	if (!sc) {
		nomem(ps);
		return false;
	}
	sc->clock = -1;
	while ((r = next_entry(ps, &e)) > 0) {
		if (!strcmp(e.name, "id")) {
			if (!av_uint(ps, &e.v, "stream.id", &sc->id))
				goto err;
		} else if (!strcmp(e.name, "event.header") && e.is_type) {
			sc->event_header = e.type;
		} else if (!strcmp(e.name, "event.context") && e.is_type) {
			sc->event_context = e.type;
		} else if (!strcmp(e.name, "packet.context") && e.is_type) {
			sc->packet_context = e.type;
		}
	}
	if (r < 0 || !check_struct(ps, sc->event_header, "stream.event.header") ||
	    !check_struct(ps, sc->event_context, "stream.event.context") ||
	    !check_struct(ps, sc->packet_context, "stream.packet.context"))
		goto err;
	if (rd_meta_stream(m, sc->id)) {
		perr(ps, "duplicate stream id %llu", (unsigned long long)sc->id);
		goto err;
	}
	if (!append(ps, &m->streams, &m->nstreams, sizeof(sc), &sc))
		goto err;
	return true;
err:
	free(sc);
	return false;
}

static void event_class_free(struct rd_event_class *ec)
{
	if (!ec)
		return;
	free(ec->name);
	free(ec->emf_uri);
	rd_prog_free(ec->prog);
	for (size_t i = 0; i < sizeof(ec->fmt) / sizeof(ec->fmt[0]); i++)
		rd_fmt_free(ec->fmt[i]);
	free(ec);
}

static bool parse_event_block(struct parser *ps)
{
	struct rd_meta *m = ps->m;
	struct rd_event_class *ec = calloc(1, sizeof(*ec));
	struct rd_stream_class *sc;
	bool have_id = false;
	struct block_entry e;
	int r;

	if (!ec) {
		nomem(ps);
		return false;
	}
	while ((r = next_entry(ps, &e)) > 0) {
		if (!strcmp(e.name, "name") && !e.is_type) {
			free(ec->name);
			ec->name = xstrdup(ps, e.v.text);
		} else if (!strcmp(e.name, "id")) {
			if (!av_uint(ps, &e.v, "event.id", &ec->id))
				goto err;
			have_id = true;
		} else if (!strcmp(e.name, "stream_id")) {
			if (!av_uint(ps, &e.v, "event.stream_id", &ec->stream_id))
				goto err;
		} else if (!strcmp(e.name, "loglevel") && e.v.kind == AV_INT) {
			ec->loglevel = e.v.i;
			ec->has_loglevel = true;
		} else if (!strcmp(e.name, "model.emf.uri") && e.v.kind == AV_STRING) {
			free(ec->emf_uri);
			ec->emf_uri = xstrdup(ps, e.v.text);
		} else if (!strcmp(e.name, "context") && e.is_type) {
			ec->context = e.type;
		} else if (!strcmp(e.name, "fields") && e.is_type) {
			ec->fields = e.type;
		}
	}
	if (r < 0 || !check_struct(ps, ec->context, "event.context") ||
	    !check_struct(ps, ec->fields, "event.fields"))
		goto err;
	sc = rd_meta_stream(m, ec->stream_id);
	if (!sc) {
		/* a trace without stream blocks has an implicit stream class 0 */
		if (m->nstreams == 0 && ec->stream_id == 0) {
			sc = calloc(1, sizeof(*sc));
			if (!sc) {
				nomem(ps);
				goto err;
			}
			sc->clock = -1;
			if (!append(ps, &m->streams, &m->nstreams, sizeof(sc), &sc)) {
				free(sc);
				goto err;
			}
		} else {
			perr(ps, "event '%s': no stream with id %llu", ec->name ? ec->name : "",
			     (unsigned long long)ec->stream_id);
			goto err;
		}
	}
	if (!have_id)
		ec->id = sc->nevents;
	if (rd_stream_event(sc, ec->id)) {
		perr(ps, "duplicate event id %llu in stream %llu", (unsigned long long)ec->id,
		     (unsigned long long)sc->id);
		goto err;
	}
	ec->index = sc->nevents;
	if (!append(ps, &sc->events, &sc->nevents, sizeof(ec), &ec))
		goto err;
	return true;
err:
	event_class_free(ec);
	return false;
}

struct rd_event_class *rd_stream_event(const struct rd_stream_class *sc, uint64_t id)
{
	if (sc->by_id)
		return id < sc->nby_id ? sc->by_id[id] : NULL;
	for (size_t i = 0; i < sc->nevents; i++)
		if (sc->events[i]->id == id)
			return sc->events[i];
	return NULL;
}

static bool parse_top(struct parser *ps)
{
	while (!ps->failed && ps->t.kind != T_EOF) {
		int def = parse_type_def(ps);

		if (def < 0)
			return false;
		if (def)
			continue;
		if (is_ident(ps, "trace") || is_ident(ps, "env") || is_ident(ps, "clock") ||
		    is_ident(ps, "stream") || is_ident(ps, "event") || is_ident(ps, "callsite")) {
			char kw[16];
			bool ok = true;

			snprintf(kw, sizeof(kw), "%s", ps->t.str);
			lex(ps);
			if (!expect(ps, "{"))
				return false;
			if (!strcmp(kw, "trace"))
				ok = parse_trace_block(ps);
			else if (!strcmp(kw, "env"))
				ok = parse_env_block(ps);
			else if (!strcmp(kw, "clock"))
				ok = parse_clock_block(ps);
			else if (!strcmp(kw, "stream"))
				ok = parse_stream_block(ps);
			else if (!strcmp(kw, "event"))
				ok = parse_event_block(ps);
			else {
				struct block_entry e;

				while (ok && !ps->failed && !is_punct(ps, "}"))
					ok = parse_block_entry(ps, &e);
			}
			if (!ok || !expect(ps, "}") || !expect(ps, ";"))
				return false;
			continue;
		}
		if (is_type_keyword(ps)) {
			/* a named struct/variant/enum declaration: `struct x { ... };` */
			if (!parse_type_keyword(ps))
				return false;
			if (!expect(ps, ";"))
				return false;
			continue;
		}
		perr(ps, "unexpected '%.*s'", ps->t.kind == T_IDENT ? (int)ps->t.len : 1,
		     ps->t.kind == T_IDENT ? ps->t.str : (ps->t.kind == T_PUNCT ? ps->t.punct : "?"));
		return false;
	}
	return !ps->failed;
}

/* --- finalization: byte orders, meanings, paths, what babeltrace2 shows ------ */

static void fix_byte_orders(struct rd_meta *m)
{
	for (size_t i = 0; i < m->ntypes; i++) {
		struct rd_type *t = m->types[i];

		if (t->bo == RD_BO_NATIVE)
			t->bo = m->bo;
	}
	for (size_t i = 0; i < m->ntypes; i++) {
		struct rd_type *t = m->types[i];

		if (t->kind == RD_ENUM && t->container)
			t->bo = t->container->bo;
	}
}

int rd_struct_index(const struct rd_type *t, const char *name)
{
	if (!t || t->kind != RD_STRUCT)
		return -1;
	for (size_t i = 0; i < t->nmembers; i++)
		if (!strcmp(t->members[i].name, name))
			return (int)i;
	for (size_t i = 0; i < t->nmembers; i++)
		if (!strcmp(t->members[i].shown, name))
			return (int)i;
	return -1;
}

struct walk_level {
	const struct rd_type *st;
	size_t cur;		/* member being processed */
};

struct walk {
	struct parser *ps;
	struct rd_type *roots[RD_SC_COUNT];
	int scope;
	struct walk_level lv[RD_MAX_DEPTH + 1];
	size_t nlv;
};

static const struct rd_type *descend(const struct rd_type *t, const char *rest, struct rd_path *p)
{
	char comp[256];

	while (*rest) {
		const char *dot = strchr(rest, '.');
		size_t l = dot ? (size_t)(dot - rest) : strlen(rest);
		int idx;

		if (l >= sizeof(comp) || p->depth >= RD_MAX_DEPTH)
			return NULL;
		memcpy(comp, rest, l);
		comp[l] = '\0';
		idx = rd_struct_index(t, comp);
		if (idx < 0)
			return NULL;
		p->idx[p->depth++] = (uint32_t)idx;
		t = t->members[idx].type;
		rest = dot ? dot + 1 : rest + l;
	}
	return t;
}

static bool resolve_path(struct walk *w, struct rd_path *p)
{
	static const struct { const char *prefix; int scope; } abs[] = {
		{ "trace.packet.header.", RD_SC_PACKET_HEADER },
		{ "stream.packet.context.", RD_SC_PACKET_CONTEXT },
		{ "stream.event.header.", RD_SC_EVENT_HEADER },
		{ "stream.event.context.", RD_SC_COMMON_CONTEXT },
		{ "event.context.", RD_SC_SPECIFIC_CONTEXT },
		{ "event.fields.", RD_SC_PAYLOAD },
	};
	const char *text = p->text;

	p->depth = 0;
	for (size_t i = 0; i < sizeof(abs) / sizeof(abs[0]); i++) {
		size_t l = strlen(abs[i].prefix);

		if (!strncmp(text, abs[i].prefix, l)) {
			if (abs[i].scope > w->scope || !w->roots[abs[i].scope])
				return false;
			p->scope = abs[i].scope;
			p->target = descend(w->roots[abs[i].scope], text + l, p);
			return p->target != NULL;
		}
	}
	/* relative: the first component among the earlier members of enclosing structs */
	{
		char first[256];
		const char *dot = strchr(text, '.');
		size_t l = dot ? (size_t)(dot - text) : strlen(text);

		if (l >= sizeof(first))
			return false;
		memcpy(first, text, l);
		first[l] = '\0';
		for (size_t up = 0; up < w->nlv; up++) {
			const struct walk_level *lv = &w->lv[w->nlv - 1 - up];

			for (size_t i = 0; i < lv->cur; i++) {
				const struct rd_member *mb = &lv->st->members[i];

				if (strcmp(mb->name, first) && strcmp(mb->shown, first))
					continue;
				p->scope = -1;
				p->up = (int)up;
				p->idx[0] = (uint32_t)i;
				p->depth = 1;
				p->target = descend(mb->type, dot ? dot + 1 : "", p);
				return p->target != NULL;
			}
		}
		/* then the top level of the scopes decoded before this one */
		for (int sc = w->scope - 1; sc >= 0; sc--) {
			int idx = rd_struct_index(w->roots[sc], first);

			if (idx < 0)
				continue;
			p->scope = sc;
			p->idx[0] = (uint32_t)idx;
			p->depth = 1;
			p->target = descend(w->roots[sc]->members[idx].type, dot ? dot + 1 : "", p);
			return p->target != NULL;
		}
	}
	return false;
}

static bool resolve_type(struct walk *w, struct rd_type *t)
{
	struct parser *ps = w->ps;

	switch (t->kind) {
	case RD_STRUCT:
		if (w->nlv > RD_MAX_DEPTH) {
			perr(ps, "types nested too deeply");
			return false;
		}
		w->lv[w->nlv].st = t;
		w->nlv++;
		for (size_t i = 0; i < t->nmembers; i++) {
			w->lv[w->nlv - 1].cur = i;
			if (!resolve_type(w, t->members[i].type))
				return false;
		}
		w->nlv--;
		return true;
	case RD_VARIANT:
		if (!t->tag.text || !resolve_path(w, &t->tag)) {
			perr(ps, "variant: cannot find its tag '%s'", t->tag.text ? t->tag.text : "");
			return false;
		}
		if (t->tag.target->kind != RD_ENUM) {
			perr(ps, "variant: tag '%s' is not an enumeration", t->tag.text);
			return false;
		}
		if (t->nmembers == 0) {
			perr(ps, "variant without options");
			return false;
		}
		t->opt_of_mapping = malloc((t->tag.target->nmappings + 1) * sizeof(int32_t));
		if (!t->opt_of_mapping) {
			nomem(ps);
			return false;
		}
		for (size_t i = 0; i < t->tag.target->nmappings; i++) {
			t->opt_of_mapping[i] = -1;
			for (size_t j = 0; j < t->nmembers; j++)
				if (!strcmp(t->members[j].name, t->tag.target->mappings[i].label))
					t->opt_of_mapping[i] = (int32_t)j;
		}
		for (size_t i = 0; i < t->nmembers; i++)
			if (!resolve_type(w, t->members[i].type))
				return false;
		return true;
	case RD_SEQ:
		if (!resolve_path(w, &t->len)) {
			perr(ps, "sequence: cannot find its length '%s'", t->len.text);
			return false;
		}
		if (t->len.target->kind != RD_INT && t->len.target->kind != RD_ENUM) {
			perr(ps, "sequence: length '%s' is not an integer", t->len.text);
			return false;
		}
		__attribute__((fallthrough));
	case RD_ARRAY:
		if (t->elem->kind == RD_INT && t->elem->text && t->elem->size == 8 && t->elem->align == 8) {
			t->text = true;
			t->elem->is_signed = false;
		}
		return resolve_type(w, t->elem);
	case RD_ENUM:
		if (t->container && t->container->clock >= 0)
			t->clock = t->container->clock;
		return true;
	default:
		return true;
	}
}

static bool compute_shown(struct rd_type *t, struct parser *ps)
{
	bool any = false;

	switch (t->kind) {
	case RD_INT:
	case RD_ENUM:
		any = !t->hidden;
		break;
	case RD_STRUCT:
		/* reverse order: dependents come after what they depend on */
		for (size_t i = t->nmembers; i-- > 0;)
			if (compute_shown(t->members[i].type, ps))
				any = true;
		if (t->nmembers == 0)
			any = true;
		free(t->shown);
		t->shown = malloc((t->nmembers + 1) * sizeof(*t->shown));
		if (!t->shown) {
			nomem(ps);
			return false;
		}
		t->nshown = 0;
		for (size_t i = 0; i < t->nmembers; i++)
			if (!t->members[i].type->hidden)
				t->shown[t->nshown++] = (uint32_t)i;
		break;
	case RD_VARIANT:
		for (size_t i = t->nmembers; i-- > 0;)
			if (compute_shown(t->members[i].type, ps))
				any = true;
		if (any) {
			for (size_t i = 0; i < t->nmembers; i++)
				t->members[i].type->hidden = false;
			((struct rd_type *)t->tag.target)->hidden = false;
		}
		break;
	case RD_ARRAY:
	case RD_SEQ:
		any = compute_shown(t->elem, ps);
		if (any && t->kind == RD_SEQ)
			((struct rd_type *)t->len.target)->hidden = false;
		break;
	default:
		any = true;
		break;
	}
	t->hidden = !any;
	return any;
}

/* Integers that babeltrace2 keeps out of its IR, before dependents bring them back. */
static void hide_special(struct rd_type *t, unsigned depth)
{
	if (depth > RD_MAX_DEPTH)
		return;
	switch (t->kind) {
	case RD_INT:
	case RD_ENUM:
		t->hidden = t->clock >= 0;
		break;
	case RD_STRUCT:
	case RD_VARIANT:
		for (size_t i = 0; i < t->nmembers; i++)
			hide_special(t->members[i].type, depth + 1);
		break;
	case RD_ARRAY:
	case RD_SEQ:
		hide_special(t->elem, depth + 1);
		break;
	default:
		break;
	}
}

static void mark_ids(struct rd_type *t, const char *name, unsigned depth)
{
	if (depth > RD_MAX_DEPTH)
		return;
	switch (t->kind) {
	case RD_INT:
	case RD_ENUM:
		if (name && !strcmp(name, "id"))
			t->is_event_id = true;
		break;
	case RD_STRUCT:
		for (size_t i = 0; i < t->nmembers; i++)
			mark_ids(t->members[i].type, t->members[i].name, depth + 1);
		break;
	case RD_VARIANT:
		for (size_t i = 0; i < t->nmembers; i++)
			mark_ids(t->members[i].type, NULL, depth + 1);
		break;
	default:
		break;
	}
}

static int find_clock(const struct rd_type *t, unsigned depth)
{
	if (!t || depth > RD_MAX_DEPTH)
		return -1;
	if ((t->kind == RD_INT || t->kind == RD_ENUM) && t->clock >= 0)
		return t->clock;
	if (t->kind == RD_ARRAY || t->kind == RD_SEQ)
		return find_clock(t->elem, depth + 1);
	if (t->kind == RD_STRUCT || t->kind == RD_VARIANT)
		for (size_t i = 0; i < t->nmembers; i++) {
			int c = find_clock(t->members[i].type, depth + 1);

			if (c >= 0)
				return c;
		}
	return -1;
}

static bool finalize_stream(struct parser *ps, struct rd_stream_class *sc)
{
	struct rd_meta *m = ps->m;
	struct walk w = { .ps = ps };
	static const char *const meanings[] = { "timestamp_begin", "timestamp_end",
		"events_discarded", "packet_seq_num", "packet_size", "content_size" };
	uint64_t maxid = 0;

	if (sc->packet_context) {
		struct rd_type *pc = sc->packet_context;

		for (size_t i = 0; i < sizeof(meanings) / sizeof(meanings[0]); i++) {
			int idx = rd_struct_index(pc, meanings[i]);

			if (idx >= 0 && (pc->members[idx].type->kind == RD_INT ||
					 pc->members[idx].type->kind == RD_ENUM)) {
				if (i == 2)
					sc->has_discarded = true;
				if (i == 3)
					sc->has_seq_num = true;
			}
		}
	}
	if (sc->event_header)
		mark_ids(sc->event_header, NULL, 0);
	/* the default clock: the first mapped one, where babeltrace2 looks */
	sc->clock = find_clock(sc->packet_context, 0);
	if (sc->clock < 0)
		sc->clock = find_clock(sc->event_header, 0);
	if (sc->clock < 0)
		sc->clock = find_clock(sc->event_context, 0);
	for (size_t e = 0; sc->clock < 0 && e < sc->nevents; e++) {
		sc->clock = find_clock(sc->events[e]->context, 0);
		if (sc->clock < 0)
			sc->clock = find_clock(sc->events[e]->fields, 0);
	}

	/* resolve paths, scope by scope */
	w.roots[RD_SC_PACKET_HEADER] = m->packet_header;
	w.roots[RD_SC_PACKET_CONTEXT] = sc->packet_context;
	w.roots[RD_SC_EVENT_HEADER] = sc->event_header;
	w.roots[RD_SC_COMMON_CONTEXT] = sc->event_context;
	for (int s = RD_SC_PACKET_CONTEXT; s <= RD_SC_COMMON_CONTEXT; s++) {
		w.scope = s;
		if (w.roots[s] && !resolve_type(&w, w.roots[s]))
			return false;
	}
	for (size_t e = 0; e < sc->nevents; e++) {
		struct rd_event_class *ec = sc->events[e];

		w.roots[RD_SC_SPECIFIC_CONTEXT] = ec->context;
		w.roots[RD_SC_PAYLOAD] = ec->fields;
		for (int s = RD_SC_SPECIFIC_CONTEXT; s <= RD_SC_PAYLOAD; s++) {
			w.scope = s;
			if (w.roots[s] && !resolve_type(&w, w.roots[s]))
				return false;
		}
		if (ec->id > maxid)
			maxid = ec->id;
	}

	/* what is shown (babeltrace2's IR): hide the special integers everywhere
	 * first, then let dependents bring back lengths and tags, payloads and
	 * contexts before the packet context, as babeltrace2 does */
	for (size_t e = 0; e < sc->nevents; e++) {
		if (sc->events[e]->fields)
			hide_special(sc->events[e]->fields, 0);
		if (sc->events[e]->context)
			hide_special(sc->events[e]->context, 0);
	}
	if (sc->event_context)
		hide_special(sc->event_context, 0);
	if (sc->packet_context) {
		struct rd_type *pc = sc->packet_context;

		hide_special(pc, 0);
		for (size_t i = 0; i < sizeof(meanings) / sizeof(meanings[0]); i++) {
			int idx = rd_struct_index(pc, meanings[i]);

			if (idx >= 0 && (pc->members[idx].type->kind == RD_INT ||
					 pc->members[idx].type->kind == RD_ENUM)) {
				pc->members[idx].type->hidden = true;
				if (i == 1)	/* babeltrace2 unmaps timestamp_end */
					pc->members[idx].type->clock = -1;
			}
		}
	}
	for (size_t e = 0; e < sc->nevents; e++) {
		if (sc->events[e]->fields)
			compute_shown(sc->events[e]->fields, ps);
		if (sc->events[e]->context)
			compute_shown(sc->events[e]->context, ps);
	}
	if (sc->event_context)
		compute_shown(sc->event_context, ps);
	if (sc->packet_context)
		compute_shown(sc->packet_context, ps);
	if (sc->event_header)
		compute_shown(sc->event_header, ps);
	if (ps->failed)
		return false;
	if (sc->nevents && maxid < (1u << 16)) {
		sc->by_id = calloc(maxid + 1, sizeof(*sc->by_id));
		if (!sc->by_id) {
			nomem(ps);
			return false;
		}
		sc->nby_id = maxid + 1;
		for (size_t e = 0; e < sc->nevents; e++)
			sc->by_id[sc->events[e]->id] = sc->events[e];
	}
	return true;
}

/* Each member's ", NAME = " for the pretty printer. */
static void name_members(struct parser *ps, struct rd_type *t)
{
	if (t->kind != RD_STRUCT)
		return;
	for (size_t i = 0; i < t->nmembers; i++) {
		struct rd_member *mb = &t->members[i];

		free(mb->sep);
		if (asprintf(&mb->sep, ", %s = ", mb->shown) < 0) {
			mb->sep = NULL;
			nomem(ps);
			return;
		}
	}
}

/* The decode program of the scopes in mask `scopes` (see program.c). */
static struct rd_prog *compile_scopes(struct parser *ps, const struct rd_type *const roots[RD_SC_COUNT],
				      unsigned scopes)
{
	struct rd_prog *p = NULL;
	int r;

	if (ps->failed)
		return NULL;
	r = rd_prog_compile(roots, scopes, &p);
	if (r == -E2BIG)
		perr(ps, "types nested too deeply or too many fields");
	else if (r < 0)
		nomem(ps);
	return p;
}

static void compile_programs(struct parser *ps)
{
	struct rd_meta *m = ps->m;
	const struct rd_type *roots[RD_SC_COUNT] = { NULL };

	roots[RD_SC_PACKET_HEADER] = m->packet_header;
	if (m->packet_header)
		m->packet_header_prog = compile_scopes(ps, roots, 1u << RD_SC_PACKET_HEADER);
	for (size_t i = 0; i < m->nstreams; i++) {
		struct rd_stream_class *sc = m->streams[i];

		roots[RD_SC_PACKET_CONTEXT] = sc->packet_context;
		roots[RD_SC_EVENT_HEADER] = sc->event_header;
		roots[RD_SC_COMMON_CONTEXT] = sc->event_context;
		if (sc->packet_context)
			sc->packet_context_prog = compile_scopes(ps, roots, 1u << RD_SC_PACKET_CONTEXT);
		if (sc->event_header)
			sc->event_header_prog = compile_scopes(ps, roots, 1u << RD_SC_EVENT_HEADER);
		bool header_named = false;

		for (size_t e = 0; e < sc->nevents; e++) {
			roots[RD_SC_SPECIFIC_CONTEXT] = sc->events[e]->context;
			roots[RD_SC_PAYLOAD] = sc->events[e]->fields;
			sc->events[e]->prog = compile_scopes(ps, roots, 1u << RD_SC_COMMON_CONTEXT |
							     1u << RD_SC_SPECIFIC_CONTEXT |
							     1u << RD_SC_PAYLOAD);
			if (sc->events[e]->prog &&
			    rd_prog_refers_to(sc->events[e]->prog, RD_SC_EVENT_HEADER))
				header_named = true;
		}
		/* a header no path names need not say where it is, event by event */
		if (sc->event_header_prog && !header_named)
			sc->event_header_prog->nscopes = 0;
	}
}

static void type_free(struct rd_type *t)
{
	for (size_t i = 0; i < t->nmembers; i++) {
		free(t->members[i].name);
		free(t->members[i].sep);
	}
	free(t->members);
	for (size_t i = 0; i < t->nmappings; i++) {
		free(t->mappings[i].label);
		free(t->mappings[i].ranges);
	}
	free(t->mappings);
	free(t->shown);
	free(t->opt_of_mapping);
	free(t->tag.text);
	free(t->len.text);
	free(t);
}

void rd_meta_free(struct rd_meta *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->ntypes; i++)
		type_free(m->types[i]);
	free(m->types);
	for (size_t i = 0; i < m->nenv; i++) {
		free(m->env[i].key);
		free(m->env[i].str);
	}
	free(m->env);
	for (size_t i = 0; i < m->nclocks; i++)
		free(m->clocks[i].name);
	free(m->clocks);
	for (size_t i = 0; i < m->nstreams; i++) {
		struct rd_stream_class *sc = m->streams[i];

		for (size_t e = 0; e < sc->nevents; e++)
			event_class_free(sc->events[e]);
		free(sc->events);
		free(sc->by_id);
		rd_prog_free(sc->packet_context_prog);
		rd_prog_free(sc->event_header_prog);
		free(sc);
	}
	free(m->streams);
	rd_prog_free(m->packet_header_prog);
	free(m);
}

const struct rd_env *rd_meta_env(const struct rd_meta *m, const char *key)
{
	for (size_t i = 0; i < m->nenv; i++)
		if (m->env[i].key && !strcmp(m->env[i].key, key))
			return &m->env[i];
	return NULL;
}

static void free_ns(struct named *tab, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(tab[i].name);
	free(tab);
}

int rd_meta_parse(const char *text, size_t len, struct rd_meta **ret_meta,
		  char *errbuf, size_t errlen)
{
	struct parser ps = { .p = text, .end = text + len, .line = 1, .err = errbuf,
		.errlen = errlen };
	int r;

	if (errlen)
		errbuf[0] = '\0';
	ps.m = calloc(1, sizeof(*ps.m));
	if (!ps.m)
		return -ENOMEM;
	ps.m->bo = RD_BO_LE;
	lex(&ps);
	if (parse_top(&ps)) {
		fix_byte_orders(ps.m);
		if (ps.m->packet_header) {
			struct walk w = { .ps = &ps, .scope = RD_SC_PACKET_HEADER };

			w.roots[RD_SC_PACKET_HEADER] = ps.m->packet_header;
			if (resolve_type(&w, ps.m->packet_header))
				compute_shown(ps.m->packet_header, &ps);
		}
		for (size_t i = 0; !ps.failed && i < ps.m->nstreams; i++)
			finalize_stream(&ps, ps.m->streams[i]);
		for (size_t i = 0; !ps.failed && i < ps.m->ntypes; i++)
			name_members(&ps, ps.m->types[i]);
		compile_programs(&ps);
		if (!ps.failed && ps.m->nstreams == 0)
			perr(&ps, "no stream or event declared");
	} else if (!ps.failed) {
		perr(&ps, "syntax error");
	}
	free(ps.t.str);
	free_ns(ps.aliases, ps.naliases);
	free_ns(ps.structs, ps.nstructs);
	free_ns(ps.variants, ps.nvariants);
	free_ns(ps.enums, ps.nenums);
	r = ps.failed;
	if (r) {
		rd_meta_free(ps.m);
		return r;
	}
	*ret_meta = ps.m;
	return 0;
}
