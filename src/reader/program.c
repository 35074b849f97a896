/*
 * program.c - decode programs: the type tree of each scope flattened, once
 * per trace, into a linear list of typed ops (see enum rd_opcode).
 *
 * Walking the type tree for every event costs a call, a dispatch on the
 * kind and a re-reading of the type's attributes per field, and a search
 * for every sequence length and variant tag. The program settles all that
 * at metadata time:
 * - each scalar is one op that knows its alignment mask, size and value
 *   slot; the commonest (byte-aligned 8/16/32/64-bit integers without a
 *   clock, in either byte order, and floats) have an op of their own that is
 *   one load and one store;
 * - every value has a fixed slot: a struct's members follow each other,
 *   each option of a variant has its own, so that a scope's values are
 *   reserved at once and no op keeps a stack; values outside arrays keep
 *   their types, which come from a template once: their ops store the value
 *   alone, their structs are no ops at all;
 * - one program decodes the scopes that follow each other in a packet (an
 *   event's contexts and payload); lengths and tags in them are found by
 *   slot, those of scopes decoded before (headers) by path.
 * Only arrays of compounds (which LTTng never writes) open a block per
 * element at run time.
 *
 * Fields of fixed size follow each other in runs (see rd_opcode): one
 * bounds check per run, not per field.
 *
 * Layout of the ops of one type (its value in slot s):
 *   scalar, string, text, scalars    one op (scalars: in a RUN)
 *   struct         STRUCT(members at arg...) m0 m1 ...     (in a RUN; in
 *                  block 0 outside variants no STRUCT: the template has it)
 *   variant        VARIANT o0... JUMP o1... JUMP       (each option its own slot)
 *   array of compounds   ARRAY(arg slots per element) e... NEXT
 * and RETURN after the roots (EVENT after an event header, whose ops
 * follow a HEADER op: the whole header at once when it has LTTng's shape).
 */
#include "reader-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* An integer compiled so far and where its value goes: what paths refer to. */
struct placed {
	const struct rd_type *type;
	uint32_t level, slot;
};

#define NO_RUN SIZE_MAX
#define RUN_MAX_BITS (UINT32_C(1) << 30)

struct emitter {
	struct rd_prog *p;
	size_t cap, tcap;
	size_t run;		/* the open RUN op, or NO_RUN */
	uint64_t run_align;	/* its alignment, in bits */
	uint64_t run_bits;	/* bits its ops take so far */
	unsigned level;		/* array blocks opened: 0 is the program's */
	unsigned dynamic;	/* arrays we are in: values change type */
	uint64_t next;		/* the next free slot of the current block */
	struct tmpl_entry { uint32_t slot; struct rd_val v; } *tmpl;	/* of block 0 */
	size_t ntmpl, captmpl;
	int scope;		/* being compiled */
	int err;
	struct placed *placed;
	size_t nplaced, capplaced;
};

static bool grow(struct emitter *e, void **arr, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 16;
	void *g;

	if (need <= *cap)
		return true;
	while (c < need)
		c *= 2;
	g = realloc(*arr, c * size);
	if (!g) {
		e->err = -ENOMEM;
		return false;
	}
	*arr = g;
	*cap = c;
	return true;
}

/* Appends an op; returns its index (ops move: keep indices, not pointers). */
static size_t emit(struct emitter *e, enum rd_opcode code, const struct rd_type *t, uint32_t slot)
{
	struct rd_prog *p = e->p;
	struct rd_op *op;

	if (!grow(e, (void **)&p->ops, &e->cap, p->nops + 1, sizeof(*p->ops)))
		return 0;
	op = &p->ops[p->nops];
	memset(op, 0, sizeof(*op));
	op->code = (uint8_t)code;
	op->type = t;
	op->slot = slot;
	op->voff = slot * (uint32_t)sizeof(struct rd_val);
	if (t) {
		op->size = (uint16_t)t->size;
		op->amask = t->align - 1;
		op->flags = (uint8_t)((t->bo == RD_BO_BE ? RD_OPF_BE : 0) |
				      (t->is_signed && t->kind != RD_FLOAT ? RD_OPF_SIGNED : 0) |
				      (t->clock >= 0 && t->kind != RD_FLOAT ? RD_OPF_CLOCK : 0) |
				      (t->is_event_id ? RD_OPF_ID : 0));
	}
	return p->nops++;
}

