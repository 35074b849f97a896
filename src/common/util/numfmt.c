/* numfmt.c - see numfmt.h. */
#include "numfmt.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char numfmt_digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

static const uint64_t pow10_u64[20] = {
	UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000),
	UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000),
	UINT64_C(1000000000), UINT64_C(10000000000), UINT64_C(100000000000),
	UINT64_C(1000000000000), UINT64_C(10000000000000), UINT64_C(100000000000000),
	UINT64_C(1000000000000000), UINT64_C(10000000000000000),
	UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
	UINT64_C(10000000000000000000),
};

unsigned numfmt_u64_len(uint64_t v)
{
	/* 1233 / 4096 ~ log10(2): t is the digit count of 2^bits, or one more */
	unsigned t = ((unsigned)(64 - __builtin_clzll(v | 1)) * 1233) >> 12;

	if (v < 10)
		return 1;
	return t - (v < pow10_u64[t]) + 1;
}

/*
 * Writes n (< 10^8) as exactly 8 digits at d, all at once in a 64-bit word
 * (SWAR): n splits into two 4-digit lanes of 32 bits, each into two 2-digit
 * lanes of 16 bits, each into two digits of 8 bits. The divisions are
 * multiplications: x * 10486 >> 20 is x / 100 for x < 10^4, x * 103 >> 10 is
 * x / 10 for x < 100, and the products stay within their lanes (under 2^28
 * and 2^14). test-numfmt checks every n.
 */
static inline void put8(char *d, uint32_t n)
{
	uint64_t hi = n / 10000, x, q, y, t, z;

	x = hi | (uint64_t)(n - (uint32_t)hi * 10000) << 32;	/* [abcd, efgh] */
	q = ((x * 10486) >> 20) & UINT64_C(0x0000007f0000007f);	/* [ab, ef] */
	y = q | (x - q * 100) << 16;				/* [ab, cd, ef, gh] */
	t = ((y * 103) >> 10) & UINT64_C(0x000f000f000f000f);	/* [a, c, e, g] */
	z = t | (y - t * 10) << 8;				/* [a, b, c, ..., h] */
	z += UINT64_C(0x3030303030303030);			/* '0' */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	z = __builtin_bswap64(z);	/* the first digit in the first byte */
#endif
	memcpy(d, &z, 8);
}

/* x (< 10^k, k <= 8) as exactly k digits at d, which has room for 8. */
static inline void put_top(char *d, uint32_t x, unsigned k)
{
	static const uint32_t scale[9] = { 100000000, 10000000, 1000000, 100000, 10000, 1000,
		100, 10, 1 };

	if (k == 1)
		d[0] = (char)('0' + x);
	else if (k == 2)
		memcpy(d, &numfmt_digit_pairs[2 * x], 2);
	else
		put8(d, x * scale[k]);	/* x's digits first, zeros after */
}

/*
 * v as exactly n digits (1..20; v < 10^n) at d: the leading group of 1 to 8
 * digits first (put_top() may write zeros past it), then the groups of 8,
 * which overwrite them.
 */
static inline void put_digits(char *d, uint64_t v, unsigned n)
{
	if (n <= 8) {
		put_top(d, (uint32_t)v, n);
	} else if (n <= 10 && v <= UINT32_MAX) {
		/* 32-bit arithmetic */
		uint32_t q = (uint32_t)v / 100000000;

		put_top(d, q, n - 8);
		put8(d + n - 8, (uint32_t)v - q * 100000000);
	} else if (n <= 16) {
		uint64_t q = v / 100000000;

		put_top(d, (uint32_t)q, n - 8);
		put8(d + n - 8, (uint32_t)(v - q * 100000000));
	} else {
		uint64_t q = v / 100000000, qq = q / 100000000;

		put_top(d, (uint32_t)qq, n - 16);
		put8(d + n - 16, (uint32_t)(q - qq * 100000000));
		put8(d + n - 8, (uint32_t)(v - q * 100000000));
	}
}

size_t numfmt_u64_big(char *dst, uint64_t v)
{
	unsigned n = numfmt_u64_len(v);

	put_digits(dst, v, n);
	return n;
}

void numfmt_u64_fixed(char *dst, uint64_t v, unsigned width)
{
	put_digits(dst, v, width);
}

size_t numfmt_u64_pad(char *dst, uint64_t v, unsigned width)
{
	unsigned n = numfmt_u64_len(v);

	if (n < width)
		n = width;
	put_digits(dst, v, n);
	return n;
}

/*
 * The 8 hexadecimal digits of x, most significant first, in a 64-bit word
 * read in memory order (SWAR): the nibbles spread to one per byte, then
 * each byte gets '0', plus 7 more ('A' - '9' - 1) from 10 up.
 */
static inline uint64_t hex8(uint32_t x)
{
	uint64_t z = x;

	z = (z | z << 16) & UINT64_C(0x0000ffff0000ffff);
	z = (z | z << 8) & UINT64_C(0x00ff00ff00ff00ff);
	z = (z | z << 4) & UINT64_C(0x0f0f0f0f0f0f0f0f);	/* nibble i in byte i */
	z += UINT64_C(0x3030303030303030) +
	     (((z + UINT64_C(0x0606060606060606)) >> 4) & UINT64_C(0x0101010101010101)) * 7;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	z = __builtin_bswap64(z);	/* the most significant digit first */
#endif
	return z;
}

