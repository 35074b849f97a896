/*
 * Stress tests of the ring buffer: concurrent writers (threads, then forked
 * processes mapping the same memfd) on 2 CPU buffers, a consumer draining
 * at the same time, random record sizes, and exact accounting:
 * recorded + discarded == emitted, every payload checksummed, per-writer
 * order, timestamps decoded as a CTF reader would. Seconds, not minutes;
 * --repeat N for more interleavings. Must be clean under ThreadSanitizer.
 *
 * The rseq_* cases run the same on rseq channels, whose sequences
 * ThreadSanitizer cannot see (they are skipped there): writers move between
 * CPUs with sched_setaffinity while they write, sometimes between a
 * reservation and its commit, and the consumer flushes (moving itself to
 * each CPU) while they do. The exact accounting, the checksums and the
 * per-writer order are what prove the sequences exclusive: a lost update of
 * a plain store or add would show as a torn record, a duplicate, a missing
 * record or a sub-buffer that never completes.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ltt-test.h"
#include "rb-test-client.h"

#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

#define NCPUS 2
#define KIB 1024ull

struct writer_arg {
	struct rb_channel *chan;
	const struct rb_client *client;
	uint32_t id, count;
	uint64_t seed;
	uint64_t refused;
	bool fake_clock_jumps;
	bool rseq;		/* own CPU's buffer, hopping between CPUs */
	int64_t wait_ns;	/* blocking writer: 0 no, -1 for ever, else its timeout */
};

static _Atomic unsigned writers_done;

/* In a forked writer: die with the test case, even if it fails early
 * (a child stopped by SIGSTOP included). */
static void die_with_parent(pid_t parent)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(7);
}

