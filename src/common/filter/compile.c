/*
 * compile.c - filter expressions to bytecode: lexer, recursive-descent
 * parser (one function per precedence level), type checks on what is known
 * at compile time (literals), and code generation. See filter.h.
 */
#include "filter.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "util/macros.h"

#define MAX_DEPTH 64	/* nesting of the expression */

enum tok {
	T_END, T_INT, T_FLOAT, T_STRING, T_IDENT, T_CTX,
	T_LPAREN, T_RPAREN, T_LBRACKET, T_RBRACKET, T_DOT,
	T_OR, T_AND, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE,
	T_BOR, T_BXOR, T_BAND, T_LSHIFT, T_RSHIFT,
	T_MINUS, T_PLUS, T_NOT, T_BNOT,
};

/* What a subexpression is known to produce at compile time. */
enum vtype { V_NUM, V_INT, V_FLOAT, V_STRING, V_GLOB, V_ANY /* a field: known at run time */ };

struct compiler {
	const char *src;
	size_t pos;		/* of the next character */
	/* current token */
	enum tok tok;
	size_t tok_pos;
	int64_t ival;
	double fval;
	char *sval;		/* T_STRING (unescaped, with glob markers kept), T_IDENT */
	size_t slen;
	bool glob;		/* T_STRING has an unescaped '*' */
	unsigned depth;
	/* output */
	uint8_t *code, *consts, *refs;
	size_t code_len, code_cap, consts_len, consts_cap, refs_len, refs_cap;
	unsigned n_refs;
	char *ref_keys[FILTER_MAX_REFS];	/* canonical text of each ref, to share slots */
	struct filter_error *err;
	int error;	/* first error: -EINVAL, -E2BIG, -ENOMEM */
};

