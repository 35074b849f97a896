/* domain.c - the -u/-k and -s options that enable-* and disable-* share. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

const char *cli_domain_name(enum ltt_domain d)
{
	return d == LTT_DOMAIN_KERNEL ? "kernel" : "ust";
}

int cli_check_domain(enum ltt_domain d)
{
	if (d == 0) {
		cli_error("choose a domain: -u (user space) or -k (kernel)");
		return 2;
	}
	return 0;
}

int cli_set_domain(enum ltt_domain *d, enum ltt_domain value)
{
	if (*d && *d != value) {
		cli_error("-u and -k exclude each other");
		return 2;
	}
	*d = value;
	return 0;
}

char *cli_next_name(char **list)
{
	char *name;

	do {
		name = strsep(list, ",");
	} while (name && !*name);
	return name;
}

const char **cli_split_list(char *list, size_t *ret_n)
{
	const char **v = NULL, **grown;
	size_t n = 0;
	char *name;

	while ((name = cli_next_name(&list))) {
		grown = realloc(v, (n + 1) * sizeof(*v));
		if (!grown) {
			free(v);
			return NULL;
		}
		v = grown;
		v[n++] = name;
	}
	*ret_n = n;
	return v;
}