static uint64_t rnd_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * A writer of an rseq channel: its own CPU's buffer; it moves to a random
 * CPU every few dozen records, and sometimes between a reservation and its
 * commit (which then goes to the buffer's remote word).
 */
static void write_records_rseq(struct writer_arg *a)
{
	uint64_t s = a->seed | 1;

	for (uint32_t i = 0; i < a->count; i++) {
		uint64_t r = rnd_next(&s);
		uint32_t len = (uint32_t)((r >> 8) % 96);
		struct rb_ctx ctx;
		int ret;

		if ((r >> 30) % 48 == 0)
			ASSERT_OK(tc_run_on((unsigned)(r >> 40)));
		ret = rb_reserve(&tc_client_chan, a->chan, sizeof(struct tc_payload) + len, 8, &ctx);
		if (ret < 0) {
			ASSERT_EQ_INT(ret, -ENOBUFS);
			a->refused++;
			continue;
		}
		tc_write(&ctx, 1, a->id, i, len, r);
		if ((r >> 36) % 64 == 0)
			ASSERT_OK(tc_run_on((unsigned)ctx.cpu + 1));
		rb_commit(a->chan, &ctx);
		if ((r >> 50) % 32 == 0)
			sched_yield();
	}
	/* Release: pairs with the acquire in the draining loops. */
	atomic_fetch_add_explicit(&writers_done, 1, memory_order_release);
}

/*
 * One record of a blocking writer (as the tracer's blocking channels do), on
 * the buffer of the CPU it runs on:
 * waits for room at most a->wait_ns (-1: for ever, each wait longer than a
 * test case may last, so that a lost wake-up fails the case), then gives up
 * and counts it. 0 or -ENOBUFS.
 */
static int emit_blocking(struct writer_arg *a, uint32_t seq, uint32_t len, uint64_t r)
{
	uint64_t deadline = a->wait_ns < 0 ? UINT64_MAX : rb_clock_monotonic() + (uint64_t)a->wait_ns;

	for (;;) {
		struct rb_ctx ctx;
		uint64_t now;
		int ret = rb_try_reserve(a->client, a->chan, sizeof(struct tc_payload) + len, 8, &ctx);

		if (ret == 0) {
			tc_write(&ctx, 1, a->id, seq, len, r);
			rb_commit(a->chan, &ctx);
			return 0;
		}
		if (ret != -EAGAIN)
			return ret;
		now = rb_clock_monotonic();
		if (now >= deadline) {
			rb_discard(a->chan, ctx.cpu);
			return -ENOBUFS;
		}
		rb_wait_room(a->chan, ctx.cpu, a->wait_ns < 0 ? 600 * 1000000000ull : deadline - now);
	}
}

static void write_records(struct writer_arg *a)
{
	uint64_t s = a->seed | 1;

	if (a->rseq && !a->wait_ns) {
		write_records_rseq(a);
		return;
	}
	for (uint32_t i = 0; i < a->count; i++) {
		uint64_t r = rnd_next(&s);
		unsigned cpu = (unsigned)(r % NCPUS);	/* "migrate" between any two records */
		uint32_t len = (uint32_t)((r >> 8) % 96);
		int ret;

		if (a->fake_clock_jumps)	/* sometimes a gap that needs the escape */
			tc_clock_step_tls = ((r >> 20) % 64) == 0 ? (1ull << 27) + (r >> 40) : 1;
		if (a->wait_ns)
			ret = emit_blocking(a, i, len, r);
		else if (a->client == &tc_client_fake)
			ret = TC_EMIT(&tc_client_fake, a->chan, cpu, a->id, i, len, r);
		else
			ret = TC_EMIT(&tc_client_chan, a->chan, cpu, a->id, i, len, r);
		if (ret < 0) {
			ASSERT_EQ_INT(ret, -ENOBUFS);
			a->refused++;
		}
		if ((r >> 50) % 32 == 0)	/* let the consumer (and others) run */
			sched_yield();
	}
	/* Release: pairs with the acquire in snapshot_while_writers_write. */
	atomic_fetch_add_explicit(&writers_done, 1, memory_order_release);
}

static void *writer_thread(void *p)
{
	write_records(p);
	return NULL;
}

struct consumer_arg {
	struct rb_channel *chan;
	struct tc_verifier *v;
	_Atomic int stop;
	int failed;
	unsigned nap_us;	/* a slow consumer: sleeps this long between drains */
};

static void *consumer_thread(void *p)
{
	struct consumer_arg *c = p;
	uint64_t tick = 0;

	/* Acquire: pairs with the release store of stop (the main thread's
	 * joins already ordered the writers). */
	while (!atomic_load_explicit(&c->stop, memory_order_acquire)) {
		int n = tc_drain(c->chan, c->v, 1);

		if (n < 0) {
			c->failed = 1;
			return NULL;
		}
		/* The switch timer every ~64 rounds: flushes race with writers. */
		if ((++tick & 63) == 0)
			for (unsigned cpu = 0; cpu < c->chan->g.nr_cpus; cpu++)
				ASSERT_TRUE(rb_flush(c->chan, cpu, 0) >= 0);
		if (c->nap_us)
			usleep(c->nap_us);
		else if (n == 0)
			sched_yield();
	}
	return NULL;
}

static struct rb_channel *make(uint64_t S, uint32_t N, enum rb_mode mode,
			       const struct rb_client *cl)
{
	struct rb_config c = {
		.subbuf_size = S, .num_subbufs = N, .hdr_area_size = TC_HDR_AREA,
		.mode = mode, .nr_cpus = NCPUS, .name = "stress", .client = cl,
	};
	struct rb_channel *chan = NULL;

	ASSERT_OK(rb_channel_create(&c, &chan));
	return chan;
}

/* The exact-accounting checks after a final drain. */
static void check_accounting(struct rb_channel *chan, struct tc_verifier *v,
			     const uint64_t *refused, unsigned nwriters, uint32_t count)
{
	uint64_t discarded = 0, refused_total = 0;

	for (unsigned cpu = 0; cpu < chan->g.nr_cpus; cpu++) {
		struct rb_stats st;

		rb_buffer_stats(chan, cpu, &st);
		/* The last packet of each CPU carries all its discards. */
		ASSERT_EQ_U64(v->last_discarded[cpu], st.discarded);
		ASSERT_EQ_U64(st.subbufs_corrupt, 0);
		discarded += st.discarded;
	}
	for (unsigned w = 0; w < nwriters; w++) {
		ASSERT_EQ_U64(v->recorded[w] + refused[w], count);
		refused_total += refused[w];
	}
	ASSERT_EQ_U64(discarded, refused_total);
	ASSERT_EQ_U64(v->total + discarded, (uint64_t)nwriters * count);
	printf("# %llu recorded, %llu discarded, %llu packets, %llu compact + %llu full ts\n",
	       (unsigned long long)v->total, (unsigned long long)discarded,
	       (unsigned long long)v->packets, (unsigned long long)v->compact,
	       (unsigned long long)v->escapes);
}

/*
 * Runs the writers wa[0..T) (threads) while a consumer thread drains (napping
 * nap_us between drains, 0: none), then drains the rest and checks the
 * exact accounting; v is initialized here, for T writers of M records.
 */
static void run_with_consumer(struct rb_channel *chan, struct writer_arg *wa, unsigned T,
			      uint32_t M, unsigned nap_us, struct tc_verifier *v)
{
	pthread_t wt[8], ct;
	struct consumer_arg ca = { .chan = chan, .v = v, .nap_us = nap_us };
	uint64_t refused[8];

	ASSERT_LE_INT(T, 8);
	tc_verifier_init(v, T, chan->g.nr_cpus, M);
	ASSERT_EQ_INT(pthread_create(&ct, NULL, consumer_thread, &ca), 0);
	for (unsigned i = 0; i < T; i++)
		ASSERT_EQ_INT(pthread_create(&wt[i], NULL, writer_thread, &wa[i]), 0);
	for (unsigned i = 0; i < T; i++)
		pthread_join(wt[i], NULL);
	atomic_store_explicit(&ca.stop, 1, memory_order_release);
	pthread_join(ct, NULL);
	if (ca.failed)
		test_fail(__FILE__, __LINE__, "consumer: %s", v->err);
	if (tc_final_drain(chan, v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v->err);
	for (unsigned i = 0; i < T; i++)
		refused[i] = wa[i].refused;
	check_accounting(chan, v, refused, T, M);
}

/* T writer threads and a consumer thread draining (and flushing) meanwhile. */
static void run_threads(struct rb_channel *chan, bool rseq, bool fake_clock)
{
	enum { T = 4 };
	const uint32_t M = UNDER_TSAN ? 15000 : 60000;
	const struct rb_client *cl = fake_clock ? &tc_client_fake : &tc_client_chan;
	struct writer_arg wa[T];
	struct tc_verifier v;

	for (unsigned i = 0; i < T; i++)
		wa[i] = (struct writer_arg){ .chan = chan, .client = cl, .id = i, .count = M,
					     .seed = 0x9e3779b97f4a7c15ull * (i + 1 + test_repetition * T),
					     .fake_clock_jumps = fake_clock, .rseq = rseq };
	run_with_consumer(chan, wa, T, M, 0, &v);
	if (fake_clock)
		ASSERT_GT_INT(v.escapes, 0);
	ASSERT_GT_INT(v.compact, 0);
	tc_verifier_free(&v);
}

TEST(threads_with_concurrent_consumer)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_DISCARD, &tc_client_fake);

	run_threads(chan, false, true);
	rb_channel_free(chan);
}

