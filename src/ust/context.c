/*
 * context.c - context fields of events: compiled layouts, the per-thread
 * cache, the perf counters; see context-internal.h.
 *
 * Contexts: ust_context_create() and ust_context_refresh() run in the
 * listener thread; ust_context_write() and the getters in probes (any
 * thread, signal handlers); ust_context_after_fork() in a forked child;
 * the key destructor at a thread's exit.
 *
 * Invariants:
 *  1. The per-thread cache (struct thread_cache, initial-exec TLS) is only
 *     touched by its thread, possibly nested in itself by a signal handler:
 *     a value is stored before the bit of `have` that says it is valid,
 *     with a signal fence between (a handler that interrupts a fill sees
 *     the bit clear and fills again: same values, idempotent).
 *  2. `generation` only grows (listener, relaxed): a thread whose cache
 *     holds an older one clears `have` at its next event. It is a hint:
 *     reading it late only delays the refresh by an event.
 *  3. perf_types[s] (the counter of perf slot s) is written once, by the
 *     listener, before a layout using slot s is published to probes (the
 *     tracer's release store of the slot, which pairs with the probe's
 *     acquire load): a probe that reaches slot s reads its final value.
 *  4. A thread's perf counters (struct perf_thread, one anonymous page) are
 *     opened by that thread only, never while a fill of the same thread is
 *     in progress (perf_busy: a nested handler records 0 instead), and
 *     closed by the thread's key destructor or, in a forked child, by
 *     ust_context_after_fork().
 */
#include "context-internal.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "proto/context-types.h"
#include "util/macros.h"

#define TLS __thread __attribute__((tls_model("initial-exec")))

/* ---- compiled layouts ---- */

struct ust_context_field {
	uint8_t kind;		/* enum proto_ctx_kind */
	uint8_t arg;		/* namespace / id index, or perf slot */
	uint16_t offset;	/* from the struct's start */
};

struct ust_context {
	uint32_t size;
	uint32_t n;
	struct ust_context_field f[];
};

/* Perf slots: the distinct counters of this process's channels (inv. 3). */
#define PERF_SLOTS 128
static _Atomic int16_t perf_types[PERF_SLOTS];	/* type index + 1; 0: free */

static pthread_key_t perf_key;
static pthread_once_t perf_key_once = PTHREAD_ONCE_INIT;

static void perf_thread_free(void *p);

static void make_perf_key(void)
{
	pthread_key_create(&perf_key, perf_thread_free);
}

/* The perf slot of type index t (listener only); -1 if none is left. */
static int perf_slot(size_t t)
{
	for (int s = 0; s < PERF_SLOTS; s++) {
		int16_t v = atomic_load_explicit(&perf_types[s], memory_order_relaxed);

		if (v == (int16_t)(t + 1))
			return s;
		if (v == 0) {
			/* Relaxed: published by the slot's release (inv. 3). */
			atomic_store_explicit(&perf_types[s], (int16_t)(t + 1), memory_order_relaxed);
			return s;
		}
	}
	return -1;
}

int ust_context_create(const uint64_t *types, size_t n, struct ust_context **ret)
{
	struct ust_context *c;
	uint64_t off = 0;

	if (n > PROTO_CTX_MAX)
		return -EINVAL;
	c = calloc(1, sizeof(*c) + n * sizeof(c->f[0]));
	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct proto_context_type *t = proto_context_type(types[i]);
		struct ust_context_field *f = &c->f[i];
		unsigned bytes;
		int slot = 0;

		if (!t || !(t->domains & PROTO_CTX_USER) || t->kind == PROTO_CTX_KERNEL ||
		    (t->kind == PROTO_CTX_PERF && (t->per_cpu || (slot = perf_slot(types[i])) < 0)) ||
		    (t->kind == PROTO_CTX_NS && t->arg >= PROTO_NS_COUNT) ||
		    (t->kind == PROTO_CTX_ID && t->arg >= PROTO_ID_COUNT)) {
			free(c);
			return -EINVAL;
		}
		bytes = t->kind == PROTO_CTX_PROCNAME ? PROTO_CTX_PROCNAME_LEN : t->bits / 8u;
		/* natural alignment, as the metadata declares each field */
		off = align_up(off, t->kind == PROTO_CTX_PROCNAME ? 1 : bytes);
		*f = (struct ust_context_field){
			.kind = t->kind,
			.arg = (uint8_t)(t->kind == PROTO_CTX_PERF ? slot : t->arg),
			.offset = (uint16_t)off,
		};
		off += bytes;
		if (t->kind == PROTO_CTX_PERF)
			pthread_once(&perf_key_once, make_perf_key);
	}
	c->size = (uint32_t)off;
	c->n = (uint32_t)n;
	*ret = c;
	return 0;
}

