/*
 * kernel.h - the kernel tracing backend on tracefs (no kernel module).
 *
 *   instance     a tracefs instance per session (instances/ltt-SESSION-PID):
 *                create, configure (trace_clock mono, buffer size, discard or
 *                overwrite), start/stop, destroy; stale instances of dead
 *                daemons found and removed.
 *   events       tracepoints by name or glob (LTTng names accepted),
 *                syscalls, kernel filters, uprobes on ELF:SYMBOL, the
 *                function tracer when the kernel allows it; listings.
 *   format       the kernel's `format` files parsed into field layouts.
 *   page         the ring-buffer page and record decoder (pure: no I/O).
 *   reader       per-CPU reader of trace_pipe_raw: memory-mapped ring buffer
 *                (kernel 6.10+), else read() of whole pages; lost events.
 *   convert      records to CTF streams kernel/CHANNEL_CPU with LTTng's
 *                kernel event and field names, through the CTF writer.
 *   statedump    lttng_statedump_* events from /proc at session start.
 *
 * Design, name mapping and what a kernel may refuse:
 * doc/design/kernel-tracing.md.
 *
 * Context: the session daemon (control) and the consumer (reader,
 * converter), as root; nothing here is thread-safe: each object has one
 * owner. Errors are negative errnos; functions that can fail for a reason
 * the user must read take a struct kt_error (may be NULL) and write a
 * sentence naming the object and what the kernel said. Libraries never
 * print.
 */
#ifndef LTT_KERNEL_H
#define LTT_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ctf/ctf-clock.h"
#include "ctf/ctf.h"

#define KT_TRACEFS_PATH "/sys/kernel/tracing"
#define KT_INSTANCE_PREFIX "ltt-"

struct kt_error {
	char msg[512];
};

