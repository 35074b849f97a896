#include "ltt-test.h"
#include "filter/filter.h"
#include "util/macros.h"

#include <errno.h>

/* The event of these tests: fields by name, plus $ctx.procname. */
struct field {
	const char *path;	/* "a", "s", "a.b[3]", "$ctx.procname" */
	struct filter_value v;
};

static const struct field event[] = {
	{ "a", { .kind = FILTER_VALUE_S64, .s64 = 42 } },
	{ "neg", { .kind = FILTER_VALUE_S64, .s64 = -7 } },
	{ "big", { .kind = FILTER_VALUE_S64, .s64 = INT64_MAX } },
	{ "d", { .kind = FILTER_VALUE_DOUBLE, .d = 2.5 } },
	{ "s", { .kind = FILTER_VALUE_STRING, .str = { "request-17", 10 } } },
	{ "star", { .kind = FILTER_VALUE_STRING, .str = { "a*b", 3 } } },
	{ "empty", { .kind = FILTER_VALUE_STRING, .str = { "", 0 } } },
	{ "st.inner[3]", { .kind = FILTER_VALUE_S64, .s64 = 9 } },
	{ "$ctx.procname", { .kind = FILTER_VALUE_STRING, .str = { "myapp", 5 } } },
	{ "$ctx.vtid", { .kind = FILTER_VALUE_S64, .s64 = 1234 } },
};

/* Writes the path of ref r as the table above spells it. */
static void ref_path(const struct filter_ref *r, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%s", r->root == FILTER_ROOT_CONTEXT ? "$ctx." : "");

	for (unsigned i = 0; i < r->n_elems; i++) {
		if (r->elems[i].name)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "." : "", r->elems[i].name);
		else
			n += (size_t)snprintf(buf + n, size - n, "[%llu]",
					      (unsigned long long)r->elems[i].index);
	}
}

/* Compiles, loads, links and evaluates expr on the event; 1, 0, or -errno of compile. */
static int run(const char *expr)
{
	struct filter_value values[FILTER_MAX_REFS];
	struct filter_program *prog;
	struct filter_error err;
	uint8_t *code;
	size_t len;
	int r = filter_compile(expr, &code, &len, &err);

	if (r < 0)
		return r;
	ASSERT_OK(filter_load(code, len, &prog));
	for (unsigned i = 0; i < filter_program_ref_count(prog); i++) {
		char path[256];

		ref_path(filter_program_ref(prog, i), path, sizeof(path));
		values[i] = (struct filter_value){ .kind = FILTER_VALUE_NONE };
		for (size_t k = 0; k < ARRAY_SIZE(event); k++)
			if (strcmp(event[k].path, path) == 0)
				values[i] = event[k].v;
	}
	r = filter_eval(prog, values, filter_program_ref_count(prog));
	filter_program_free(prog);
	free(code);
	return r;
}

/* The error of compiling expr: its column and message must be as given. */
static void expect_error(const char *expr, unsigned column, const char *message)
{
	struct filter_error err;
	uint8_t *code = NULL;
	size_t len;

	ASSERT_EQ_INT(filter_compile(expr, &code, &len, &err), -EINVAL);
	ASSERT_NULL(code);
	ASSERT_CONTAINS(err.message, message);
	ASSERT_EQ_INT(err.column, column);
}

#define PASSES(e) ASSERT_EQ_INT(run(e), 1)
#define REJECTS(e) ASSERT_EQ_INT(run(e), 0)

TEST(comparisons_of_integers_and_floats)
{
	PASSES("a == 42");
	PASSES("a != 41");
	PASSES("a > 10 && a < 100");
	PASSES("a >= 42 && a <= 42");
	REJECTS("a > 42");
	PASSES("neg < 0");
	PASSES("neg == -7");
	PASSES("d > 2 && d < 3");
	PASSES("d == 2.5");
	PASSES("a > 41.5");
	PASSES("big == 9223372036854775807");
	PASSES("0x2a == a");
	PASSES("052 == a");
	PASSES("15.0 == 1.5e1");
}

/* "field OP constant" and "constant OP field" run without the interpreter
 * when the field is an integer (program.c, recognize_int_compare()): the
 * same answers as the interpreter gives ("&& 1" keeps it interpreted). */