size_t ust_context_size(const struct ust_context *c)
{
	return c->size;
}

/* ---- the per-thread cache ---- */

enum { HAVE_PROCNAME = 1, HAVE_NS = 2, HAVE_IDS = 4 };

struct perf_counter {
	int fd;			/* read(2) method; -1 */
	uint8_t method;		/* PERF_* */
	const struct perf_event_mmap_page *page;	/* page method */
};

enum { PERF_UNOPENED = 0, PERF_PAGE, PERF_READ, PERF_FAILED };

struct perf_thread {
	struct perf_counter c[PERF_SLOTS];
};
_Static_assert(sizeof(struct perf_thread) <= 4096, "a thread's counters fit a page");

struct thread_cache {
	uint32_t generation;	/* of the values `have` marks valid */
	uint32_t have;		/* HAVE_* (inv. 1) */
	int32_t tid;		/* 0: not read yet */
	char procname[PROTO_CTX_PROCNAME_LEN];
	uint64_t ns[PROTO_NS_COUNT];
	uint32_t ids[PROTO_ID_COUNT];
	struct perf_thread *perf;	/* NULL until a counter is needed */
	bool perf_busy;
	bool perf_failed;	/* no memory for the counters: they record 0 */
};

static TLS struct thread_cache tc;
static _Atomic uint32_t generation = 1;	/* inv. 2 */
static _Atomic int32_t process_pid;	/* 0: not read yet; reset at fork */

void ust_context_refresh(void)
{
	/* Relaxed: a hint (inv. 2). */
	atomic_fetch_add_explicit(&generation, 1, memory_order_relaxed);
}

/* Marks a value filled (inv. 1): its stores come before the bit. */
static void mark(uint32_t bit)
{
	atomic_signal_fence(memory_order_seq_cst);
	tc.have |= bit;
}

/* Clears `have` if the values are from an older state (inv. 2). */
static void check_generation(void)
{
	uint32_t g = atomic_load_explicit(&generation, memory_order_relaxed);

	if (unlikely(g != tc.generation)) {
		tc.have = 0;
		atomic_signal_fence(memory_order_seq_cst);
		tc.generation = g;
	}
}

int32_t ust_context_vpid(void)
{
	int32_t pid = atomic_load_explicit(&process_pid, memory_order_relaxed);

	if (unlikely(pid == 0)) {
		pid = (int32_t)getpid();
		/* Relaxed: every thread stores the same value. */
		atomic_store_explicit(&process_pid, pid, memory_order_relaxed);
	}
	return pid;
}

int32_t ust_context_vtid(void)
{
	if (unlikely(tc.tid == 0))
		tc.tid = (int32_t)gettid();
	return tc.tid;
}

const char *ust_context_procname(void)
{
	check_generation();
	if (!(tc.have & HAVE_PROCNAME)) {
		char name[PROTO_CTX_PROCNAME_LEN] = "";

		prctl(PR_GET_NAME, name, 0, 0, 0);
		memcpy(tc.procname, name, sizeof(name));	/* NUL-padded */
		mark(HAVE_PROCNAME);
	}
	return tc.procname;
}

