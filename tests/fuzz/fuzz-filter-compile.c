/*
 * fuzz-filter-compile.c - filter expressions as users type them: whatever
 * compiles must load (the compiler emits only provable programs) and run.
 */
#include <stdlib.h>
#include <string.h>

#include "filter/filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct filter_value values[FILTER_MAX_REFS];
	struct filter_program *prog;
	struct filter_error err;
	char *expr = malloc(size + 1);
	uint8_t *code;
	size_t len;

	if (!expr)
		return 0;
	memcpy(expr, data, size);
	expr[size] = '\0';
	if (filter_compile(expr, &code, &len, &err) == 0) {
		if (filter_load(code, len, &prog) != 0)
			abort();	/* the compiler produced a program the loader refuses */
		for (unsigned i = 0; i < filter_program_ref_count(prog); i++)
			values[i] = (struct filter_value){ .kind = FILTER_VALUE_STRING,
							   .str = { expr, size } };
		filter_eval(prog, values, filter_program_ref_count(prog));
		filter_program_free(prog);
		free(code);
	}
	free(expr);
	return 0;
}