static void need_rseq(void)
{
	if (!rb_rseq_usable())
		TEST_SKIP("no restartable sequences in this build (TSan cannot see them)");
}

TEST(rseq_threads_hopping_cpus_with_concurrent_consumer)
{
	struct rb_channel *chan;

	need_rseq();
	chan = tc_make_rseq(4 * KIB, 4);
	ASSERT_NOT_NULL(chan);
	run_threads(chan, true, false);
	rb_channel_free(chan);
}

/*
 * Blocking writers against a consumer slower than them (tracer.c inv. 8),
 * on an atomic channel or (rseq) an rseq one, where each writer waits for
 * the buffer of the CPU it runs on.
 */
static void blocking_run(bool rseq, int64_t wait_ns, unsigned nap_us, uint64_t *ret_discarded)
{
	enum { T = 3 };
	const uint32_t M = UNDER_TSAN ? 4000 : 20000;
	struct rb_channel *chan = rseq ? tc_make_rseq(4 * KIB, 2)
				       : make(4 * KIB, 2, RB_MODE_DISCARD, &tc_client_chan);
	struct writer_arg wa[T];
	struct tc_verifier v;

	ASSERT_NOT_NULL(chan);
	for (unsigned i = 0; i < T; i++)
		wa[i] = (struct writer_arg){ .chan = chan, .client = &tc_client_chan, .id = i,
					     .count = M, .seed = 0x7f4a7c15ull * (i + 5 + test_repetition),
					     .wait_ns = wait_ns, .rseq = rseq };
	run_with_consumer(chan, wa, T, M, nap_us, &v);
	*ret_discarded = (uint64_t)T * M - v.total;
	tc_verifier_free(&v);
	rb_channel_free(chan);
}

