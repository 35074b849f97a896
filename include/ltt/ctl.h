/*
 * <ltt/ctl.h> - control of ltt tracing sessions (libltt-ctl).
 *
 * Everything the `ltt` command does goes through this API: it talks to the
 * user's session daemon (ltt-sessiond) over its Unix socket under the
 * runtime directory ($LTT_HOME, else /run/ltt for root, else
 * $XDG_RUNTIME_DIR/ltt, else $HOME/.ltt).
 *
 * Conventions: functions return 0 (or a count) on success, or a negative
 * error: -errno for system errors, -LTT_ERR_* (>= 1024) for tracing errors;
 * ltt_strerror() names both. ret_ parameters are written only on success.
 * Objects returned are owned by the caller and freed with the matching
 * *_free(), which accepts NULL. Attribute structs begin with their size so
 * that they can grow: initialize them with the *_init() function.
 * The library never prints and is safe to use from several threads with one
 * connection per thread.
 */
#ifndef LTT_CTL_H
#define LTT_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Tracing errors, returned negated. */
enum ltt_error {
	LTT_ERR_FIRST = 1024,
	LTT_ERR_NO_SESSIOND = 1024,	/* no session daemon is running */
	LTT_ERR_PROTOCOL,		/* the daemon answered something invalid */
	LTT_ERR_VERSION,		/* the daemon speaks another protocol version */
	LTT_ERR_INVALID_NAME,		/* not a valid session or channel name */
	LTT_ERR_INVALID_PATTERN,	/* not a valid event name or glob */
	LTT_ERR_INVALID_ATTR,		/* an attribute is out of range (the detail says which) */
	LTT_ERR_SESSION_EXISTS,
	LTT_ERR_SESSION_NOT_FOUND,
	LTT_ERR_CHANNEL_EXISTS,
	LTT_ERR_CHANNEL_NOT_FOUND,
	LTT_ERR_EVENT_EXISTS,		/* the same rule is already enabled */
	LTT_ERR_EVENT_NOT_FOUND,
	LTT_ERR_SESSION_ACTIVE,		/* not allowed while the session is tracing */
	LTT_ERR_ALREADY_STARTED,
	LTT_ERR_ALREADY_STOPPED,
	LTT_ERR_KERNEL_UNAVAILABLE,	/* this daemon cannot trace the kernel */
	LTT_ERR_NO_OUTPUT,		/* the output directory cannot be created */
	LTT_ERR_INVALID_FILTER,		/* the filter expression does not compile (detail: where) */
	LTT_ERR_NOT_SNAPSHOT,		/* the session is not in snapshot mode */
	LTT_ERR_STARTED_ONCE,		/* not allowed once the session has been started */
	LTT_ERR_CONTEXT_UNKNOWN,	/* no such context type (in that domain) */
	LTT_ERR_CONTEXT_EXISTS,		/* the channel records that context already */
	LTT_ERR_CONTEXT_UNAVAILABLE,	/* the machine cannot count it (e.g. no PMU) */
	LTT_ERR_ID_TRACKED,		/* the value is in the inclusion set already */
	LTT_ERR_ID_NOT_TRACKED,		/* the value is not in the inclusion set */
	LTT_ERR_SNAPSHOT_OUTPUT_EXISTS,	/* the session has its snapshot output already */
	LTT_ERR_SNAPSHOT_OUTPUT_NOT_FOUND,
	LTT_ERR_NO_SNAPSHOT_OUTPUT,	/* nowhere to write a snapshot */
	LTT_ERR_ROTATION_UNAVAILABLE,	/* snapshot sessions and sessions without output */
	LTT_ERR_NOT_STARTED,		/* the session never started / is not tracing */
	LTT_ERR_ROTATED_AFTER_STOP,	/* rotated once already since it stopped */
	LTT_ERR_ROTATION_SCHEDULE_SET,	/* a schedule of this kind is set already */
	LTT_ERR_ROTATION_SCHEDULE_NOT_SET,
	LTT_ERR_SESSION_FILE,		/* a session file is malformed (detail: FILE:LINE:COLUMN) */
	LTT_ERR_SESSION_FILE_EXISTS,	/* saving would replace a file (use force) */
	LTT_ERR_SESSION_FILE_NOT_FOUND,
	LTT_ERR_LAST
};

