/*
 * fuzz-filter-bytecode.c - bytecode as the tracer receives it from the
 * session daemon: never trusted; what loads must evaluate safely.
 */
#include <stdlib.h>
#include <string.h>

#include "filter/filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct filter_value kinds[] = {
		{ .kind = FILTER_VALUE_S64, .s64 = 3 },
		{ .kind = FILTER_VALUE_DOUBLE, .d = -1.5 },
		{ .kind = FILTER_VALUE_STRING, .str = { "abc", 3 } },
	};
	struct filter_value values[FILTER_MAX_REFS];
	struct filter_program *prog;
	uint8_t *copy = malloc(size ? size : 1);	/* exact size: ASan sees overreads */

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (filter_load(copy, size, &prog) == 0) {
		for (unsigned i = 0; i < filter_program_ref_count(prog); i++)
			values[i] = kinds[i % 3];
		filter_eval(prog, values, filter_program_ref_count(prog));
		filter_program_free(prog);
	}
	free(copy);
	return 0;
}
