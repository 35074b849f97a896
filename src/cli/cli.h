/*
 * cli.h - what the files of the `ltt` command share.
 *
 * One file per command (cmd-NAME.c exporting cmd_NAME()); ltt.c dispatches.
 * A command returns its exit status: 0, 1 for an error it reported, 2 for
 * bad usage. Errors are reported once, as one line on stderr:
 * "Error: <what>: <why>".
 */
#ifndef LTT_CLI_H
#define LTT_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <ltt/ctl.h>

struct cli_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

extern const struct cli_command cli_commands[];
extern bool cli_quiet;

/* Prints "Error: ..." on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints a message on stdout unless --quiet. */
void cli_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Reports a failed libltt-ctl call on `what` (e.g. "session 'x'"), with the
 * daemon's detail when it gave one; returns 1 (the exit status).
 */
int cli_fail(struct ltt_ctl *ctl, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Connects to the session daemon; when spawn is true and none runs, starts
 * one (ltt-sessiond --daemonize, found beside this program, in the build
 * tree, or on $PATH; $LTT_SESSIOND_PATH overrides). Reports its own errors;
 * returns 0 or 1.
 */
int cli_connect(bool spawn, struct ltt_ctl **ret_ctl);

/*
 * The session a command acts on: `name` if given, else the current session
 * (the last one created or set). Reports its own error; NULL if none.
 * The result is valid until the next call.
 */
const char *cli_session_or_current(const char *name);
/* Makes name the current session (written in the runtime directory). */
int cli_set_current_session(const char *name);
/* Forgets the current session if it is `name`. */
void cli_clear_current_session(const char *name);

/*
 * An output given on the command line (PATH, relative to the current
 * directory or absolute, or file://PATH) as an absolute path in buf (the
 * daemon has another working directory). Reports its own error (network
 * URLs are not supported); 0 or 1.
 */
int cli_output_path(const char *arg, char *buf, size_t size);

/* "4096", "4k", "1M", "2G" (powers of 1024). 0 or -EINVAL. */
int cli_parse_size(const char *s, uint64_t *ret);
/* A duration in µs: "200", "200us", "10ms", "1s", "5m", "1h". 0 or -EINVAL. */
int cli_parse_usec(const char *s, uint64_t *ret);

/*
 * Handles --help for a command: prints the help text when argv has -h or
 * --help before "--", returns true then.
 */
bool cli_wants_help(int argc, char **argv, const char *help);

/* "ust" or "kernel", as lttng prints domains. */
const char *cli_domain_name(enum ltt_domain d);
/* Reports a missing -u/-k; 0 or the exit status 2. */
int cli_check_domain(enum ltt_domain d);
/* Sets the domain from -u or -k, refusing both; 0 or the exit status 2. */
int cli_set_domain(enum ltt_domain *d, enum ltt_domain value);
/* The next non-empty name of a comma-separated list (modified), or NULL. */
char *cli_next_name(char **list);
/* Splits a comma-separated list in place into an array (free() it); NULL: no memory. */
const char **cli_split_list(char *list, size_t *ret_n);

/* A log level by name (TRACE_INFO, INFO, info) or number 0..14; -1 if invalid. */
int cli_parse_loglevel(const char *s);
/* "INFO" for 6, as lttng prints levels (without TRACE_). */
const char *cli_loglevel_name(int level);

/* The commands, one file each (cmd-NAME.c). */
int cmd_create(int argc, char **argv);
int cmd_destroy(int argc, char **argv);
int cmd_enable_channel(int argc, char **argv);
int cmd_enable_event(int argc, char **argv);
int cmd_disable_event(int argc, char **argv);
int cmd_start(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_add_context(int argc, char **argv);
int cmd_track(int argc, char **argv);
int cmd_untrack(int argc, char **argv);
int cmd_rotate(int argc, char **argv);
int cmd_enable_rotation(int argc, char **argv);
int cmd_disable_rotation(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_regenerate(int argc, char **argv);
int cmd_save(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_view(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* A command acting on one session by name (destroy, start, stop, clear, rotate). */
struct cli_session_op {
	const char *help;
	int (*op)(struct ltt_ctl *ctl, const char *name);
	/* instead of op: one that returns a path, printed after done_after (free() it) */
	int (*op_path)(struct ltt_ctl *ctl, const char *name, char **ret_path);
	const char *verb;	/* "destroy": the error says "cannot destroy session 'x'" */
	const char *done_before, *done_after;	/* printed around the name on success */
	bool forget;		/* the session no longer exists after op */
	bool has_all;		/* takes --all: every session */
	/* op_path's path, if any, is where the session's last trace chunk was
	 * archived: said on a line of its own after the done line */
	bool path_archive;
};

/* Parses [NAME] (or --all), connects, runs o->op and reports; an exit status. */
int cli_session_op(int argc, char **argv, const struct cli_session_op *o);

#endif /* LTT_CLI_H */
