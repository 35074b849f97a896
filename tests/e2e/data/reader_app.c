/*
 * reader_app.c - emits every field type the reader decodes, with extreme
 * values, for the differential tests against babeltrace2.
 *   reader_app [LOOPS]
 */
#define TRACEPOINT_DEFINE
#define TRACEPOINT_CREATE_PROBES
#include "reader_tp.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int loops = argc > 1 ? atoi(argv[1]) : 3;
	static const int ia[] = { 1, -2, INT_MAX, INT_MIN };
	static const uint8_t ba[] = { 0x00, 0x7f, 0xff };
	static const char *const strs[] = { "x", "hello", "quote\" back\\slash ?",
		"tab\tnewline\nbell\aesc\x1b", "caf\xc3\xa9 \x01\x7f" };
	static const float fs[] = { 0.0f, -1.5f, 3.14159f, FLT_MAX, FLT_MIN, 1e-10f, 123456789.0f };
	static const double ds[] = { 0.0, -2.5, 2.718281828459045, DBL_MAX, DBL_MIN, 1e300, 1e-5, 100000.0, 1000000.0 };

	for (int i = 0; i < loops; i++) {
		tracepoint(rdtest, ints, i, -1L - i, 4000000000u, (int8_t)(-128 + i), UINT64_MAX - (uint64_t)i);
		tracepoint(rdtest, ints, INT_MIN, LONG_MAX, 0, 127, 0);
		tracepoint(rdtest, strings, strs[i % 5], strs[(i + 3) % 5]);
		tracepoint(rdtest, floats, fs[i % 7], ds[i % 9]);
		tracepoint(rdtest, floats, (float)NAN, -INFINITY);
		tracepoint(rdtest, arrays, ia, (size_t)(i % 5), ba);
		tracepoint(rdtest, enums, i % 12, -(i % 4) - (i % 2 ? 50 : 0));
		tracepoint(rdtest, empty);
		tracepoint(rdtest, request_start, i);
		tracepoint(rdtest, request_end, i);
	}
	return 0;
}