/* Ends the open run, if any: its ops are those before the next one. */
static void close_run(struct emitter *e)
{
	if (e->run == NO_RUN)
		return;
	if (!e->err)
		e->p->ops[e->run].target = (uint32_t)e->p->nops;
	e->run = NO_RUN;
}

/*
 * Appends an op that reads `bits` bits at a fixed place (a scalar) or none
 * (a struct): to the open run if its offset there is fixed, that is, if its
 * alignment is no larger than the run's first one, else to a new run.
 * code RD_OP_RUN: no op, only the alignment (a struct of the template).
 */
static size_t emit_fixed(struct emitter *e, enum rd_opcode code, const struct rd_type *t,
			 uint32_t slot, uint64_t bits)
{
	uint64_t off = 0;
	size_t at;

	if (e->run != NO_RUN && t->align <= e->run_align)
		off = (e->run_bits + t->align - 1) & ~(uint64_t)(t->align - 1);
	if (e->run == NO_RUN || t->align > e->run_align || off + bits > RUN_MAX_BITS) {
		close_run(e);
		at = emit(e, RD_OP_RUN, t, 0);
		if (e->err)
			return 0;
		e->p->ops[at].type = NULL;
		e->run = at;
		e->run_align = t->align;
		off = 0;
	}
	e->run_bits = off + bits;
	e->p->ops[e->run].arg = (uint32_t)e->run_bits;
	if (code == RD_OP_RUN)
		return e->run;
	at = emit(e, code, t, slot);
	if (e->err)
		return 0;
	e->p->ops[at].off = (uint32_t)off;
	e->p->ops[at].boff = (uint32_t)(off / 8);
	if (code == RD_OP_INT && t->bo == RD_BO_LE && e->run_align >= 8 && off % 8 == 0 &&
	    (t->size == 8 || t->size == 16 || t->size == 32 || t->size == 64))
		e->p->ops[at].flags |= RD_OPF_BYTES;
	return at;
}

/* Appends an op that is not part of a run. */
static size_t emit_alone(struct emitter *e, enum rd_opcode code, const struct rd_type *t, uint32_t slot)
{
	close_run(e);
	return emit(e, code, t, slot);
}

/* Takes n slots of the current block; returns the first. */
static uint32_t take(struct emitter *e, uint64_t n)
{
	uint64_t first = e->next;

	e->next += n;
	if (e->next > RD_MAX_VALUES)
		e->err = -E2BIG;
	return (uint32_t)first;
}

/* Sets slot's value in the template (block 0, outside variants). */
static void set_tmpl(struct emitter *e, uint32_t slot, const struct rd_val *v)
{
	if (!grow(e, (void **)&e->tmpl, &e->captmpl, e->ntmpl + 1, sizeof(*e->tmpl)))
		return;
	e->tmpl[e->ntmpl].slot = slot;
	e->tmpl[e->ntmpl++].v = *v;
}

static enum rd_opcode int_code(const struct emitter *e, const struct rd_type *t)
{
	/* by byte order, signedness, and size 8, 16, 32, 64 (the bits of a
	 * 64-bit value are its value either way) */
	static const uint8_t code[2][2][4] = {
		{ { RD_OP_U8, RD_OP_U16, RD_OP_U32, RD_OP_U64 },
		  { RD_OP_S8, RD_OP_S16, RD_OP_S32, RD_OP_U64 } },
		{ { RD_OP_INT, RD_OP_BE16, RD_OP_BE32, RD_OP_BE64 },
		  { RD_OP_INT, RD_OP_SBE16, RD_OP_SBE32, RD_OP_BE64 } },
	};
	unsigned k = t->size == 8 ? 0 : t->size == 16 ? 1 : t->size == 32 ? 2 : t->size == 64 ? 3 : 4;

