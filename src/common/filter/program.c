/*
 * program.c - validating and running filter bytecode in the tracer; see
 * filter.h and bytecode.h for the format.
 *
 * filter_load() proves, before any run, everything filter_eval() relies on:
 * each instruction and its operands lie inside the code; each constant
 * string lies inside the pool and ends with NUL; each LOAD_REF names a ref;
 * jumps go forward to an instruction; the stack depth is the same on every
 * path to an instruction, never below the operands an instruction pops nor
 * above FILTER_MAX_STACK; the code ends with a RETURN at depth 1 and no path
 * falls off its end. filter_eval() therefore runs without bounds checks and
 * always ends (every jump is forward).
 */
#include "filter.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bytecode.h"
#include "util/macros.h"

struct filter_program {
	const uint8_t *code;	/* first instruction */
	size_t code_len;
	const char *consts;
	/*
	 * The commonest filter, one reference compared with an integer
	 * constant ("v < 0", "42 == id"), recognized at load: evaluated without
	 * the interpreter when the value is an integer (see compare_int()).
	 */
	bool cmp_int;
	uint8_t cmp_op;		/* OP_LT..OP_NE, as "ref OP constant" */
	uint16_t cmp_ref;
	int64_t cmp_const;
	unsigned n_refs;
	struct filter_ref refs[];
};

/* Operand bytes and stack effect (pops, pushes) of each opcode. */
static const struct {
	uint8_t operand_len, pops, pushes;
} op_info[OP_END_] = {
	[OP_RETURN] = { 0, 1, 0 },
	[OP_PUSH_S64] = { 8, 0, 1 },
	[OP_PUSH_DOUBLE] = { 8, 0, 1 },
	[OP_PUSH_STRING] = { 8, 0, 1 },
	[OP_PUSH_GLOB] = { 8, 0, 1 },
	[OP_LOAD_REF] = { 2, 0, 1 },
	[OP_NEG] = { 0, 1, 1 }, [OP_PLUS] = { 0, 1, 1 }, [OP_NOT] = { 0, 1, 1 },
	[OP_BNOT] = { 0, 1, 1 },
	[OP_LSHIFT] = { 0, 2, 1 }, [OP_RSHIFT] = { 0, 2, 1 }, [OP_BAND] = { 0, 2, 1 },
	[OP_BXOR] = { 0, 2, 1 }, [OP_BOR] = { 0, 2, 1 },
	[OP_LT] = { 0, 2, 1 }, [OP_LE] = { 0, 2, 1 }, [OP_GT] = { 0, 2, 1 },
	[OP_GE] = { 0, 2, 1 }, [OP_EQ] = { 0, 2, 1 }, [OP_NE] = { 0, 2, 1 },
	[OP_JUMP_IF_FALSE_OR_POP] = { 4, 1, 0 },	/* fallthrough pops; the jump keeps it */
	[OP_JUMP_IF_TRUE_OR_POP] = { 4, 1, 0 },
	[OP_TO_BOOL] = { 0, 1, 1 },
};

static uint16_t rd16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static int parse_refs(const uint8_t *p, size_t len, struct filter_program *prog)
{
	size_t off = 0;

	for (unsigned i = 0; i < prog->n_refs; i++) {
		struct filter_ref *r = &prog->refs[i];

		if (len - off < 2 || p[off] > FILTER_ROOT_CONTEXT || p[off + 1] == 0 ||
		    p[off + 1] > FILTER_MAX_PATH)
			return -EINVAL;
		r->root = p[off];
		r->n_elems = p[off + 1];
		off += 2;
		for (unsigned k = 0; k < r->n_elems; k++) {
			if (len - off < 1)
				return -EINVAL;
			if (p[off] == 0) {
				uint16_t n;

				if (len - off < 3)
					return -EINVAL;
				n = rd16(p + off + 1);
				if (n == 0 || len - off - 3 < (size_t)n + 1 || p[off + 3 + n] != '\0' ||
				    memchr(p + off + 3, '\0', n))
					return -EINVAL;
				r->elems[k].name = (const char *)p + off + 3;
				r->elems[k].index = 0;
				off += 3 + (size_t)n + 1;
			} else if (p[off] == 1) {
				if (len - off < 9)
					return -EINVAL;
				r->elems[k].name = NULL;
				r->elems[k].index = rd64(p + off + 1);
				off += 9;
			} else {
				return -EINVAL;
			}
		}
		/* a context reference starts with the context's name */
		if (r->elems[0].name == NULL)
			return -EINVAL;
	}
	return off == len ? 0 : -EINVAL;
}