TEST(blocking_writers_lose_nothing)
{
	uint64_t discarded;

	/* two sub-buffers, a consumer that naps: writers wait most of the time */
	blocking_run(false, -1, 200, &discarded);
	ASSERT_EQ_U64(discarded, 0);
}

TEST(rseq_blocking_writers_lose_nothing)
{
	uint64_t discarded;

	need_rseq();
	blocking_run(true, -1, 200, &discarded);
	ASSERT_EQ_U64(discarded, 0);
}

TEST(blocking_writers_count_what_they_give_up)
{
	uint64_t discarded;

	/* waits of 50 us against naps of 5 ms: many records given up, each counted */
	blocking_run(false, 50000, 5000, &discarded);
	ASSERT_GT_INT(discarded, 0);
}

TEST(blocked_writer_process_is_woken_by_the_consumer)
{
	const uint32_t M = UNDER_TSAN ? 4000 : 20000;
	struct rb_channel *chan = make(4 * KIB, 2, RB_MODE_DISCARD, &tc_client_chan);
	pid_t parent = getpid(), pid;
	struct tc_verifier v;
	uint64_t refused = 0;
	int status;

	tc_verifier_init(&v, 1, chan->g.nr_cpus, M);
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		struct rb_channel *w = NULL;
		struct writer_arg a = { .client = &tc_client_chan, .count = M, .seed = 99,
					.wait_ns = -1 };

		die_with_parent(parent);
		if (rb_channel_map(rb_channel_fd(chan), &tc_client_chan, &w) < 0)
			_exit(3);
		a.chan = w;
		write_records(&a);	/* each wait outlasts the case: only a wake-up ends it */
		_exit(a.refused == 0 ? 0 : 4);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (tc_drain(chan, &v, 1) < 0) {
			kill(pid, SIGKILL);
			test_fail(__FILE__, __LINE__, "%s", v.err);
		}
		usleep(100);
	}
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	if (tc_final_drain(chan, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	check_accounting(chan, &v, &refused, 1, M);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}

/* P forked writers mapping the channel's memfd; this process drains. */
static void run_processes(struct rb_channel *chan, bool rseq)
{
	enum { P = 3 };
	const uint32_t M = UNDER_TSAN ? 10000 : 40000;
	uint64_t *refused = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				 -1, 0);
	struct tc_verifier v;
	pid_t pids[P];
	int live = P;

	ASSERT_TRUE(refused != MAP_FAILED);
	tc_verifier_init(&v, P, chan->g.nr_cpus, M);
	for (unsigned i = 0; i < P; i++) {
		pid_t parent = getpid();

		pids[i] = fork();
		ASSERT_TRUE(pids[i] >= 0);
		if (pids[i] == 0) {
			struct rb_channel *w = NULL;
			struct writer_arg a = { .client = &tc_client_chan, .id = i, .count = M,
						.seed = 0x2545f4914f6cdd1dull * (i + 7 + test_repetition),
						.rseq = rseq };

			die_with_parent(parent);
			if (rb_channel_map(rb_channel_fd(chan), &tc_client_chan, &w) < 0)
				_exit(3);
			a.chan = w;
			write_records(&a);
			refused[i] = a.refused;
			rb_channel_free(w);
			_exit(0);
		}
	}
	/* Drain while they write; reap them as they end. */
	while (live > 0) {
		int n = tc_drain(chan, &v, 1), status;
		pid_t p;

		if (n < 0) {
			for (unsigned i = 0; i < P; i++)
				kill(pids[i], SIGKILL);
			test_fail(__FILE__, __LINE__, "%s", v.err);
		}
		while ((p = waitpid(-1, &status, WNOHANG)) > 0) {
			ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
			live--;
		}
		if (n == 0)
			sched_yield();
	}
	if (tc_final_drain(chan, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	check_accounting(chan, &v, refused, P, M);
	munmap(refused, 4096);
	tc_verifier_free(&v);
}

TEST(processes_mapping_the_same_memfd)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_DISCARD, &tc_client_chan);

	run_processes(chan, false);
	rb_channel_free(chan);
}

