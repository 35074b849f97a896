/* domain.c - the -u/-k and -s options that enable-* and disable-* share. */
#include "cli.h"

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
