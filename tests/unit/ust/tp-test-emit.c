/*
 * tp-test-emit.c - one event of each kind of tp-test.h, with the values
 * tests/e2e/test_tracepoint_ctf.py expects (EXPECTED there): shared by
 * tp-ctf-dump (the recorder) and ust-emit-all (the real tracer).
 */
#include <stddef.h>
#include <stdint.h>

#include "tp-test.h"
#include "tp-test-emit.h"

void tp_test_emit_all(void)
{
	static const uint32_t arr[3] = { 1, 2, 0xa0b0c0d0 };
	static const uint16_t net[2] = { 0x0102, 0x0304 };
	static const uint64_t vals[2] = { 0x1111111111111111, 0x2222222222222222 };
	static const int iarr[2] = { 10, 20 };

	tracepoint(ltt_test, ints, -2, 200, -2000, 50000, -2000000, 3000000000u, -1,
		   UINT64_C(0x0102030405060708));
	tracepoint(ltt_test, bases, 0x11223344, 0x1234, UINT64_C(0x0102030405060708));
	tracepoint(ltt_test, floats, 1.5f, -2.25);
	tracepoint(ltt_test, strings, "abc", NULL);
	tracepoint(ltt_test, arrays, arr, "hi", net);
	tracepoint(ltt_test, seqs, vals, 2, "abcdef", 3);
	tracepoint(ltt_test, enums, -3, 4);
	tracepoint(ltt_test, nowrite, 5, "str", iarr, 2);
	tracepoint(ltt_test, inst_err, 1, "disk");
	tracepoint(ltt_test, noargs);
	tracepoint(ltt_test, counted, 1, 2);
}