/* Message for a negative errno or -LTT_ERR_*; never NULL. */
const char *ltt_strerror(int err);

enum ltt_domain {
	LTT_DOMAIN_USER = 1,	/* -u: userspace tracepoints */
	LTT_DOMAIN_KERNEL = 2,	/* -k: the kernel, through tracefs */
};

/* ---- Connection ------------------------------------------------------------ */

struct ltt_ctl;

/*
 * Connects to the session daemon of this user. Returns 0, or
 * -LTT_ERR_NO_SESSIOND when none listens, -LTT_ERR_VERSION, or -errno.
 */
int ltt_ctl_connect(struct ltt_ctl **ret_ctl);
void ltt_ctl_close(struct ltt_ctl *ctl);

/*
 * The detail of the last error this connection got from the daemon (for
 * example which attribute was out of range), or "" when it gave none.
 * Valid until the next call on ctl.
 */
const char *ltt_ctl_error_detail(const struct ltt_ctl *ctl);

/*
 * The runtime directory and the daemon's socket path, as the library
 * resolves them. Write at most size bytes; 0 or a negative errno.
 */
int ltt_ctl_runtime_dir(char *buf, size_t size);
int ltt_ctl_sessiond_socket(char *buf, size_t size);

/* ---- Sessions -------------------------------------------------------------- */

struct ltt_session_attr {
	uint32_t size;		/* sizeof(struct ltt_session_attr) */
	const char *output;	/* trace directory; NULL: $HOME/ltt-traces/NAME-DATE-TIME */
	bool no_output;		/* record into memory only */
	bool snapshot;		/* flight recorder: buffers are written by ltt_snapshot_record() */
};
void ltt_session_attr_init(struct ltt_session_attr *attr);

/*
 * Creates a session. name NULL gives auto-YYYYMMDD-HHMMSS. On success, if
 * ret_name is not NULL it receives the name (free() it).
 */
int ltt_session_create(struct ltt_ctl *ctl, const char *name,
		       const struct ltt_session_attr *attr, char **ret_name);
/* Stops the session if it is tracing, flushes what was recorded, destroys it. */
int ltt_session_destroy(struct ltt_ctl *ctl, const char *name);
/*
 * The same; *ret_archive gets the directory its last trace chunk was
 * archived to (a session that rotated: free() it), else NULL.
 */
int ltt_session_destroy_archive(struct ltt_ctl *ctl, const char *name, char **ret_archive);
int ltt_session_start(struct ltt_ctl *ctl, const char *name);
/* Returns once every event recorded before it is in the trace files. */
int ltt_session_stop(struct ltt_ctl *ctl, const char *name);

/* ---- Snapshots ----------------------------------------------------------- */

struct ltt_snapshot_attr {
	uint32_t size;		/* sizeof(struct ltt_snapshot_attr) */
	const char *name;	/* NULL: the output's name */
	const char *path;	/* absolute; NULL: the session's snapshot output */
	uint64_t max_size;	/* bytes of stream data at most; 0: the output's limit */
};
void ltt_snapshot_attr_init(struct ltt_snapshot_attr *attr);

/*
 * Writes what the buffers of a snapshot session hold now, without stopping
 * the writers, as a complete trace in DIR/NAME-YYYYMMDD-HHMMSS-N, where DIR
 * and NAME are the snapshot output's (attr NULL) or attr's, and N counts the
 * session's snapshots. With a maximum size, each stream keeps its newest
 * sub-buffers, as many per stream as fit in the size over all streams
 * (-LTT_ERR_INVALID_ATTR if not even one each fits). What the buffers lost
 * before (overwritten, or left out by the size) shows to readers as
 * discarded packets. On success *ret_path (may be NULL) receives the
 * directory (free() it). -LTT_ERR_NOT_SNAPSHOT for a session that is not in
 * snapshot mode, -LTT_ERR_NO_SNAPSHOT_OUTPUT when no path is known.
 */