	if (e->dynamic || t->align < 8 || k == 4)
		return RD_OP_INT;
	if (t->clock >= 0 || t->is_event_id) {
		if (t->bo != RD_BO_LE || t->is_signed || (t->clock >= 0 && t->is_event_id))
			return RD_OP_INT;
		return t->clock >= 0 ? RD_OP_CLOCK : RD_OP_ID;
	}
	return (enum rd_opcode)code[t->bo == RD_BO_BE][t->is_signed][k];
}

static enum rd_opcode float_code(const struct emitter *e, const struct rd_type *t)
{
	if (e->dynamic || t->align < 8 || t->bo != RD_BO_LE)
		return RD_OP_FLOAT;
	return t->size == 32 ? RD_OP_F32 : t->size == 64 ? RD_OP_F64 : RD_OP_FLOAT;
}

static void place(struct emitter *e, const struct rd_type *t, uint32_t slot)
{
	if (!grow(e, (void **)&e->placed, &e->capplaced, e->nplaced + 1, sizeof(*e->placed)))
		return;
	e->placed[e->nplaced++] = (struct placed){ t, e->level, slot };
}

/*
 * Where the op at `at` finds its length or tag. A path into a scope of this
 * program names an integer of an enclosing struct or of an earlier scope
 * (paths go through structs only), so of this block or an enclosing one:
 * its slot is known. One that names an integer not compiled yet is decoded
 * after the op that needs it.
 */
static void set_ref(struct emitter *e, size_t at, const struct rd_path *path)
{
	struct rd_op *op = &e->p->ops[at];

	if (path->scope >= 0 && !(e->p->scopes & (1u << path->scope))) {
		op->ref_kind = RD_REF_PATH;
		return;
	}
	op->ref_kind = RD_REF_LATER;
	for (size_t i = e->nplaced; i-- > 0;) {
		if (e->placed[i].type == path->target) {
			op->ref_kind = RD_REF_SLOT;
			op->ref_level = e->placed[i].level;
			op->ref = e->placed[i].slot;
			return;
		}
	}
}