/* The stack-depth and control-flow proof described at the top of the file. */
static int check_code(const uint8_t *code, size_t len, const char *consts, size_t consts_len,
		      unsigned n_refs)
{
	int16_t *depth_at = malloc((len + 1) * sizeof(*depth_at));	/* -1: unreached */
	uint8_t *start = calloc(len + 1, 1);	/* 1 at each instruction's first byte */
	int depth = 0, r = -EINVAL;
	bool reachable = true;
	size_t pc = 0;

	if (!depth_at || !start) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i <= len; i++)
		depth_at[i] = -1;
	while (pc < len) {
		uint8_t o = code[pc];
		size_t end;

		if (o == 0 || o >= OP_END_)
			goto out;
		end = pc + 1 + op_info[o].operand_len;
		if (end > len)
			goto out;
		start[pc] = 1;
		/* merge the paths that reach pc */
		if (depth_at[pc] >= 0) {
			if (reachable && depth_at[pc] != depth)
				goto out;
			depth = depth_at[pc];
			reachable = true;
		} else if (!reachable) {
			goto out;	/* dead code: nothing reaches it */
		}
		depth_at[pc] = (int16_t)depth;
		if (depth < op_info[o].pops)
			goto out;
		switch (o) {
		case OP_PUSH_STRING:
		case OP_PUSH_GLOB: {
			uint32_t off = rd32(code + pc + 1), n = rd32(code + pc + 5);

			if (off > consts_len || n >= consts_len - off || consts[off + n] != '\0' ||
			    memchr(consts + off, '\0', n))
				goto out;
			break;
		}
		case OP_LOAD_REF:
			if (rd16(code + pc + 1) >= n_refs)
				goto out;
			break;
		case OP_JUMP_IF_FALSE_OR_POP:
		case OP_JUMP_IF_TRUE_OR_POP: {
			uint32_t target = rd32(code + pc + 1);

			/* forward, inside, and arriving with the top kept */
			if (target <= pc || target > len ||
			    (depth_at[target] >= 0 && depth_at[target] != depth))
				goto out;
			depth_at[target] = (int16_t)depth;
			break;
		}
		default:
			break;
		}
		depth += op_info[o].pushes - op_info[o].pops;
		if (depth > FILTER_MAX_STACK)
			goto out;
		if (o == OP_RETURN) {
			if (depth != 0)
				goto out;
			reachable = false;
		}
		pc = end;
	}
	/* nothing may jump to or fall off the end */
	if (pc == len && !reachable && depth_at[len] < 0)
		r = 0;
	/* every jump lands on an instruction's first byte */
	for (size_t i = 0; r == 0 && i < len; i++)
		if (depth_at[i] >= 0 && !start[i])
			r = -EINVAL;
out:
	free(depth_at);
	free(start);
	return r;
}

/* The operator that gives the same result with its operands swapped. */
static uint8_t swapped(uint8_t op)
{
	return op == OP_LT ? OP_GT : op == OP_GT ? OP_LT : op == OP_LE ? OP_GE :
	       op == OP_GE ? OP_LE : op;
}

/*
 * Recognizes "LOAD_REF r; PUSH_S64 c; cmp; RETURN" and "PUSH_S64 c;
 * LOAD_REF r; cmp; RETURN" (cmp one of LT..NE) in validated code.
 */
static void recognize_int_compare(struct filter_program *prog)
{
	const uint8_t *c = prog->code;

	if (prog->code_len != 14 || c[12] < OP_LT || c[12] > OP_NE || c[13] != OP_RETURN)
		return;
	if (c[0] == OP_LOAD_REF && c[3] == OP_PUSH_S64) {
		prog->cmp_ref = rd16(c + 1);
		prog->cmp_const = (int64_t)rd64(c + 4);
		prog->cmp_op = c[12];
	} else if (c[0] == OP_PUSH_S64 && c[9] == OP_LOAD_REF) {
		prog->cmp_const = (int64_t)rd64(c + 1);
		prog->cmp_ref = rd16(c + 10);
		prog->cmp_op = swapped(c[12]);
	} else {
		return;
	}
	prog->cmp_int = true;
}

int filter_load(const uint8_t *code, size_t len, struct filter_program **ret_prog)
{
	struct filter_program *prog;
	uint32_t refs_len, consts_len, code_len;
	uint16_t n_refs;
	int r;

	if (len < FILTER_HEADER_SIZE || len > FILTER_MAX_CODE || rd32(code) != FILTER_MAGIC ||
	    rd16(code + 4) != FILTER_VERSION)
		return -EINVAL;
	n_refs = rd16(code + 6);
	refs_len = rd32(code + 8);
	consts_len = rd32(code + 12);
	code_len = rd32(code + 16);
	if (n_refs > FILTER_MAX_REFS ||
	    (uint64_t)refs_len + consts_len + code_len != len - FILTER_HEADER_SIZE || code_len == 0)
		return -EINVAL;
	prog = calloc(1, sizeof(*prog) + n_refs * sizeof(prog->refs[0]));
	if (!prog)
		return -ENOMEM;
	prog->n_refs = n_refs;
	prog->consts = (const char *)code + FILTER_HEADER_SIZE + refs_len;
	prog->code = code + FILTER_HEADER_SIZE + refs_len + consts_len;
	prog->code_len = code_len;
	r = parse_refs(code + FILTER_HEADER_SIZE, refs_len, prog);
	if (r == 0)
		r = check_code(prog->code, code_len, prog->consts, consts_len, n_refs);
	if (r < 0) {
		free(prog);
		return r;
	}
	recognize_int_compare(prog);
	*ret_prog = prog;
	return 0;
}

