/*
 * record-filter.c - LTTng filter expressions evaluated on converted kernel
 * records, for what the kernel's own filters cannot say ($ctx.pid, bitwise
 * operators, ...; see kt_filter_translate).
 *
 * The programs are the session daemon's compiled bytecode (src/common/filter),
 * validated again here (filter_load). Each field reference of a program is
 * linked once to a payload field of the event class (by its LTTng name, as
 * the trace shows it), whose value is read from the record itself when the
 * filter runs (before the record is converted), or to a context the record
 * carries: its tid ($ctx.tid,
 * $ctx.vtid: the daemon runs in the initial pid namespace, so virtual ids are
 * the ids), its thread group ($ctx.pid, $ctx.vpid: looked up, cached by the
 * converter) and its CPU ($ctx.cpu_id). The record passes when one program
 * does (rules OR'ed, as LTTng's). A reference to a field the event does not
 * have, or of a type the operator does not take, makes its program false.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter.h"
#include "kernel/kernel-internal.h"

enum link_kind {
	LINK_NONE = 0,		/* no such field: FILTER_VALUE_NONE */
	LINK_FIELD,		/* payload field `slot` */
	LINK_ELEMENT,		/* element `index` of array/sequence field `slot` */
	LINK_TID,
	LINK_PID,
	LINK_CPU,
};

struct link {
	enum link_kind kind;
	int slot;
	uint64_t index;
};

struct program {
	uint8_t *code;			/* the program references it */
	struct filter_program *prog;
	struct link links[FILTER_MAX_REFS];
	unsigned nrefs;
};

struct kt_record_filter {
	struct program *progs;
	size_t n;
	bool needs_tgid;
};

/* The link of a context reference, or LINK_NONE if records do not carry it. */
static enum link_kind context_link(const char *name)
{
	if (strcmp(name, "tid") == 0 || strcmp(name, "vtid") == 0)
		return LINK_TID;
	if (strcmp(name, "pid") == 0 || strcmp(name, "vpid") == 0)
		return LINK_PID;
	if (strcmp(name, "cpu_id") == 0)
		return LINK_CPU;
	return LINK_NONE;
}

/* Loads code and checks its contexts; 0 and *ret_prog, or -EINVAL with err. */
static int load(const uint8_t *code, size_t len, struct filter_program **ret_prog,
		struct kt_error *err)
{
	struct filter_program *prog;
	int r = filter_load(code, len, &prog);

	if (r < 0)
		return kt_error_set(err, r, "invalid filter bytecode");
	for (unsigned i = 0; i < filter_program_ref_count(prog); i++) {
		const struct filter_ref *ref = filter_program_ref(prog, i);

		if (ref->root == FILTER_ROOT_CONTEXT &&
		    (ref->n_elems != 1 || context_link(ref->elems[0].name) == LINK_NONE)) {
			kt_error_set(err, -EINVAL, "$ctx.%s is not known after the fact: kernel "
				     "records carry $ctx.tid, vtid, pid, vpid and cpu_id",
				     ref->elems[0].name ? ref->elems[0].name : "[]");
			filter_program_free(prog);
			return -EINVAL;
		}
	}
	*ret_prog = prog;
	return 0;
}

int kt_filter_check(const uint8_t *code, size_t len, struct kt_error *err)
{
	struct filter_program *prog;
	int r = load(code, len, &prog, err);

	if (r == 0)
		filter_program_free(prog);
	return r;
}

static struct link link_ref(const struct filter_ref *ref, const struct ctf_type *payload)
{
	struct link l = { .kind = LINK_NONE };
	int slot;

	if (ref->root == FILTER_ROOT_CONTEXT) {
		l.kind = context_link(ref->elems[0].name);
		return l;
	}
	if (!ref->elems[0].name || ref->n_elems > 2)
		return l;
	slot = ctf_type_struct_find(payload, ref->elems[0].name);
	if (slot < 0)
		return l;
	if (ref->n_elems == 1)
		return (struct link){ .kind = LINK_FIELD, .slot = slot };
	if (ref->elems[1].name)		/* a.b: kernel fields are not structs */
		return l;
	return (struct link){ .kind = LINK_ELEMENT, .slot = slot, .index = ref->elems[1].index };
}

void kt_record_filter_free(struct kt_record_filter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++) {
		filter_program_free(f->progs[i].prog);
		free(f->progs[i].code);
	}
	free(f->progs);
	free(f);
}

int kt_record_filter_create(const struct ctf_type *payload, const uint8_t *const *codes,
			    const size_t *lens, size_t n, struct kt_record_filter **ret,
			    struct kt_error *err)
{
	struct kt_record_filter *f = calloc(1, sizeof(*f));
	int r = -ENOMEM;