TEST(single_integer_comparisons_answer_as_the_interpreter)
{
	static const char *const ops[] = { "<", "<=", ">", ">=", "==", "!=" };
	static const char *const fields[] = { "a", "neg", "big", "d", "s" };
	static const char *const consts[] = { "0", "42", "-7", "-9223372036854775807",
					      "9223372036854775807", "2" };

	for (size_t o = 0; o < ARRAY_SIZE(ops); o++)
		for (size_t f = 0; f < ARRAY_SIZE(fields); f++)
			for (size_t c = 0; c < ARRAY_SIZE(consts); c++) {
				char fast[96], slow[128];

				snprintf(fast, sizeof(fast), "%s %s %s", fields[f], ops[o], consts[c]);
				snprintf(slow, sizeof(slow), "(%s) && 1", fast);
				ASSERT_EQ_INT(run(fast), run(slow));
				snprintf(fast, sizeof(fast), "%s %s %s", consts[c], ops[o], fields[f]);
				snprintf(slow, sizeof(slow), "(%s) && 1", fast);
				ASSERT_EQ_INT(run(fast), run(slow));
			}
	REJECTS("nothere < 3");	/* a missing field: false, on the fast path too */
	PASSES("-7 == neg");
	PASSES("43 > a");
}

TEST(logic_and_short_circuit)
{
	PASSES("a == 1 || a == 42");
	REJECTS("a == 1 || a == 2");
	PASSES("!(a == 1)");
	PASSES("!0");
	REJECTS("!a");
	PASSES("a && d");
	PASSES("(a == 42) == 1");
	PASSES("1 || 0 && 0");	/* && binds tighter than || */
}

TEST(bitwise_binds_tighter_than_comparison)
{
	PASSES("2 & 1 == 0");		/* (2 & 1) == 0; C would read 2 & (1 == 0) */
	PASSES("a & 0xf == 10");
	PASSES("a | 1 == 43");
	PASSES("a ^ 42 == 0");
	PASSES("1 << 4 == 16");
	PASSES("a >> 1 == 21");
	PASSES("~0 == -1");
	PASSES("-a < 0");
	REJECTS("1 << 64 == 0");	/* shift count outside 0..63: false */
	REJECTS("1 << neg == 0");
}

TEST(strings_and_globs)
{
	PASSES("s == \"request-17\"");
	PASSES("s == \"req*\"");
	PASSES("s == \"*17\"");
	PASSES("s == \"r*-*7\"");
	PASSES("s == \"*\"");
	REJECTS("s == \"req\"");
	REJECTS("s == \"*18\"");
	PASSES("s != \"resp*\"");
	PASSES("\"req*\" == s");
	PASSES("star == \"a\\*b\"");	/* an escaped star is a star */
	REJECTS("s == \"a\\*b\"");
	PASSES("empty == \"\"");
	PASSES("empty == \"*\"");
	PASSES("s == s");
	PASSES("$ctx.procname == \"my*\"");
	PASSES("$ctx.vtid == 1234");
}

TEST(missing_fields_and_runtime_type_mismatch_give_false)
{
	REJECTS("nothere == 1");
	REJECTS("nothere == 1 || 1");	/* a missing field makes the whole expression false */
	REJECTS("1 || nothere");
	REJECTS("!nothere");
	REJECTS("s == 3");		/* a string field against a number */
	REJECTS("s > 1");
	REJECTS("a == \"x\"");
	REJECTS("~d == 0");
	REJECTS("$ctx.nothere == 1");
}

TEST(nested_paths)
{
	PASSES("st.inner[3] == 9");
	REJECTS("st.inner[2] == 9");
}

TEST(acceptance_expression_of_the_issue)
{
	PASSES("a > 10 && s == \"req*\"");
	REJECTS("a > 50 && s == \"req*\"");
	REJECTS("a > 10 && s == \"resp*\"");
}

TEST(compile_errors_give_the_column)
{
	expect_error("", 1, "empty expression");
	expect_error("a > ", 5, "expected an operand");
	expect_error("a > && b", 5, "expected an operand");
	expect_error("(a == 1", 1, "unbalanced '('");
	expect_error("a == 1)", 7, "unexpected ')'");
	expect_error("a + b", 3, "arithmetic");
	expect_error("a * 2", 3, "arithmetic");
	expect_error("\"x\" < \"y\"", 5, "strings compare with == and != only");
	expect_error("a == 1 && \"x\"", 8, "not a string");
	expect_error("1 == \"x\"", 3, "compares a string with a number");
	expect_error("~1.5 == 0", 1, "'~' needs an integer");
	expect_error("-\"x\" == 0", 1, "'-' needs a numeric");
	expect_error("1.5 & 1", 5, "needs integer operands");
	expect_error("\"a*\" == \"b*\"", 6, "two patterns");
	expect_error("\"abc", 1, "unterminated string");
	expect_error("s == \"\\q\"", 7, "unknown escape");
	expect_error("$app.x == 1", 1, "unknown root");
	expect_error("a[b] == 1", 3, "an index is a constant integer");
	expect_error("a. == 1", 4, "expected a field name");
	expect_error("99999999999999999999 == a", 1, "integer");
	expect_error("08 == a", 1, "invalid integer");
	expect_error("\"str\"", 1, "not a string");
	expect_error("a @ b", 3, "unexpected character '@'");
}