static void compile(struct emitter *e, const struct rd_type *t, uint32_t slot)
{
	size_t at;

	if (e->err)
		return;
	switch (t->kind) {
	case RD_INT:
	case RD_ENUM:
		emit_fixed(e, int_code(e, t), t, slot, t->size);
		place(e, t, slot);
		if (!e->dynamic)
			set_tmpl(e, slot, &(struct rd_val){ .type = t });
		return;
	case RD_FLOAT:
		emit_fixed(e, float_code(e, t), t, slot, t->size);
		if (!e->dynamic)
			set_tmpl(e, slot, &(struct rd_val){ .type = t });
		return;
	case RD_STRING:
		at = emit_alone(e, RD_OP_STRING, t, slot);
		if (!e->err)
			e->p->ops[at].amask |= 7;
		return;
	case RD_ARRAY:
	case RD_SEQ: {
		const struct rd_type *et = t->elem;
		enum rd_opcode code = t->text ? RD_OP_TEXT :
			et->kind == RD_INT || et->kind == RD_ENUM || et->kind == RD_FLOAT ?
			RD_OP_SCALARS : RD_OP_ARRAY;
		uint64_t saved = e->next;

		at = emit_alone(e, code, t, slot);
		if (e->err)
			return;
		if (t->text)
			e->p->ops[at].amask |= 7;
		/* elements that are one load each, aligned one after the other */
		if (code == RD_OP_SCALARS && et->kind != RD_FLOAT && et->clock < 0 &&
		    !et->is_event_id && et->bo == RD_BO_LE && et->align >= 8 &&
		    et->align <= et->size && (et->size == 8 || et->size == 16 ||
					      et->size == 32 || et->size == 64))
			e->p->ops[at].flags |= RD_OPF_BYTES;
		if (t->kind == RD_SEQ)
			set_ref(e, at, &t->len);
		if (code != RD_OP_ARRAY)
			return;
		/* a block per element: the element in slot 0, what it holds after */
		if (++e->level > RD_MAX_FRAMES) {
			e->err = -E2BIG;
			return;
		}
		if (e->level > e->p->depth)
			e->p->depth = e->level;
		e->next = 1;
		e->dynamic++;
		compile(e, et, 0);
		e->dynamic--;
		if (!e->err)
			e->p->ops[at].arg = (uint32_t)e->next;
		emit_alone(e, RD_OP_NEXT, NULL, 0);
		if (!e->err) {
			e->p->ops[e->p->nops - 1].target = (uint32_t)(at + 1);
			e->p->ops[e->p->nops - 1].arg = e->p->ops[at].arg;
			e->p->ops[at].target = (uint32_t)e->p->nops;
		}
		e->level--;
		e->next = saved;
		return;
	}
	case RD_STRUCT: {
		uint32_t first = take(e, t->nmembers);

		if (!e->dynamic) {
			struct rd_val v = { .type = t };

			v.kids.first = first - slot;
			v.kids.count = (uint32_t)t->nmembers;
			v.kids.stride = 1;
			set_tmpl(e, slot, &v);
			emit_fixed(e, RD_OP_RUN, t, slot, 0);	/* its alignment only */
		} else {
			at = emit_fixed(e, RD_OP_STRUCT, t, slot, 0);
			if (e->err)
				return;
			e->p->ops[at].arg = first;
		}
		for (size_t i = 0; i < t->nmembers; i++)
			compile(e, t->members[i].type, first + (uint32_t)i);
		return;
	}
	case RD_VARIANT: {
		struct rd_prog *p = e->p;
		size_t first = p->noptions;

		at = emit_alone(e, RD_OP_VARIANT, t, slot);
		if (e->err || !grow(e, (void **)&p->options, &e->tcap, p->noptions + t->nmembers,
				    sizeof(*p->options)))
			return;
		set_ref(e, at, &t->tag);
		p->noptions += t->nmembers;
		p->ops[at].target = (uint32_t)first;
		if (e->dynamic) {
			p->ops[at].flags |= RD_OPF_DYNAMIC;
		} else {
			/* the option's slot (kids.first) is set when one is taken */
			struct rd_val v = { .type = t };

			v.kids.count = 1;
			v.kids.stride = 1;
			set_tmpl(e, slot, &v);
		}
		/* each option in a slot of its own: their types stay in the template */
		for (size_t i = 0; i < t->nmembers && !e->err; i++) {
			p->options[first + i].op = (uint32_t)p->nops;
			p->options[first + i].slot = take(e, 1);
			compile(e, t->members[i].type, p->options[first + i].slot);
			emit_alone(e, RD_OP_JUMP, NULL, 0);
		}
		/* every option ends by jumping past the last one */
		for (size_t i = at + 1; !e->err && i < p->nops; i++)
			if (p->ops[i].code == RD_OP_JUMP && p->ops[i].target == 0)
				p->ops[i].target = (uint32_t)p->nops;
		return;
	}
	}
}

/* The bits an unsigned little-endian integer or enum of an rd_hdr can be, or 0. */
static unsigned hdr_int_size(const struct rd_type *t, uint32_t max_align)
{
	if ((t->kind != RD_INT && t->kind != RD_ENUM) || t->is_signed || t->align > max_align ||
	    t->bo != RD_BO_LE || t->size == 0 || t->size > 64 ||
	    (t->clock >= 0 && t->is_event_id))
		return 0;
	return t->size;
}

