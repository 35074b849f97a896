/*
 * kernel-internal.h - what the files of src/kernel share: tracefs file
 * helpers and the instance object.
 */
#ifndef LTT_KERNEL_INTERNAL_H
#define LTT_KERNEL_INTERNAL_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
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
	bool owned;		/* created here (kt_instance_destroy), not opened */
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

/* ---- the converter's insides (convert.c, record-filter.c, statedump.c) ---- */

enum kt_src_kind {
	KT_SRC_FIELD = 0,
	KT_SRC_LENGTH,		/* length of the __data_loc sequence field src */
	KT_SRC_TGID,		/* thread group of the tid in field src */
};

/* Where payload field i of a converted event comes from. */
struct kt_slot {
	enum kt_src_kind kind;
	int src;		/* field index in the format */
};

struct kt_record_filter;

/*
 * What a record of some events says of a thread (threads.c): field indexes
 * in the format (-1: absent) of a tid and of its comm and kernel prio then.
 */
struct kt_thread_note {
	int tid, comm, prio;
};

/* A tracefs event and its CTF event class. */
struct kt_conv_event {
	struct kt_event_format *fmt;
	const struct ctf_event_class *ec;
	struct kt_slot *slots;		/* one per payload field, in order */
	size_t nslots;
	int pid_field;			/* common_pid, or -1 */
	struct kt_record_filter *filter;	/* evaluated here; NULL: every record */
	struct kt_thread_note notes[2];	/* kt_threads_watch(); nnotes of them */
	unsigned nnotes;
};

struct kt_statedump_classes;

/*
 * The per-thread state of the contexts (threads.c), direct-mapped by tid:
 * an entry is the thread's while its tid is the entry's; `known` says which
 * of its values were found (KT_KNOW_*), the others are looked up on demand.
 */
#define KT_THREAD_CACHE 4096
#define KT_KNOW_TGID 1u
#define KT_KNOW_COMM 2u
#define KT_KNOW_PRIO 4u

struct kt_thread {
	int32_t tid, tgid, prio;	/* prio: LTTng's (task_prio) */
	char comm[16];			/* NUL-padded */
	unsigned known;
};

struct kt_converter {
	struct ctf_trace *trace;
	struct ctf_fs_trace *fs;
	struct ctf_fs_stream **streams;
	uint64_t *last_ts;
	struct kt_cpu_acct {
		uint64_t events;	/* written on this cpu */
		uint64_t pending_lost;	/* waiting for the first packet to close */
		bool first_closed;
	} *acct;
	unsigned ncpus;
	uint32_t next_id;
	enum ctf_header_kind header;
	char clock_name[32];
	bool stream_class_added;
	size_t packet_size;
	struct kt_conv_event **by_id;	/* kernel event id -> class */
	bool scanned;			/* tracefs events scanned for unknown ids */
	char **id_paths;		/* kernel id -> "system/name", after a scan */
	char *bytes;			/* a record packed as CTF encodes it */
	struct kt_statedump_classes *sd;	/* made by the first state dump */
	enum kt_context ctx[KT_CONTEXT_MAX];	/* the event context after tid */
	size_t nctx;
	size_t ctx_bytes;		/* of the whole event context, tid included */
	struct kt_thread threads[KT_THREAD_CACHE];	/* contexts, filters' $ctx.pid */
	struct kt_converter_stats st;
};

/* A little-endian (the host's) unsigned or signed integer of 1, 2, 4 or 8 bytes. */
static inline uint64_t kt_rd_uint(const uint8_t *p, uint32_t size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1: memcpy(&u8, p, 1); return u8;
	case 2: memcpy(&u16, p, 2); return u16;
	case 4: memcpy(&u32, p, 4); return u32;
	default: memcpy(&u64, p, 8); return u64;
	}
}

static inline int64_t kt_rd_int(const uint8_t *p, uint32_t size)
{
	uint64_t v = kt_rd_uint(p, size);

	switch (size) {
	case 1: return (int8_t)v;
	case 2: return (int16_t)v;
	case 4: return (int32_t)v;
	default: return (int64_t)v;
	}
}