int ltt_snapshot_record(struct ltt_ctl *ctl, const char *session,
			const struct ltt_snapshot_attr *attr, char **ret_path);

/*
 * Sets the snapshot output of a snapshot session (at most one: delete the
 * current one first): where `snapshot record` writes. name NULL: snapshot-ID.
 * On success *ret_id (may be NULL) receives its id.
 */
int ltt_snapshot_output_add(struct ltt_ctl *ctl, const char *session, const char *name,
			    const char *path, uint64_t max_size, uint32_t *ret_id);
/* Removes it, by id (name NULL) or by name. */
int ltt_snapshot_output_del(struct ltt_ctl *ctl, const char *session, uint32_t id,
			    const char *name);

struct ltt_snapshot_output_list;
/* The session's snapshot outputs. Free with ltt_snapshot_output_list_free(). */
int ltt_snapshot_output_list_get(struct ltt_ctl *ctl, const char *session,
				 struct ltt_snapshot_output_list **ret);
size_t ltt_snapshot_output_list_count(const struct ltt_snapshot_output_list *l);
/* Entry i; the strings belong to the list. */
void ltt_snapshot_output_list_entry(const struct ltt_snapshot_output_list *l, size_t i,
				    uint32_t *ret_id, const char **ret_name, const char **ret_path,
				    uint64_t *ret_max_size);
void ltt_snapshot_output_list_free(struct ltt_snapshot_output_list *l);

/* ---- Trace chunks: rotation, clear, metadata --------------------------------- */

/*
 * Rotates a session: what it recorded so far becomes a complete trace in
 * OUTPUT/archives/BEGIN-END-INDEX while recording goes on in a new chunk.
 * On success *ret_archive (may be NULL) receives the archive's directory
 * (free() it). -LTT_ERR_ROTATION_UNAVAILABLE (snapshot session, no
 * output), -LTT_ERR_NOT_STARTED (never started),
 * -LTT_ERR_ROTATED_AFTER_STOP.
 */
int ltt_session_rotate(struct ltt_ctl *ctl, const char *session, char **ret_archive);

/*
 * Schedules rotations: every timer_us microseconds while tracing, and/or
 * whenever the current chunk holds size bytes (0: leave that kind alone).
 * -LTT_ERR_ROTATION_SCHEDULE_SET if one of that kind exists.
 */
int ltt_rotation_enable(struct ltt_ctl *ctl, const char *session, uint64_t timer_us,
			uint64_t size);
/* Unschedules them; -LTT_ERR_ROTATION_SCHEDULE_NOT_SET if one asked for is not set. */
int ltt_rotation_disable(struct ltt_ctl *ctl, const char *session, bool timer, bool size);

/*
 * Drops what the session recorded so far: its buffers and its current
 * chunk's trace files (archived chunks stay); recording goes on if it is
 * tracing. A snapshot session's buffers only.
 */
int ltt_session_clear(struct ltt_ctl *ctl, const char *session);

/*
 * Samples the wall time again (realtime - monotonic) and rewrites the
 * metadata files with it. -LTT_ERR_NOT_STARTED unless the session is
 * tracing; -LTT_ERR_INVALID_ATTR for per-PID channels.
 */
int ltt_regenerate_metadata(struct ltt_ctl *ctl, const char *session);

/*
 * Writes the state dump again (the threads, open files and memory maps of
 * every process, as at start) into the session's kernel trace, now.
 * -LTT_ERR_NOT_STARTED unless the session is tracing;
 * -LTT_ERR_INVALID_ATTR without a kernel channel (the user-space tracer
 * has no state dump).
 */
int ltt_regenerate_statedump(struct ltt_ctl *ctl, const char *session);

