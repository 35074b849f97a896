/*
 * threads.c - what the kernel contexts (pid, procname, prio) record of the
 * thread that emitted a record, when tracefs gives only its tid
 * (common_pid): see enum kt_context in kernel.h for the sources, and
 * doc/design/kernel-tracing.md ("Contexts") for what they can get wrong.
 *
 * The state is a direct-mapped cache by tid (struct kt_thread, in the
 * converter): seeded by the state dump, updated by the records that name a
 * thread with its comm or prio (the notes below), and filled from /proc or
 * tracefs' saved_tgids/saved_cmdlines on a miss. Reading a file on a miss
 * is the only cost above a table lookup; a tid reused by another process
 * within one trace keeps the values of the first until a note updates them.
 *
 * Context: the converter's caller (one thread).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel-internal.h"

/* The kernel's prio of a normal task is LTTng's prio + this (MAX_RT_PRIO). */
#define KERNEL_PRIO_BASE 100

/* The events whose records say what a thread is called (and its prio). */
static const struct {
	const char *system, *event, *tid, *comm, *prio;
} watched[] = {
	{ "sched", "sched_switch", "prev_pid", "prev_comm", "prev_prio" },
	{ "sched", "sched_switch", "next_pid", "next_comm", "next_prio" },
	{ "sched", "sched_process_fork", "child_pid", "child_comm", NULL },
	{ "task", "task_rename", "pid", "newcomm", NULL },
};

void kt_threads_watch(struct kt_conv_event *ce)
{
	const struct kt_event_format *f = ce->fmt;

	ce->nnotes = 0;
	for (size_t i = 0; i < ARRAY_SIZE(watched) && ce->nnotes < ARRAY_SIZE(ce->notes); i++) {
		struct kt_thread_note n;

		if (!f->system || strcmp(f->system, watched[i].system) ||
		    strcmp(f->name, watched[i].event))
			continue;
		n.tid = kt_event_format_field(f, watched[i].tid);
		n.comm = kt_event_format_field(f, watched[i].comm);
		n.prio = watched[i].prio ? kt_event_format_field(f, watched[i].prio) : -1;
		if (n.tid >= 0 && f->fields[n.tid].kind == KT_FIELD_INT)
			ce->notes[ce->nnotes++] = n;
	}
}

static struct kt_thread *entry(struct kt_converter *c, int32_t tid)
{
	struct kt_thread *t = &c->threads[(uint32_t)tid % KT_THREAD_CACHE];

	if (t->tid != tid)
		*t = (struct kt_thread){ .tid = tid };
	return t;
}

/* A string field of rec (char array or __data_loc char[]) into comm (16 bytes, NUL-padded). */
static bool read_comm(const struct kt_field *f, const struct kt_record *rec, char comm[16])
{
	uint32_t off = f->offset, len = f->size;

	if (f->offset + f->size > rec->len)
		return false;
	if ((f->kind == KT_FIELD_DATA_LOC || f->kind == KT_FIELD_REL_LOC) && f->is_string) {
		if (kt_dyn_loc(f, rec, &off, &len) < 0)
			return false;
	} else if (f->kind != KT_FIELD_STRING) {
		return false;
	}
	memset(comm, 0, 16);
	memcpy(comm, rec->data + off, strnlen((const char *)rec->data + off, len < 15 ? len : 15));
	return true;
}

void kt_threads_record(struct kt_converter *c, const struct kt_conv_event *ce,
		       const struct kt_record *rec)
{
	for (unsigned i = 0; i < ce->nnotes; i++) {
		const struct kt_thread_note *n = &ce->notes[i];
		const struct kt_field *tf = &ce->fmt->fields[n->tid];
		struct kt_thread *t;
		int64_t tid;

		if (tf->offset + tf->size > rec->len)
			continue;
		tid = kt_rd_int(rec->data + tf->offset, tf->size);
		if (tid <= 0 || tid > INT32_MAX)
			continue;	/* the idle task, or nonsense */
		t = entry(c, (int32_t)tid);
		if (n->comm >= 0 && read_comm(&ce->fmt->fields[n->comm], rec, t->comm))
			t->known |= KT_KNOW_COMM;
		if (n->prio >= 0) {
			const struct kt_field *pf = &ce->fmt->fields[n->prio];

			if (pf->offset + pf->size <= rec->len) {
				t->prio = (int32_t)(kt_rd_int(rec->data + pf->offset, pf->size) -
						    KERNEL_PRIO_BASE);
				t->known |= KT_KNOW_PRIO;
			}
		}
	}
}

void kt_threads_seed(struct kt_converter *c, int32_t tid, int32_t tgid, const char *comm,
		     int32_t prio)
{
	struct kt_thread *t;

	if (tid <= 0)
		return;
	t = entry(c, tid);
	t->tgid = tgid;
	memset(t->comm, 0, sizeof(t->comm));
	memcpy(t->comm, comm, strnlen(comm, sizeof(t->comm) - 1));
	t->prio = prio;
	t->known = KT_KNOW_TGID | KT_KNOW_COMM | KT_KNOW_PRIO;
}

int64_t kt_threads_tgid(void *converter, int64_t tid)
{
	struct kt_converter *c = converter;
	struct kt_thread *t;

	if (tid <= 0 || tid > INT32_MAX)
		return tid;
	t = entry(c, (int32_t)tid);
	if (!(t->known & KT_KNOW_TGID)) {
		t->tgid = (int32_t)kt_tgid_of(tid);
		t->known |= KT_KNOW_TGID;
	}
	return t->tgid;
}

