/*
 * app.c - call sites only (no TRACEPOINT_DEFINE): compiled as C99
 * -pedantic and C11 -pedantic. Run with no session daemon: every
 * tracepoint is disabled and the program runs normally.
 */
#include <stdio.h>
#include "tp-compile.h"

static int evaluated;

static int count(int v)
{
	evaluated++;
	return v;
}

int main(void)
{
	static const uint8_t buf[2] = { 1, 2 };
	long sum = 0;
	int i;

	for (i = 0; i < 1000; i++) {
		tracepoint(ltt_compile, every_field, count(i), "abc", buf, 2, 1.5);
		tracepoint(ltt_compile, one, i);
		ltt_tracepoint(ltt_compile, two, i);
		ltt_tracepoint(ltt_compile, prefixed, i);
		if (tracepoint_enabled(ltt_compile, one))
			do_tracepoint(ltt_compile, one, i);
		sum += i;
	}
	if (evaluated != 0 || tracepoint_enabled(ltt_compile, every_field)) {
		fprintf(stderr, "a tracepoint was enabled without a session daemon\n");
		return 1;
	}
	printf("sum %ld\n", sum);
	return sum == 499500 ? 0 : 1;
}