void filter_program_free(struct filter_program *prog)
{
	free(prog);
}

unsigned filter_program_ref_count(const struct filter_program *prog)
{
	return prog->n_refs;
}

const struct filter_ref *filter_program_ref(const struct filter_program *prog, unsigned i)
{
	return i < prog->n_refs ? &prog->refs[i] : NULL;
}

/* ---- evaluation ---- */

enum { K_S64 = FILTER_VALUE_S64, K_DOUBLE = FILTER_VALUE_DOUBLE, K_STRING = FILTER_VALUE_STRING,
       K_GLOB = 16 };

struct slot {
	int kind;
	union {
		int64_t s64;
		double d;
		struct {
			const char *p;
			size_t len;
		} str;
	};
};

bool filter_star_glob_match(const char *p, size_t plen, const char *s, size_t slen)
{
	size_t pi = 0, si = 0, star_p = SIZE_MAX, star_s = 0;

	/* greedy with one backtrack point: O(plen * slen) at worst, no recursion */
	while (si < slen) {
		if (pi < plen && p[pi] == '*') {
			star_p = ++pi;
			star_s = si;
			continue;
		}
		if (pi < plen) {
			char pc = p[pi];
			size_t step = 1;

			if (pc == '\\' && pi + 1 < plen && p[pi + 1] == '*') {
				pc = '*';
				step = 2;
			}
			if (pc == s[si]) {
				pi += step;
				si++;
				continue;
			}
		}
		if (star_p == SIZE_MAX)
			return false;
		pi = star_p;
		si = ++star_s;
	}
	while (pi < plen && p[pi] == '*')
		pi++;
	return pi == plen;
}

static bool truthy(const struct slot *v, bool *ok)
{
	if (v->kind == K_S64)
		return v->s64 != 0;
	if (v->kind == K_DOUBLE)
		return v->d != 0.0;
	*ok = false;
	return false;
}

/* -1, 0, 1 comparing two numbers (promoted to double when either is one). */
static int num_cmp(const struct slot *a, const struct slot *b)
{
	if (a->kind == K_S64 && b->kind == K_S64)
		return (a->s64 > b->s64) - (a->s64 < b->s64);
	double x = a->kind == K_S64 ? (double)a->s64 : a->d;
	double y = b->kind == K_S64 ? (double)b->s64 : b->d;

	return (x > y) - (x < y);
}

static bool is_num(const struct slot *v)
{
	return v->kind == K_S64 || v->kind == K_DOUBLE;
}

/* Equality of two string-ish values; a pattern on either side globs. */
static bool str_eq(const struct slot *a, const struct slot *b)
{
	if (a->kind == K_GLOB)
		return filter_star_glob_match(a->str.p, a->str.len, b->str.p, b->str.len);
	if (b->kind == K_GLOB)
		return filter_star_glob_match(b->str.p, b->str.len, a->str.p, a->str.len);
	return a->str.len == b->str.len && memcmp(a->str.p, b->str.p, a->str.len) == 0;
}

/* "v OP c" on integers: what the interpreter computes for that program. */
static bool compare_int(uint8_t op, int64_t v, int64_t c)
{
	switch (op) {
	case OP_LT: return v < c;
	case OP_LE: return v <= c;
	case OP_GT: return v > c;
	case OP_GE: return v >= c;
	case OP_EQ: return v == c;
	default: return v != c;		/* OP_NE */
	}
}

