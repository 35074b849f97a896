/*
 * rseq-internal.h - the restartable sequences of the ring buffer's rseq
 * channels (x86_64, glibc >= 2.35, not under ThreadSanitizer). Included by
 * ringbuf.h only; see doc/design/ring-buffer.md, "rseq channels".
 *
 * A restartable sequence is a block of instructions [1:, 2:) that the kernel
 * restarts at its abort label (4:) whenever the thread is preempted, migrated
 * or interrupted by a signal while inside it; its last instruction (the
 * "commit") is the only store others can see. So a sequence that checks that
 * the thread is on CPU k and ends with a store into CPU k's buffer either
 * completes with no other thread having run on CPU k since it began, or
 * has no effect: every writer of buffer k runs on CPU k (rseq channels have
 * no other writers), so a plain load-compute-store is as good as an atomic
 * read-modify-write, without the LOCK prefix.
 *
 * Why each sequence is safe to restart: it stores nothing before its
 * commit instruction, and what it loaded is loaded again from the start.
 *
 * The rseq area is glibc's (registered for every thread it creates,
 * __rseq_offset from the thread pointer). Its cpu_id is the CPU the thread
 * runs on, written by the kernel before the thread returns to user space;
 * it is negative when rseq is not registered in this thread (glibc tunable
 * glibc.pthread.rseq=0, a thread created without glibc), which
 * rb_rseq_cpu() reports as RB_RSEQ_NO_CPU.
 *
 * Each sequence's descriptor (struct rseq_cs: version, flags, start,
 * length, abort address) lives in section __rseq_cs; the abort address is
 * preceded by glibc's signature (RSEQ_SIG, 0x53053053 on x86), which the
 * kernel checks before jumping there.
 */
#ifndef LTT_RINGBUF_RSEQ_INTERNAL_H
#define LTT_RINGBUF_RSEQ_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/rseq.h>

#define RB_RSEQ_NO_CPU UINT32_MAX

/* Offsets in struct rseq (Linux ABI). */
#define RB_RSEQ_CPU_ID_OFF "4"
#define RB_RSEQ_CS_OFF "8"

/*
 * The descriptor of the sequence [1:, 2:) with abort label 4:, the abort
 * label (signature first) jumping to C label `abort`, and the store of the
 * descriptor's address into the area's rseq_cs field (which arms it). %%rax
 * is clobbered.
 */
#define RB_RSEQ_PROLOGUE(abort)                                                   \
	".pushsection __rseq_cs, \"aw\"\n\t"                                     \
	".balign 32\n"                                                           \
	"3:\n\t"                                                                 \
	".long 0x0, 0x0\n\t"                                                     \
	".quad 1f, (2f - 1f), 4f\n\t"                                            \
	".popsection\n\t"                                                        \
	".pushsection __rseq_failure, \"ax\"\n\t"                                \
	".byte 0x0f, 0xb9, 0x3d\n\t"                                             \
	".long 0x53053053\n"                                                     \
	"4:\n\t"                                                                 \
	"jmp %l[" #abort "]\n\t"                                                 \
	".popsection\n\t"                                                        \
	"leaq 3b(%%rip), %%rax\n\t"                                              \
	"movq %%rax, " RB_RSEQ_CS_OFF "(%[rs])\n"

/* The first instructions of a sequence: is the thread on CPU %[cpu]? Else
 * to C label `moved`. */
#define RB_RSEQ_CHECK_CPU(moved)                                                  \
	"1:\n\t"                                                                   \
	"cmpl %[cpu], " RB_RSEQ_CPU_ID_OFF "(%[rs])\n\t"                           \
	"jnz %l[" #moved "]\n\t"

/* The commit of a pair: registers pos and ts into one 16-byte store at
 * %[pair] (xmm0 and xmm1 clobbered), then the end of the sequence. */
#define RB_RSEQ_COMMIT_PAIR(pos, ts)                                              \
	"movq " pos ", %%xmm0\n\t"                                                 \
	"movq " ts ", %%xmm1\n\t"                                                  \
	"punpcklqdq %%xmm1, %%xmm0\n\t"                                            \
	"movdqa %%xmm0, (%[pair])\n"                                                \
	"2:\n\t"

/* The end of a sequence's function: DONE when the assembly fell through,
 * else the result of the label it jumped to. */
#define RB_RSEQ_RETURN(moved, changed)                                            \
	return RB_RSEQ_DONE;                                                      \
moved:                                                                            \
	return RB_RSEQ_MOVED;                                                     \
changed:                                                                          \
	return RB_RSEQ_CHANGED

