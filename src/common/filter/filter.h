/*
 * filter.h - event filter expressions, as LTTng's `--filter`.
 *
 *   expr    := expr || expr | expr && expr
 *            | expr (== | !=) expr | expr (< | <= | > | >=) expr
 *            | expr | expr | expr ^ expr | expr & expr | expr (<< | >>) expr
 *            | (- | + | ! | ~) expr | ( expr ) | operand
 *   operand := integer (decimal, 0x hex, 0 octal) | float | "string"
 *            | field path: name(.name | [N])*, or $ctx.name(.name | [N])*
 *
 * Precedence from loosest: || && == != relational | ^ & shifts unary; as in
 * LTTng, the bitwise operators bind tighter than the comparisons (unlike C).
 * There is no arithmetic. Strings compare with == and != only, and a `*` in a
 * string literal matches any run of characters (`\*` is a literal star).
 * Integers are 64-bit signed; bitwise operators work on their 64 bits.
 *
 * Two sides:
 *  - control path (CLI, session daemon): filter_compile() parses and checks
 *    an expression once, with errors that give the column, and emits a
 *    compact bytecode program (bytes that travel to the tracer);
 *  - tracer (in the application, before any buffer space is reserved):
 *    filter_load() validates received bytecode (never trusted: bounded
 *    size, stack depth and jumps, forward only so that evaluation always
 *    ends), the tracer links each field reference of the program to a value
 *    slot of the event (filter_program_ref), and filter_eval() runs it on
 *    the event's values. A reference the event does not have, a type that
 *    does not fit the operator (a string where an integer is needed), or a
 *    shift count outside 0..63 makes the whole expression false.
 */
#ifndef LTT_FILTER_H
#define LTT_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FILTER_MAX_EXPR 4096		/* bytes of expression text */
#define FILTER_MAX_CODE 65536		/* bytes of bytecode */
#define FILTER_MAX_STACK 64		/* evaluation stack depth */
#define FILTER_MAX_REFS 64		/* distinct field references */
#define FILTER_MAX_PATH 8		/* components of a.b[3].c */

/* ---- compiling (control path) -------------------------------------------- */

struct filter_error {
	unsigned column;	/* 1-based column of the mistake in the expression */
	char message[160];
};

/*
 * Compiles expr into bytecode. Returns 0 with *ret_code (free() it) and
 * *ret_len set; -EINVAL with *err filled for a syntax or type error;
 * -E2BIG for an expression or a program over the limits; -ENOMEM.
 */
int filter_compile(const char *expr, uint8_t **ret_code, size_t *ret_len,
		   struct filter_error *err);

/* ---- running (tracer) -------------------------------------------------------- */

enum filter_root {
	FILTER_ROOT_PAYLOAD = 0,	/* an event field */
	FILTER_ROOT_CONTEXT = 1,	/* $ctx.name */
};

/* One component of a path: a field name, or an index (name == NULL). */
struct filter_path_elem {
	const char *name;	/* inside the program's bytes; NUL-terminated */
	uint64_t index;
};

/* A field reference of a program, which the tracer links to a value slot. */
struct filter_ref {
	enum filter_root root;
	unsigned n_elems;
	struct filter_path_elem elems[FILTER_MAX_PATH];
};

struct filter_program;

/*
 * Validates code (len bytes, e.g. received from the session daemon) and
 * returns a program that references it (code must outlive the program).
 * Returns 0, -EINVAL for an invalid program (unknown opcode, operand or
 * jump out of range, unbalanced stack, over the limits), or -ENOMEM.
 * Context: control path of the tracer (allocates).
 */
int filter_load(const uint8_t *code, size_t len, struct filter_program **ret_prog);
void filter_program_free(struct filter_program *prog);

/* The program's field references: slot i of filter_eval()'s values is ref i. */
unsigned filter_program_ref_count(const struct filter_program *prog);
const struct filter_ref *filter_program_ref(const struct filter_program *prog, unsigned i);

enum filter_value_kind {
	FILTER_VALUE_NONE = 0,	/* the event has no such field: the result is false */
	FILTER_VALUE_S64,
	FILTER_VALUE_DOUBLE,
	FILTER_VALUE_STRING,
};

struct filter_value {
	enum filter_value_kind kind;
	union {
		int64_t s64;
		double d;
		struct {
			const char *p;	/* not necessarily NUL-terminated */
			size_t len;
		} str;
	};
};

/*
 * Evaluates the program on values[i] for ref i (n_values must be the ref
 * count). Returns true when the event passes. Bounded time (forward jumps
 * only), no allocation, no lock: callable from any thread or signal handler.
 */
bool filter_eval(const struct filter_program *prog, const struct filter_value *values,
		 unsigned n_values);

/* Whether a string matches a pattern where '*' matches any run and "\*" a '*'. */
bool filter_star_glob_match(const char *pattern, size_t plen, const char *s, size_t slen);

#endif /* LTT_FILTER_H */