/*
 * Where a __data_loc/__rel_loc field f of rec points: 0 and *off, *len (in
 * the record), or -EBADMSG when that is outside the record.
 */
static inline int kt_dyn_loc(const struct kt_field *f, const struct kt_record *rec,
			     uint32_t *off, uint32_t *len)
{
	uint32_t v = (uint32_t)kt_rd_uint(rec->data + f->offset, 4);

	*off = v & 0xffff;
	*len = v >> 16;
	if (f->kind == KT_FIELD_REL_LOC)
		*off += f->offset + f->size;
	if (*off > rec->len || *len > rec->len - *off)
		return -EBADMSG;
	return 0;
}

/*
 * The thread group of tid: /proc while it lives, else the kernel's
 * saved_tgids (options/record-tgid), else tid itself. Slow (reads files).
 */
int64_t kt_tgid_of(int64_t tid);

/* ---- per-thread state for the contexts (threads.c) ---- */

/* What /proc/PID/task/TID/stat (or /proc/TID/stat) says of a thread. */
struct kt_thread_stat {
	char comm[17];
	char state;
	long ppid;
	unsigned long flags;
	int prio;		/* task_prio: LTTng's prio */
	int cpu;
};

/* Parses a stat file (statedump.c); 0, -ENOENT (no such thread), -EBADMSG. */
int kt_thread_stat_read(const char *path, struct kt_thread_stat *ts);

/* The notes the records of event fmt give (ce->notes), from its fields. */
void kt_threads_watch(struct kt_conv_event *ce);

/* What record rec of ce says of threads (its notes), into the cache. */
void kt_threads_record(struct kt_converter *c, const struct kt_conv_event *ce,
		       const struct kt_record *rec);

/* What the state dump read of a thread (comm: NUL-terminated). */
void kt_threads_seed(struct kt_converter *c, int32_t tid, int32_t tgid, const char *comm,
		     int32_t prio);

/* The thread group of tid, through the cache (kt_tgid_of on a miss). */
int64_t kt_threads_tgid(void *converter, int64_t tid);

/*
 * The stream event context: its type ({ tid, then c->ctx[] }), and the
 * values of a record of tid on cpu, as bytes (pack(): c->ctx_bytes of them
 * at o) or as values (v: KT_CONTEXT_MAX + 1 of them; comm: a buffer of 17
 * they point into). Returns the number of values.
 */
int kt_context_type(const struct kt_converter *c, struct ctf_type **ret);
void kt_context_pack(struct kt_converter *c, int32_t tid, unsigned cpu, uint8_t *o);
size_t kt_context_values(struct kt_converter *c, int32_t tid, unsigned cpu,
			 struct ctf_value *v, char comm[17]);

/*
 * A filter evaluated on converted records: the programs (filter bytecode,
 * copied) OR'ed, their field references linked to the payload fields of
 * class payload (a struct), their contexts to the record's tid, its thread
 * group (pid, vpid) and cpu_id. Returns 0 and *ret, -EINVAL (an invalid
 * program, or a context the record does not carry: err says which).
 */
int kt_record_filter_create(const struct ctf_type *payload, const uint8_t *const *codes,
			    const size_t *lens, size_t n, struct kt_record_filter **ret,
			    struct kt_error *err);
void kt_record_filter_free(struct kt_record_filter *f);

/*
 * Whether record rec of event ce passes: its fields are read from the
 * record (ce's slots, as pack() in convert.c writes them), tid is its
 * emitter, cpu its CPU. tgid_of (with arg) gives a thread's group when a
 * program asks for $ctx.pid or a fork event's parent_pid/child_pid.
 */
bool kt_record_filter_pass(const struct kt_record_filter *f, const struct kt_conv_event *ce,
			   const struct kt_record *rec, int64_t tid, unsigned cpu,
			   int64_t (*tgid_of)(void *, int64_t), void *arg);

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
