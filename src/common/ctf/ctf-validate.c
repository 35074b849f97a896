/*
 * ctf-validate.c - checks of field type trees and TSDL names.
 *
 * Rules (each failure names the field by its dotted path):
 *  - field names are TSDL identifiers and not TSDL keywords;
 *  - no two fields of a struct share a name;
 *  - every field has a type of a known kind;
 *  - a sequence's length names an earlier sibling of unsigned integer type;
 *  - arrays and sequences do not directly contain arrays or sequences
 *    (wrap the inner one in a struct);
 *  - enum containers are integers, with at least one mapping, each
 *    start <= end and within the container's range;
 *  - floats are 32-bit (8/24) or 64-bit (11/53), byte aligned;
 *  - integers in a forced byte order are whole bytes and byte aligned
 *    (CTF cannot change byte order inside a byte);
 *  - map = clock.NAME.value names a declared clock.
 * It also sets each type's effective alignment as readers compute it:
 * structs take the largest of their members and their align(N), arrays and
 * sequences that of their element.
 */
#include "ctf-internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ctf/ctf-trace.h"
#include "util/macros.h"

int ctf_error_set(struct ctf_error *err, int r, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return r;
}

static const char *const keywords[] = {
	"align", "callsite", "const", "char", "clock", "double", "enum", "env",
	"event", "floating_point", "float", "integer", "int", "long", "short",
	"signed", "stream", "string", "struct", "trace", "typealias", "typedef",
	"unsigned", "variant", "void", "_Bool", "_Complex", "_Imaginary",
};

bool ctf_is_keyword(const char *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
		if (strcmp(s, keywords[i]) == 0)
			return true;
	return false;
}

