/*
 * wait.c - writers that wait for room (blocking channels) and the
 * consumer's wake-up of them.
 *
 * Contexts: rb_wait_room() runs in a writer that holds no reservation (any
 * thread of any process mapping the channel, also a signal handler: a futex
 * call is async-signal-safe); rb_wake_writers() in the consumer, after it
 * moved `consumed`.
 *
 * The futex word is the low 32 bits of the buffer's `consumed` position,
 * in the shared mapping (so not FUTEX_PRIVATE: writers and the consumer are
 * different processes). A writer sleeps only while that word still holds
 * the value it saw with no room; the consumer's release changes it (it
 * advances by a sub-buffer, less than 2^32) before the wake.
 *
 * No lost wake-up (a Dekker pair, as the consumer's own sleep in
 * rb_deliver_slow()):
 *   writer:   writers_waiting++ ; fence(seq_cst) ; load consumed ; futex_wait(word == seen)
 *   consumer: store consumed    ; fence(seq_cst) ; load writers_waiting ; futex_wake if > 0
 * Either the writer's load sees the new position (it does not sleep), or
 * the consumer's load sees the waiter and wakes it; a store between the
 * writer's load and its futex_wait makes the kernel's compare fail (EAGAIN).
 * Sleeps are also bounded by the caller's timeout, so a consumer that died
 * (or predates the writers_waiting field) costs at most a timeout.
 */
#include "ringbuf/ringbuf.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The futex word: the low 32 bits of consumed. */
static uint32_t *consumed_word(struct rb_cpu_ctl *buf)
{
	char *p = (char *)&buf->consumed;

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	p += 4;
#endif
	return (uint32_t *)(void *)p;
}

/* Whether the sub-buffer after the writers' current one may be opened (I6). */
static bool has_room(const struct rb_channel *chan, struct rb_cpu_ctl *buf, uint64_t consumed)
{
	const uint64_t S = chan->g.subbuf_size;
	/* Relaxed: a hint; the reservation that follows checks for itself. */
	uint64_t wp = atomic_load_explicit(&buf->write_pos, memory_order_relaxed);
	uint64_t next = (wp & (S - 1)) ? (wp & ~(S - 1)) + S : wp;

	return next + S - consumed <= (S << chan->num_order);
}

int rb_wait_room(struct rb_channel *chan, unsigned cpu, uint64_t timeout_ns)
{
	struct timespec ts = { .tv_sec = (time_t)(timeout_ns / 1000000000u),
			       .tv_nsec = (long)(timeout_ns % 1000000000u) };
	struct rb_cpu_ctl *buf;
	uint64_t c;
	long r;

	if (cpu >= chan->g.nr_cpus)
		return -EINVAL;
	buf = rb_cpu(chan, cpu);
	/* Acquire: pairs with the consumer's release of consumed (as rb_make_room()). */
	if (has_room(chan, buf, atomic_load_explicit(&buf->consumed, memory_order_acquire)))
		return 0;
	/* seq_cst increment then fence: the writer's half of the Dekker pair above. */
	atomic_fetch_add_explicit(&buf->writers_waiting, 1, memory_order_seq_cst);
	atomic_thread_fence(memory_order_seq_cst);
	c = atomic_load_explicit(&buf->consumed, memory_order_acquire);
	if (has_room(chan, buf, c)) {
		r = 0;
	} else {
		r = syscall(SYS_futex, consumed_word(buf), FUTEX_WAIT, (uint32_t)c, &ts, NULL, 0);
		r = r < 0 && errno == ETIMEDOUT ? -ETIMEDOUT : 0;	/* EAGAIN, EINTR: look again */
	}
	/* Relaxed: only the count matters to the consumer's check. */
	atomic_fetch_sub_explicit(&buf->writers_waiting, 1, memory_order_relaxed);
	return (int)r;
}

void rb_wake_writers(struct rb_cpu_ctl *buf)
{
	/* The consumer's half of the Dekker pair: its store of consumed (just
	 * before) is ordered before this load by the fence. */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&buf->writers_waiting, memory_order_relaxed))
		syscall(SYS_futex, consumed_word(buf), FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}
