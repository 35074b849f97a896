/* ctf-types.c - constructors of the field type model; see ctf-types.h. */
#include "ctf-types.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/macros.h"

static struct ctf_type *type_new(enum ctf_type_kind kind)
{
	struct ctf_type *t = calloc(1, sizeof(*t));

	if (t)
		t->kind = kind;
	return t;
}

static int check_align(unsigned align)
{
	return align == 0 || is_pow2(align) ? 0 : -EINVAL;
}

int ctf_type_int_create(const struct ctf_int_params *p, struct ctf_type **ret_type)
{
	struct ctf_type *t;
	unsigned base = p->base ? p->base : 10;

	if (p->size < 1 || p->size > 64 || check_align(p->align) < 0)
		return -EINVAL;
	if (base != 10 && base != 16 && base != 8 && base != 2)
		return -EINVAL;
	if (p->byte_order > CTF_BO_BE || p->encoding > CTF_ENC_ASCII)
		return -EINVAL;
	t = type_new(CTF_TYPE_INT);
	if (!t)
		return -ENOMEM;
	t->i.size = p->size;
	t->i.align = p->align ? p->align : (p->size % 8 == 0 ? 8 : 1);
	t->i.base = base;
	t->i.is_signed = p->is_signed;
	t->i.byte_order = p->byte_order;
	t->i.encoding = p->encoding;
	if (p->map_clock) {
		t->i.map_clock = strdup(p->map_clock);
		if (!t->i.map_clock) {
			free(t);
			return -ENOMEM;
		}
	}
	*ret_type = t;
	return 0;
}

int ctf_type_float_create(unsigned exp_dig, unsigned mant_dig, unsigned align,
			  enum ctf_byte_order bo, struct ctf_type **ret_type)
{
	struct ctf_type *t;

	if (exp_dig == 0 || mant_dig == 0 || check_align(align) < 0 || bo > CTF_BO_BE)
		return -EINVAL;
	t = type_new(CTF_TYPE_FLOAT);
	if (!t)
		return -ENOMEM;
	t->f.exp_dig = exp_dig;
	t->f.mant_dig = mant_dig;
	t->f.align = align ? align : (exp_dig + mant_dig <= 32 ? 32 : 64);
	t->f.byte_order = bo;
	*ret_type = t;
	return 0;
}

int ctf_type_string_create(enum ctf_encoding enc, struct ctf_type **ret_type)
{
	struct ctf_type *t;

	if (enc > CTF_ENC_ASCII)
		return -EINVAL;
	t = type_new(CTF_TYPE_STRING);
	if (!t)
		return -ENOMEM;
	t->s.encoding = enc;
	*ret_type = t;
	return 0;
}

int ctf_type_array_create(struct ctf_type *elem, uint64_t length,
			  struct ctf_type **ret_type)
{
	struct ctf_type *t = type_new(CTF_TYPE_ARRAY);

	if (!t) {
		ctf_type_free(elem);
		return -ENOMEM;
	}
	t->a.elem = elem;
	t->a.length = length;
	*ret_type = t;
	return 0;
}

int ctf_type_sequence_create(struct ctf_type *elem, const char *length_field,
			     struct ctf_type **ret_type)
{
	struct ctf_type *t = type_new(CTF_TYPE_SEQUENCE);

	if (!t || !length_field || !(t->a.length_name = strdup(length_field))) {
		int r = !length_field ? -EINVAL : -ENOMEM;

		free(t);
		ctf_type_free(elem);
		return r;
	}
	t->a.elem = elem;
	*ret_type = t;
	return 0;
}

int ctf_type_enum_create(struct ctf_type *container, struct ctf_type **ret_type)
{
	struct ctf_type *t = type_new(CTF_TYPE_ENUM);

	if (!t) {
		ctf_type_free(container);
		return -ENOMEM;
	}
	t->e.container = container;
	*ret_type = t;
	return 0;
}

