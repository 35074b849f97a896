/*
 * test-numfmt.c - numbers to text: every result compared with printf's on
 * edge values and on millions of random ones (bit patterns, so that every
 * exponent, subnormals and values next to rounding ties come up).
 */
#include "ltt-test.h"
#include "util/numfmt.h"

#include <float.h>

/* A repeatable 64-bit generator (xorshift64*). */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dull;
}

static void check_g(double d)
{
	char got[NUMFMT_MAX + 1], want[64];
	size_t n = numfmt_double_g(got, d);

	got[n] = '\0';
	snprintf(want, sizeof(want), "%g", d);
	if (strcmp(got, want) != 0)
		test_fail(__FILE__, __LINE__, "%%g of %a: got \"%s\", expected \"%s\"", d, got, want);
}

static void check_u64(uint64_t v)
{
	char got[NUMFMT_MAX + 1], want[64];
	size_t n;

	n = numfmt_u64(got, v);
	got[n] = '\0';
	snprintf(want, sizeof(want), "%" PRIu64, v);
	ASSERT_EQ_STR(got, want);
	ASSERT_EQ_INT(numfmt_u64_len(v), strlen(want));
	n = numfmt_i64(got, (int64_t)v);
	got[n] = '\0';
	snprintf(want, sizeof(want), "%" PRId64, (int64_t)v);
	ASSERT_EQ_STR(got, want);
	n = numfmt_hex(got, v);
	got[n] = '\0';
	snprintf(want, sizeof(want), "%" PRIX64, v);
	ASSERT_EQ_STR(got, want);
	n = numfmt_oct(got, v);
	got[n] = '\0';
	snprintf(want, sizeof(want), "%" PRIo64, v);
	ASSERT_EQ_STR(got, want);
	for (unsigned width = 1; width <= 20; width++) {
		n = numfmt_u64_pad(got, v, width);
		got[n] = '\0';
		snprintf(want, sizeof(want), "%0*" PRIu64, (int)width, v);
		ASSERT_EQ_STR(got, want);
	}
}

TEST(integers_as_printf)
{
	static const uint64_t edges[] = { 0, 1, 9, 10, 99, 100, 999999999, 1000000000,
		4294967295u, 4294967296u, 99999999999999999ull, 100000000000000000ull,
		9223372036854775807ull, 9223372036854775808ull, 18446744073709551615ull };

	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		check_u64(edges[i]);
		check_u64(edges[i] - 1);
	}
	for (uint64_t p = 1; p && p < UINT64_MAX / 10; p *= 10) {
		check_u64(p - 1);
		check_u64(p);
		check_u64(p + 1);
	}
	for (int i = 0; i < 300000; i++) {
		uint64_t v = rnd();

		check_u64(v >> (v & 63));	/* every length */
	}
}

/* put8()'s fixed-point digits hold for every 8-digit value: against a decimal counter. */
TEST(every_eight_digit_value)
{
	char want[8] = "00000000", got[NUMFMT_MAX];

	for (uint32_t n = 0; n < 100000000; n++) {
		numfmt_u64_fixed(got, n, 8);
		if (memcmp(got, want, 8) != 0)
			test_fail(__FILE__, __LINE__, "%u: got %.8s", n, got);
		for (int i = 7; i >= 0 && ++want[i] > '9'; i--)
			want[i] = '0';
	}
}

TEST(fixed_width)
{
	char buf[NUMFMT_MAX];

	numfmt_u64_fixed(buf, 42, 9);
	ASSERT_TRUE(memcmp(buf, "000000042", 9) == 0);
	numfmt_u64_fixed(buf, 999999999, 9);
	ASSERT_TRUE(memcmp(buf, "999999999", 9) == 0);
	numfmt_u64_fixed(buf, 12345678901234567890ull, 20);
	ASSERT_TRUE(memcmp(buf, "12345678901234567890", 20) == 0);
	ASSERT_EQ_INT(numfmt_u64_pad(buf, 1234567890, 9), 10);
}

TEST(double_g_edges_as_printf)
{
	static const double edges[] = { 0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, 0.1, 0.0001, 0.00001,
		0.000123456, 0.0001234565, 99999.95, 999999.5, 999999.4, 9999995.0, 9999994.0,
		100000.0, 1000000.0, 123456.5, 1234565.0, 1234575.0, 3.14159f, FLT_MAX, FLT_MIN,
		1e-10f, 123456789.0f, DBL_MAX, DBL_MIN, 1e300, 1e-300, 1e-5, 2.718281828459045,
		4.9406564584124654e-324, 2.2250738585072009e-308, 1e22, 1e23, 1e-22, 1e-23,
		9.999995e-5, 9.9999949e-5, 1e15, 123456789012345678.0, -123.456, 0.3, 2.0 / 3,
		INFINITY, -INFINITY, NAN, -NAN };

	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		check_g(edges[i]);
		check_g(nextafter(edges[i], INFINITY));
		check_g(nextafter(edges[i], -INFINITY));
	}
	/* every power of ten and the values around it */
	for (int e = -330; e <= 310; e++) {
		double p = pow(10, e);

		check_g(p);
		check_g(nextafter(p, 0));
		check_g(nextafter(p, INFINITY));
		check_g(p * 9.999995);
		check_g(p * 1.000005);
	}
}

TEST(double_g_random_as_printf)
{
	for (int i = 0; i < 2000000; i++) {
		uint64_t bits = rnd();
		double d;
		float f;

		memcpy(&d, &bits, sizeof(d));
		check_g(d);
		/* floats widened to double, as the reader prints them */
		memcpy(&f, &bits, sizeof(f));
		check_g(f);
		/* short decimals, often exact ties at the sixth digit */
		check_g((double)(int64_t)(bits % 20000001) / 10 * pow(10, (int)(bits >> 58) - 32));
	}
}