/* This thread's rseq area, or NULL if glibc did not register one. */
static inline struct rseq *rb_rseq_area(void)
{
	uintptr_t tp;

	if (__rseq_size == 0)
		return NULL;
	/* x86_64 glibc: the thread pointer is %fs:0 (the TCB's self). */
	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return (struct rseq *)(tp + (uintptr_t)__rseq_offset);
}

/* The CPU the kernel last reported, RB_RSEQ_NO_CPU if not registered. A
 * relaxed read of our own thread's area (only the kernel writes it, while
 * this thread does not run); any value is re-checked inside a sequence. */
static inline uint32_t rb_rseq_cpu(const struct rseq *rs)
{
	int32_t cpu = (int32_t)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);

	return cpu < 0 ? RB_RSEQ_NO_CPU : (uint32_t)cpu;
}

/* Results of the sequences below. */
enum rb_rseq_result {
	RB_RSEQ_DONE = 0,	/* committed */
	RB_RSEQ_CHANGED,	/* a compared word differed: reload and retry */
	RB_RSEQ_MOVED,		/* not on CPU k, or aborted (preempted, migrated, signal) */
};

/*
 * If this thread runs on CPU cpu and *pos == expect, stores the pair
 * {new_pos, new_ts} at pos (pos[0..1], 16-byte aligned) with one 16-byte
 * store, the commit: no other thread of CPU cpu ran in between, and every
 * store into the pair is made on CPU cpu (I7).
 */
static inline enum rb_rseq_result rb_rseq_store_pair(struct rseq *rs, uint32_t cpu,
						     uint64_t *pos, uint64_t expect,
						     uint64_t new_pos, uint64_t new_ts)
{
	__asm__ volatile goto(
		RB_RSEQ_PROLOGUE(aborted)
		RB_RSEQ_CHECK_CPU(aborted)
		"cmpq %[expect], (%[pair])\n\t"
		"jnz %l[changed]\n\t"
		RB_RSEQ_COMMIT_PAIR("%[np]", "%[nt]")
		:
		: [rs] "r"(rs), [cpu] "r"(cpu), [pair] "r"(pos), [expect] "r"(expect),
		  [np] "r"(new_pos), [nt] "r"(new_ts)
		: "rax", "xmm0", "xmm1", "memory", "cc"
		: aborted, changed);
	RB_RSEQ_RETURN(aborted, changed);
}

/*
 * If this thread runs on CPU cpu, adds add to *word with a plain add (no
 * LOCK: only sequences on CPU cpu ever write *word) and returns DONE with
 * the new value in *ret_v; else MOVED and nothing is added. x86 stores are
 * seen in program order (TSO): the record's stores before the add are
 * visible to whoever sees the add; "memory" keeps the compiler from sinking
 * them past it.
 */
static inline enum rb_rseq_result rb_rseq_add(struct rseq *rs, uint32_t cpu, uint64_t *word,
					      uint64_t add, uint64_t *ret_v)
{
	uint64_t v = add;

	__asm__ volatile goto(
		RB_RSEQ_PROLOGUE(moved)
		RB_RSEQ_CHECK_CPU(moved)
		"xaddq %[v], (%[word])\n"
		"2:\n\t"
		: [v] "+r"(v)
		: [rs] "r"(rs), [cpu] "r"(cpu), [word] "r"(word)
		: "rax", "memory", "cc"
		: moved);
	*ret_v = v + add;
	return RB_RSEQ_DONE;
moved:
	return RB_RSEQ_MOVED;
}

/*
 * If this thread runs on CPU cpu and *local == expect_local, replaces
 * *remote by new_remote if it still equals expect_remote (LOCK cmpxchg: other
 * CPUs add to *remote). Used by the consumer to complete a stuck sub-buffer
 * while no writer of CPU cpu can add to *local.
 */
static inline enum rb_rseq_result rb_rseq_cas_remote(struct rseq *rs, uint32_t cpu,
						     const uint64_t *local, uint64_t expect_local,
						     uint64_t *remote, uint64_t expect_remote,
						     uint64_t new_remote)
{
	__asm__ volatile goto(
		RB_RSEQ_PROLOGUE(aborted)
		RB_RSEQ_CHECK_CPU(aborted)
		"cmpq %[el], (%[local])\n\t"
		"jnz %l[changed]\n\t"
		"movq %[er], %%rax\n\t"
		"lock cmpxchgq %[nr], (%[remote])\n"
		"2:\n\t"
		"jnz %l[changed]\n\t"
		:
		: [rs] "r"(rs), [cpu] "r"(cpu), [local] "r"(local), [el] "r"(expect_local),
		  [remote] "r"(remote), [er] "r"(expect_remote), [nr] "r"(new_remote)
		: "rax", "memory", "cc"
		: aborted, changed);
	RB_RSEQ_RETURN(aborted, changed);
}