int ctf_type_enum_add(struct ctf_type *en, const char *label, uint64_t start,
		      uint64_t end)
{
	struct ctf_enum_mapping *m;

	if (!en || en->kind != CTF_TYPE_ENUM || !label)
		return -EINVAL;
	if (en->e.n == en->e.cap) {
		size_t cap = en->e.cap ? 2 * en->e.cap : 8;

		m = realloc(en->e.maps, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		en->e.maps = m;
		en->e.cap = cap;
	}
	m = &en->e.maps[en->e.n];
	m->label = strdup(label);
	if (!m->label)
		return -ENOMEM;
	m->start = start;
	m->end = end;
	en->e.n++;
	return 0;
}

int ctf_type_struct_create(unsigned min_align, struct ctf_type **ret_type)
{
	struct ctf_type *t;

	if (check_align(min_align) < 0)
		return -EINVAL;
	t = type_new(CTF_TYPE_STRUCT);
	if (!t)
		return -ENOMEM;
	t->st.min_align = min_align ? min_align : 1;
	*ret_type = t;
	return 0;
}

int ctf_type_struct_add(struct ctf_type *st, const char *name, struct ctf_type *type)
{
	struct ctf_field *f;

	if (!st || st->kind != CTF_TYPE_STRUCT || !name) {
		ctf_type_free(type);
		return -EINVAL;
	}
	if (st->st.n == st->st.cap) {
		size_t cap = st->st.cap ? 2 * st->st.cap : 8;

		f = realloc(st->st.fields, cap * sizeof(*f));
		if (!f) {
			ctf_type_free(type);
			return -ENOMEM;
		}
		st->st.fields = f;
		st->st.cap = cap;
	}
	f = &st->st.fields[st->st.n];
	f->name = strdup(name);
	if (!f->name) {
		ctf_type_free(type);
		return -ENOMEM;
	}
	f->type = type;
	st->st.n++;
	return 0;
}

int ctf_type_struct_find(const struct ctf_type *st, const char *name)
{
	for (size_t i = 0; i < st->st.n; i++)
		if (strcmp(st->st.fields[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

bool ctf_type_byte_packed(const struct ctf_type *t)
{
	if (!t)
		return false;
	switch (t->kind) {
	case CTF_TYPE_INT:
		return t->i.size % 8 == 0 && t->i.align == 8 && t->i.byte_order == CTF_BO_NATIVE;
	case CTF_TYPE_FLOAT:
		return t->f.align == 8 && t->f.byte_order == CTF_BO_NATIVE;
	case CTF_TYPE_STRING:
		return true;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE:
		return ctf_type_byte_packed(t->a.elem);
	case CTF_TYPE_ENUM:
		return ctf_type_byte_packed(t->e.container);
	case CTF_TYPE_STRUCT:
		if (t->st.min_align > 8)
			return false;
		for (size_t i = 0; i < t->st.n; i++)
			if (!ctf_type_byte_packed(t->st.fields[i].type))
				return false;
		return true;
	}
	return false;
}

int ctf_type_by_name(const char *name, struct ctf_type **ret_type)
{
	static const struct {
		const char *name;
		unsigned size;
		bool is_signed;
	} ints[] = {
		{ "uint8_t", 8, false }, { "uint16_t", 16, false },
		{ "uint32_t", 32, false }, { "uint64_t", 64, false },
		{ "int8_t", 8, true }, { "int16_t", 16, true },
		{ "int32_t", 32, true }, { "int64_t", 64, true },
		{ "unsigned long", 8 * sizeof(long), false },
		{ "long", 8 * sizeof(long), true },
	};
	struct ctf_int_params p = { 0 };

	if (!name)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(ints); i++) {
		if (strcmp(name, ints[i].name) == 0) {
			p.size = ints[i].size;
			p.align = ints[i].size;
			p.is_signed = ints[i].is_signed;
			return ctf_type_int_create(&p, ret_type);
		}
	}
	if (strcmp(name, "char") == 0) {
		p.size = 8;
		p.align = 8;
		p.is_signed = true;
		p.encoding = CTF_ENC_UTF8;
		return ctf_type_int_create(&p, ret_type);
	}
	if (strcmp(name, "float") == 0)
		return ctf_type_float_create(8, 24, 32, CTF_BO_NATIVE, ret_type);
	if (strcmp(name, "double") == 0)
		return ctf_type_float_create(11, 53, 64, CTF_BO_NATIVE, ret_type);
	if (strcmp(name, "string") == 0)
		return ctf_type_string_create(CTF_ENC_UTF8, ret_type);
	return -ENOENT;
}

int ctf_type_copy(const struct ctf_type *t, struct ctf_type **ret_type)
{
	struct ctf_type *c = NULL, *sub = NULL;
	int r = -ENOMEM;

	if (!t)
		return -EINVAL;
	c = type_new(t->kind);
	if (!c)
		return -ENOMEM;
	*c = *t;
	switch (t->kind) {
	case CTF_TYPE_INT:
		c->i.map_clock = NULL;
		if (t->i.map_clock && !(c->i.map_clock = strdup(t->i.map_clock)))
			goto err;
		break;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE:
		c->a.elem = NULL;
		c->a.length_name = NULL;
		if (t->a.length_name && !(c->a.length_name = strdup(t->a.length_name)))
			goto err;
		if (t->a.elem && (r = ctf_type_copy(t->a.elem, &c->a.elem)) < 0)
			goto err;
		break;
	case CTF_TYPE_ENUM:
		c->e.container = NULL;
		c->e.maps = NULL;
		c->e.n = c->e.cap = 0;
		if (t->e.container && (r = ctf_type_copy(t->e.container, &c->e.container)) < 0)
			goto err;
		for (size_t i = 0; i < t->e.n; i++)
			if ((r = ctf_type_enum_add(c, t->e.maps[i].label, t->e.maps[i].start,
						   t->e.maps[i].end)) < 0)
				goto err;
		break;
	case CTF_TYPE_STRUCT:
		c->st.fields = NULL;
		c->st.n = c->st.cap = 0;
		for (size_t i = 0; i < t->st.n; i++) {
			sub = NULL;
			if (t->st.fields[i].type &&
			    (r = ctf_type_copy(t->st.fields[i].type, &sub)) < 0)
				goto err;
			if ((r = ctf_type_struct_add(c, t->st.fields[i].name, sub)) < 0)
				goto err;
		}
		break;
	default:
		break;
	}
	*ret_type = c;
	return 0;
err:
	ctf_type_free(c);
	return r;
}

void ctf_type_free(struct ctf_type *t)
{
	if (!t)
		return;
	switch (t->kind) {
	case CTF_TYPE_INT:
		free(t->i.map_clock);
		break;
	case CTF_TYPE_ARRAY:
	case CTF_TYPE_SEQUENCE:
		ctf_type_free(t->a.elem);
		free(t->a.length_name);
		break;
	case CTF_TYPE_ENUM:
		ctf_type_free(t->e.container);
		for (size_t i = 0; i < t->e.n; i++)
			free(t->e.maps[i].label);
		free(t->e.maps);
		break;
	case CTF_TYPE_STRUCT:
		for (size_t i = 0; i < t->st.n; i++) {
			free(t->st.fields[i].name);
			ctf_type_free(t->st.fields[i].type);
		}
		free(t->st.fields);
		break;
	default:
		break;
	}
	free(t);
}
