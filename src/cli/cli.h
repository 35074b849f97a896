/*
 * cli.h - what the commands of the `ltt` program share.
 *
 * Each command is one file, src/cli/cmd-NAME.c, exporting
 * `int cmd_NAME(int argc, char **argv)` (argv[0] is the command name; returns
 * the exit status) and `void help_NAME(FILE *out)`; ltt.c's table maps names
 * to them.
 */
#ifndef LTT_CLI_H
#define LTT_CLI_H

#include <stdio.h>

int cmd_view(int argc, char **argv);
void help_view(FILE *out);

/* Prints "ltt: MESSAGE" on stderr (the CLI reports each error once). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* LTT_CLI_H */
