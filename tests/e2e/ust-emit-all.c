/*
 * ust-emit-all - emits one event of each kind of tests/unit/ust/tp-test.h
 * (every field macro) through libltt-ust, N times (argv[1], default 1).
 */
#include <stdlib.h>

#include "tp-test-emit.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;

	for (int i = 0; i < n; i++)
		tp_test_emit_all();
	return 0;
}