/* Constants of the reservation sequence (see rb_rseq_reserve()). */
struct rb_rseq_reserve_args {
	uint64_t hdr_mask, hdr_nmask;	/* header alignment - 1, and its complement */
	uint64_t hdr_size;		/* short header bytes */
	uint64_t pay_mask, pay_nmask;	/* payload alignment - 1, and its complement */
	uint64_t len;			/* payload bytes */
	uint64_t ts_limit;		/* a short header holds ts - prev < ts_limit */
	uint64_t sb_mask;		/* S - 1 */
};

/*
 * The writer's fast path in one sequence, on CPU cpu's buffer whose pair
 * {write_pos, last_ts} is at pair: loads the pair, reads the TSC, clamps
 * it to last_ts (each stream's timestamps never go back, I3), and if the
 * record fits in the open sub-buffer with a short header, stores the pair
 * {end, ts}. Returns DONE with *ret_old (the slot's start), *ret_prev (the
 * previous record's timestamp), *ret_ts and *ret_end; CHANGED when the
 * record needs the slow path (no open sub-buffer, does not fit, or needs a
 * long header); MOVED when the thread is not on CPU cpu or was interrupted.
 */
__attribute__((always_inline)) static inline enum rb_rseq_result
rb_rseq_reserve(struct rseq *rs, uint32_t cpu, uint64_t *pair,
		const struct rb_rseq_reserve_args *a, uint64_t *ret_old, uint64_t *ret_prev,
		uint64_t *ret_ts, uint64_t *ret_end)
{
	uint64_t old, prev, end, tmp, ts;

	__asm__ volatile goto(
		RB_RSEQ_PROLOGUE(moved)
		RB_RSEQ_CHECK_CPU(moved)
		"movq (%[pair]), %[old]\n\t"
		"movq 8(%[pair]), %[prev]\n\t"
		"rdtsc\n\t"
		"shlq $32, %%rdx\n\t"
		"orq %%rdx, %%rax\n\t"
		"cmpq %[prev], %%rax\n\t"	/* clamp: ts = max(tsc, prev) */
		"cmovbq %[prev], %%rax\n\t"
		"movq %%rax, %%rdx\n\t"
		"subq %[prev], %%rdx\n\t"
		"cmpq %c[ts_limit](%[a]), %%rdx\n\t"
		"jae %l[slow]\n\t"		/* a long header: slow path */
		"testq %c[sb_mask](%[a]), %[old]\n\t"
		"jz %l[slow]\n\t"		/* on a boundary: open one */
		"movq %[old], %[end]\n\t"
		"addq %c[hdr_mask](%[a]), %[end]\n\t"
		"andq %c[hdr_nmask](%[a]), %[end]\n\t"
		"addq %c[hdr_size](%[a]), %[end]\n\t"
		"addq %c[pay_mask](%[a]), %[end]\n\t"
		"andq %c[pay_nmask](%[a]), %[end]\n\t"
		"addq %c[len](%[a]), %[end]\n\t"
		"movq %[end], %[tmp]\n\t"
		"xorq %[old], %[tmp]\n\t"
		"cmpq %c[sb_mask](%[a]), %[tmp]\n\t"
		"ja %l[slow]\n\t"		/* reaches the next sub-buffer */
		RB_RSEQ_COMMIT_PAIR("%[end]", "%%rax")
		: [old] "=&r"(old), [prev] "=&r"(prev), [end] "=&r"(end), [tmp] "=&r"(tmp),
		  "=&a"(ts)
		: [rs] "r"(rs), [cpu] "r"(cpu), [pair] "r"(pair), [a] "r"(a),
		  [hdr_mask] "i"(offsetof(struct rb_rseq_reserve_args, hdr_mask)),
		  [hdr_nmask] "i"(offsetof(struct rb_rseq_reserve_args, hdr_nmask)),
		  [hdr_size] "i"(offsetof(struct rb_rseq_reserve_args, hdr_size)),
		  [pay_mask] "i"(offsetof(struct rb_rseq_reserve_args, pay_mask)),
		  [pay_nmask] "i"(offsetof(struct rb_rseq_reserve_args, pay_nmask)),
		  [len] "i"(offsetof(struct rb_rseq_reserve_args, len)),
		  [ts_limit] "i"(offsetof(struct rb_rseq_reserve_args, ts_limit)),
		  [sb_mask] "i"(offsetof(struct rb_rseq_reserve_args, sb_mask))
		: "rdx", "xmm0", "xmm1", "memory", "cc"
		: moved, slow);
	*ret_old = old;
	*ret_prev = prev;
	*ret_ts = ts;
	*ret_end = end;
	RB_RSEQ_RETURN(moved, slow);
}

#endif /* LTT_RINGBUF_RSEQ_INTERNAL_H */