/* The one range of enum e's mappings that selects option opt of variant var, or false. */
static bool hdr_option_range(const struct rd_type *var, const struct rd_type *e, unsigned opt,
			     uint64_t *lo, uint64_t *hi)
{
	bool found = false;

	for (size_t m = 0; m < e->nmappings; m++) {
		if (var->opt_of_mapping[m] != (int32_t)opt)
			continue;
		if (found || e->mappings[m].nranges != 1)
			return false;
		*lo = (uint64_t)e->mappings[m].ranges[0].lo;
		*hi = (uint64_t)e->mappings[m].ranges[0].hi;
		found = *lo <= *hi;
		if (!found)
			return false;
	}
	return found;
}

/*
 * The struct rd_hdr of event header t (its value in slot `root` of p's
 * block 0), if t has that shape (see reader-internal.h), or NULL. The value
 * slots are those compile() gave, read back from the template; the bit
 * offsets are those the header's own ops would reach.
 */
static struct rd_hdr *fuse_header(const struct rd_prog *p, const struct rd_type *t, uint32_t root)
{
	const struct rd_type *tag, *var;
	const struct rd_val *sv = &p->tmpl[root];
	uint32_t a = t->align, tag_slot, var_slot;
	unsigned tag_bits;
	struct rd_hdr h = { 0 }, *ret;

	if (t->kind != RD_STRUCT || a < 8 || t->nmembers != 2)
		return NULL;
	tag = t->members[0].type;
	var = t->members[1].type;
	tag_bits = hdr_int_size(tag, a);
	if (!tag_bits || tag->kind != RD_ENUM || tag->clock >= 0 || var->kind != RD_VARIANT ||
	    var->tag.target != tag || var->nmembers > 2 || var->align > a)
		return NULL;
	tag_slot = root + sv->kids.first;
	var_slot = tag_slot + 1;
	h.tag_mask = tag_bits == 64 ? UINT64_MAX : (UINT64_C(1) << tag_bits) - 1;
	h.tag_voff = tag_slot * (uint32_t)sizeof(struct rd_val);
	h.var_voff = var_slot * (uint32_t)sizeof(struct rd_val);
	h.tag_is_id = tag->is_event_id;
	h.nopts = (unsigned)var->nmembers;
	for (unsigned i = 0; i < h.nopts; i++) {
		const struct rd_type *o = var->members[i].type;
		struct rd_hdr_opt *ho = &h.opt[i];
		uint64_t off = ((uint64_t)tag_bits + var->align - 1) & ~(uint64_t)(var->align - 1);
		uint32_t oslot = 0;

		/* the variant's option slots: after its own, in order (compile()) */
		for (size_t k = 0; k < p->nops; k++)
			if (p->ops[k].code == RD_OP_VARIANT && p->ops[k].type == var)
				oslot = p->options[p->ops[k].target + i].slot;
		if (!oslot || o->kind != RD_STRUCT || o->align > a || o->nmembers > 2 ||
		    !hdr_option_range(var, tag, i, &ho->lo, &ho->hi))
			return NULL;
		for (unsigned j = 0; j < i; j++)
			if (ho->lo <= h.opt[j].hi && h.opt[j].lo <= ho->hi)
				return NULL;
		ho->kids_first = oslot - var_slot;
		ho->nfields = (unsigned)o->nmembers;
		off = (off + o->align - 1) & ~(uint64_t)(o->align - 1);
		for (unsigned j = 0; j < ho->nfields; j++) {
			const struct rd_type *ft = o->members[j].type;
			struct rd_hdr_field *f = &ho->f[j];
			unsigned size = hdr_int_size(ft, a);

			if (!size)
				return NULL;
			off = (off + ft->align - 1) & ~(uint64_t)(ft->align - 1);
			f->off = (uint32_t)off;
			f->size = (uint16_t)size;
			f->word = off + size <= 64;
			if (!f->word && (off % 8 || (size != 8 && size != 16 && size != 32 && size != 64)))
				return NULL;
			f->mask = size == 64 ? UINT64_MAX : (UINT64_C(1) << size) - 1;
			f->is_id = ft->is_event_id;
			f->has_clock = ft->clock >= 0;
			f->voff = (oslot + p->tmpl[oslot].kids.first + j) * (uint32_t)sizeof(struct rd_val);
			off += size;
		}
		ho->bits = (uint32_t)off;
	}
	h.compact = h.tag_is_id && h.opt[0].nfields == 1 && h.opt[0].bits <= 64 &&
		h.opt[0].f[0].has_clock && !h.opt[0].f[0].is_id;
	ret = malloc(sizeof(*ret));
	if (ret)
		*ret = h;
	return ret;
}