static bool is_ident_syntax(const char *s)
{
	if (!s || !*s)
		return false;
	if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (s++; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

bool ctf_is_identifier(const char *s)
{
	return is_ident_syntax(s) && !ctf_is_keyword(s);
}

struct vctx {
	const char *where;
	bool (*has_clock)(const void *ctx, const char *name);
	const void *ctx;
	struct ctf_error *err;
	char path[160];
};

#define FAIL(v, fmt, ...)                                             \
	ctf_error_set((v)->err, -EINVAL, "%s: field '%s': " fmt,      \
		      (v)->where, (v)->path, ##__VA_ARGS__)

static int validate(struct vctx *v, struct ctf_type *t);

static bool int_fits(const struct ctf_type *c, uint64_t val)
{
	unsigned n = c->i.size;

	if (c->i.is_signed) {
		int64_t s = (int64_t)val;

		if (n == 64)
			return true;
		return s >= -((int64_t)1 << (n - 1)) && s < ((int64_t)1 << (n - 1));
	}
	return n == 64 || val < ((uint64_t)1 << n);
}

static int validate_int(struct vctx *v, struct ctf_type *t)
{
	if (t->i.byte_order != CTF_BO_NATIVE && (t->i.size % 8 || t->i.align < 8))
		return FAIL(v, "an integer with an explicit byte order must be whole "
			    "bytes and byte aligned (size %u, align %u)",
			    t->i.size, t->i.align);
	if (t->i.map_clock && (!v->has_clock || !v->has_clock(v->ctx, t->i.map_clock)))
		return FAIL(v, "maps to clock '%s', which is not declared",
			    t->i.map_clock);
	t->align = t->i.align;
	return 0;
}

static int validate_enum(struct vctx *v, struct ctf_type *t)
{
	struct ctf_type *c = t->e.container;
	int r;

	if (!c || c->kind != CTF_TYPE_INT)
		return FAIL(v, "an enumeration's container must be an integer type");
	if ((r = validate_int(v, c)) < 0)
		return r;
	if (t->e.n == 0)
		return FAIL(v, "enumeration has no mapping");
	for (size_t i = 0; i < t->e.n; i++) {
		const struct ctf_enum_mapping *m = &t->e.maps[i];
		bool ordered = c->i.is_signed ? (int64_t)m->start <= (int64_t)m->end
					      : m->start <= m->end;

		if (!*m->label)
			return FAIL(v, "enumeration label %zu is empty", i);
		if (!ordered)
			return FAIL(v, "enumeration label '%s': range start is above its end",
				    m->label);
		if (!int_fits(c, m->start) || !int_fits(c, m->end)) {
			if (c->i.is_signed)
				return FAIL(v, "enumeration label '%s': %" PRId64 " ... %" PRId64
					    " does not fit a %u-bit signed container",
					    m->label, (int64_t)m->start, (int64_t)m->end,
					    c->i.size);
			return FAIL(v, "enumeration label '%s': %" PRIu64 " ... %" PRIu64
				    " does not fit a %u-bit unsigned container",
				    m->label, m->start, m->end, c->i.size);
		}
	}
	t->align = c->align;
	return 0;
}

static int validate_struct(struct vctx *v, struct ctf_type *t)
{
	size_t plen = strlen(v->path);
	unsigned align = t->st.min_align ? t->st.min_align : 1;
	int r;

	for (size_t i = 0; i < t->st.n; i++) {
		struct ctf_field *f = &t->st.fields[i];

		snprintf(v->path + plen, sizeof(v->path) - plen, "%s%s",
			 plen ? "." : "", f->name);
		if (!is_ident_syntax(f->name))
			return FAIL(v, "'%s' is not a TSDL identifier", f->name);
		if (ctf_is_keyword(f->name))
			return FAIL(v, "'%s' is a TSDL keyword", f->name);
		for (size_t j = 0; j < i; j++)
			if (strcmp(t->st.fields[j].name, f->name) == 0)
				return FAIL(v, "duplicate field name '%s'", f->name);
		if (f->type && f->type->kind == CTF_TYPE_SEQUENCE) {
			const char *ln = f->type->a.length_name;
			int k = ctf_type_struct_find(t, ln);
			const struct ctf_type *lt;

			if (k < 0 || (size_t)k >= i)
				return FAIL(v, "sequence length '%s' is not an earlier field "
					    "of the same struct", ln);
			lt = t->st.fields[k].type;
			if (!lt || lt->kind != CTF_TYPE_INT || lt->i.is_signed)
				return FAIL(v, "sequence length '%s' is not an unsigned integer",
					    ln);
			f->type->a.length_index = (size_t)k;
		}
		if ((r = validate(v, f->type)) < 0)
			return r;
		if (f->type->align > align)
			align = f->type->align;
		v->path[plen] = '\0';
	}
	t->align = align;
	return 0;
}

static int validate(struct vctx *v, struct ctf_type *t)
{
	int r;

	if (!t)
		return FAIL(v, "unknown type");
	switch (t->kind) {
	case CTF_TYPE_INT:
		return validate_int(v, t);
	case CTF_TYPE_FLOAT:
		if (!((t->f.exp_dig == 8 && t->f.mant_dig == 24) ||
		      (t->f.exp_dig == 11 && t->f.mant_dig == 53)))
			return FAIL(v, "unsupported floating point type (exp_dig %u, "
				    "mant_dig %u): only 8/24 and 11/53",
				    t->f.exp_dig, t->f.mant_dig);
		if (t->f.align < 8)
			return FAIL(v, "floating point types must be byte aligned");
		if (t->f.byte_order != CTF_BO_NATIVE && t->f.align < 8)
			return FAIL(v, "byte order change inside a byte");
		t->align = t->f.align;
		return 0;
	case CTF_TYPE_STRING:
		t->align = 8;
		return 0;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE:
		if (!t->a.elem)
			return FAIL(v, "unknown element type");
		if (t->a.elem->kind == CTF_TYPE_ARRAY || t->a.elem->kind == CTF_TYPE_SEQUENCE)
			return FAIL(v, "arrays of arrays or sequences are not supported "
				    "(wrap the inner one in a struct)");
		if ((r = validate(v, t->a.elem)) < 0)
			return r;
		t->align = t->a.elem->align;
		return 0;
	case CTF_TYPE_ENUM:
		return validate_enum(v, t);
	case CTF_TYPE_STRUCT:
		return validate_struct(v, t);
	}
	return FAIL(v, "unknown type (kind %d)", (int)t->kind);
}

int ctf_type_validate(struct ctf_type *t, const char *where,
		      bool (*has_clock)(const void *ctx, const char *name),
		      const void *ctx, struct ctf_error *err)
{
	struct vctx v = { .where = where, .has_clock = has_clock, .ctx = ctx, .err = err };

	if (!t || t->kind != CTF_TYPE_STRUCT)
		return ctf_error_set(err, -EINVAL, "%s: not a struct type", where);
	return validate(&v, t);
}