static uint64_t ns_inode(unsigned which)
{
	static const char *const paths[PROTO_NS_COUNT] = {
		[PROTO_NS_CGROUP] = "/proc/thread-self/ns/cgroup",
		[PROTO_NS_IPC] = "/proc/thread-self/ns/ipc",
		[PROTO_NS_MNT] = "/proc/thread-self/ns/mnt",
		[PROTO_NS_NET] = "/proc/thread-self/ns/net",
		[PROTO_NS_PID] = "/proc/thread-self/ns/pid",
		[PROTO_NS_TIME] = "/proc/thread-self/ns/time",
		[PROTO_NS_USER] = "/proc/thread-self/ns/user",
		[PROTO_NS_UTS] = "/proc/thread-self/ns/uts",
	};

	check_generation();
	if (!(tc.have & HAVE_NS)) {
		for (unsigned i = 0; i < PROTO_NS_COUNT; i++) {
			struct stat st;

			/* 0 where the kernel has no such namespace (time: 5.6+) */
			tc.ns[i] = stat(paths[i], &st) == 0 ? (uint64_t)st.st_ino : 0;
		}
		mark(HAVE_NS);
	}
	return tc.ns[which];
}

static uint32_t id_value(unsigned which)
{
	check_generation();
	if (!(tc.have & HAVE_IDS)) {
		uid_t ru, eu, su;
		gid_t rg, eg, sg;

		getresuid(&ru, &eu, &su);
		getresgid(&rg, &eg, &sg);
		tc.ids[PROTO_ID_VUID] = ru;
		tc.ids[PROTO_ID_VEUID] = eu;
		tc.ids[PROTO_ID_VSUID] = su;
		tc.ids[PROTO_ID_VGID] = rg;
		tc.ids[PROTO_ID_VEGID] = eg;
		tc.ids[PROTO_ID_VSGID] = sg;
		mark(HAVE_IDS);
	}
	return tc.ids[which];
}

/* ---- perf counters ---- */

/* Whether the kernel lets this process count kernel-mode events: 0 unknown, 1 yes, 2 no. */
static _Atomic int kernel_counting;

static int perf_open(const struct proto_context_type *t)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = t->perf_type,
		.config = t->perf_config,
		.exclude_hv = 1,
	};
	/* Relaxed: a cached answer of the kernel's, the same for every thread. */
	int k = atomic_load_explicit(&kernel_counting, memory_order_relaxed);
	long fd = -1;

	if (k != 2) {
		fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd >= 0 || (errno != EACCES && errno != EPERM)) {
			if (fd >= 0 && k == 0)
				atomic_store_explicit(&kernel_counting, 1, memory_order_relaxed);
			return (int)fd;
		}
		atomic_store_explicit(&kernel_counting, 2, memory_order_relaxed);
	}
	attr.exclude_kernel = 1;	/* perf_event_paranoid >= 2 without CAP_PERFMON */
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/*
 * Counters the kernel keeps exact in the control page: they change only
 * when the thread is scheduled, and the page is updated when it is
 * scheduled in (checked against read(2) by tests/unit/ust/test-context.c).
 */
static bool page_exact(const struct proto_context_type *t)
{
	return t->perf_type == PERF_TYPE_SOFTWARE &&
	       (t->perf_config == PERF_COUNT_SW_CONTEXT_SWITCHES ||
		t->perf_config == PERF_COUNT_SW_CPU_MIGRATIONS);
}

/* Opens counter slot of the calling thread (inv. 4). */
static void perf_setup(struct perf_counter *pc, unsigned slot)
{
	/* Relaxed: set before this slot's layout was published (inv. 3). */
	int16_t t = atomic_load_explicit(&perf_types[slot], memory_order_relaxed);
	const struct proto_context_type *type = proto_context_type((size_t)(t - 1));
	int fd = type ? perf_open(type) : -1;

	pc->fd = -1;
	pc->method = PERF_FAILED;
	if (fd < 0)
		return;
	if (page_exact(type)) {
		void *page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);

		if (page != MAP_FAILED) {
			close(fd);	/* the mapping keeps the counter */
			pc->page = page;
			pc->method = PERF_PAGE;
			return;
		}
	}
	pc->fd = fd;
	pc->method = PERF_READ;
}

/* The page's count, read under its sequence lock (the kernel's writer side). */
static uint64_t page_read(const struct perf_event_mmap_page *p)
{
	uint32_t seq;
	int64_t v;

	do {
		/* Acquire: the count read below is at least as new as this sequence. */
		seq = __atomic_load_n(&p->lock, __ATOMIC_ACQUIRE);
		/* Acquire: the count is read before the sequence is checked again
		 * (the kernel's writer bumps it around its update). */
		v = __atomic_load_n(&p->offset, __ATOMIC_ACQUIRE);
	} while (__atomic_load_n(&p->lock, __ATOMIC_RELAXED) != seq || (seq & 1));
	return (uint64_t)v;
}