TEST(rseq_processes_mapping_the_same_memfd)
{
	struct rb_channel *chan;

	need_rseq();
	chan = tc_make_rseq(4 * KIB, 4);
	ASSERT_NOT_NULL(chan);
	run_processes(chan, true);
	rb_channel_free(chan);
}

TEST(overwrite_after_overflow_holds_the_newest)
{
	enum { T = 2 };
	const uint32_t M = UNDER_TSAN ? 10000 : 40000, N = 8;
	struct rb_channel *chan = make(4 * KIB, N, RB_MODE_OVERWRITE, &tc_client_fake);
	struct writer_arg wa[T];
	pthread_t wt[T];
	struct tc_verifier v;
	uint64_t lost = 0, discarded = 0;

	for (unsigned i = 0; i < T; i++) {
		wa[i] = (struct writer_arg){ .chan = chan, .client = &tc_client_fake, .id = i,
					     .count = M, .seed = 0x51ed27ull * (i + 3 + test_repetition) };
		ASSERT_EQ_INT(pthread_create(&wt[i], NULL, writer_thread, &wa[i]), 0);
	}
	for (unsigned i = 0; i < T; i++)
		pthread_join(wt[i], NULL);
	tc_verifier_init(&v, T, NCPUS, M);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++)
		rb_flush(chan, cpu, 0);	/* 0 if it ended exactly at a boundary */
	ASSERT_EQ_INT(tc_drain(chan, &v, 1), NCPUS * N);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		struct rb_stats st;

		rb_buffer_stats(chan, cpu, &st);
		/* Exactly the newest N sub-buffers; all older ones counted. */
		ASSERT_EQ_U64(st.subbufs_lost + N, st.write_pos / (4 * KIB));
		ASSERT_EQ_U64((uint64_t)v.last_pkt_seq[cpu] + 1, st.write_pos / (4 * KIB));
		lost += st.records_lost;
		discarded += st.discarded;
	}
	ASSERT_EQ_U64(v.total + lost + discarded, (uint64_t)T * M);
	ASSERT_EQ_U64(discarded, wa[0].refused + wa[1].refused);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}

/*
 * A writer process killed between reserve and commit on CPU 0's buffer;
 * other writers go on; the consumer skips the sub-buffer it left incomplete.
 * rseq: the dead writer and the others write their own CPU's buffer (the
 * others hopping), the consumer's skip runs on CPU 0.
 */
/* The bytes not yet committed in CPU cpu's sub-buffer at c (closed). */
static uint64_t missing_bytes(struct rb_channel *chan, unsigned cpu, uint64_t c)
{
	struct rb_subbuf_ctl *sb = &rb_cpu(chan, cpu)->sb[rb_subbuf_index(chan, c)];
	/* Acquire: as the consumer reads the commit words. */
	uint64_t w = atomic_load_explicit(&sb->commit, memory_order_acquire) +
		     atomic_load_explicit(&sb->commit_local, memory_order_acquire);

	return (rb_cycle_end(chan, c) - w) & RB_COMMIT_BYTES_MASK;
}

