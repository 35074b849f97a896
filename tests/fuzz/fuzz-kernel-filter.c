/*
 * fuzz-kernel-filter.c - a filter expression, as a user writes it, on its
 * way to the kernel (kt_filter_translate, with the field renames of a
 * sched event) and, compiled, to a converter (kt_filter_check): neither may
 * crash, read past the text, or produce something the kernel would read
 * past.
 *
 * Input: the expression (any bytes; NUL-terminated here).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter.h"
#include "kernel/kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char format_text[] =
	"name: sched_switch\nID: 372\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t next_pid;\toffset:28;\tsize:4;\tsigned:1;\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kt_event_format *fmt = NULL;
	struct filter_error ferr;
	struct kt_error err;
	uint8_t *code = NULL;
	char *expr, *k = NULL;
	size_t len;

	if (size > FILTER_MAX_EXPR)
		return 0;
	expr = malloc(size + 1);
	if (!expr)
		return 0;
	memcpy(expr, data, size);
	expr[size] = '\0';
	if (kt_event_format_parse(format_text, sizeof(format_text) - 1, "sched", &fmt) == 0 &&
	    kt_filter_translate(expr, fmt, &k, &err) == 0) {
		/* what goes to the kernel is one NUL-terminated line */
		if (strlen(k) > 4 * size + 64)
			abort();
		free(k);
	}
	if (filter_compile(expr, &code, &len, &ferr) == 0) {
		kt_filter_check(code, len, &err);
		free(code);
	}
	kt_event_format_free(fmt);
	free(expr);
	return 0;
}