/* ---- Session files: save and load ----------------------------------------- */

/*
 * Writes the configuration of a session (NULL: every session) into
 * DIR/NAME.ltt-session (dir absolute). Without force an existing file is not
 * replaced (-LTT_ERR_SESSION_FILE_EXISTS). Returns the number of files
 * written.
 */
int ltt_session_save(struct ltt_ctl *ctl, const char *session, const char *dir, bool force);

struct ltt_load_attr {
	uint32_t size;			/* sizeof(struct ltt_load_attr) */
	const char *const *paths;	/* absolute files or directories, searched in order */
	size_t n_paths;
	bool force;			/* replace sessions of the same name */
	const char *override_url;	/* another output (absolute path or file://PATH) */
	const char *override_name;	/* another name (one session only) */
};
void ltt_load_attr_init(struct ltt_load_attr *attr);

/*
 * Creates the session (NULL: every session) described in the files of
 * attr->paths: a directory holds NAME.ltt-session files, the first
 * directory having one wins. Nothing is created if a file is malformed
 * (-LTT_ERR_SESSION_FILE, the detail says FILE:LINE:COLUMN and why) or a
 * session exists without force. A session saved while tracing starts.
 * Returns the number of sessions created.
 */
int ltt_session_load(struct ltt_ctl *ctl, const char *session, const struct ltt_load_attr *attr);

/* ---- Channels and event rules ------------------------------------------ */

enum ltt_buffers {
	LTT_BUFFERS_UID = 1,	/* one set of per-CPU buffers per user (default) */
	LTT_BUFFERS_PID = 2,	/* one set per process */
	LTT_BUFFERS_GLOBAL = 3,	/* the kernel domain's only scheme */
};

struct ltt_channel_attr {
	uint32_t size;			/* sizeof(struct ltt_channel_attr) */
	uint64_t subbuf_size;		/* bytes, a power of two */
	uint32_t num_subbuf;		/* a power of two >= 2 */
	bool overwrite;			/* flight recorder; default discard */
	uint64_t switch_timer_us;	/* 0: none */
	uint64_t read_timer_us;
	int64_t blocking_timeout_us;	/* 0: never block; -1: block for ever */
	enum ltt_buffers buffers;
	uint64_t tracefile_size;	/* bytes per stream file (>= subbuf_size); 0: one file */
	uint32_t tracefile_count;	/* stream files kept, the oldest replaced; 0: all */
};
/* Fills the defaults of a channel of the domain. */
void ltt_channel_attr_init(struct ltt_channel_attr *attr, enum ltt_domain domain);

/* Creates a channel (-LTT_ERR_CHANNEL_EXISTS if the name is taken). */
int ltt_channel_enable(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		       const char *channel, const struct ltt_channel_attr *attr);

enum ltt_loglevel_match {
	LTT_LOGLEVEL_ALL = 0,	/* any level */
	LTT_LOGLEVEL_RANGE = 1,	/* this level or more severe (--loglevel) */
	LTT_LOGLEVEL_SINGLE = 2,	/* exactly this level (--loglevel-only) */
};

enum ltt_event_type {
	LTT_EVENT_TRACEPOINT = 1,
	LTT_EVENT_SYSCALL = 2,		/* kernel: entry and exit of the syscalls named */
	LTT_EVENT_FUNCTION = 3,		/* kernel: entries of a function (location: SYMBOL) */
	LTT_EVENT_USERSPACE_PROBE = 4,	/* kernel: a uprobe (location: [elf:]PATH:SYMBOL) */
};

struct ltt_event_rule {
	uint32_t size;			/* sizeof(struct ltt_event_rule) */
	enum ltt_event_type type;
	const char *pattern;		/* event name or glob with '*'; syscall rules: the
					 * syscall's name or glob; FUNCTION and
					 * USERSPACE_PROBE: the name the events get */
	enum ltt_loglevel_match loglevel_match;
	int loglevel;			/* 0 (EMERG) .. 14 (DEBUG), as lttng-ust */
	const char *const *exclusions;	/* names or globs not to record */
	size_t n_exclusions;
	const char *filter;		/* filter expression, or NULL */
	const char *location;		/* FUNCTION, USERSPACE_PROBE: where; else NULL */
};
void ltt_event_rule_init(struct ltt_event_rule *rule);