bool filter_eval(const struct filter_program *prog, const struct filter_value *values,
		 unsigned n_values)
{
	struct slot stack[FILTER_MAX_STACK];
	const uint8_t *code = prog->code;
	size_t pc = 0;
	int sp = 0;	/* number of slots in use */
	bool ok = true;

	if (n_values != prog->n_refs)
		return false;
	if (prog->cmp_int && values[prog->cmp_ref].kind == FILTER_VALUE_S64)
		return compare_int(prog->cmp_op, values[prog->cmp_ref].s64, prog->cmp_const);
	/* a reference the event lacks makes the whole expression false, as in
	 * LTTng, whatever the short-circuits would skip */
	for (unsigned i = 0; i < n_values; i++)
		if (values[i].kind == FILTER_VALUE_NONE)
			return false;
	for (;;) {
		uint8_t o = code[pc++];
		/* operands: filter_load() proved sp >= the opcode's pops */
		struct slot *t = sp >= 1 ? &stack[sp - 1] : NULL, *b = t;
		struct slot *a = sp >= 2 ? &stack[sp - 2] : NULL;

		switch (o) {
		case OP_RETURN:
			return truthy(t, &ok) && ok;
		case OP_PUSH_S64:
			stack[sp].kind = K_S64;
			stack[sp++].s64 = (int64_t)rd64(code + pc);
			pc += 8;
			break;
		case OP_PUSH_DOUBLE: {
			uint64_t bits = rd64(code + pc);

			stack[sp].kind = K_DOUBLE;
			memcpy(&stack[sp++].d, &bits, 8);
			pc += 8;
			break;
		}
		case OP_PUSH_STRING:
		case OP_PUSH_GLOB:
			stack[sp].kind = o == OP_PUSH_GLOB ? K_GLOB : K_STRING;
			stack[sp].str.p = prog->consts + rd32(code + pc);
			stack[sp++].str.len = rd32(code + pc + 4);
			pc += 8;
			break;
		case OP_LOAD_REF: {
			const struct filter_value *v = &values[rd16(code + pc)];

			pc += 2;
			stack[sp].kind = v->kind;
			if (v->kind == FILTER_VALUE_S64)
				stack[sp].s64 = v->s64;
			else if (v->kind == FILTER_VALUE_DOUBLE)
				stack[sp].d = v->d;
			else if (v->kind == FILTER_VALUE_STRING)
				stack[sp].str.p = v->str.p, stack[sp].str.len = v->str.len;
			else
				return false;	/* an unknown kind from the caller */
			sp++;
			break;
		}
		case OP_NEG:
		case OP_PLUS:
			if (t->kind == K_S64)
				t->s64 = o == OP_NEG ? (int64_t)(0 - (uint64_t)t->s64) : t->s64;
			else if (t->kind == K_DOUBLE)
				t->d = o == OP_NEG ? -t->d : t->d;
			else
				return false;
			break;
		case OP_NOT: {
			bool v = truthy(t, &ok);

			if (!ok)
				return false;
			t->kind = K_S64;
			t->s64 = !v;
			break;
		}
		case OP_BNOT:
			if (t->kind != K_S64)
				return false;
			t->s64 = (int64_t)~(uint64_t)t->s64;
			break;
		case OP_LSHIFT:
		case OP_RSHIFT:
		case OP_BAND:
		case OP_BXOR:
		case OP_BOR: {
			uint64_t x, y;

			if (a->kind != K_S64 || b->kind != K_S64)
				return false;
			x = (uint64_t)a->s64;
			y = (uint64_t)b->s64;
			if ((o == OP_LSHIFT || o == OP_RSHIFT) && y > 63)
				return false;
			a->s64 = (int64_t)(o == OP_LSHIFT ? x << y : o == OP_RSHIFT ? x >> y :
					   o == OP_BAND ? x & y : o == OP_BXOR ? x ^ y : x | y);
			sp--;
			break;
		}
		case OP_LT:
		case OP_LE:
		case OP_GT:
		case OP_GE: {
			int c;

			if (!is_num(a) || !is_num(b))
				return false;
			c = num_cmp(a, b);
			a->s64 = o == OP_LT ? c < 0 : o == OP_LE ? c <= 0 : o == OP_GT ? c > 0 : c >= 0;
			a->kind = K_S64;
			sp--;
			break;
		}
		case OP_EQ:
		case OP_NE: {
			bool eq;

			if (is_num(a) && is_num(b))
				eq = num_cmp(a, b) == 0;
			else if (!is_num(a) && !is_num(b) && !(a->kind == K_GLOB && b->kind == K_GLOB))
				eq = str_eq(a, b);
			else
				return false;	/* a string against a number */
			a->kind = K_S64;
			a->s64 = o == OP_EQ ? eq : !eq;
			sp--;
			break;
		}
		case OP_JUMP_IF_FALSE_OR_POP:
		case OP_JUMP_IF_TRUE_OR_POP: {
			bool v = truthy(t, &ok);

			if (!ok)
				return false;
			if (v == (o == OP_JUMP_IF_TRUE_OR_POP)) {
				t->kind = K_S64;
				t->s64 = v;
				pc = rd32(code + pc);
			} else {
				sp--;
				pc += 4;
			}
			break;
		}
		case OP_TO_BOOL: {
			bool v = truthy(t, &ok);

			if (!ok)
				return false;
			t->kind = K_S64;
			t->s64 = v;
			break;
		}
		default:
			return false;	/* not reached: filter_load() checked every opcode */
		}
	}
}
