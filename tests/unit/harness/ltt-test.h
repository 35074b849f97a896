/*
 * ltt-test.h - the unit-test harness.
 *
 * A test binary is one module's tests: each TEST() registers itself from a
 * constructor; the harness's main() runs each case in a forked child with a
 * timeout and prints TAP ("ok N - name", "not ok N - name # reason"), which
 * meson and tests/run count case by case.
 *
 *   TEST(parses_empty_input) { ASSERT_EQ_INT(parse("", &x), 0); }
 *
 * Options of every test binary:
 *   --repeat N     run each case N times (stress tests: more interleavings)
 *   --timeout S    seconds per case (default 60, or $LTT_TEST_TIMEOUT)
 *   --list         print the case names
 *   NAME...        run only the named cases
 *
 * Assertions print both values and the location, then end the case (the
 * child exits 1). TEST_SKIP("why") ends it as skipped.
 */
#ifndef LTT_TEST_H
#define LTT_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*test_fn)(void);

void test_register(const char *name, test_fn fn);
_Noreturn void test_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
_Noreturn void test_skip(const char *why);

/* The current repetition (0-based) of --repeat, and the count asked for. */
extern unsigned test_repetition, test_repeat;

#define TEST(name)                                                         \
	static void test_case_##name(void);                                \
	__attribute__((constructor)) static void test_reg_##name(void)     \
	{                                                                  \
		test_register(#name, test_case_##name);                    \
	}                                                                  \
	static void test_case_##name(void)

#define TEST_SKIP(why) test_skip(why)

#define ASSERT_TRUE(c)                                                     \
	do {                                                               \
		if (!(c))                                                  \
			test_fail(__FILE__, __LINE__, "expected true: %s", #c); \
	} while (0)
#define ASSERT_FALSE(c) ASSERT_TRUE(!(c))

#define TEST_CMP_(type, fmt, a, op, b)                                     \
	do {                                                               \
		type test_a_ = (a);                                        \
		type test_b_ = (b);                                        \
		if (!(test_a_ op test_b_))                                 \
			test_fail(__FILE__, __LINE__,                      \
				  "%s %s %s: got " fmt ", expected " fmt,  \
				  #a, #op, #b, test_a_, test_b_);          \
	} while (0)

#define ASSERT_EQ_INT(a, b) TEST_CMP_(long long, "%lld", a, ==, b)
#define ASSERT_NE_INT(a, b) TEST_CMP_(long long, "%lld", a, !=, b)
#define ASSERT_LT_INT(a, b) TEST_CMP_(long long, "%lld", a, <, b)
#define ASSERT_LE_INT(a, b) TEST_CMP_(long long, "%lld", a, <=, b)
#define ASSERT_GE_INT(a, b) TEST_CMP_(long long, "%lld", a, >=, b)
#define ASSERT_GT_INT(a, b) TEST_CMP_(long long, "%lld", a, >, b)
#define ASSERT_EQ_U64(a, b) TEST_CMP_(uint64_t, "%" PRIu64, a, ==, b)
#define ASSERT_LE_U64(a, b) TEST_CMP_(uint64_t, "%" PRIu64, a, <=, b)
#define ASSERT_EQ_HEX(a, b) TEST_CMP_(uint64_t, "0x%" PRIx64, a, ==, b)
#define ASSERT_EQ_PTR(a, b) TEST_CMP_(const void *, "%p", a, ==, b)
#define ASSERT_NULL(a) ASSERT_EQ_PTR(a, NULL)
#define ASSERT_NOT_NULL(a) ASSERT_TRUE((a) != NULL)

#define ASSERT_EQ_STR(a, b)                                                \
	do {                                                               \
		const char *test_a_ = (a), *test_b_ = (b);                 \
		if (!test_a_ || !test_b_ || strcmp(test_a_, test_b_) != 0) \
			test_fail(__FILE__, __LINE__,                      \
				  "%s == %s: got \"%s\", expected \"%s\"", \
				  #a, #b, test_a_ ? test_a_ : "(null)",    \
				  test_b_ ? test_b_ : "(null)");           \
	} while (0)

/* Asserts that haystack contains needle. */
#define ASSERT_CONTAINS(haystack, needle)                                  \
	do {                                                               \
		const char *test_h_ = (haystack), *test_n_ = (needle);     \
		if (!test_h_ || !strstr(test_h_, test_n_))                 \
			test_fail(__FILE__, __LINE__,                      \
				  "%s does not contain \"%s\": got \"%s\"", \
				  #haystack, test_n_,                      \
				  test_h_ ? test_h_ : "(null)");           \
	} while (0)

#define ASSERT_EQ_MEM(a, b, n)                                             \
	do {                                                               \
		const unsigned char *test_a_ = (const void *)(a),          \
				    *test_b_ = (const void *)(b);          \
		for (size_t test_i_ = 0; test_i_ < (size_t)(n); test_i_++) \
			if (test_a_[test_i_] != test_b_[test_i_])          \
				test_fail(__FILE__, __LINE__,              \
					  "%s and %s differ at byte %zu: " \
					  "got 0x%02x, expected 0x%02x",   \
					  #a, #b, test_i_, test_a_[test_i_], \
					  test_b_[test_i_]);               \
	} while (0)

/* A call that returns 0 or a negative errno must succeed. */
#define ASSERT_OK(call)                                                    \
	do {                                                               \
		long long test_r_ = (call);                                \
		if (test_r_ < 0)                                           \
			test_fail(__FILE__, __LINE__, "%s failed: %s (%lld)", \
				  #call, strerror((int)-test_r_), test_r_); \
	} while (0)

#endif /* LTT_TEST_H */