	if (!f || !(f->progs = calloc(n ? n : 1, sizeof(*f->progs))))
		goto err;
	for (; f->n < n; f->n++) {
		struct program *p = &f->progs[f->n];

		r = -ENOMEM;
		if (!(p->code = malloc(lens[f->n] ? lens[f->n] : 1)))
			goto err;
		memcpy(p->code, codes[f->n], lens[f->n]);
		if ((r = load(p->code, lens[f->n], &p->prog, err)) < 0) {
			free(p->code);
			goto err;
		}
		p->nrefs = filter_program_ref_count(p->prog);
		for (unsigned i = 0; i < p->nrefs; i++) {
			p->links[i] = link_ref(filter_program_ref(p->prog, i), payload);
			f->needs_tgid |= p->links[i].kind == LINK_PID;
		}
	}
	*ret = f;
	return 0;
err:
	kt_record_filter_free(f);
	return r;
}

static struct filter_value s64(int64_t v)
{
	return (struct filter_value){ .kind = FILTER_VALUE_S64, .s64 = v };
}

static struct filter_value string(const char *p, size_t max)
{
	return (struct filter_value){ .kind = FILTER_VALUE_STRING, .str = { p, strnlen(p, max) } };
}

/*
 * The value of payload field `slot` of rec as a filter sees it (element
 * `index` of an array or sequence when indexed): integers as signed 64-bit
 * (as LTTng's), strings; anything else, or a record too short, is NONE.
 */
static struct filter_value field_value(const struct kt_conv_event *ce, int slot,
				       const struct kt_record *rec, bool indexed, uint64_t index,
				       int64_t (*tgid_of)(void *, int64_t), void *arg)
{
	const struct kt_field *f = &ce->fmt->fields[ce->slots[slot].src];
	const uint8_t *p = rec->data + f->offset;
	struct filter_value none = { .kind = FILTER_VALUE_NONE };
	uint32_t off, len;

	if (f->offset + f->size > rec->len)
		return none;
	if (ce->slots[slot].kind == KT_SRC_TGID)
		return indexed ? none : s64(tgid_of(arg, kt_rd_int(p, f->size)));
	switch (f->kind) {
	case KT_FIELD_INT:
	case KT_FIELD_POINTER:
		return indexed ? none : s64(f->is_signed ? kt_rd_int(p, f->size)
							 : (int64_t)kt_rd_uint(p, f->size));
	case KT_FIELD_STRING:
		return indexed ? none : string((const char *)p, f->size);
	case KT_FIELD_ARRAY:
		off = f->offset;
		len = f->size;
		break;
	case KT_FIELD_DATA_LOC:
	case KT_FIELD_REL_LOC:
		if (kt_dyn_loc(f, rec, &off, &len) < 0)
			return none;
		if (ce->slots[slot].kind == KT_SRC_LENGTH)
			return indexed ? none : s64(len / f->elem_size);
		if (f->is_string)
			return indexed ? none : string((const char *)rec->data + off, len);
		break;
	default:
		return none;
	}
	if (!indexed || index >= len / f->elem_size)
		return none;
	p = rec->data + off + index * f->elem_size;
	return s64(f->is_signed ? kt_rd_int(p, f->elem_size) : (int64_t)kt_rd_uint(p, f->elem_size));
}

bool kt_record_filter_pass(const struct kt_record_filter *f, const struct kt_conv_event *ce,
			   const struct kt_record *rec, int64_t tid, unsigned cpu,
			   int64_t (*tgid_of)(void *, int64_t), void *arg)
{
	int64_t tgid = f->needs_tgid ? tgid_of(arg, tid) : tid;

	for (size_t k = 0; k < f->n; k++) {
		const struct program *p = &f->progs[k];
		struct filter_value refs[FILTER_MAX_REFS];

		for (unsigned i = 0; i < p->nrefs; i++) {
			const struct link *l = &p->links[i];

			switch (l->kind) {
			case LINK_FIELD:
			case LINK_ELEMENT:
				refs[i] = field_value(ce, l->slot, rec, l->kind == LINK_ELEMENT,
						      l->index, tgid_of, arg);
				break;
			case LINK_TID:
				refs[i] = s64(tid);
				break;
			case LINK_PID:
				refs[i] = s64(tgid);
				break;
			case LINK_CPU:
				refs[i] = s64(cpu);
				break;
			default:
				refs[i] = (struct filter_value){ .kind = FILTER_VALUE_NONE };
			}
		}
		if (filter_eval(p->prog, refs, p->nrefs))
			return true;
	}
	return false;
}
