// app.cpp - call sites compiled as C++.
#include <cstdio>
#include "tp-compile.h"

int main()
{
	static const uint8_t buf[2] = { 1, 2 };
	long sum = 0;

	for (int i = 0; i < 1000; i++) {
		tracepoint(ltt_compile, every_field, i, "abc", buf, 2u, 1.5);
		tracepoint(ltt_compile, one, i);
		tracepoint(ltt_compile, two, i);
		ltt_tracepoint(ltt_compile, prefixed, i);
		if (tracepoint_enabled(ltt_compile, one))
			do_tracepoint(ltt_compile, one, i);
		sum += i;
	}
	if (tracepoint_enabled(ltt_compile, every_field)) {
		std::fprintf(stderr, "a tracepoint was enabled without a session daemon\n");
		return 1;
	}
	std::printf("sum %ld\n", sum);
	return sum == 499500 ? 0 : 1;
}
