/* loglevel.c - lttng-ust's log level names, as --loglevel takes them. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const names[] = {
	"EMERG", "ALERT", "CRIT", "ERR", "WARNING", "NOTICE", "INFO", "DEBUG_SYSTEM",
	"DEBUG_PROGRAM", "DEBUG_PROCESS", "DEBUG_MODULE", "DEBUG_UNIT", "DEBUG_FUNCTION",
	"DEBUG_LINE", "DEBUG",
};

int cli_parse_loglevel(const char *s)
{
	char *end;
	long v;

	if (strncasecmp(s, "TRACE_", 6) == 0)
		s += 6;
	for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strcasecmp(s, names[i]) == 0)
			return i;
	v = strtol(s, &end, 10);
	return *s && !*end && v >= 0 && v <= 14 ? (int)v : -1;
}

const char *cli_loglevel_name(int level)
{
	return level >= 0 && level <= 14 ? names[level] : "?";
}