static void run_killed_writer(struct rb_channel *chan, bool rseq)
{
	enum { T = 2 };
	const uint32_t before = 100, M = UNDER_TSAN ? 5000 : 20000;
	const unsigned ncpus = chan->g.nr_cpus;
	uint64_t *dead_pos = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
				  -1, 0);
	struct writer_arg wa[T];
	pthread_t wt[T];
	struct tc_verifier v;
	struct rb_stats st;
	uint64_t refused = 0, skips = 0, corrupt = 0, discarded = 0;
	int status;
	pid_t pid;

	ASSERT_TRUE(dead_pos != MAP_FAILED);
	tc_verifier_init(&v, 1 + T, ncpus, M);
	pid_t parent = getpid();
	pid = fork();
	ASSERT_TRUE(pid >= 0);
	if (pid == 0) {
		struct rb_channel *w = NULL;
		struct rb_ctx ctx;

		die_with_parent(parent);
		if (rb_channel_map(rb_channel_fd(chan), &tc_client_chan, &w) < 0)
			_exit(3);
		if (rseq && tc_run_on(0) < 0)
			_exit(7);
		for (uint32_t i = 0; i < before; i++)
			if ((rseq ? TC_EMIT_HERE(&tc_client_chan, w, 0, i, 20, i)
				  : TC_EMIT(&tc_client_chan, w, 0, 0, i, 20, i)) < 0)
				_exit(4);
		if ((rseq ? rb_reserve(&tc_client_chan, w, 64, 8, &ctx)
			  : rb_reserve_on(&tc_client_chan, w, 0, 64, 8, &ctx)) < 0 || ctx.cpu != 0)
			_exit(5);
		memset(ctx.rec, 0xee, ctx.slot_size);	/* half-written garbage */
		dead_pos[1] = ctx.slot_size;
		*dead_pos = ctx.pos;
		raise(SIGSTOP);				/* the parent kills us here */
		_exit(6);
	}
	ASSERT_EQ_INT(waitpid(pid, &status, WUNTRACED), pid);
	ASSERT_TRUE(WIFSTOPPED(status));
	ASSERT_EQ_INT(kill(pid, SIGKILL), 0);
	ASSERT_EQ_INT(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	/* Other writers go on, many times around the buffer, while the
	 * consumer drains; told which writer died, it skips the sub-buffer
	 * that stays incomplete once it is the oldest and only the dead
	 * record is missing from it. A live writer's in-progress record
	 * there also gives -EBUSY: skipping then would complete its bytes
	 * too, and its own commit later would over-count the slot's next
	 * cycle, which could never complete (what a consumer's STUCK_NS
	 * wait avoids). */
	atomic_store_explicit(&writers_done, 0, memory_order_relaxed);
	for (unsigned i = 0; i < T; i++) {
		wa[i] = (struct writer_arg){ .chan = chan, .client = &tc_client_chan, .id = 1 + i,
					     .count = M, .seed = 0xabcdefull * (i + 5 + test_repetition),
					     .rseq = rseq };
		ASSERT_EQ_INT(pthread_create(&wt[i], NULL, writer_thread, &wa[i]), 0);
	}
	/* Acquire: pairs with the writers' release increments. */
	while (atomic_load_explicit(&writers_done, memory_order_acquire) < T) {
		struct rb_packet pkt;
		int n = tc_drain(chan, &v, 0);

		if (n < 0)
			test_fail(__FILE__, __LINE__, "%s", v.err);
		if (rb_get_subbuf(chan, 0, &pkt) == -EBUSY) {
			struct rb_stats s0;

			rb_buffer_stats(chan, 0, &s0);
			if (s0.consumed == (*dead_pos & ~(4 * KIB - 1)) &&
			    missing_bytes(chan, 0, s0.consumed) == dead_pos[1]) {
				ASSERT_OK(rb_skip_subbuf(chan, 0));
				skips++;
			}
		}
		if (n == 0)
			sched_yield();
	}
	for (unsigned i = 0; i < T; i++)
		pthread_join(wt[i], NULL);
	if (skips == 0) {	/* the writers never lapped it: skip it now */
		rb_flush(chan, 0, 0);
		if (tc_drain(chan, &v, 0) < 0)
			test_fail(__FILE__, __LINE__, "%s", v.err);
		ASSERT_OK(rb_skip_subbuf(chan, 0));
		skips++;
	}
	if (tc_final_drain(chan, &v, 0) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	/* Not blocked: CPU 0 takes and delivers records after the skip. */
	if (rseq)
		ASSERT_OK(tc_run_on(0));
	for (uint32_t i = 0; i < 200; i++)
		ASSERT_OK(rseq ? TC_EMIT_HERE(&tc_client_chan, chan, 0, before + i, 30, i)
			       : TC_EMIT(&tc_client_chan, chan, 0, 0, before + i, 30, i));
	if (tc_final_drain(chan, &v, 0) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	for (uint32_t i = 0; i < 200; i++)
		ASSERT_TRUE(v.seen[before + i]);
	for (unsigned cpu = 0; cpu < ncpus; cpu++) {
		rb_buffer_stats(chan, cpu, &st);
		corrupt += st.records_corrupt;
		discarded += st.discarded;
		ASSERT_EQ_U64(st.consumed, st.write_pos);
		ASSERT_EQ_U64(v.last_discarded[cpu], st.discarded);
		ASSERT_EQ_U64(st.subbufs_corrupt, cpu == 0 ? 1 : 0);
	}
	for (unsigned i = 0; i < T; i++)
		refused += wa[i].refused;
	ASSERT_EQ_U64(skips, 1);
	ASSERT_EQ_U64(discarded, refused);
	/* Every record but the killed one: read (intact: checksums), skipped
	 * with the stuck sub-buffer (counted), or refused (counted). */
	ASSERT_EQ_U64(v.total + corrupt + discarded, before + 200 + (uint64_t)T * M);
	printf("# %llu recorded, %llu in the skipped sub-buffer, %llu discarded\n",
	       (unsigned long long)v.total, (unsigned long long)corrupt,
	       (unsigned long long)discarded);
	munmap(dead_pos, 4096);
	tc_verifier_free(&v);
}

TEST(killed_writer_between_reserve_and_commit)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_DISCARD, &tc_client_chan);

	run_killed_writer(chan, false);
	rb_channel_free(chan);
}

