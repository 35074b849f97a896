/*
 * glob-internal.h - event-name patterns of enable-event and --exclude.
 * Off the fast path (rule changes and registrations).
 */
#ifndef LTT_UST_GLOB_INTERNAL_H
#define LTT_UST_GLOB_INTERNAL_H

#include <stdbool.h>

/*
 * ust_glob_match - whether name matches pattern, where '*' matches any run
 * of characters (none included) and '\' makes the next character literal.
 * Context: any. Both strings NUL-terminated.
 */
bool ust_glob_match(const char *pattern, const char *name);

#endif
