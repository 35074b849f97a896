/*
 * numfmt.h - numbers to text without printf, for output paths that print
 * millions of them (ltt view): decimal, zero-padded, hexadecimal, octal,
 * and doubles exactly as printf's "%g".
 *
 * Each function writes into dst, which must have room for NUMFMT_MAX bytes
 * (more than the longest result: bytes past the result may be overwritten
 * with junk), writes no NUL, and returns the length of the result.
 */
#ifndef LTT_UTIL_NUMFMT_H
#define LTT_UTIL_NUMFMT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define NUMFMT_MAX 32

/* "00" "01" ... "99" */
extern const char numfmt_digit_pairs[201];

/* Decimal digits of v: 1 to 20. */
unsigned numfmt_u64_len(uint64_t v);
/* numfmt_u64() of v >= 100. */
size_t numfmt_u64_big(char *dst, uint64_t v);

/* Small values (the commonest) inline. */
static inline size_t numfmt_u64(char *dst, uint64_t v)
{
	if (v < 10) {
		dst[0] = (char)('0' + v);
		return 1;
	}
	if (v < 100) {
		memcpy(dst, &numfmt_digit_pairs[2 * v], 2);
		return 2;
	}
	return numfmt_u64_big(dst, v);
}

static inline size_t numfmt_i64(char *dst, int64_t v)
{
	if (v < 0) {
		dst[0] = '-';
		return 1 + numfmt_u64(dst + 1, (uint64_t)0 - (uint64_t)v);
	}
	return numfmt_u64(dst, (uint64_t)v);
}

/* v in exactly width digits (1..20), zeros first; v < 10^width. */
void numfmt_u64_fixed(char *dst, uint64_t v, unsigned width);
/* v zero-padded to at least width digits (width <= 20). */
size_t numfmt_u64_pad(char *dst, uint64_t v, unsigned width);
/* Without prefix: hexadecimal in upper case, octal. */
size_t numfmt_hex(char *dst, uint64_t v);
size_t numfmt_oct(char *dst, uint64_t v);
/* What printf("%g", d) writes, byte for byte (C locale). */
size_t numfmt_double_g(char *dst, double d);

#endif /* LTT_UTIL_NUMFMT_H */