static void fail_at(struct compiler *c, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void fail_at(struct compiler *c, size_t pos, const char *fmt, ...)
{
	va_list ap;

	if (c->error)
		return;
	c->error = -EINVAL;
	c->err->column = (unsigned)pos + 1;
	va_start(ap, fmt);
	vsnprintf(c->err->message, sizeof(c->err->message), fmt, ap);
	va_end(ap);
}

static void fail_errno(struct compiler *c, int e, const char *what)
{
	if (c->error)
		return;
	c->error = e;
	c->err->column = (unsigned)c->tok_pos + 1;
	snprintf(c->err->message, sizeof(c->err->message), "%s", what);
}

/* ---- output buffers ---- */

static void emit(struct compiler *c, uint8_t **buf, size_t *len, size_t *cap, const void *p,
		 size_t n)
{
	if (c->error)
		return;
	if (*len + n > FILTER_MAX_CODE) {
		fail_errno(c, -E2BIG, "the compiled filter is too large");
		return;
	}
	if (*len + n > *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		uint8_t *nb;

		while (ncap < *len + n)
			ncap *= 2;
		nb = realloc(*buf, ncap);
		if (!nb) {
			fail_errno(c, -ENOMEM, "out of memory");
			return;
		}
		*buf = nb;
		*cap = ncap;
	}
	memcpy(*buf + *len, p, n);
	*len += n;
}

static void code(struct compiler *c, const void *p, size_t n)
{
	emit(c, &c->code, &c->code_len, &c->code_cap, p, n);
}

static void op(struct compiler *c, enum filter_op o)
{
	uint8_t b = (uint8_t)o;

	code(c, &b, 1);
}

/* ---- lexer ---- */

static bool is_ident_start(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool is_ident(char ch)
{
	return is_ident_start(ch) || (ch >= '0' && ch <= '9');
}

static void lex_string(struct compiler *c)
{
	size_t start = c->pos;	/* at the opening quote */
	size_t n = 0;

	free(c->sval);
	c->sval = malloc(strlen(c->src + start) + 1);
	if (!c->sval) {
		fail_errno(c, -ENOMEM, "out of memory");
		return;
	}
	c->glob = false;
	c->pos++;
	for (;;) {
		char ch = c->src[c->pos];

		if (ch == '\0') {
			fail_at(c, start, "unterminated string");
			return;
		}
		c->pos++;
		if (ch == '"')
			break;
		if (ch == '\\') {
			char e = c->src[c->pos++];

			switch (e) {
			case 'n': c->sval[n++] = '\n'; break;
			case 't': c->sval[n++] = '\t'; break;
			case '\\': c->sval[n++] = '\\'; break;
			case '"': c->sval[n++] = '"'; break;
			case '*':	/* kept escaped: the glob matcher reads "\*" as a star */
				c->sval[n++] = '\\';
				c->sval[n++] = '*';
				break;
			default:
				fail_at(c, c->pos - 2, "unknown escape '\\%c' in a string", e ? e : ' ');
				return;
			}
			continue;
		}
		if (ch == '*')
			c->glob = true;
		c->sval[n++] = ch;
	}
	c->sval[n] = '\0';
	if (!c->glob) {
		/* no pattern: "\*" is just a star */
		size_t k = 0;

		for (size_t i = 0; i < n; i++) {
			if (c->sval[i] == '\\' && c->sval[i + 1] == '*')
				i++;
			c->sval[k++] = c->sval[i];
		}
		c->sval[k] = '\0';
		n = k;
	}
	c->slen = n;
	c->tok = T_STRING;
}

static void lex_number(struct compiler *c)
{
	const char *s = c->src + c->pos, *digits_end = s + strspn(s, "0123456789");
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	char *end;

	errno = 0;
	if (!hex && (*digits_end == '.' || *digits_end == 'e' || *digits_end == 'E')) {
		c->fval = strtod(s, &end);
		c->tok = T_FLOAT;
		if (errno || is_ident(*end) || *end == '.')
			fail_at(c, c->pos, "invalid number");
	} else {
		unsigned long long v = strtoull(s, &end, 0);

		c->tok = T_INT;
		if (errno || is_ident(*end) || *end == '.')
			fail_at(c, c->pos, "invalid integer");
		else if (v > INT64_MAX)
			fail_at(c, c->pos, "integer out of the 64-bit signed range");
		c->ival = (int64_t)v;
	}
	c->pos = (size_t)(end - c->src);
}

static void next(struct compiler *c)
{
	static const struct {
		const char *text;
		enum tok tok;
	} ops[] = {
		{ "||", T_OR }, { "&&", T_AND }, { "==", T_EQ }, { "!=", T_NE }, { "<=", T_LE },
		{ ">=", T_GE }, { "<<", T_LSHIFT }, { ">>", T_RSHIFT }, { "<", T_LT }, { ">", T_GT },
		{ "|", T_BOR }, { "^", T_BXOR }, { "&", T_BAND }, { "-", T_MINUS }, { "+", T_PLUS },
		{ "!", T_NOT }, { "~", T_BNOT }, { "(", T_LPAREN }, { ")", T_RPAREN },
		{ "[", T_LBRACKET }, { "]", T_RBRACKET }, { ".", T_DOT },
	};
	const char *s;

	if (c->error) {
		c->tok = T_END;
		return;
	}
	while (c->src[c->pos] == ' ' || c->src[c->pos] == '\t' || c->src[c->pos] == '\n')
		c->pos++;
	c->tok_pos = c->pos;
	s = c->src + c->pos;
	if (*s == '\0') {
		c->tok = T_END;
		return;
	}
	if (*s == '"') {
		lex_string(c);
		return;
	}
	if (*s >= '0' && *s <= '9') {
		lex_number(c);
		return;
	}
	if (is_ident_start(*s) || *s == '$') {
		size_t n = 1;

		while (is_ident(s[n]))
			n++;
		if (*s == '$') {
			if (n != 4 || strncmp(s, "$ctx", 4) != 0) {
				fail_at(c, c->pos, "unknown root '%.*s' (only $ctx is known)", (int)n, s);
				return;
			}
			c->tok = T_CTX;
		} else {
			c->tok = T_IDENT;
		}
		free(c->sval);
		c->sval = strndup(s, n);
		if (!c->sval)
			fail_errno(c, -ENOMEM, "out of memory");
		c->slen = n;
		c->pos += n;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		size_t n = strlen(ops[i].text);

		if (strncmp(s, ops[i].text, n) == 0) {
			c->tok = ops[i].tok;
			c->pos += n;
			return;
		}
	}
	if (strchr("*/%", *s))
		fail_at(c, c->pos, "arithmetic ('%c') is not allowed in filters", *s);
	else
		fail_at(c, c->pos, "unexpected character '%c'", *s);
	c->tok = T_END;
}

/* ---- field references ---- */

struct path {
	enum filter_root root;
	unsigned n;
	struct {
		char *name;	/* NULL: index */
		uint64_t index;
	} e[FILTER_MAX_PATH];
};

static void path_free(struct path *p)
{
	for (unsigned i = 0; i < p->n; i++)
		free(p->e[i].name);
}

/* Returns the slot of path, adding it to the reference table if new. */
static unsigned ref_slot(struct compiler *c, const struct path *p, size_t at)
{
	char key[512];
	size_t k = 0;

	k += (size_t)snprintf(key, sizeof(key), "%d", p->root);
	for (unsigned i = 0; i < p->n && k < sizeof(key); i++)
		k += p->e[i].name ? (size_t)snprintf(key + k, sizeof(key) - k, ".%s", p->e[i].name)
				  : (size_t)snprintf(key + k, sizeof(key) - k, "[%llu]",
						     (unsigned long long)p->e[i].index);
	for (unsigned i = 0; i < c->n_refs; i++)
		if (strcmp(c->ref_keys[i], key) == 0)
			return i;
	if (c->n_refs == FILTER_MAX_REFS) {
		fail_at(c, at, "more than %d distinct fields", FILTER_MAX_REFS);
		return 0;
	}
	c->ref_keys[c->n_refs] = strdup(key);
	if (!c->ref_keys[c->n_refs]) {
		fail_errno(c, -ENOMEM, "out of memory");
		return 0;
	}
	uint8_t hdr[2] = { (uint8_t)p->root, (uint8_t)p->n };

	emit(c, &c->refs, &c->refs_len, &c->refs_cap, hdr, 2);
	for (unsigned i = 0; i < p->n; i++) {
		if (p->e[i].name) {
			uint8_t kind = 0;
			uint16_t len = (uint16_t)strlen(p->e[i].name);

			emit(c, &c->refs, &c->refs_len, &c->refs_cap, &kind, 1);
			emit(c, &c->refs, &c->refs_len, &c->refs_cap, &len, 2);
			emit(c, &c->refs, &c->refs_len, &c->refs_cap, p->e[i].name, (size_t)len + 1);
		} else {
			uint8_t kind = 1;

			emit(c, &c->refs, &c->refs_len, &c->refs_cap, &kind, 1);
			emit(c, &c->refs, &c->refs_len, &c->refs_cap, &p->e[i].index, 8);
		}
	}
	return c->n_refs++;
}

/* Parses name(.name|[N])* (the current token is the first name or $ctx). */
static enum vtype parse_ref(struct compiler *c)
{
	struct path p = { .root = c->tok == T_CTX ? FILTER_ROOT_CONTEXT : FILTER_ROOT_PAYLOAD };
	size_t at = c->tok_pos;
	uint16_t slot;

	if (p.root == FILTER_ROOT_PAYLOAD) {
		p.e[p.n++].name = c->sval;
		c->sval = NULL;
	}
	next(c);
	if (p.root == FILTER_ROOT_CONTEXT && c->tok != T_DOT)
		fail_at(c, c->tok_pos, "expected '.' and a context name after $ctx");
	for (;;) {
		if (c->tok == T_DOT) {
			next(c);
			if (c->tok != T_IDENT) {
				fail_at(c, c->tok_pos, "expected a field name");
				break;
			}
			if (p.n == FILTER_MAX_PATH) {
				fail_at(c, c->tok_pos, "a field path has at most %d parts", FILTER_MAX_PATH);
				break;
			}
			p.e[p.n].name = c->sval;
			p.e[p.n++].index = 0;
			c->sval = NULL;
			next(c);
		} else if (c->tok == T_LBRACKET && p.n > 0) {
			next(c);
			if (c->tok != T_INT) {
				fail_at(c, c->tok_pos, "an index is a constant integer");
				break;
			}
			if (p.n == FILTER_MAX_PATH) {
				fail_at(c, c->tok_pos, "a field path has at most %d parts", FILTER_MAX_PATH);
				break;
			}
			p.e[p.n].name = NULL;
			p.e[p.n++].index = (uint64_t)c->ival;
			next(c);
			if (c->tok != T_RBRACKET) {
				fail_at(c, c->tok_pos, "expected ']'");
				break;
			}
			next(c);
		} else {
			break;
		}
	}
	slot = (uint16_t)ref_slot(c, &p, at);
	path_free(&p);
	op(c, OP_LOAD_REF);
	code(c, &slot, 2);
	return V_ANY;
}

/* ---- expressions ---- */

static enum vtype parse_or(struct compiler *c);

static void push_string(struct compiler *c, const char *s, size_t len, bool glob)
{
	uint32_t off = (uint32_t)c->consts_len, len32 = (uint32_t)len;

	emit(c, &c->consts, &c->consts_len, &c->consts_cap, s, len + 1);
	op(c, glob ? OP_PUSH_GLOB : OP_PUSH_STRING);
	code(c, &off, 4);
	code(c, &len32, 4);
}

static enum vtype parse_primary(struct compiler *c)
{
	enum vtype t;

	switch (c->tok) {
	case T_INT:
		op(c, OP_PUSH_S64);
		code(c, &c->ival, 8);
		next(c);
		return V_INT;
	case T_FLOAT:
		op(c, OP_PUSH_DOUBLE);
		code(c, &c->fval, 8);
		next(c);
		return V_FLOAT;
	case T_STRING:
		push_string(c, c->sval, c->slen, c->glob);
		t = c->glob ? V_GLOB : V_STRING;
		next(c);
		return t;
	case T_IDENT:
	case T_CTX:
		return parse_ref(c);
	case T_LPAREN: {
		size_t at = c->tok_pos;

		next(c);
		t = parse_or(c);
		if (c->tok != T_RPAREN)
			fail_at(c, c->tok == T_END ? at : c->tok_pos, c->tok == T_END
				? "unbalanced '('" : "expected ')'");
		next(c);
		return t;
	}
	case T_END:
		fail_at(c, c->tok_pos, "expected an operand at the end of the expression");
		return V_ANY;
	default:
		fail_at(c, c->tok_pos, "expected an operand");
		return V_ANY;
	}
}

static bool numeric(enum vtype t)
{
	return t == V_INT || t == V_FLOAT || t == V_NUM || t == V_ANY;
}

static enum vtype parse_unary(struct compiler *c)
{
	static const enum filter_op ops[] = {
		[T_MINUS] = OP_NEG, [T_PLUS] = OP_PLUS, [T_NOT] = OP_NOT, [T_BNOT] = OP_BNOT,
	};
	enum tok t = c->tok;
	size_t at = c->tok_pos;
	enum vtype v;

	if (t != T_MINUS && t != T_PLUS && t != T_NOT && t != T_BNOT)
		return parse_primary(c);
	if (++c->depth > MAX_DEPTH) {
		fail_at(c, at, "expression nested too deeply");
		return V_ANY;
	}
	next(c);
	v = parse_unary(c);
	c->depth--;
	if (!numeric(v) || (t == T_BNOT && v == V_FLOAT))
		fail_at(c, at, "'%s' needs %s operand", t == T_MINUS ? "-" : t == T_PLUS ? "+" :
			t == T_NOT ? "!" : "~", t == T_BNOT ? "an integer" : "a numeric");
	op(c, ops[t]);
	return t == T_NOT ? V_INT : v;
}

struct level {
	enum vtype (*operand)(struct compiler *);
	enum tok toks[4];
	enum filter_op ops[4];
	unsigned n;
	enum { L_BITWISE, L_RELATIONAL, L_EQUALITY } kind;
};

static const char *tok_text(enum tok t)
{
	static const char *const text[] = {
		[T_EQ] = "==", [T_NE] = "!=", [T_LT] = "<", [T_LE] = "<=", [T_GT] = ">",
		[T_GE] = ">=", [T_BOR] = "|", [T_BXOR] = "^", [T_BAND] = "&",
		[T_LSHIFT] = "<<", [T_RSHIFT] = ">>",
	};
	return text[t] ? text[t] : "?";
}

/* Checks the literal operand types of a binary operator at position at. */
static enum vtype check_binary(struct compiler *c, int kind, enum tok t, enum vtype a,
			       enum vtype b, size_t at)
{
	bool sa = a == V_STRING || a == V_GLOB, sb = b == V_STRING || b == V_GLOB;

	switch (kind) {
	case L_BITWISE:
		if (sa || sb || a == V_FLOAT || b == V_FLOAT)
			fail_at(c, at, "'%s' needs integer operands", tok_text(t));
		return V_INT;
	case L_RELATIONAL:
		if (sa || sb)
			fail_at(c, at, "strings compare with == and != only");
		return V_INT;
	default:
		if ((sa && b != V_ANY && !sb) || (sb && a != V_ANY && !sa))
			fail_at(c, at, "'%s' compares a string with a number", tok_text(t));
		else if (a == V_GLOB && b == V_GLOB)
			fail_at(c, at, "two patterns with '*' cannot be compared");
		return V_INT;
	}
}

static enum vtype parse_level(struct compiler *c, const struct level *l)
{
	enum vtype a = l->operand(c);

	for (;;) {
		unsigned i;

		for (i = 0; i < l->n && c->tok != l->toks[i]; i++)
			;
		if (i == l->n || c->error)
			return a;
		enum tok t = c->tok;
		size_t at = c->tok_pos;

		next(c);
		enum vtype b = l->operand(c);

		a = check_binary(c, l->kind, t, a, b, at);
		op(c, l->ops[i]);
	}
}

static enum vtype parse_shift(struct compiler *c)
{
	static const struct level l = { parse_unary, { T_LSHIFT, T_RSHIFT },
					{ OP_LSHIFT, OP_RSHIFT }, 2, L_BITWISE };
	return parse_level(c, &l);
}

static enum vtype parse_band(struct compiler *c)
{
	static const struct level l = { parse_shift, { T_BAND }, { OP_BAND }, 1, L_BITWISE };
	return parse_level(c, &l);
}

static enum vtype parse_bxor(struct compiler *c)
{
	static const struct level l = { parse_band, { T_BXOR }, { OP_BXOR }, 1, L_BITWISE };
	return parse_level(c, &l);
}

static enum vtype parse_bor(struct compiler *c)
{
	static const struct level l = { parse_bxor, { T_BOR }, { OP_BOR }, 1, L_BITWISE };
	return parse_level(c, &l);
}

static enum vtype parse_relational(struct compiler *c)
{
	static const struct level l = { parse_bor, { T_LT, T_LE, T_GT, T_GE },
					{ OP_LT, OP_LE, OP_GT, OP_GE }, 4, L_RELATIONAL };
	return parse_level(c, &l);
}

static enum vtype parse_equality(struct compiler *c)
{
	static const struct level l = { parse_relational, { T_EQ, T_NE }, { OP_EQ, OP_NE }, 2,
					L_EQUALITY };
	return parse_level(c, &l);
}

/* a && b, a || b: short-circuit jumps patched once the right side is emitted. */
static enum vtype parse_logical(struct compiler *c, enum tok t, enum vtype (*operand)(struct compiler *),
				enum filter_op jump)
{
	enum vtype a = operand(c);

	while (c->tok == t && !c->error) {
		size_t at = c->tok_pos, patch;
		uint32_t target = 0;
		enum vtype b;

		if (a == V_STRING || a == V_GLOB)
			fail_at(c, at, "'%s' needs conditions, not a string", t == T_AND ? "&&" : "||");
		next(c);
		op(c, jump);
		patch = c->code_len;
		code(c, &target, 4);
		b = operand(c);
		if (b == V_STRING || b == V_GLOB)
			fail_at(c, at, "'%s' needs conditions, not a string", t == T_AND ? "&&" : "||");
		op(c, OP_TO_BOOL);
		target = (uint32_t)c->code_len;
		if (!c->error)
			memcpy(c->code + patch, &target, 4);
		a = V_INT;
	}
	return a;
}

static enum vtype parse_and(struct compiler *c)
{
	return parse_logical(c, T_AND, parse_equality, OP_JUMP_IF_FALSE_OR_POP);
}

static enum vtype parse_or(struct compiler *c)
{
	enum vtype v;

	if (++c->depth > MAX_DEPTH) {
		fail_at(c, c->tok_pos, "expression nested too deeply");
		return V_ANY;
	}
	v = parse_logical(c, T_OR, parse_and, OP_JUMP_IF_TRUE_OR_POP);
	c->depth--;
	return v;
}

int filter_compile(const char *expr, uint8_t **ret_code, size_t *ret_len,
		   struct filter_error *err)
{
	struct compiler c = { .src = expr, .err = err };
	uint8_t *out = NULL;
	enum vtype v;
	size_t total;

	*err = (struct filter_error){ 0 };
	if (strlen(expr) > FILTER_MAX_EXPR) {
		snprintf(err->message, sizeof(err->message), "the expression is longer than %d bytes",
			 FILTER_MAX_EXPR);
		err->column = 1;
		return -E2BIG;
	}
	next(&c);
	if (c.tok == T_END && !c.error)
		fail_at(&c, 0, "empty expression");
	v = parse_or(&c);
	if ((c.tok == T_PLUS || c.tok == T_MINUS) && !c.error)
		fail_at(&c, c.tok_pos, "arithmetic ('%c') is not allowed in filters",
			c.src[c.tok_pos]);
	if (c.tok != T_END && !c.error)
		fail_at(&c, c.tok_pos, "unexpected '%.*s' after a complete expression",
			(int)(c.pos - c.tok_pos), c.src + c.tok_pos);
	if ((v == V_STRING || v == V_GLOB) && !c.error)
		fail_at(&c, 0, "a filter is a condition, not a string");
	op(&c, OP_RETURN);
	total = FILTER_HEADER_SIZE + c.refs_len + c.consts_len + c.code_len;
	if (!c.error && total > FILTER_MAX_CODE)
		fail_errno(&c, -E2BIG, "the compiled filter is too large");
	if (!c.error && !(out = malloc(total)))
		fail_errno(&c, -ENOMEM, "out of memory");
	if (!c.error) {
		uint32_t magic = FILTER_MAGIC, refs_len = (uint32_t)c.refs_len,
			 consts_len = (uint32_t)c.consts_len, code_len = (uint32_t)c.code_len;
		uint16_t version = FILTER_VERSION, n_refs = (uint16_t)c.n_refs;
		uint8_t *p = out;

		memcpy(p, &magic, 4);
		memcpy(p + 4, &version, 2);
		memcpy(p + 6, &n_refs, 2);
		memcpy(p + 8, &refs_len, 4);
		memcpy(p + 12, &consts_len, 4);
		memcpy(p + 16, &code_len, 4);
		p += FILTER_HEADER_SIZE;
		if (c.refs_len)
			memcpy(p, c.refs, c.refs_len);
		p += c.refs_len;
		if (c.consts_len)
			memcpy(p, c.consts, c.consts_len);
		p += c.consts_len;
		memcpy(p, c.code, c.code_len);
	}
	free(c.code);
	free(c.consts);
	free(c.refs);
	free(c.sval);
	for (unsigned i = 0; i < c.n_refs; i++)
		free(c.ref_keys[i]);
	if (c.error) {
		free(out);
		return c.error;
	}
	*ret_code = out;
	*ret_len = total;
	return 0;
}