/* The comm of a thread gone from /proc: the kernel's saved_cmdlines ("PID COMM" lines). */
static void saved_comm(int32_t tid, char comm[16])
{
	char path[PATH_MAX], *text = NULL, *line, *save = NULL;

	memset(comm, 0, 16);
	kt_fmt(path, sizeof(path), "%s/saved_cmdlines", kt_tracefs_root());
	if (kt_file_read_all(path, &text, NULL) < 0)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end;

		if (strtol(line, &end, 10) == tid && *end == ' ') {
			snprintf(comm, 16, "%s", end + 1);
			break;
		}
	}
	free(text);
}

int kt_context_type(const struct kt_converter *c, struct ctf_type **ret)
{
	struct ctf_type *st = NULL, *t = NULL, *elem = NULL;
	struct ctf_int_params i32 = { .size = 32, .align = 8, .is_signed = true, .base = 10 };
	struct ctf_int_params chr = { .size = 8, .align = 8, .encoding = CTF_ENC_UTF8 };
	int r = ctf_type_struct_create(0, &st);

	if (r == 0 && (r = ctf_type_int_create(&i32, &t)) == 0)
		r = ctf_type_struct_add(st, "tid", t);
	for (size_t i = 0; r == 0 && i < c->nctx; i++) {
		static const char *const names[] = {
			[KT_CTX_PID] = "pid", [KT_CTX_PROCNAME] = "procname",
			[KT_CTX_PRIO] = "prio", [KT_CTX_CPU_ID] = "cpu_id",
		};

		if (c->ctx[i] == KT_CTX_PROCNAME) {
			r = ctf_type_int_create(&chr, &elem);
			if (r == 0)
				r = ctf_type_array_create(elem, 16, &t);
		} else {
			r = ctf_type_int_create(&i32, &t);
		}
		if (r == 0)
			r = ctf_type_struct_add(st, names[c->ctx[i]], t);
	}
	if (r < 0) {
		ctf_type_free(st);
		return r;
	}
	*ret = st;
	return 0;
}

/* The thread of tid (on cpu) with the values the contexts need looked up. */
static const struct kt_thread *lookup(struct kt_converter *c, int32_t tid, unsigned cpu)
{
	struct kt_thread *t;
	unsigned want = 0;

	for (size_t i = 0; i < c->nctx; i++)
		want |= c->ctx[i] == KT_CTX_PID ? KT_KNOW_TGID :
			c->ctx[i] == KT_CTX_PROCNAME ? KT_KNOW_COMM :
			c->ctx[i] == KT_CTX_PRIO ? KT_KNOW_PRIO : 0;
	if (tid <= 0) {		/* the idle task of cpu, or a record without common_pid */
		static struct kt_thread idle = { .known = ~0u };

		idle.tid = idle.tgid = tid;
		idle.prio = tid == 0 ? 20 : KT_PRIO_UNKNOWN;	/* as sched_switch shows it: 120 */
		memset(idle.comm, 0, sizeof(idle.comm));
		if (tid == 0)
			snprintf(idle.comm, sizeof(idle.comm), "swapper/%u", cpu);
		return &idle;
	}
	t = entry(c, tid);
	want &= ~t->known;
	if (want & KT_KNOW_TGID)
		kt_threads_tgid(c, tid);
	if (want & (KT_KNOW_COMM | KT_KNOW_PRIO)) {
		struct kt_thread_stat st;
		char path[64];

		kt_fmt(path, sizeof(path), "/proc/%d/stat", (int)tid);
		bool live = kt_thread_stat_read(path, &st) == 0;

		if ((want & KT_KNOW_COMM) && !live) {
			saved_comm(tid, t->comm);
		} else if (want & KT_KNOW_COMM) {
			memset(t->comm, 0, sizeof(t->comm));
			memcpy(t->comm, st.comm, strnlen(st.comm, sizeof(t->comm) - 1));
		}
		if (want & KT_KNOW_PRIO)
			t->prio = live ? st.prio : KT_PRIO_UNKNOWN;
	}
	t->known |= want;
	return t;
}

void kt_context_pack(struct kt_converter *c, int32_t tid, unsigned cpu, uint8_t *o)
{
	const struct kt_thread *t = c->nctx ? lookup(c, tid, cpu) : NULL;
	int32_t v = 0;

	memcpy(o, &tid, 4);
	o += 4;
	for (size_t i = 0; i < c->nctx; i++) {
		switch (c->ctx[i]) {
		case KT_CTX_PROCNAME:
			memcpy(o, t->comm, 16);
			o += 16;
			continue;
		case KT_CTX_PID: v = t->tgid; break;
		case KT_CTX_PRIO: v = t->prio; break;
		case KT_CTX_CPU_ID: v = (int32_t)cpu; break;
		}
		memcpy(o, &v, 4);
		o += 4;
	}
}

size_t kt_context_values(struct kt_converter *c, int32_t tid, unsigned cpu,
			 struct ctf_value *v, char comm[17])
{
	const struct kt_thread *t = c->nctx ? lookup(c, tid, cpu) : NULL;
	size_t n = 0;

	v[n++] = CTF_S64(tid);
	for (size_t i = 0; i < c->nctx; i++)
		switch (c->ctx[i]) {
		case KT_CTX_PROCNAME:
			memcpy(comm, t->comm, 16);
			comm[16] = '\0';
			v[n++] = CTF_STR(comm);
			break;
		case KT_CTX_PID: v[n++] = CTF_S64(t->tgid); break;
		case KT_CTX_PRIO: v[n++] = CTF_S64(t->prio); break;
		case KT_CTX_CPU_ID: v[n++] = CTF_S64(cpu); break;
		}
	return n;
}