/* Writes the message (printf format) if err is non-NULL; returns r. */
int kt_error_set(struct kt_error *err, int r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- tracefs ---- */

/*
 * The tracefs mount point, mounting tracefs at /sys/kernel/tracing if it is
 * not mounted (root only). $LTT_TRACEFS overrides the path (tests).
 * Returns 0 and *ret_path (static storage), or a negative errno of mount()
 * with a message.
 */
int kt_tracefs_open(const char **ret_path, struct kt_error *err);

/* ---- instances ---- */

struct kt_instance;
struct kt_event_format;

struct kt_instance_config {
	const char *session;		/* [A-Za-z0-9_.-]+, <= 64 chars */
	uint64_t subbuf_size;		/* bytes; 0 = 4096 x ... default; above the kernel's
					 * largest sub-buffer, that one (more of them) */
	uint64_t num_subbuf;		/* buffer_size_kb = size x count / 1024 */
	bool overwrite;			/* false: discard new events when full (LTTng default) */
	const char *clock;		/* NULL = "mono"; kt_trace_clock() names the session's */
	unsigned wakeup_percent;	/* buffer_percent: poll() on a CPU's trace_pipe_raw
					 * wakes when it is this full; 0 = the kernel's default */
};

/*
 * The tracefs trace_clock that reads the session clock kind: "x86-tsc" (the
 * raw TSC, the counter the user-space tracer reads) for CTF_CLOCK_TSC,
 * "mono" (CLOCK_MONOTONIC) otherwise.
 */
const char *kt_trace_clock(enum ctf_clock_kind kind);

/*
 * Creates instances/ltt-SESSION-PID (PID: this process), sets trace_clock,
 * buffer_size_kb, options/overwrite, tracer nop, tracing_on 0. Returns 0
 * and *ret (kt_instance_destroy), -EEXIST (same name), -EINVAL (bad
 * session name or sizes; err says which), or an errno from tracefs.
 * On failure nothing is left in tracefs.
 */
int kt_instance_create(const struct kt_instance_config *cfg, struct kt_instance **ret,
		       struct kt_error *err);

/*
 * Stops tracing, disables every event, removes the uprobes this instance
 * added and removes the instance directory. Accepts NULL. Returns 0 or the
 * first errno (it still frees the object and tries every step).
 */
int kt_instance_destroy(struct kt_instance *inst);

/*
 * Opens an existing instance by name (ltt-...), to read it (the consumer):
 * nothing in tracefs changes, and kt_instance_close() only frees the
 * handle. Returns 0 and *ret, -EINVAL (not an ltt instance name), -ENOENT.
 */
int kt_instance_open(const char *name, struct kt_instance **ret, struct kt_error *err);
void kt_instance_close(struct kt_instance *inst);

const char *kt_instance_name(const struct kt_instance *inst);
/* Absolute path of the instance directory. */
const char *kt_instance_path(const struct kt_instance *inst);

/*
 * Events of pid (a consumer or daemon that must not trace itself: its own
 * reads and writes would feed the buffer it drains) are not recorded:
 * appended to the instance's set_event_notrace_pid. Returns 0 or an errno.
 */
int kt_instance_exclude_pid(struct kt_instance *inst, pid_t pid, struct kt_error *err);

/*
 * A pid tracker (LTTng's `track -k --pid`): only the events of the n
 * processes pids (their threads now, and the threads and children they make
 * from now on: options/event-fork) are recorded, through the instance's
 * set_event_pid; all: every process again (n ignored). n 0 without all
 * records none: the list then holds KT_PID_NONE, a pid no task can have.
 * A pid that is not running is written as it is (a tid it may get later is
 * not followed). Returns 0 or an errno with err saying which file.
 */
int kt_instance_track_pids(struct kt_instance *inst, const int64_t *pids, size_t n, bool all,
			   struct kt_error *err);
#define KT_PID_NONE 4194305	/* PID_MAX_LIMIT + 1 */

/* tracing_on 1/0. */
int kt_instance_start(struct kt_instance *inst, struct kt_error *err);
int kt_instance_stop(struct kt_instance *inst, struct kt_error *err);

/* Number of possible CPUs (per_cpu/cpuN directories of the instance). */
unsigned kt_instance_ncpus(const struct kt_instance *inst);

/*
 * Removes the ltt-*-PID instances whose PID is not alive, and their
 * uprobe groups (ltt_PID). *ret_removed (may be NULL) counts instances.
 * Context: a daemon at startup.
 */
int kt_instance_cleanup_stale(unsigned *ret_removed, struct kt_error *err);

/* ---- events ---- */

/*
 * Enables the tracepoints matching pattern: "SYSTEM:NAME" or "SYSTEM/NAME"
 * (globs with *), or "NAME" alone matched against every system, trying the
 * LTTng spelling too ("irq_softirq_entry" = irq:softirq_entry,
 * "syscall_entry_openat" = syscalls:sys_enter_openat); "*" or "all" =
 * every tracepoint but the syscalls (kt_instance_enable_syscalls adds
 * those). Returns the number of events enabled (> 0), -ENOENT (nothing
 * matches), or an errno from tracefs.
 */
int kt_instance_enable_events(struct kt_instance *inst, const char *pattern,
			      struct kt_error *err);
int kt_instance_disable_events(struct kt_instance *inst, const char *pattern,
			       struct kt_error *err);

/*
 * Whether tracefs event system:name matches pattern as
 * kt_instance_enable_events reads it: "SYSTEM:NAME" globs name it
 * explicitly; a bare name or glob matches the tracefs or the LTTng name,
 * never a dynamic event (uprobes: their groups must be named), and a bare
 * glob or "*" never a syscall.
 */
bool kt_event_matches(const char *pattern, const char *system, const char *name);

/*
 * Calls cb(system, name) for each event of the instance matching pattern
 * (kt_event_matches). Returns the number of events (> 0), -ENOENT (none,
 * with a message), cb's first negative value, or an errno of listing.
 */
int kt_instance_for_each_event(struct kt_instance *inst, const char *pattern,
			       int (*cb)(const char *system, const char *name, void *arg),
			       void *arg, struct kt_error *err);

/* Enables or disables one event of the instance. 0 or an errno with a message. */
int kt_instance_event_enable(struct kt_instance *inst, const char *system, const char *name,
			     bool on, struct kt_error *err);

/*
 * Sets the kernel filter of one event to expr, an LTTng filter expression
 * (translated by kt_filter_translate); NULL clears it. Returns 0,
 * -EOPNOTSUPP (the kernel's grammar cannot say it: err says what), or the
 * kernel's refusal (-EINVAL: err holds the kernel's own explanation, read
 * back from the filter file, which is cleared again).
 */
int kt_instance_event_filter(struct kt_instance *inst, const char *system, const char *name,
			     const char *expr, struct kt_error *err);

/*
 * An LTTng filter expression in the kernel's filter grammar, for the event
 * of format fmt (may be NULL: no field renames): LTTng's field and context
 * names become the kernel's, `==` with a `*` wildcard its glob match `~`.
 * Returns 0 and *ret (free() it), -EOPNOTSUPP with err saying which
 * construct the kernel does not have (then it is for the consumer to
 * filter), -ENOMEM.
 */
int kt_filter_translate(const char *expr, const struct kt_event_format *fmt, char **ret,
			struct kt_error *err);

/*
 * Calls cb(system, name) for each event enabled in the instance (its
 * set_event file, uprobes included), e.g. to declare their classes in the
 * trace's metadata before any of them fires. Stops at and returns cb's
 * first non-zero value; 0, or an errno of reading set_event.
 */
int kt_instance_for_each_enabled(struct kt_instance *inst,
				 int (*cb)(const char *system, const char *name, void *arg),
				 void *arg);

/*
 * Enables the entry and exit tracepoints of syscall `name` (a glob; "*" or
 * NULL = all). Returns the number of tracepoints enabled, -ENOENT.
 */
int kt_instance_enable_syscalls(struct kt_instance *inst, const char *name,
				struct kt_error *err);

/*
 * Sets the kernel filter of every event matching pattern (as
 * kt_instance_enable_events) to expr, as kt_instance_event_filter does.
 * Returns the number of events filtered, -ENOENT, or the first event's
 * error (-EOPNOTSUPP, -EINVAL with the kernel's explanation).
 */
int kt_instance_set_filter(struct kt_instance *inst, const char *pattern,
			   const char *expr, struct kt_error *err);

/*
 * Adds a uprobe on SYMBOL of ELF file PATH ("PATH:SYMBOL", "PATH:0xOFFSET",
 * with LTTng's optional "elf:" in front), resolved to its file offset from
 * the symbol tables, as event ltt_PID:NAME (uprobes group ltt_PID; NAME:
 * name made an identifier, or the symbol when name is NULL; a suffix _N
 * when taken), and enables it. fetchargs: NULL or the kernel's uprobe
 * fetch-argument syntax ("path=+0(%di):ustring"). The event ("GROUP/NAME")
 * goes to ret_event (size bytes; may be NULL). Returns 0, -ENOENT (no such
 * file or symbol), -ENOEXEC (not ELF64), -EOPNOTSUPP (no uprobe_events;
 * "sdt:" probes), or the kernel's errno.
 */
int kt_instance_add_uprobe(struct kt_instance *inst, const char *spec, const char *name,
			   const char *fetchargs, char *ret_event, size_t size,
			   struct kt_error *err);

/*
 * Function tracing (`--function`): sets set_ftrace_filter to the function
 * and the instance tracer to "function". Where the kernel refuses, returns
 * its errno and err says why and what the kernel would need (here: the
 * function tracer gives EPERM under lockdown, and there are no kprobes).
 */
int kt_instance_enable_function(struct kt_instance *inst, const char *function,
				struct kt_error *err);
/* Turns the function tracer off again (tracer nop, empty set_ftrace_filter). */
int kt_instance_disable_function(struct kt_instance *inst, struct kt_error *err);

/*
 * File offset of symbol `sym` in ELF64 file `path` (the value a uprobe
 * takes), from .symtab or .dynsym, through the PT_LOAD segments. Returns 0
 * and *ret_offset, -ENOENT, -ENOEXEC, or an errno of open/read.
 */
int kt_elf_symbol_offset(const char *path, const char *sym, uint64_t *ret_offset);

/*
 * Calls cb for every available event ("system:name") of tracefs, in
 * available_events order; syscalls_only: only the syscalls
 * ("openat", once per syscall). Stops and returns cb's value if non-zero.
 */
int kt_list_events(bool syscalls_only, int (*cb)(const char *name, void *arg), void *arg,
		   struct kt_error *err);

/* ---- format files ---- */

enum kt_field_kind {
	KT_FIELD_INT = 1,	/* size 1, 2, 4, 8; is_signed */
	KT_FIELD_STRING,	/* char array: NUL-terminated within size */
	KT_FIELD_DATA_LOC,	/* __data_loc: u32 = length << 16 | offset */
	KT_FIELD_REL_LOC,	/* __rel_loc: offset from the end of the field */
	KT_FIELD_ARRAY,		/* fixed array of elem_size integers */
	KT_FIELD_POINTER,	/* shown in hex */
};

struct kt_field {
	char *name;
	char *type;		/* as the kernel spells it */
	enum kt_field_kind kind;
	uint32_t offset, size;
	uint32_t elem_size;	/* ARRAY, DATA_LOC, REL_LOC: element size */
	bool is_signed;
	bool is_string;		/* DATA_LOC/REL_LOC of char */
	bool common;		/* common_* header field */
};

struct kt_event_format {
	char *system;
	char *name;
	uint32_t id;
	struct kt_field *fields;
	size_t nfields;
};

/*
 * Parses the text of a format file (len bytes, need not be NUL-terminated).
 * system may be NULL. Returns 0 and *ret (kt_event_format_free), -EBADMSG
 * (malformed: no name, no ID, a field line without offset/size, a field
 * past 64 KiB), -ENOMEM.
 */
int kt_event_format_parse(const char *text, size_t len, const char *system,
			  struct kt_event_format **ret);
void kt_event_format_free(struct kt_event_format *f);
/* Field index by name or -ENOENT. */
int kt_event_format_field(const struct kt_event_format *f, const char *name);

/* Reads and parses TRACEFS/events/SYSTEM/NAME/format. */
int kt_event_format_load(const char *system, const char *name,
			 struct kt_event_format **ret);

/* ---- ring-buffer pages ---- */

/* Page layout, from events/header_page (defaults: 64-bit kernel). */
struct kt_page_layout {
	uint32_t ts_offset;		/* 0 */
	uint32_t commit_offset;		/* 8 */
	uint32_t commit_size;		/* 8 (4 on 32-bit kernels) */
	uint32_t data_offset;		/* 16 */
};

#define KT_PAGE_LAYOUT_DEFAULT { 0, 8, 8, 16 }

/* Reads events/header_page; on any problem keeps the default layout. */
int kt_page_layout_load(struct kt_page_layout *l);

#define KT_RB_MISSED_EVENTS (UINT64_C(1) << 31)
#define KT_RB_MISSED_STORED (UINT64_C(1) << 30)

struct kt_page_header {
	uint64_t ts;			/* page timestamp: base of the deltas */
	uint64_t commit;		/* bytes of records after data_offset */
	bool missed;			/* events were lost before this page */
	bool missed_stored;		/* and their count is missed_count */
	uint64_t missed_count;
};

/*
 * Decodes a page header (page_size bytes at page). Returns 0, -EBADMSG if
 * the commit does not fit the page.
 */
int kt_page_header_decode(const struct kt_page_layout *l, const void *page,
			  size_t page_size, struct kt_page_header *h);

/* A decoded record. */
struct kt_record {
	uint64_t ts;			/* absolute, trace_clock units */
	const uint8_t *data;		/* the event: common_type first */
	uint32_t len;
};

/* Iterates the records of one page; the page must stay mapped. */
struct kt_page_iter {
	const uint8_t *data;		/* page + data_offset */
	uint32_t commit;		/* end of valid data */
	uint32_t pos;			/* next record header */
	uint64_t ts;			/* current timestamp */
	uint64_t extended;		/* TIME_EXTEND/TIME_STAMP seen (stats) */
	uint64_t padding;		/* discarded (padding) records */
};

/* Starts at the page's first record (pos 0) with ts = the page timestamp. */
void kt_page_iter_init(struct kt_page_iter *it, const struct kt_page_layout *l,
		       const void *page, const struct kt_page_header *h);

/*
 * The next data record, skipping padding and applying time extends and
 * absolute timestamps. Returns 1 and *rec, 0 at the end of the committed
 * data (call again after the commit grew: set it->commit), -EBADMSG on a
 * record that runs past the commit (the rest of the page is unusable).
 */
int kt_page_iter_next(struct kt_page_iter *it, struct kt_record *rec);

/* ---- per-CPU reader ---- */

struct kt_cpu_reader;

enum kt_reader_mode {
	KT_READER_AUTO = 0,	/* mmap, else read */
	KT_READER_MMAP,
	KT_READER_READ,
};

/*
 * Opens per_cpu/cpuN/trace_pipe_raw of the instance. AUTO maps the ring
 * buffer (meta page + sub-buffers) and falls back to read() of whole pages
 * if mmap or its ioctl is refused. Note: while mapped, the kernel refuses
 * to resize the buffer. Returns 0 and *ret (kt_cpu_reader_free), or an
 * errno.
 */
int kt_cpu_reader_create(struct kt_instance *inst, unsigned cpu, enum kt_reader_mode mode,
			 struct kt_cpu_reader **ret, struct kt_error *err);
void kt_cpu_reader_free(struct kt_cpu_reader *r);

/*
 * The descriptor of the CPU's trace_pipe_raw, to poll(): readable when the
 * buffer holds the instance's buffer_percent (or, at 0, anything).
 */
int kt_cpu_reader_fd(const struct kt_cpu_reader *r);

/* KT_READER_MMAP or KT_READER_READ: what is in use. */
enum kt_reader_mode kt_cpu_reader_mode(const struct kt_cpu_reader *r);

/*
 * Callback per record, in order. lost: events the kernel reports lost
 * since the previous call (page flags, stats), to be counted before rec.
 * A non-zero return stops the drain and is returned by it.
 */
typedef int (*kt_record_cb)(const struct kt_record *rec, uint64_t lost, void *arg);

/*
 * Consumes every record available now (non-blocking). Returns the number
 * of records delivered (>= 0), a callback's non-zero value, or an errno.
 */
long kt_cpu_reader_drain(struct kt_cpu_reader *r, kt_record_cb cb, void *arg);

/*
 * Events the kernel counts as lost on this CPU (per_cpu/cpuN/stats:
 * overrun + dropped events) that no drain callback has reported yet (a
 * drain that delivers no record keeps its count for later): call after
 * the final drain and add it to the stream. Returns >= 0 or an errno.
 */
long long kt_cpu_reader_lost_pending(struct kt_cpu_reader *r);

/* Counters. */
struct kt_reader_stats {
	uint64_t records, pages, bytes, lost, padding;
};
void kt_cpu_reader_stats(const struct kt_cpu_reader *r, struct kt_reader_stats *s);

/* ---- conversion to CTF ---- */

struct kt_converter;

/*
 * The context fields a kernel trace can carry besides `tid` (every event
 * has it: the record's common_pid), named as LTTng's kernel traces name
 * them. What tracefs gives per record is its emitter (common_pid) and its
 * CPU; the rest comes from the converter's per-thread state (threads.c):
 *   KT_CTX_PID       the thread group (pid): the state dump, then /proc,
 *                    else the kernel's saved_tgids, else the tid
 *   KT_CTX_PROCNAME  the thread's comm (char[16]): the state dump, the
 *                    comm fields of the records that carry one
 *                    (sched_switch, sched_process_fork, task_rename), else
 *                    /proc, else the kernel's saved_cmdlines
 *   KT_CTX_PRIO      the priority as LTTng's (task_prio: 20 for nice 0):
 *                    the state dump, sched_switch's prev_prio/next_prio
 *                    - 100, else /proc; KT_PRIO_UNKNOWN when none knows
 *   KT_CTX_CPU_ID    the CPU of the buffer the record was in
 */
enum kt_context {
	KT_CTX_PID = 1,
	KT_CTX_PROCNAME,
	KT_CTX_PRIO,
	KT_CTX_CPU_ID,
};
#define KT_CONTEXT_MAX 4
#define KT_PRIO_UNKNOWN INT32_MIN

struct kt_converter_config {
	const char *dir;		/* the trace directory (kernel/ lives here) */
	const char *channel;		/* "channel0" */
	unsigned ncpus;
	size_t packet_size;		/* bytes; 0 = 256 KiB */
	const char *trace_name;		/* session name */
	uint64_t start_ts;		/* session start, trace clock (statedump time) */
	unsigned nevents_hint;		/* events the session enabled: < 31 = compact headers */
	/* The session's clock (ctf/ctf-clock.h), the one its instance's
	 * trace_clock reads (kt_trace_clock()): user and kernel traces then
	 * share it. NULL: the monotonic clock, described now. */
	const struct ctf_clock_info *clock;
	bool growing;			/* files readable while written (ctf_fs_trace_set_growing):
					 * a consumer's; else they appear at kt_converter_close */
	/* The stream event context after tid, in this order, each once
	 * (-EINVAL otherwise); the events' fields in the metadata. */
	const enum kt_context *contexts;
	size_t ncontexts;
};

/*
 * A CTF trace under cfg->dir with one stream per CPU (kernel/CHANNEL_CPU
 * is cfg->dir/CHANNEL_CPU: the caller passes .../kernel), env as LTTng's
 * kernel traces (domain "kernel", sysname, kernel_release, kernel_version,
 * tracer_name "lttng-modules"...), the clock cfg->clock describes (the
 * trace_clock of the instance must read the same; default: "monotonic",
 * 1 GHz, offset = realtime - monotonic now, uuid from the boot id).
 * Returns 0 and *ret (kt_converter_free), or an errno with a message.
 */
int kt_converter_create(const struct kt_converter_config *cfg, struct kt_converter **ret,
			struct kt_error *err);

/*
 * Declares the event class of tracefs event fmt (copied), so that it is in
 * the metadata even if it never fires; named name (NULL: LTTng's name of
 * the event). Events met in records without a declaration are declared on
 * the fly from their format file. An event declared already stays as it is.
 */
int kt_converter_declare(struct kt_converter *c, const struct kt_event_format *fmt,
			 const char *name, struct kt_error *err);

/*
 * A filter evaluated on the converted records of tracefs event fmt (declared
 * now if it was not), for what the kernel could not filter: a record is written
 * only if one of the n programs (filter bytecode of src/common/filter,
 * copied) passes on its fields (LTTng's names) and contexts ($ctx.tid,
 * vtid, pid, vpid, cpu_id; kt_filter_check). n = 0 removes it. Filtered
 * records are counted (stats.filtered), not discarded. Returns 0, -EINVAL
 * (invalid program, unknown context: err says which).
 */
int kt_converter_set_filter(struct kt_converter *c, const struct kt_event_format *fmt,
			    const uint8_t *const *codes, const size_t *lens, size_t n,
			    struct kt_error *err);
/* Removes every filter set by kt_converter_set_filter. */
void kt_converter_clear_filters(struct kt_converter *c);

/*
 * Whether compiled filter code can be evaluated on kernel records by a
 * converter: a valid program whose contexts are among those a record
 * carries (tid, vtid, pid, vpid, cpu_id). 0, or -EINVAL with err naming
 * what is not.
 */
int kt_filter_check(const uint8_t *code, size_t len, struct kt_error *err);

/*
 * Converts one record of CPU cpu. Returns 0, -ENOENT (unknown event id: no
 * format file; counted, not fatal), -EBADMSG (record shorter than its
 * format), or a writer error.
 */
int kt_converter_record(struct kt_converter *c, unsigned cpu, const struct kt_record *rec,
			struct kt_error *err);

/* n events lost on cpu: carried by the next packet's events_discarded. */
void kt_converter_lost(struct kt_converter *c, unsigned cpu, uint64_t n);

/*
 * Writes the state dump (lttng_statedump_start, one
 * lttng_statedump_process_state per thread of /proc, one
 * lttng_statedump_file_descriptor per open fd and one
 * lttng_statedump_vm_map per memory map of each process,
 * lttng_statedump_end) into the stream of `cpu` at timestamp ts (raised to
 * the stream's last one). May be called again (a session restarted).
 * Returns the number of threads or an errno.
 */
int kt_converter_statedump(struct kt_converter *c, unsigned cpu, uint64_t ts,
			   struct kt_error *err);

/*
 * Closes every stream's open packet and brings the metadata up to date:
 * what was converted so far is on disk (growing mode). 0 or an errno.
 */
int kt_converter_sync(struct kt_converter *c, struct kt_error *err);

/*
 * The trace's clock gets the offset of clock (its name must be the
 * trace's), and the metadata file is written again (regenerate metadata).
 * 0, -ENOENT (another clock), or an errno of writing.
 */
int kt_converter_set_clock_offset(struct kt_converter *c, const struct ctf_clock_info *clock,
				  struct kt_error *err);

/* Flushes the streams and writes metadata and index. Returns 0 or an errno. */
int kt_converter_close(struct kt_converter *c, struct kt_error *err);
void kt_converter_free(struct kt_converter *c);

/* Counters. */
struct kt_converter_stats {
	uint64_t events, unknown, bad, clamped, discarded;
	uint64_t filtered;		/* records a converter filter refused */
};
void kt_converter_stats(const struct kt_converter *c, struct kt_converter_stats *s);

/*
 * The LTTng name of tracefs event system:name ("sched_switch",
 * "irq_softirq_entry", "syscall_entry_openat", "kmem_kmalloc"), written to
 * buf. Returns buf.
 */
char *kt_lttng_event_name(const char *system, const char *name, char *buf, size_t size);

/* Current CLOCK_MONOTONIC in ns (the "mono" trace_clock). */
uint64_t kt_clock_mono_ns(void);

#endif /* LTT_KERNEL_H */
