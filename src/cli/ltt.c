/*
 * ltt.c - the `ltt` command: dispatches `ltt COMMAND [ARGS]` to cmd_COMMAND().
 * Adding a command is one line in the table below (and its cmd-NAME.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltt-config.h"
#include "cli.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	void (*help)(FILE *out);
	const char *summary;
};

static const struct command commands[] = {
	{ "view", cmd_view, help_view, "print the events of a trace (babeltrace2's text layout)" },
};

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("ltt: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: ltt [--version] [--help] COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-12s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "  %-12s %s\n", "help", "show the help of a command (ltt help COMMAND)");
	fprintf(out, "\nSee ltt(1) and ltt-COMMAND(1).\n");
}

static const struct command *find(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V") || !strcmp(argv[1], "version")) {
		printf("ltt %s\n", LTT_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		c = find(argv[2]);
		if (!c) {
			cli_error("unknown command '%s' (see ltt --help)", argv[2]);
			return 2;
		}
		c->help(stdout);
		return 0;
	}
	c = find(argv[1]);
	if (!c) {
		cli_error("unknown command '%s' (see ltt --help)", argv[1]);
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			c->help(stdout);
			return 0;
		}
	}
	return c->run(argc - 1, argv + 1);
}
