/*
 * kernel-internal.h - what the files of src/kernel share: tracefs file
 * helpers and the instance object.
 */
#ifndef LTT_KERNEL_INTERNAL_H
#define LTT_KERNEL_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "kernel/kernel.h"
#include "util/macros.h"

/*
 * snprintf into a buffer whose size bounds what is sane (paths under
 * PATH_MAX, names): a longer result is cut. Returns what vsnprintf does.
 */
int kt_fmt(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

struct kt_uprobe {
	char *event;		/* GROUP/NAME as uprobe_events spells it */
};

struct kt_instance {
	char name[96];		/* ltt-SESSION-PID */
	char path[PATH_MAX];
	unsigned ncpus;
	bool function_tracer;	/* current_tracer was set to function */
	struct kt_uprobe *uprobes;
	size_t nuprobes;
};

/*
 * Writes s to file path (O_WRONLY, O_TRUNC unless append). Returns 0 or
 * the negative errno of open/write.
 */
int kt_file_write(const char *path, const char *s, bool append);
/* printf-style path, then kt_file_write. */
int kt_file_writef(bool append, const char *s, const char *pathfmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Reads at most cap-1 bytes of path into buf, NUL-terminated. Returns the
 * length or a negative errno.
 */
ssize_t kt_file_read(const char *path, char *buf, size_t cap);
/* Reads the whole file into a malloc'ed NUL-terminated string. */
int kt_file_read_all(const char *path, char **ret, size_t *ret_len);

/* The tracefs root (kt_tracefs_open must have succeeded); never NULL. */
const char *kt_tracefs_root(void);

/* "uprobes group" used by this process: ltt_PID. */
void kt_uprobe_group(pid_t pid, char *buf, size_t size);

/* Removes every uprobe event of group (disabled everywhere first). */
int kt_uprobe_group_remove(const char *group);

/*
 * For the state dump: a new event class of the kernel stream class (takes
 * payload, a struct), and an event written on cpu's stream at ts (raised to
 * the stream's last timestamp) with context tid.
 */
int kt_converter_new_class(struct kt_converter *c, const char *name, struct ctf_type *payload,
			  const struct ctf_event_class **ret, struct kt_error *err);
int kt_converter_write(struct kt_converter *c, unsigned cpu, const struct ctf_event_class *ec,
		       uint64_t ts, int64_t tid, const struct ctf_value *v, size_t n,
		       struct kt_error *err);

#endif /* LTT_KERNEL_INTERNAL_H */