size_t numfmt_hex(char *dst, uint64_t v)
{
	unsigned n = v ? (unsigned)(67 - __builtin_clzll(v)) / 4 : 1;
	uint64_t w[4] = { v >> 32 ? hex8((uint32_t)(v >> 32)) : 0, hex8((uint32_t)v), 0, 0 };

	/* the last n digits, by one fixed-size copy (dst has NUMFMT_MAX bytes) */
	memcpy(dst, (const char *)w + 16 - n, 16);
	return n;
}

size_t numfmt_oct(char *dst, uint64_t v)
{
	unsigned n = v ? (unsigned)(66 - __builtin_clzll(v)) / 3 : 1;

	for (unsigned i = n; i-- > 0; v >>= 3)
		dst[i] = (char)('0' + (v & 7));
	return n;
}

/* --- %g ------------------------------------------------------------------------- */

static size_t double_g_printf(char *dst, double d)
{
	char tmp[NUMFMT_MAX];
	int n = snprintf(tmp, sizeof(tmp), "%g", d);

	if (n < 0 || n >= (int)sizeof(tmp))
		n = 0;
	memcpy(dst, tmp, (size_t)n);
	return (size_t)n;
}

#if LDBL_MANT_DIG >= 64 && LDBL_MAX_EXP >= 16384
/* Powers of ten exact in a 64-bit mantissa: 5^27 < 2^63. */
#define P10_MAX 27
static const long double pow10_ld[P10_MAX + 1] = {
	1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
	1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L,
	1e26L, 1e27L,
};

/* a * 10^s, with at most 13 roundings of 2^-64 each (|s| < 360). */
static long double scale10(long double a, int s)
{
	for (; s > P10_MAX; s -= P10_MAX)
		a *= pow10_ld[P10_MAX];
	for (; s < -P10_MAX; s += P10_MAX)
		a /= pow10_ld[P10_MAX];
	return s >= 0 ? a * pow10_ld[s] : a / pow10_ld[-s];
}

/*
 * %g is the value rounded to 6 significant digits. With X its decimal
 * exponent, m = |d| * 10^(5 - X) is in [10^5, 10^6) and its rounding to an
 * integer gives the digits. m is computed in long double: its relative error
 * (under 2^-60) moves it by less than 10^-11, so that rounding it gives the
 * exact decimal rounding unless it lies within 10^-9 of a half: then, and
 * for NaN, infinities and exponents beyond the double range, printf decides.
 */
size_t numfmt_double_g(char *dst, double d)
{
	char dg8[8], *dg = dg8 + 2, *p = dst;	/* dg: the 6 digits */
	uint64_t bits, mant;
	long double m, frac;
	uint32_t r;
	int e2, x, tries;
	unsigned nd;

	memcpy(&bits, &d, sizeof(bits));
	e2 = (int)((bits >> 52) & 0x7ff);
	mant = bits & ((UINT64_C(1) << 52) - 1);
	if (bits >> 63)
		*p++ = '-';
	if (e2 == 0x7ff) {
		/* glibc: "nan" with the sign bit's '-', "inf" */
		memcpy(p, mant ? "nan" : "inf", 3);
		return (size_t)(p + 3 - dst);
	}
	if (e2 == 0 && mant == 0) {
		*p++ = '0';
		return (size_t)(p - dst);
	}
	/* |d| in [2^e2, 2^(e2 + 1)): its decimal exponent is x or x + 1 */
	e2 = e2 ? e2 - 1023 : -1011 - __builtin_clzll(mant);
	x = (e2 * 78913) >> 18;		/* floor(e2 * log10(2)), arithmetic shift */
	for (tries = 0;; tries++) {
		if (tries == 3)
			return double_g_printf(dst, d);
		m = scale10(fabs(d), 5 - x);
		if (m < 1e5L)
			x--;
		else if (m >= 1e6L)
			x++;
		else
			break;
	}
	r = (uint32_t)m;
	frac = m - (long double)r;
	if (fabsl(frac - 0.5L) < 1e-9L)
		return double_g_printf(dst, d);
	if (frac > 0.5L)
		r++;
	if (r == 1000000) {	/* 9.999995... rounds up to the next power of ten */
		r = 100000;
		x++;
	}
	put8(dg8, r);
	/* significant digits once trailing zeros go: at least one */
	for (nd = 6; nd > 1 && dg[nd - 1] == '0'; nd--)
		;
	if (x >= -4 && x < 6) {
		if (x >= 0) {
			unsigned ip = (unsigned)x + 1;

			memcpy(p, dg, ip);
			p += ip;
			if (nd > ip) {
				*p++ = '.';
				memcpy(p, dg + ip, nd - ip);
				p += nd - ip;
			}
		} else {
			*p++ = '0';
			*p++ = '.';
			for (int z = -x - 1; z > 0; z--)
				*p++ = '0';
			memcpy(p, dg, nd);
			p += nd;
		}
		return (size_t)(p - dst);
	}
	*p++ = dg[0];
	if (nd > 1) {
		*p++ = '.';
		memcpy(p, dg + 1, nd - 1);
		p += nd - 1;
	}
	*p++ = 'e';
	*p++ = x < 0 ? '-' : '+';
	if (x < 0)
		x = -x;
	/* at least two digits; |x| < 400 */
	if (x >= 100)
		*p++ = (char)('0' + x / 100);
	memcpy(p, &numfmt_digit_pairs[2 * (x % 100)], 2);
	return (size_t)(p + 2 - dst);
}
#else
size_t numfmt_double_g(char *dst, double d)
{
	return double_g_printf(dst, d);
}
#endif