TEST(rseq_killed_writer_between_reserve_and_commit)
{
	struct rb_channel *chan;

	need_rseq();
	chan = tc_make_rseq(4 * KIB, 4);
	ASSERT_NOT_NULL(chan);
	run_killed_writer(chan, true);
	rb_channel_free(chan);
}

struct snap_arg {
	struct tc_verifier v;
	int failed;
};

static int snap_cb(const struct rb_packet *pkt, void *arg)
{
	struct snap_arg *s = arg;

	if (tc_verify_packet(&s->v, pkt, 0) < 0) {
		s->failed = 1;
		return -1;
	}
	return 0;
}

TEST(snapshot_while_writers_write)
{
	enum { T = 2 };
	const uint32_t M = 60000;
	struct rb_channel *chan;
	struct writer_arg wa[T];
	pthread_t wt[T];
	void *scratch = malloc(4 * KIB);
	uint64_t snaps = 0, packets = 0, overwritten = 0;

	if (UNDER_TSAN)	/* the copy races with writers by design (see rb_snapshot) */
		TEST_SKIP("snapshot's seqlock-style copy is a data race for TSan");
	chan = make(4 * KIB, 8, RB_MODE_OVERWRITE, &tc_client_fake);
	atomic_store_explicit(&writers_done, 0, memory_order_relaxed);
	for (unsigned i = 0; i < T; i++) {
		wa[i] = (struct writer_arg){ .chan = chan, .client = &tc_client_fake, .id = i,
					     .count = M, .seed = 77ull * (i + 1 + test_repetition) };
		ASSERT_EQ_INT(pthread_create(&wt[i], NULL, writer_thread, &wa[i]), 0);
	}
	/* Snapshots while they write, then one after (acquire: see writers). */
	for (bool last = false; !last; snaps++) {
		last = atomic_load_explicit(&writers_done, memory_order_acquire) == T;
		for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
			struct snap_arg s = { 0 };
			uint64_t ow = 0, inc = 0;

			tc_verifier_init(&s.v, T, NCPUS, M);
			rb_snapshot(chan, cpu, scratch, snap_cb, &s, &ow, &inc);
			if (s.failed)
				test_fail(__FILE__, __LINE__, "snapshot: %s", s.v.err);
			if (last) {	/* quiescent: all N sub-buffers, consistent */
				ASSERT_EQ_U64(s.v.packets, 8);
				ASSERT_EQ_U64(ow + inc, 0);
			}
			packets += s.v.packets;
			overwritten += ow;
			tc_verifier_free(&s.v);
		}
	}
	for (unsigned i = 0; i < T; i++)
		pthread_join(wt[i], NULL);
	ASSERT_GT_INT(packets, 0);
	printf("# %llu snapshots, %llu packets, %llu overwritten during copy\n",
	       (unsigned long long)snaps, (unsigned long long)packets,
	       (unsigned long long)overwritten);
	free(scratch);
	rb_channel_free(chan);
}