static uint64_t perf_value(unsigned slot)
{
	struct perf_counter *pc;
	uint64_t v = 0;

	if (unlikely(!tc.perf)) {
		void *page;

		if (tc.perf_busy || tc.perf_failed)
			return 0;	/* a handler nested in this thread's setup (inv. 4) */
		tc.perf_busy = true;
		atomic_signal_fence(memory_order_seq_cst);
		page = mmap(NULL, sizeof(struct perf_thread), PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (page != MAP_FAILED) {
			tc.perf = page;	/* zero: every counter PERF_UNOPENED */
			pthread_setspecific(perf_key, page);
		} else {
			tc.perf_failed = true;	/* not tried again at each event */
		}
		atomic_signal_fence(memory_order_seq_cst);
		tc.perf_busy = false;
		if (!tc.perf)
			return 0;
	}
	pc = &tc.perf->c[slot];
	if (unlikely(pc->method == PERF_UNOPENED)) {
		if (tc.perf_busy)
			return 0;
		tc.perf_busy = true;
		atomic_signal_fence(memory_order_seq_cst);
		perf_setup(pc, slot);
		atomic_signal_fence(memory_order_seq_cst);
		tc.perf_busy = false;
	}
	if (pc->method == PERF_PAGE)
		return page_read(pc->page);
	if (pc->method == PERF_READ && read(pc->fd, &v, sizeof(v)) != sizeof(v))
		v = 0;
	return v;
}

/* Closes a thread's counters (the key destructor, and the child after fork). */
static void perf_thread_free(void *p)
{
	struct perf_thread *pt = p;

	for (unsigned s = 0; s < PERF_SLOTS; s++) {
		if (pt->c[s].method == PERF_READ)
			close(pt->c[s].fd);
		else if (pt->c[s].method == PERF_PAGE)
			munmap((void *)pt->c[s].page, (size_t)sysconf(_SC_PAGESIZE));
	}
	munmap(pt, sizeof(*pt));
	if (tc.perf == pt)
		tc.perf = NULL;	/* a later event of this exiting thread starts afresh */
}

void ust_context_after_fork(void)
{
	atomic_store_explicit(&process_pid, 0, memory_order_relaxed);
	if (tc.perf) {
		pthread_setspecific(perf_key, NULL);
		perf_thread_free(tc.perf);	/* the parent thread's counters */
	}
	tc = (struct thread_cache){ 0 };
}

/* ---- writing ---- */

static void put32(char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void put64(char *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

void ust_context_write(const struct ust_context *c, char *dst, unsigned cpu, const void *ip)
{
	for (uint32_t i = 0; i < c->n; i++) {
		const struct ust_context_field *f = &c->f[i];
		char *p = dst + f->offset;

		switch (f->kind) {
		case PROTO_CTX_VPID:
		case PROTO_CTX_PID:
			put32(p, (uint32_t)ust_context_vpid());
			break;
		case PROTO_CTX_VTID:
		case PROTO_CTX_TID:
			put32(p, (uint32_t)ust_context_vtid());
			break;
		case PROTO_CTX_PROCNAME:
			memcpy(p, ust_context_procname(), PROTO_CTX_PROCNAME_LEN);
			break;
		case PROTO_CTX_IP:
			put64(p, (uint64_t)(uintptr_t)ip);
			break;
		case PROTO_CTX_PTHREAD_ID:
			put64(p, (uint64_t)pthread_self());
			break;
		case PROTO_CTX_CPU_ID:
			put32(p, cpu);
			break;
		case PROTO_CTX_NS:
			put64(p, ns_inode(f->arg));
			break;
		case PROTO_CTX_ID:
			put32(p, id_value(f->arg));
			break;
		case PROTO_CTX_PERF:
			put64(p, perf_value(f->arg));
			break;
		default:
			break;	/* refused by ust_context_create() */
		}
	}
}
