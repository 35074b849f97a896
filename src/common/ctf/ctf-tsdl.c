/*
 * ctf-tsdl.c - TSDL text of field types, as LTTng's session daemon writes
 * it: inline `integer { ... }` declarations, field names with a leading
 * underscore (readers strip one), sequences as `TYPE _name[ _length ]`.
 */
#include "ctf-internal.h"

#include <inttypes.h>

static void indent_to(struct strbuf *sb, int indent)
{
	for (int i = 0; i < indent; i++)
		strbuf_putc(sb, '\t');
}

void ctf_tsdl_string(struct strbuf *sb, const char *s)
{
	strbuf_putc(sb, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			strbuf_appendf(sb, "\\%c", c);
		else if (c == '\n')
			strbuf_append(sb, "\\n");
		else if (c == '\t')
			strbuf_append(sb, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_appendf(sb, "\\x%02x", c);
		else
			strbuf_putc(sb, (char)c);
	}
	strbuf_putc(sb, '"');
}

static const char *encoding_name(enum ctf_encoding e)
{
	return e == CTF_ENC_UTF8 ? "UTF8" : e == CTF_ENC_ASCII ? "ASCII" : "none";
}

static const char *bo_name(enum ctf_byte_order bo)
{
	return bo == CTF_BO_BE ? "be" : "le";
}

static void tsdl_int(struct strbuf *sb, const struct ctf_type *t)
{
	strbuf_appendf(sb, "integer { size = %u; align = %u; signed = %d; encoding = %s; "
		       "base = %u;", t->i.size, t->i.align, t->i.is_signed ? 1 : 0,
		       encoding_name(t->i.encoding), t->i.base);
	if (t->i.byte_order != CTF_BO_NATIVE)
		strbuf_appendf(sb, " byte_order = %s;", bo_name(t->i.byte_order));
	if (t->i.map_clock)
		strbuf_appendf(sb, " map = clock.%s.value;", t->i.map_clock);
	strbuf_append(sb, " }");
}

void ctf_tsdl_type(struct strbuf *sb, const struct ctf_type *t, int indent)
{
	switch (t->kind) {
	case CTF_TYPE_INT:
		tsdl_int(sb, t);
		break;
	case CTF_TYPE_FLOAT:
		strbuf_appendf(sb, "floating_point { exp_dig = %u; mant_dig = %u; align = %u;",
			       t->f.exp_dig, t->f.mant_dig, t->f.align);
		if (t->f.byte_order != CTF_BO_NATIVE)
			strbuf_appendf(sb, " byte_order = %s;", bo_name(t->f.byte_order));
		strbuf_append(sb, " }");
		break;
	case CTF_TYPE_STRING:
		if (t->s.encoding == CTF_ENC_ASCII)
			strbuf_append(sb, "string { encoding = ASCII; }");
		else
			strbuf_append(sb, "string");
		break;
	case CTF_TYPE_ENUM:
		strbuf_append(sb, "enum : ");
		tsdl_int(sb, t->e.container);
		strbuf_append(sb, " {\n");
		for (size_t i = 0; i < t->e.n; i++) {
			const struct ctf_enum_mapping *m = &t->e.maps[i];

			indent_to(sb, indent + 1);
			ctf_tsdl_string(sb, m->label);
			if (t->e.container->i.is_signed)
				strbuf_appendf(sb, " = %" PRId64, (int64_t)m->start);
			else
				strbuf_appendf(sb, " = %" PRIu64, m->start);
			if (m->end != m->start) {
				if (t->e.container->i.is_signed)
					strbuf_appendf(sb, " ... %" PRId64, (int64_t)m->end);
				else
					strbuf_appendf(sb, " ... %" PRIu64, m->end);
			}
			strbuf_append(sb, ",\n");
		}
		indent_to(sb, indent);
		strbuf_putc(sb, '}');
		break;
	case CTF_TYPE_STRUCT:
		strbuf_append(sb, "struct {\n");
		for (size_t i = 0; i < t->st.n; i++) {
			indent_to(sb, indent + 1);
			ctf_tsdl_field(sb, t->st.fields[i].type, t->st.fields[i].name,
				       indent + 1);
			strbuf_append(sb, ";\n");
		}
		indent_to(sb, indent);
		strbuf_putc(sb, '}');
		if (t->st.min_align > 1)
			strbuf_appendf(sb, " align(%u)", t->st.min_align);
		break;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE:
		/* Only reached through ctf_tsdl_field (validation forbids nesting). */
		ctf_tsdl_type(sb, t->a.elem, indent);
		break;
	}
}

void ctf_tsdl_field(struct strbuf *sb, const struct ctf_type *t, const char *name,
		    int indent)
{
	ctf_tsdl_type(sb, t, indent);
	strbuf_appendf(sb, " _%s", name);
	if (t->kind == CTF_TYPE_ARRAY)
		strbuf_appendf(sb, "[%" PRIu64 "]", t->a.length);
	else if (t->kind == CTF_TYPE_SEQUENCE)
		strbuf_appendf(sb, "[ _%s ]", t->a.length_name);
}