TEST(overwrite_with_concurrent_consumer)
{
	enum { T = 2 };
	const uint32_t M = 60000, N = 4;
	struct rb_channel *chan;
	struct writer_arg wa[T];
	pthread_t wt[T];
	struct tc_verifier v;
	char *copy = malloc(4 * KIB);
	uint64_t stale = 0, lost = 0, discarded = 0;

	if (UNDER_TSAN)	/* a lapped reader's copy races with writers by design */
		TEST_SKIP("overwrite-mode reads of a lapped sub-buffer race by design");
	chan = make(4 * KIB, N, RB_MODE_OVERWRITE, &tc_client_fake);
	tc_verifier_init(&v, T, NCPUS, M);
	atomic_store_explicit(&writers_done, 0, memory_order_relaxed);
	for (unsigned i = 0; i < T; i++) {
		wa[i] = (struct writer_arg){ .chan = chan, .client = &tc_client_fake, .id = i,
					     .count = M, .seed = 31ull * (i + 1 + test_repetition) };
		ASSERT_EQ_INT(pthread_create(&wt[i], NULL, writer_thread, &wa[i]), 0);
	}
	/* Copy, then release: a successful put proves no writer lapped the
	 * copy (writers only write a slot after pushing past it); -ESTALE
	 * means the copy is dropped (the pusher counted it lost). */
	for (bool last = false; !last;) {
		last = atomic_load_explicit(&writers_done, memory_order_acquire) == T;
		if (last)
			for (unsigned cpu = 0; cpu < NCPUS; cpu++)
				rb_flush(chan, cpu, 0);
		for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
			struct rb_packet pkt;

			while (rb_get_subbuf(chan, cpu, &pkt) == 0) {
				struct rb_packet cp = pkt;

				memcpy(copy, pkt.data, pkt.content_size);
				cp.data = copy;
				if (rb_put_subbuf(chan, &pkt) == -ESTALE) {
					stale++;
					continue;
				}
				if (tc_verify_packet(&v, &cp, 0) < 0)
					test_fail(__FILE__, __LINE__, "%s", v.err);
			}
		}
	}
	for (unsigned i = 0; i < T; i++)
		pthread_join(wt[i], NULL);
	for (unsigned cpu = 0; cpu < NCPUS; cpu++) {
		struct rb_stats st;

		rb_buffer_stats(chan, cpu, &st);
		ASSERT_EQ_U64(st.consumed, st.write_pos);
		lost += st.records_lost;
		discarded += st.discarded;
	}
	ASSERT_EQ_U64(discarded, wa[0].refused + wa[1].refused);
	ASSERT_EQ_U64(v.total + lost + discarded, (uint64_t)T * M);
	printf("# %llu recorded, %llu lost (%llu copies dropped), %llu discarded\n",
	       (unsigned long long)v.total, (unsigned long long)lost,
	       (unsigned long long)stale, (unsigned long long)discarded);
	free(copy);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}