int rd_prog_compile(const struct rd_type *const roots[RD_SC_COUNT], unsigned scopes,
		    struct rd_prog **ret_prog)
{
	struct emitter e = { .run = NO_RUN };
	size_t hdr_op = NO_RUN;

	e.p = calloc(1, sizeof(*e.p));
	if (!e.p)
		return -ENOMEM;
	e.p->scopes = scopes;
	for (int sc = 0; sc < RD_SC_COUNT; sc++) {
		e.p->root[sc] = -1;
		if (!(scopes & (1u << sc)))
			continue;
		if (roots[sc]) {
			e.scope = sc;
			e.p->root[sc] = (int32_t)take(&e, 1);
			if (sc == RD_SC_EVENT_HEADER)
				hdr_op = emit_alone(&e, RD_OP_HEADER, roots[sc], 0);
			compile(&e, roots[sc], (uint32_t)e.p->root[sc]);
			if (sc == RD_SC_EVENT_HEADER && !e.err)
				e.p->ops[hdr_op].target = (uint32_t)e.p->nops;
		}
		if (sc < RD_SC_COMMON_CONTEXT) {
			e.p->scope[e.p->nscopes].sc = sc;
			e.p->scope[e.p->nscopes++].root = e.p->root[sc];
		}
	}
	emit_alone(&e, scopes & (1u << RD_SC_EVENT_HEADER) ? RD_OP_EVENT : RD_OP_RETURN, NULL, 0);
	e.p->nslots = (uint32_t)e.next;
	if (!e.err) {
		e.p->tmpl = calloc(e.p->nslots ? e.p->nslots : 1, sizeof(*e.p->tmpl));
		if (!e.p->tmpl)
			e.err = -ENOMEM;
		for (size_t i = 0; !e.err && i < e.ntmpl; i++)
			e.p->tmpl[e.tmpl[i].slot] = e.tmpl[i].v;
	}
	if (!e.err && hdr_op != NO_RUN) {
		e.p->hdr = fuse_header(e.p, roots[RD_SC_EVENT_HEADER],
				       (uint32_t)e.p->root[RD_SC_EVENT_HEADER]);
		if (!e.p->hdr) {
			/* not that shape (or no memory for it): a jump to the header's ops */
			e.p->ops[hdr_op].code = RD_OP_JUMP;
			e.p->ops[hdr_op].target = (uint32_t)hdr_op + 1;
		}
	}
	free(e.placed);
	free(e.tmpl);
	if (e.err) {
		rd_prog_free(e.p);
		return e.err;
	}
	*ret_prog = e.p;
	return 0;
}

bool rd_prog_refers_to(const struct rd_prog *p, int sc)
{
	for (size_t i = 0; i < p->nops; i++) {
		const struct rd_op *op = &p->ops[i];

		if (op->ref_kind == RD_REF_PATH &&
		    (op->type->kind == RD_VARIANT ? op->type->tag.scope : op->type->len.scope) == sc)
			return true;
	}
	return false;
}

void rd_prog_free(struct rd_prog *p)
{
	if (!p)
		return;
	free(p->ops);
	free(p->options);
	free(p->tmpl);
	free(p->hdr);
	free(p);
}