TEST(limits)
{
	char deep[512], *long_expr = malloc(FILTER_MAX_EXPR + 2);
	struct filter_error err;
	uint8_t *code;
	size_t len, n = 0;

	for (int i = 0; i < 100; i++)
		deep[n++] = '(';
	deep[n++] = '1';
	for (int i = 0; i < 100; i++)
		deep[n++] = ')';
	deep[n] = '\0';
	ASSERT_EQ_INT(filter_compile(deep, &code, &len, &err), -EINVAL);
	ASSERT_CONTAINS(err.message, "nested too deeply");
	memset(long_expr, ' ', FILTER_MAX_EXPR + 1);
	long_expr[FILTER_MAX_EXPR + 1] = '\0';
	ASSERT_EQ_INT(filter_compile(long_expr, &code, &len, &err), -E2BIG);
	free(long_expr);
}

TEST(shared_references_use_one_slot)
{
	struct filter_program *prog;
	struct filter_error err;
	uint8_t *code;
	size_t len;

	ASSERT_OK(filter_compile("a > 1 && a < 100 || $ctx.vtid == a", &code, &len, &err));
	ASSERT_OK(filter_load(code, len, &prog));
	ASSERT_EQ_INT(filter_program_ref_count(prog), 2);
	ASSERT_EQ_INT(filter_program_ref(prog, 1)->root, FILTER_ROOT_CONTEXT);
	ASSERT_EQ_STR(filter_program_ref(prog, 1)->elems[0].name, "vtid");
	filter_program_free(prog);
	free(code);
}

TEST(loader_rejects_every_corruption_it_cannot_prove_safe)
{
	static const char *const exprs[] = {
		"a > 10 && s == \"req*\"", "!(a == 1) || ~a == 0 && d > 1.5",
		"st.inner[3] << 2 == 36 || $ctx.procname != \"x\"",
	};
	struct filter_value values[FILTER_MAX_REFS];
	struct filter_program *prog;
	struct filter_error err;

	for (unsigned k = 0; k < FILTER_MAX_REFS; k++)
		values[k] = (struct filter_value){ .kind = FILTER_VALUE_S64, .s64 = (int64_t)k };
	for (size_t e = 0; e < ARRAY_SIZE(exprs); e++) {
		uint8_t *code;
		size_t len;

		ASSERT_OK(filter_compile(exprs[e], &code, &len, &err));
		ASSERT_EQ_INT(filter_load(code, len - 1, &prog), -EINVAL);	/* truncated */
		/* every single-byte change either is refused or runs safely (ASan watches) */
		for (size_t i = 0; i < len; i++)
			for (int bit = 0; bit < 8; bit++) {
				code[i] ^= (uint8_t)(1u << bit);
				if (filter_load(code, len, &prog) == 0) {
					filter_eval(prog, values, filter_program_ref_count(prog));
					filter_program_free(prog);
				}
				code[i] ^= (uint8_t)(1u << bit);
			}
		free(code);
	}
}

TEST(star_glob_matcher)
{
	ASSERT_TRUE(filter_star_glob_match("*", 1, "", 0));
	ASSERT_TRUE(filter_star_glob_match("a*c", 3, "abbbc", 5));
	ASSERT_FALSE(filter_star_glob_match("a*c", 3, "abbb", 4));
	ASSERT_TRUE(filter_star_glob_match("*a*a*a*", 7, "aaa", 3));
	ASSERT_FALSE(filter_star_glob_match("*a*a*a*", 7, "aa", 2));
	ASSERT_TRUE(filter_star_glob_match("x\\*", 3, "x*", 2));
	ASSERT_FALSE(filter_star_glob_match("x\\*", 3, "xy", 2));
}