/*
 * Enables an event rule in a channel of the session. channel NULL means
 * "channel0", created with default attributes if the domain has no
 * channel of that name yet; a named channel must exist.
 */
int ltt_event_enable(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		     const char *channel, const struct ltt_event_rule *rule);
/*
 * Disables the enabled rules of the channel (NULL: channel0) whose pattern
 * is exactly `pattern` ("*" with all set: every rule). Returns the number
 * of rules disabled (>= 1), or -LTT_ERR_EVENT_NOT_FOUND.
 */
int ltt_event_disable(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		      const char *channel, const char *pattern, bool all);

/* ---- Contexts -------------------------------------------------------------- */

/*
 * Context types: extra fields recorded with every event of a channel, named
 * as `lttng add-context -t` names them ("vpid", "procname",
 * "perf:thread:task-clock", ...). Type i of those ltt knows (NULL past the
 * last); *ret_domains (may be NULL) receives the domains that can record it,
 * as bits (1u << LTT_DOMAIN_USER, 1u << LTT_DOMAIN_KERNEL).
 */
const char *ltt_context_type_name(size_t i, unsigned *ret_domains);

/*
 * Adds the context types (all of them or none) to the channel (NULL: every
 * channel of the domain, channel0 being created with the domain's defaults
 * if the domain has none), before the session is ever started.
 * -LTT_ERR_CONTEXT_UNKNOWN, -LTT_ERR_CONTEXT_EXISTS (a channel records one
 * already, or a type is given twice), -LTT_ERR_CONTEXT_UNAVAILABLE (e.g. a
 * hardware counter without a PMU), -LTT_ERR_STARTED_ONCE,
 * -LTT_ERR_CHANNEL_NOT_FOUND.
 */
int ltt_context_add(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		    const char *channel, const char *const *types, size_t n_types);

/* ---- Trackers -------------------------------------------------------------- */

/* Process attributes a session's recording can be restricted by (`ltt track`). */
enum ltt_process_attr {
	LTT_PROCESS_ATTR_PID = 1,	/* as seen from the root pid namespace (kernel) */
	LTT_PROCESS_ATTR_VPID,		/* as seen by the process */
	LTT_PROCESS_ATTR_UID,		/* kernel */
	LTT_PROCESS_ATTR_VUID,
	LTT_PROCESS_ATTR_GID,		/* kernel */
	LTT_PROCESS_ATTR_VGID,
};

/*
 * A session records the events of a process only if each of the process's
 * attributes is in the domain's inclusion set for it; every set includes
 * all values at creation. ltt_tracker_track() adds the values to the set of
 * attr (a set that included all becomes exactly these values); with
 * n_values 0 the set includes all values again. ltt_tracker_untrack()
 * removes them; with n_values 0 the set becomes empty (nothing recorded).
 * All the values or none: -LTT_ERR_ID_TRACKED (a value is in the set
 * already, or given twice), -LTT_ERR_ID_NOT_TRACKED (untrack: a value is
 * not in the set, or the set includes all), -LTT_ERR_INVALID_ATTR (an
 * attribute the domain does not track). Takes effect at once in a session
 * that is recording.
 */
int ltt_tracker_track(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		      enum ltt_process_attr attr, const int64_t *values, size_t n_values);
int ltt_tracker_untrack(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			enum ltt_process_attr attr, const int64_t *values, size_t n_values);

/* ---- Describing sessions -------------------------------------------- */

struct ltt_session;	/* a description, as the daemon reported it */

