/*
 * glob.c - '*' patterns over event names (see glob-internal.h).
 *
 * Iterative matcher with one backtrack point, the last '*': linear in
 * practice, at worst O(len(pattern) * len(name)), never recursive.
 */
#include "glob-internal.h"

#include <stddef.h>

bool ust_glob_match(const char *pattern, const char *name)
{
	const char *p = pattern, *n = name;
	const char *star_p = NULL, *star_n = NULL;

	while (*n) {
		if (*p == '*') {
			star_p = ++p;	/* try the star matching nothing first */
			star_n = n;
			continue;
		}
		if (*p == '\\' && p[1]) {
			if (p[1] == *n) {
				p += 2;
				n++;
				continue;
			}
		} else if (*p && *p == *n) {
			p++;
			n++;
			continue;
		}
		if (!star_p)
			return false;
		p = star_p;		/* let the last star eat one more char */
		n = ++star_n;
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}
