/* log.c - see log.h. */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

void cons_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ltt-consumerd: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