/* The sessions, sorted by name. Free with ltt_session_list_free(). */
int ltt_session_list(struct ltt_ctl *ctl, struct ltt_session ***ret_list, size_t *ret_count);
void ltt_session_list_free(struct ltt_session **list, size_t count);
/* One session with its channels and rules. Free with ltt_session_free(). */
int ltt_session_get(struct ltt_ctl *ctl, const char *name, struct ltt_session **ret);
void ltt_session_free(struct ltt_session *s);

const char *ltt_session_name(const struct ltt_session *s);
/* "" when the session has no output. */
const char *ltt_session_output(const struct ltt_session *s);
bool ltt_session_active(const struct ltt_session *s);
/* Whether the session is a flight recorder (created with snapshot). */
bool ltt_session_snapshot(const struct ltt_session *s);
/* Its automatic rotations: every *ret_timer_us, at *ret_size bytes (0: none). */
void ltt_session_rotation(const struct ltt_session *s, uint64_t *ret_timer_us,
			  uint64_t *ret_size);
size_t ltt_session_channel_count(const struct ltt_session *s);

struct ltt_channel;	/* belongs to its ltt_session */
const struct ltt_channel *ltt_session_channel(const struct ltt_session *s, size_t i);
const char *ltt_channel_name(const struct ltt_channel *c);
enum ltt_domain ltt_channel_domain(const struct ltt_channel *c);
void ltt_channel_get_attr(const struct ltt_channel *c, struct ltt_channel_attr *attr);
/*
 * What the channel wrote so far: events recorded and events lost (the
 * kernel channel of a session that started). false when it is not known;
 * the ret_ values are written only on true.
 */
bool ltt_channel_get_stats(const struct ltt_channel *c, uint64_t *ret_recorded,
			   uint64_t *ret_discarded);
size_t ltt_channel_rule_count(const struct ltt_channel *c);
size_t ltt_channel_context_count(const struct ltt_channel *c);
/* Context i of the channel, in the order added (belongs to the description). */
const char *ltt_channel_context(const struct ltt_channel *c, size_t i);
/*
 * The inclusion set of a tracker of the session: returns true if it
 * includes all values; else its values (sorted, belonging to the
 * description) in *ret_values and *ret_count (0: nothing is recorded).
 */
bool ltt_session_tracker(const struct ltt_session *s, enum ltt_domain domain,
			 enum ltt_process_attr attr, const int64_t **ret_values,
			 size_t *ret_count);
/*
 * Rule i of the channel; its strings belong to the session description.
 * *ret_enabled says whether it is enabled now.
 */
void ltt_channel_get_rule(const struct ltt_channel *c, size_t i, struct ltt_event_rule *rule,
			  bool *ret_enabled);

/* ---- Tracepoints of running applications, and of the kernel ---------- */

struct ltt_tracepoint_list;	/* what `ltt list -u` and `ltt list -k` show */

/*
 * LTT_DOMAIN_USER: the tracepoints of every application registered with the
 * daemon, by application. LTT_DOMAIN_KERNEL: the kernel's tracepoints, by
 * their LTTng names (pid 0, procname "kernel"); -LTT_ERR_KERNEL_UNAVAILABLE
 * when the daemon cannot trace the kernel. Free with ltt_tracepoint_list_free().
 */
int ltt_tracepoint_list_get(struct ltt_ctl *ctl, enum ltt_domain domain,
			    struct ltt_tracepoint_list **ret);
/* The kernel's system calls (`ltt list -k --syscall`), as ltt_tracepoint_list_get. */
int ltt_syscall_list_get(struct ltt_ctl *ctl, struct ltt_tracepoint_list **ret);
size_t ltt_tracepoint_list_count(const struct ltt_tracepoint_list *l);
/* Entry i: its application's pid and name, the event's name and log level. */
void ltt_tracepoint_list_entry(const struct ltt_tracepoint_list *l, size_t i, int *ret_pid,
			       const char **ret_procname, const char **ret_name, int *ret_loglevel);
void ltt_tracepoint_list_free(struct ltt_tracepoint_list *l);

#ifdef __cplusplus
}
#endif

#endif /* LTT_CTL_H */
