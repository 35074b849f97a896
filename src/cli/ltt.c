/*
 * ltt - the command-line interface: `ltt [GLOBAL OPTIONS] COMMAND [ARGS]`.
 * Command names and options follow lttng 2.13's, so that LTTng users' habits
 * and scripts carry over. Each command is one cmd-NAME.c; this file holds the
 * table and dispatches.
 */
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ltt-config.h"

const struct cli_command cli_commands[] = {
	{ "create", cmd_create, "create a tracing session" },
	{ "destroy", cmd_destroy, "destroy tracing sessions" },
	{ "enable-channel", cmd_enable_channel, "create channels" },
	{ "enable-event", cmd_enable_event, "enable event rules" },
	{ "disable-event", cmd_disable_event, "disable event rules" },
	{ "add-context", cmd_add_context, "add context fields to the events of channels" },
	{ "track", cmd_track, "allow processes to record events" },
	{ "untrack", cmd_untrack, "disallow processes to record events" },
	{ "start", cmd_start, "start tracing" },
	{ "stop", cmd_stop, "stop tracing" },
	{ "list", cmd_list, "list sessions, or describe one" },
	{ "status", cmd_status, "describe the current session" },
	{ "snapshot", cmd_snapshot, "write what a flight recorder's buffers hold" },
	{ "rotate", cmd_rotate, "archive the trace so far as a chunk" },
	{ "enable-rotation", cmd_enable_rotation, "rotate every period or size" },
	{ "disable-rotation", cmd_disable_rotation, "stop rotating by period or size" },
	{ "clear", cmd_clear, "drop what sessions recorded so far" },
	{ "regenerate", cmd_regenerate, "rewrite a session's metadata, or its state dump" },
	{ "save", cmd_save, "save session configurations to files" },
	{ "load", cmd_load, "create sessions from saved configurations" },
	{ "analyze", cmd_analyze, "analyses: events, period, syscalls, irq, sched-latency, process" },
	{ "view", cmd_view, "print the events of traces (babeltrace2's text layout)" },
	{ "version", cmd_version, "show the version" },
	{ "help", cmd_help, "show help on ltt or on a command" },
	{ NULL, NULL, NULL },
};

static const struct cli_command *find(const char *name)
{
	for (const struct cli_command *c = cli_commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: ltt [-q] [-V] [-h] COMMAND [ARGS]\n\nCommands:\n");
	for (const struct cli_command *c = cli_commands; c->name; c++)
		fprintf(f, "  %-16s %s\n", c->name, c->summary);
	fprintf(f, "\nOptions:\n"
		   "  -q, --quiet     print errors only\n"
		   "  -V, --version   show the version\n"
		   "  -h, --help      show this help\n"
		   "\n`ltt help COMMAND` or `ltt COMMAND --help` shows a command's options.\n");
}

int cmd_version(int argc, char **argv)
{
	static const char help[] = "Usage: ltt version\n\nShows the version of ltt.\n";

	if (cli_wants_help(argc, argv, help))
		return 0;
	if (argc > 1) {
		fputs(help, stderr);
		return 2;
	}
	printf("ltt %s\n", LTT_VERSION);
	return 0;
}

int cmd_help(int argc, char **argv)
{
	static const char help[] =
		"Usage: ltt help [COMMAND]\n\n"
		"Shows the commands of ltt, or the options of COMMAND (as `ltt COMMAND --help`).\n";
	const struct cli_command *c;
	char *args[] = { NULL, (char *)"--help", NULL };

	if (cli_wants_help(argc, argv, help))
		return 0;
	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	c = find(argv[1]);
	if (!c) {
		cli_error("unknown command '%s' (see `ltt help`)", argv[1]);
		return 2;
	}
	args[0] = (char *)c->name;
	optind = 0;
	return c->run(2, args);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const struct cli_command *cmd;
	int c;

	/* "+": global options stop at the command name */
	while ((c = getopt_long(argc, argv, "+qVh", opts, NULL)) != -1) {
		switch (c) {
		case 'q':
			cli_quiet = true;
			break;
		case 'V':
			return cmd_version(1, argv);
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	cmd = find(argv[optind]);
	if (!cmd) {
		cli_error("unknown command '%s' (see `ltt help`)", argv[optind]);
		return 2;
	}
	argv += optind;
	argc -= optind;
	optind = 0;	/* 0, not 1: also forgets the "+" (stop at the first non-option) above */
	return cmd->run(argc, argv);
}
