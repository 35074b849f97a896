/*
 * value.c - the public view of decoded values (struct ltt_value is a
 * struct rd_val; children sit at a positive offset from their parent).
 */
#include "reader-internal.h"

#include <string.h>

static inline const struct rd_val *V(const struct ltt_value *v)
{
	return (const struct rd_val *)v;
}

enum ltt_value_kind ltt_value_kind(const struct ltt_value *v)
{
	const struct rd_type *t = V(v)->type;

	switch (t->kind) {
	case RD_INT:
		return t->is_signed ? LTT_VALUE_SIGNED : LTT_VALUE_UNSIGNED;
	case RD_ENUM:
		return t->is_signed ? LTT_VALUE_ENUM_SIGNED : LTT_VALUE_ENUM_UNSIGNED;
	case RD_FLOAT:
		return t->size == 32 ? LTT_VALUE_FLOAT : LTT_VALUE_DOUBLE;
	case RD_STRING:
		return LTT_VALUE_STRING;
	case RD_STRUCT:
		return LTT_VALUE_STRUCT;
	case RD_ARRAY:
		return t->text ? LTT_VALUE_STRING : LTT_VALUE_ARRAY;
	case RD_SEQ:
		return t->text ? LTT_VALUE_STRING : LTT_VALUE_SEQUENCE;
	case RD_VARIANT:
		return LTT_VALUE_VARIANT;
	}
	return LTT_VALUE_STRUCT;
}

uint64_t ltt_value_u64(const struct ltt_value *v)
{
	return V(v)->u;
}

int64_t ltt_value_i64(const struct ltt_value *v)
{
	return V(v)->i;
}

double ltt_value_double(const struct ltt_value *v)
{
	const struct rd_type *t = V(v)->type;

	if (t->kind == RD_FLOAT)
		return V(v)->d;
	if (t->kind == RD_INT || t->kind == RD_ENUM)
		return t->is_signed ? (double)V(v)->i : (double)V(v)->u;
	return 0;
}

const char *ltt_value_string(const struct ltt_value *v, size_t *len)
{
	const struct rd_type *t = V(v)->type;

	if (t->kind == RD_STRING || ((t->kind == RD_ARRAY || t->kind == RD_SEQ) && t->text)) {
		*len = (size_t)V(v)->str.len;
		return V(v)->str.s;
	}
	*len = 0;
	return NULL;
}

int ltt_value_base(const struct ltt_value *v)
{
	return V(v)->type->base;
}

unsigned ltt_value_bits(const struct ltt_value *v)
{
	return V(v)->type->size;
}

const char *ltt_value_enum_label(const struct ltt_value *v, size_t idx)
{
	const struct rd_type *t = V(v)->type;
	uint64_t u = V(v)->u;

	if (t->kind != RD_ENUM)
		return NULL;
	for (size_t i = 0; i < t->nmappings; i++) {
		const struct rd_mapping *m = &t->mappings[i];

		for (size_t r = 0; r < m->nranges; r++) {
			bool in = t->is_signed ? ((int64_t)u >= m->ranges[r].lo && (int64_t)u <= m->ranges[r].hi)
					       : (u >= (uint64_t)m->ranges[r].lo && u <= (uint64_t)m->ranges[r].hi);

			if (in) {
				if (idx == 0)
					return m->label;
				idx--;
				break;
			}
		}
	}
	return NULL;
}

size_t ltt_value_count(const struct ltt_value *v)
{
	const struct rd_type *t = V(v)->type;

	switch (t->kind) {
	case RD_STRUCT:
		return t->nshown;
	case RD_ARRAY:
	case RD_SEQ:
		return t->text ? 0 : V(v)->kids.count;
	case RD_VARIANT:
		return 1;
	default:
		return 0;
	}
}

const struct ltt_value *ltt_value_child(const struct ltt_value *v, size_t idx)
{
	const struct rd_val *p = V(v);
	const struct rd_type *t = p->type;

	switch (t->kind) {
	case RD_STRUCT:
		if (idx >= t->nshown)
			return NULL;
		return (const struct ltt_value *)(p + p->kids.first + t->shown[idx]);
	case RD_ARRAY:
	case RD_SEQ:
	case RD_VARIANT:
		if (t->text || idx >= p->kids.count)
			return NULL;
		return (const struct ltt_value *)(p + p->kids.first + idx * p->kids.stride);
	default:
		return NULL;
	}
}

const char *ltt_value_member_name(const struct ltt_value *v, size_t idx)
{
	const struct rd_type *t = V(v)->type;

	if (t->kind != RD_STRUCT || idx >= t->nshown)
		return NULL;
	return t->members[t->shown[idx]].shown;
}

const struct ltt_value *ltt_value_member(const struct ltt_value *v, const char *name)
{
	const struct rd_type *t = V(v)->type;

	if (t->kind != RD_STRUCT)
		return NULL;
	for (size_t i = 0; i < t->nshown; i++)
		if (!strcmp(t->members[t->shown[i]].shown, name))
			return ltt_value_child(v, i);
	return NULL;
}

const char *ltt_value_member_name_len(const struct ltt_value *v, size_t idx, size_t *len)
{
	const struct rd_type *t = V(v)->type;

	if (t->kind != RD_STRUCT || idx >= t->nshown) {
		*len = 0;
		return NULL;
	}
	*len = t->members[t->shown[idx]].shown_len;
	return t->members[t->shown[idx]].shown;
}
