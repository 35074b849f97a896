/* Unit tests of the ring buffer (single-threaded; stress: test-ringbuf-stress.c). */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltt-test.h"
#include "rb-test-client.h"

#define KIB 1024ull

static struct rb_config cfg_of(uint64_t S, uint32_t N, enum rb_mode mode, uint32_t ncpus)
{
	struct rb_config c = {
		.subbuf_size = S,
		.num_subbufs = N,
		.hdr_area_size = TC_HDR_AREA,
		.mode = mode,
		.nr_cpus = ncpus,
		.name = "test",
		.client = &tc_client_fake,
	};
	return c;
}

static struct rb_channel *make(uint64_t S, uint32_t N, enum rb_mode mode, uint32_t ncpus)
{
	struct rb_config c = cfg_of(S, N, mode, ncpus);
	struct rb_channel *chan = NULL;

	ASSERT_OK(rb_channel_create(&c, &chan));
	return chan;
}

TEST(geometry_rejects_bad_sizes)
{
	static const struct {
		uint64_t S;
		uint32_t N, hdr, mode, cpus;
	} bad[] = {
		{ 4096 + 1, 4, 64, 0, 2 },	/* S not a power of two */
		{ 6144, 4, 64, 0, 2 },
		{ 2048, 4, 64, 0, 2 },		/* S < 4 KiB */
		{ 128ull << 20, 4, 64, 0, 2 },	/* S > 64 MiB */
		{ 0, 4, 64, 0, 2 },
		{ 4096, 1, 64, 0, 2 },		/* N < 2 */
		{ 4096, 3, 64, 0, 2 },		/* N not a power of two */
		{ 4096, 0, 64, 0, 2 },
		{ 4096, 1u << 17, 64, 0, 2 },	/* N too large */
		{ 4096, 4, 2048, 0, 2 },	/* header area >= S/2 */
		{ 4096, 4, 64, 2, 2 },		/* bad mode */
		{ 4096, 4, 64, 0, RB_MAX_CPUS + 1 },
		{ 64ull << 20, 1u << 16, 64, 0, 4096 }, /* 2^54 bytes */
	};
	struct rb_geometry g;
	struct rb_channel *chan = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct rb_config c = cfg_of(bad[i].S, bad[i].N, (enum rb_mode)bad[i].mode,
					    bad[i].cpus);

		c.hdr_area_size = bad[i].hdr;
		ASSERT_EQ_INT(rb_geometry_check(&c, &g), -EINVAL);
		ASSERT_EQ_INT(rb_channel_create(&c, &chan), -EINVAL);
		ASSERT_NULL(chan);
	}
	struct rb_config ok = cfg_of(4096, 2, RB_MODE_OVERWRITE, 0);
	ASSERT_OK(rb_geometry_check(&ok, &g));
	ASSERT_EQ_INT(g.nr_cpus, sysconf(_SC_NPROCESSORS_CONF));
	ok = cfg_of(64ull << 20, 2, RB_MODE_DISCARD, 1);
	ASSERT_OK(rb_geometry_check(&ok, &g));
	ASSERT_EQ_U64(g.total_size, g.data_offset + 2 * (64ull << 20));
	ASSERT_EQ_U64(g.data_offset % 4096, 0);
	ok.client = NULL;
	ASSERT_EQ_INT(rb_channel_create(&ok, &chan), -EINVAL);
}

TEST(header_validation_of_handed_mapping)
{
	struct rb_channel *chan = make(8 * KIB, 4, RB_MODE_DISCARD, 3), *m = NULL;
	struct rb_geometry g;
	struct rb_shm_header h0, *h = (struct rb_shm_header *)chan->base;
	uint64_t size = chan->map_size;

	ASSERT_OK(rb_header_validate(chan->base, size, &g));
	ASSERT_EQ_INT(g.nr_cpus, 3);
	ASSERT_EQ_U64(g.subbuf_size, 8 * KIB);
	ASSERT_EQ_INT(g.num_subbufs, 4);
	ASSERT_EQ_INT(rb_header_validate(chan->base, size - 1, &g), -EMSGSIZE);
	ASSERT_EQ_INT(rb_header_validate(chan->base, 16, &g), -EMSGSIZE);
	memcpy(&h0, h, sizeof(h0));
#define CORRUPT(field, value, err)                                         \
	do {                                                               \
		h->field = value;                                          \
		ASSERT_EQ_INT(rb_header_validate(chan->base, size, &g), err); \
		memcpy(h, &h0, sizeof(h0));                                \
	} while (0)
	CORRUPT(magic, 0xdeadbeef, -EPROTO);
	CORRUPT(version, 1, -EPROTO);	/* the layout before rseq channels */
	CORRUPT(header_size, 8, -EINVAL);
	CORRUPT(subbuf_size, 8 * KIB + 8, -EINVAL);
	CORRUPT(subbuf_size, 16 * KIB, -EINVAL);	/* then layout mismatches */
	CORRUPT(num_subbufs, 8, -EINVAL);
	CORRUPT(num_subbufs, 0, -EINVAL);
	CORRUPT(nr_cpus, 0, -EINVAL);
	CORRUPT(nr_cpus, 1u << 31, -EINVAL);
	CORRUPT(mode, 7, -EINVAL);
	CORRUPT(clock, 2, -EINVAL);
	CORRUPT(sync, 2, -EINVAL);
	CORRUPT(sync, RB_SYNC_RSEQ, -EINVAL);	/* rseq needs the TSC clock */
	CORRUPT(hdr_area_size, 4 * KIB, -EINVAL);
	CORRUPT(hdr_area_size, 10, -EINVAL);	/* not a multiple of 4 */
	CORRUPT(ctl_offset, 0, -EINVAL);
	CORRUPT(data_offset, 0, -EINVAL);
	CORRUPT(cpu_ctl_stride, 8, -EINVAL);
	CORRUPT(total_size, h0.total_size * 2, -EINVAL);
#undef CORRUPT
	ASSERT_OK(rb_header_validate(chan->base, size, &g));

	/* Through an fd: a too small file, garbage, then the real one. */
	int fd = memfd_create("bad", MFD_CLOEXEC);
	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ_INT(rb_channel_map(fd, &tc_client_fake, &m), -EMSGSIZE);
	ASSERT_EQ_INT(ftruncate(fd, 1 << 16), 0);
	ASSERT_EQ_INT(rb_channel_map(fd, &tc_client_fake, &m), -EPROTO);
	ASSERT_EQ_INT(write(fd, chan->base, 4096), 4096); /* valid header, file too short */
	ASSERT_EQ_INT(rb_channel_map(fd, &tc_client_fake, &m), -EMSGSIZE);
	ASSERT_NULL(m);
	close(fd);
	ASSERT_OK(rb_channel_map(rb_channel_fd(chan), &tc_client_fake, &m));
	ASSERT_EQ_INT(rb_channel_fd(m), -1);
	/* A writer cannot shrink the memfd under the others' mappings. */
	ASSERT_EQ_INT(ftruncate(rb_channel_fd(chan), 4096), -1);
	ASSERT_EQ_INT(errno, EPERM);
	rb_channel_free(m);
	rb_channel_free(chan);
	rb_channel_free(NULL);
}

TEST(mapped_writer_and_creator_share_data)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_DISCARD, 2), *w = NULL;
	struct tc_verifier v;

	ASSERT_OK(rb_channel_map(rb_channel_fd(chan), &tc_client_fake, &w));
	for (uint32_t i = 0; i < 100; i++)
		ASSERT_OK(TC_EMIT(&tc_client_fake, w, i % 2, 0, i, 8, i));
	tc_verifier_init(&v, 1, 2, 100);
	if (tc_final_drain(chan, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_EQ_U64(v.total, 100);
	tc_verifier_free(&v);
	rb_channel_free(w);
	rb_channel_free(chan);
}

TEST(single_writer_fill_and_drain)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_DISCARD, 1);
	struct tc_verifier v;
	uint32_t seq = 0, refused = 0;
	struct rb_stats st;
	int r;

	tc_verifier_init(&v, 1, 1, 100000);
	/* Fill: records fill N sub-buffers; then the consumer is behind. */
	while ((r = TC_EMIT(&tc_client_fake, chan, 0, 0, seq, seq % 61, seq)) == 0)
		seq++;
	ASSERT_EQ_INT(r, -ENOBUFS);
	refused++;
	seq++;
	rb_buffer_stats(chan, 0, &st);
	ASSERT_EQ_U64(st.discarded, 1);
	/* The 4th sub-buffer is still open (not closed): 3 readable. */
	ASSERT_EQ_INT(tc_drain(chan, &v, 1), 3);
	for (int round = 0; round < 20; round++) {
		for (int i = 0; i < 50; i++, seq++)
			if (TC_EMIT(&tc_client_fake, chan, 0, 0, seq, seq % 200, seq) < 0)
				refused++;
		if (tc_drain(chan, &v, 1) < 0)
			test_fail(__FILE__, __LINE__, "%s", v.err);
	}
	if (tc_final_drain(chan, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	rb_buffer_stats(chan, 0, &st);
	ASSERT_EQ_U64(st.discarded, refused);
	ASSERT_EQ_U64(v.total + refused, seq);
	ASSERT_EQ_U64(v.last_discarded[0], refused);
	ASSERT_GT_INT(v.packets, 20);
	ASSERT_EQ_U64(st.consumed, st.write_pos);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}

TEST(record_alignment_and_disjoint_slots)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_DISCARD, 1);
	static const size_t aligns[] = { 1, 2, 4, 8, 16, 64, 256 };
	uint64_t prev_end = 0;
	struct rb_ctx ctx;

	for (int i = 0; i < 200; i++) {
		size_t a = aligns[i % ARRAY_SIZE(aligns)], len = (size_t)(i % 13) + 1;
		struct rb_packet pkt;

		if (rb_reserve_on(&tc_client_fake, chan, 0, len, a, &ctx) == -ENOBUFS) {
			ASSERT_OK(rb_get_subbuf(chan, 0, &pkt));
			ASSERT_OK(rb_put_subbuf(chan, &pkt));
			ASSERT_OK(rb_reserve_on(&tc_client_fake, chan, 0, len, a, &ctx));
		}
		ASSERT_EQ_U64((uintptr_t)ctx.payload % a, 0);
		ASSERT_EQ_U64((ctx.pos + (uint64_t)(ctx.payload - ctx.rec)) % a, 0);
		ASSERT_TRUE(ctx.pos >= prev_end);
		ASSERT_TRUE((ctx.pos & (4 * KIB - 1)) >= TC_HDR_AREA);
		ASSERT_EQ_U64(ctx.slot_size, (uint64_t)(ctx.payload - ctx.rec) + len);
		/* Never across a sub-buffer boundary. */
		ASSERT_EQ_U64(ctx.pos / (4 * KIB), (ctx.pos + ctx.slot_size - 1) / (4 * KIB));
		ASSERT_EQ_PTR(ctx.rec, rb_data(chan, 0, ctx.pos));
		memset(ctx.payload, 0xab, len);
		prev_end = ctx.pos + ctx.slot_size;
		rb_commit(chan, &ctx);
	}
	ASSERT_EQ_INT(rb_reserve_on(&tc_client_fake, chan, 0, 8, 3, &ctx), -EINVAL);
	ASSERT_EQ_INT(rb_reserve_on(&tc_client_fake, chan, 0, 8, 8192, &ctx), -EINVAL);
	ASSERT_EQ_INT(rb_reserve_on(&tc_client_fake, chan, 0, 4 * KIB, 8, &ctx), -E2BIG);
	ASSERT_EQ_INT(rb_reserve_on(&tc_client_fake, chan, 0, 4 * KIB - TC_HDR_AREA, 8, &ctx), -E2BIG);
	ASSERT_EQ_INT(rb_reserve_on(&tc_client_fake, chan, 0, SIZE_MAX, 8, &ctx), -E2BIG);
	ASSERT_EQ_INT(rb_reserve_on(&tc_client_fake, chan, 1, 8, 8, &ctx), -EINVAL); /* no cpu 1 */
	struct rb_stats st;
	rb_buffer_stats(chan, 0, &st);
	ASSERT_EQ_U64(st.discarded, 5);
	/* The largest record that fits: S - header area - 4-byte header. */
	struct rb_packet pkt;
	rb_flush(chan, 0, 0);
	while (rb_get_subbuf(chan, 0, &pkt) == 0)
		ASSERT_OK(rb_put_subbuf(chan, &pkt));
	ASSERT_OK(rb_reserve_on(&tc_client_fake, chan, 0, 4 * KIB - TC_HDR_AREA - 4, 4, &ctx));
	rb_commit(chan, &ctx);
	/* It ends exactly at the boundary: its sub-buffer is closed and ready. */
	ASSERT_OK(rb_get_subbuf(chan, 0, &pkt));
	ASSERT_EQ_U64(pkt.content_size, 4 * KIB);
	ASSERT_EQ_U64(pkt.records, 1);
	ASSERT_OK(rb_put_subbuf(chan, &pkt));
	rb_channel_free(chan);
}

TEST(flush_of_a_partial_subbuffer)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_DISCARD, 1);
	struct rb_packet pkt;
	struct rb_ctx ctx;
	struct tc_verifier v;
	uint64_t end;

	tc_verifier_init(&v, 1, 1, 10);
	ASSERT_EQ_INT(rb_flush(chan, 0, 0), 0);	/* nothing open */
	for (uint32_t i = 0; i < 3; i++)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, i, 10, i));
	ASSERT_EQ_INT(rb_get_subbuf(chan, 0, &pkt), -EAGAIN);
	/* A reservation in progress: flush closes, but it is not complete. */
	ASSERT_OK(rb_reserve_on(&tc_client_fake, chan, 0, sizeof(struct tc_payload) + 5, 8, &ctx));
	end = ctx.pos + ctx.slot_size;
	ASSERT_EQ_INT(rb_flush(chan, 0, 0), 1);
	ASSERT_EQ_INT(rb_get_subbuf(chan, 0, &pkt), -EBUSY);
	tc_write(&ctx, 1, 0, 3, 5, 3);
	rb_commit(chan, &ctx);
	ASSERT_OK(rb_get_subbuf(chan, 0, &pkt));
	ASSERT_EQ_U64(pkt.content_size, end);
	ASSERT_EQ_U64(pkt.records, 4);
	ASSERT_EQ_U64(pkt.seq_num, 0);
	ASSERT_EQ_U64(pkt.packet_size, 4 * KIB);
	ASSERT_EQ_PTR(pkt.data, rb_data(chan, 0, 0));
	if (tc_verify_packet(&v, &pkt, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_OK(rb_put_subbuf(chan, &pkt));
	ASSERT_EQ_INT(rb_flush(chan, 0, 0), 0);	/* already closed */
	/* An empty packet on demand (switch timer on a quiet CPU). */
	ASSERT_EQ_INT(rb_flush(chan, 0, RB_FLUSH_EMPTY), 1);
	ASSERT_OK(rb_get_subbuf(chan, 0, &pkt));
	ASSERT_EQ_U64(pkt.content_size, TC_HDR_AREA);
	ASSERT_EQ_U64(pkt.records, 0);
	ASSERT_EQ_U64(pkt.seq_num, 1);
	ASSERT_TRUE(pkt.ts_begin == pkt.ts_end && pkt.ts_begin >= v.last_ts[0]);
	if (tc_verify_packet(&v, &pkt, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_OK(rb_put_subbuf(chan, &pkt));
	/* Writers go on after a flush. */
	ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, 4, 1, 4));
	if (tc_final_drain(chan, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_EQ_U64(v.total, 5);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}

TEST(discard_counting_when_full)
{
	struct rb_channel *chan = make(4 * KIB, 2, RB_MODE_DISCARD, 1);
	struct rb_packet pkt;
	struct tc_verifier v;
	uint32_t seq = 0;
	int r;

	tc_verifier_init(&v, 1, 1, 1000);
	while (TC_EMIT(&tc_client_fake, chan, 0, 0, seq, 100, seq) == 0)
		seq++;
	for (int i = 0; i < 6; i++) {
		r = TC_EMIT(&tc_client_fake, chan, 0, 0, seq + 1 + (uint32_t)i, 100, 0);
		ASSERT_EQ_INT(r, -ENOBUFS);
	}
	seq += 7;
	/* Sub-buffer 0 closed before any discard: events_discarded 0. */
	ASSERT_OK(rb_get_subbuf(chan, 0, &pkt));
	ASSERT_EQ_U64(pkt.events_discarded, 0);
	if (tc_verify_packet(&v, &pkt, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_OK(rb_put_subbuf(chan, &pkt));
	/* Room again: the next record closes sub-buffer 1, which carries 7. */
	ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, seq, 4000, seq));
	seq++;
	ASSERT_OK(rb_get_subbuf(chan, 0, &pkt));
	ASSERT_EQ_U64(pkt.events_discarded, 7);
	if (tc_verify_packet(&v, &pkt, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_OK(rb_put_subbuf(chan, &pkt));
	if (tc_final_drain(chan, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_EQ_U64(v.total + v.last_discarded[0], seq);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}

TEST(overwrite_keeps_the_newest_subbuffers)
{
	const uint32_t N = 4;
	struct rb_channel *chan = make(4 * KIB, N, RB_MODE_OVERWRITE, 1);
	struct tc_verifier v;
	struct rb_stats st;
	uint32_t seq;
	const uint32_t total = 2000;

	for (seq = 0; seq < total; seq++)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, seq, seq % 97, seq));
	ASSERT_EQ_INT(rb_flush(chan, 0, 0), 1);
	rb_buffer_stats(chan, 0, &st);
	tc_verifier_init(&v, 1, 1, total);
	ASSERT_EQ_INT(tc_drain(chan, &v, 1), (int)N);
	ASSERT_EQ_U64(st.subbufs_lost + N, st.write_pos / (4 * KIB));
	ASSERT_EQ_U64(st.discarded, 0);
	/* Exactly the newest records, up to the last one, none missing. */
	ASSERT_EQ_U64(v.total + st.records_lost, total);
	for (uint32_t s = total - (uint32_t)v.total; s < total; s++)
		ASSERT_TRUE(v.seen[s]);
	ASSERT_EQ_INT(v.last_seq[0], total - 1);
	tc_verifier_free(&v);

	/* A consumer reading while a writer laps it: put reports -ESTALE. */
	struct rb_packet pkt;
	for (; seq < total + 200; seq++)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, seq, 50, seq));
	ASSERT_OK(rb_get_subbuf(chan, 0, &pkt));
	for (; seq < total + 400; seq++)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, seq, 50, seq));
	ASSERT_EQ_INT(rb_put_subbuf(chan, &pkt), -ESTALE);
	rb_channel_free(chan);
}

TEST(overwrite_refuses_to_lap_an_uncommitted_subbuffer)
{
	struct rb_channel *chan = make(4 * KIB, 2, RB_MODE_OVERWRITE, 1);
	struct rb_ctx ctx;
	struct rb_stats st;
	uint32_t seq = 0, refused = 0;

	ASSERT_OK(rb_reserve_on(&tc_client_fake, chan, 0, 16, 8, &ctx)); /* held open */
	for (int i = 0; i < 300; i++, seq++)
		if (TC_EMIT(&tc_client_fake, chan, 0, 0, seq, 32, seq) == -ENOBUFS)
			refused++;
	ASSERT_GT_INT(refused, 0);
	rb_buffer_stats(chan, 0, &st);
	ASSERT_EQ_U64(st.discarded, refused);
	ASSERT_EQ_U64(st.subbufs_lost, 0);
	rb_commit(chan, &ctx);
	ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, seq, 32, seq));
	rb_buffer_stats(chan, 0, &st);
	ASSERT_EQ_U64(st.subbufs_lost, 1);
	rb_channel_free(chan);
}

static void ts_run(uint64_t step, uint64_t *ret_compact, uint64_t *ret_escapes)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_DISCARD, 1);
	struct tc_verifier v;

	tc_clock_step_tls = step;
	tc_verifier_init(&v, 1, 1, 1000);
	for (uint32_t i = 0; i < 1000; i++) {
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, i, 40, i));
		if (tc_drain(chan, &v, 1) < 0)
			test_fail(__FILE__, __LINE__, "%s", v.err);
	}
	if (tc_final_drain(chan, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_EQ_U64(v.total, 1000);
	*ret_compact = v.compact;
	*ret_escapes = v.escapes;
	tc_verifier_free(&v);
	rb_channel_free(chan);
	tc_clock_step_tls = 0;
}

TEST(compact_timestamp_chosen_exactly)
{
	uint64_t c, e;

	/* Each reservation reads the clock once: consecutive records are
	 * `step` apart. Below 2^27 all compact; at 2^27 every record but the
	 * first of each packet (reference: ts_begin, its own ts) escapes. */
	ts_run(1, &c, &e);
	ASSERT_EQ_U64(e, 0);
	ts_run((1ull << 27) - 1, &c, &e);
	ASSERT_EQ_U64(e, 0);
	ts_run(1ull << 27, &c, &e);
	ASSERT_GT_INT(e, 900);
	ASSERT_LT_INT(c, 100);
	ASSERT_GT_INT(c, 0);
	ts_run((1ull << 32) + 12345, &c, &e);
	ASSERT_GT_INT(e, 900);
}

static int snap_cb(const struct rb_packet *pkt, void *arg)
{
	struct tc_verifier *v = arg;

	return tc_verify_packet(v, pkt, 1) < 0 ? -1 : 0;
}

TEST(snapshot_copies_without_consuming)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_OVERWRITE, 1);
	void *scratch = malloc(4 * KIB);
	struct tc_verifier v;
	uint64_t ow = 99, inc = 99, first;
	struct rb_stats st;

	for (uint32_t i = 0; i < 1000; i++)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, i, 30, i));
	tc_verifier_init(&v, 1, 1, 1000);
	ASSERT_EQ_INT(rb_snapshot(chan, 0, scratch, snap_cb, &v, &ow, &inc), 0);
	ASSERT_EQ_U64(ow, 0);
	ASSERT_EQ_U64(inc, 0);
	ASSERT_EQ_U64(v.packets, 4);
	ASSERT_EQ_INT(v.last_seq[0], 999);
	rb_buffer_stats(chan, 0, &st);
	ASSERT_EQ_U64(v.total + st.records_lost, 1000);
	first = v.total;
	tc_verifier_free(&v);
	/* Again: same content (nothing consumed); then it goes on. */
	tc_verifier_init(&v, 1, 1, 1000);
	ASSERT_EQ_INT(rb_snapshot(chan, 0, scratch, snap_cb, &v, &ow, &inc), 0);
	ASSERT_EQ_U64(v.total, first);
	tc_verifier_free(&v);
	/* An uncommitted record makes its sub-buffer incomplete: reported. */
	struct rb_ctx ctx;
	ASSERT_OK(rb_reserve_on(&tc_client_fake, chan, 0, 16, 8, &ctx));
	tc_verifier_init(&v, 1, 1, 1000);
	ASSERT_EQ_INT(rb_snapshot(chan, 0, scratch, snap_cb, &v, &ow, &inc), 0);
	ASSERT_EQ_U64(inc, 1);
	ASSERT_EQ_U64(v.packets, 3);
	tc_verifier_free(&v);
	free(scratch);
	rb_channel_free(chan);
}

TEST(snapshot_newest_leaves_out_the_older_subbufs)
{
	struct rb_channel *chan = make(4 * KIB, 8, RB_MODE_OVERWRITE, 1);
	void *scratch = malloc(4 * KIB);
	struct tc_verifier all, newest;
	uint64_t ow, inc;

	for (uint32_t i = 0; i < 1000; i++)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, i, 30, i));
	tc_verifier_init(&all, 1, 1, 1000);
	ASSERT_EQ_INT(rb_snapshot(chan, 0, scratch, snap_cb, &all, &ow, &inc), 0);
	ASSERT_EQ_U64(all.packets, 8);
	tc_verifier_init(&newest, 1, 1, 1000);
	ASSERT_EQ_INT(rb_snapshot_newest(chan, 0, 3, scratch, snap_cb, &newest, &ow, &inc), 0);
	ASSERT_EQ_U64(newest.packets, 3);
	ASSERT_EQ_INT(newest.last_seq[0], 999);	/* the newest records, up to the last */
	ASSERT_EQ_INT(newest.last_pkt_seq[0], all.last_pkt_seq[0]);
	/* a limit above what the buffer holds takes everything */
	tc_verifier_free(&newest);
	tc_verifier_init(&newest, 1, 1, 1000);
	ASSERT_EQ_INT(rb_snapshot_newest(chan, 0, 100, scratch, snap_cb, &newest, &ow, &inc), 0);
	ASSERT_EQ_U64(newest.total, all.total);
	tc_verifier_free(&newest);
	tc_verifier_free(&all);
	free(scratch);
	rb_channel_free(chan);
}

TEST(consumer_wakeup_only_when_sleeping)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_DISCARD, 2);
	int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	uint64_t val = 0;
	uint32_t seq = 0;
	struct rb_stats st;

	ASSERT_TRUE(efd >= 0);
	rb_channel_set_wakeup_fd(chan, efd);
	/* Consumer awake: a completed sub-buffer bumps the counter, no write. */
	while (rb_buffer_stats(chan, 1, &st), st.deliveries == 0)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 1, 0, seq++, 100, 0));
	ASSERT_EQ_INT(read(efd, &val, 8), -1);
	ASSERT_EQ_INT(rb_consumer_prepare_sleep(chan), 1);	/* readable: do not sleep */
	struct rb_packet pkt;
	ASSERT_OK(rb_get_subbuf(chan, 1, &pkt));
	ASSERT_OK(rb_put_subbuf(chan, &pkt));
	ASSERT_EQ_INT(rb_consumer_prepare_sleep(chan), 0);
	while (rb_buffer_stats(chan, 1, &st), st.deliveries == 1)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 1, 0, seq++, 100, 0));
	struct pollfd p = { .fd = efd, .events = POLLIN };
	ASSERT_EQ_INT(poll(&p, 1, 1000), 1);
	ASSERT_EQ_INT(read(efd, &val, 8), 8);
	ASSERT_EQ_U64(val, 1);
	rb_consumer_woken(chan);
	close(efd);
	rb_channel_free(chan);
}

TEST(consumer_tick_switches_and_skips_stuck)
{
	struct rb_channel *chan = make(4 * KIB, 4, RB_MODE_DISCARD, 2);
	struct rb_ctx ctx;
	struct rb_stats st;
	struct tc_verifier v;
	uint32_t seq = 0;

	tc_verifier_init(&v, 1, 2, 10000);
	/* Switch timer: a quiet CPU gets (empty) packets, an active one its data. */
	ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, seq++, 8, 0));
	ASSERT_EQ_INT(rb_consumer_tick(chan, 1000, 1000, 0), 2);
	ASSERT_EQ_INT(tc_drain(chan, &v, 1), 2);
	ASSERT_EQ_INT(rb_consumer_tick(chan, 1500, 1000, 0), 0);	/* not due */
	/* A reservation never committed (its writer died): stuck. */
	for (int i = 0; i < 5; i++)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, seq++, 8, 0));
	ASSERT_OK(rb_reserve_on(&tc_client_fake, chan, 0, 24, 8, &ctx));
	for (int i = 0; i < 3; i++)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, seq++, 8, 0));
	ASSERT_EQ_INT(rb_consumer_tick(chan, 2000, 1000, 500), 1);	/* cpu 1's empty one */
	ASSERT_EQ_INT(tc_drain(chan, &v, 1), 1);
	ASSERT_EQ_INT(rb_consumer_tick(chan, 2400, 1000, 500), 0);	/* stuck 400 < 500 */
	ASSERT_EQ_INT(rb_consumer_tick(chan, 2500, 0, 500), 0);		/* skipped: empty */
	rb_buffer_stats(chan, 0, &st);
	ASSERT_EQ_U64(st.subbufs_corrupt, 1);
	ASSERT_EQ_U64(st.records_corrupt, 8);
	/* Writers are not blocked: more than N sub-buffers go through. */
	for (int i = 0; i < 600; i++) {
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, seq++, 50, 0));
		if (tc_drain(chan, &v, 0) < 0)
			test_fail(__FILE__, __LINE__, "%s", v.err);
	}
	if (tc_final_drain(chan, &v, 0) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_EQ_U64(v.total + st.records_corrupt, seq);
	ASSERT_EQ_INT(rb_skip_subbuf(chan, 0), -EAGAIN);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}

TEST(file_backed_channel_for_recovery)
{
	char dir[] = "/tmp/ltt-rb-test-XXXXXX";
	struct rb_config c = cfg_of(4 * KIB, 2, RB_MODE_OVERWRITE, 1);
	struct rb_channel *chan = NULL, *again = NULL, *rec = NULL;
	char path[256];
	struct stat sb;
	int fd;

	ASSERT_NOT_NULL(mkdtemp(dir));
	c.shm_dir = dir;
	c.name = "chan0_0";
	ASSERT_OK(rb_channel_create(&c, &again));	/* create + unlink */
	ASSERT_OK(rb_channel_unlink(again));
	rb_channel_free(again);
	again = NULL;
	ASSERT_OK(rb_channel_create(&c, &chan));
	ASSERT_EQ_INT(rb_channel_create(&c, &again), -EEXIST);
	ASSERT_NULL(again);
	for (uint32_t i = 0; i < 10; i++)
		ASSERT_OK(TC_EMIT(&tc_client_fake, chan, 0, 0, i, 8, i));
	rb_channel_free(chan);	/* "crash": the file stays */
	snprintf(path, sizeof(path), "%s/chan0_0", dir);
	ASSERT_EQ_INT(stat(path, &sb), 0);
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_TRUE(fd >= 0);
	ASSERT_OK(rb_channel_map(fd, &tc_client_fake, &rec));
	close(fd);
	struct tc_verifier v;
	tc_verifier_init(&v, 1, 1, 10);
	if (tc_final_drain(rec, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_EQ_U64(v.total, 10);
	tc_verifier_free(&v);
	ASSERT_OK(rb_channel_unlink(rec));	/* mapped from an fd: not its file */
	ASSERT_EQ_INT(stat(path, &sb), 0);
	rb_channel_free(rec);
	ASSERT_EQ_INT(unlink(path), 0);
	ASSERT_EQ_INT(rmdir(dir), 0);
}

/* ---- rseq channels (see also test-ringbuf-stress.c) ---- */

static void need_rseq(void)
{
	if (!rb_rseq_usable())
		TEST_SKIP("no restartable sequences in this build or thread (TSan builds)");
}

/* An rseq channel of 4 x 4 KiB per CPU and a verifier for one writer. */
static struct rb_channel *rseq_setup(struct tc_verifier *v, uint32_t max_seq)
{
	struct rb_channel *chan;

	need_rseq();
	chan = tc_make_rseq(4 * KIB, 4);
	ASSERT_NOT_NULL(chan);
	tc_verifier_init(v, 1, chan->g.nr_cpus, max_seq);
	return chan;
}

TEST(rseq_channel_configuration)
{
	struct rb_config c = cfg_of(4 * KIB, 4, RB_MODE_DISCARD, 2);
	struct rb_channel *chan = NULL;
	struct rb_geometry g;

	c.sync = RB_SYNC_RSEQ;
	ASSERT_EQ_INT(rb_geometry_check(&c, &g), -EINVAL);	/* needs the TSC clock */
	c.clock = RB_CLOCK_TSC;
	c.mode = RB_MODE_OVERWRITE;
	ASSERT_EQ_INT(rb_geometry_check(&c, &g), -EINVAL);	/* and discard mode */
	c.mode = RB_MODE_DISCARD;
	ASSERT_OK(rb_geometry_check(&c, &g));
	if (!rb_rseq_usable()) {
		ASSERT_EQ_INT(rb_channel_create(&c, &chan), -EOPNOTSUPP);
		return;
	}
	ASSERT_OK(rb_channel_create(&c, &chan));
	ASSERT_EQ_INT(chan->g.sync, RB_SYNC_RSEQ);
	rb_channel_free(chan);
}

/*
 * One writer on CPU 0: records of every size (the fast path, switches, a
 * record that fills a sub-buffer exactly), a gap longer than the short
 * header holds (the slow path's long header), flushes by the consumer
 * running on another CPU. Every record is read back intact and in order.
 */
TEST(rseq_writer_and_consumer_on_another_cpu)
{
	struct rb_channel *chan;
	struct tc_verifier v;
	uint32_t seq = 0, refused = 0;
	cpu_set_t before, after;
	struct rb_stats st;
	int r;

	chan = rseq_setup(&v, 100000);
	ASSERT_OK(tc_run_on(0));
	for (int round = 0; round < 40; round++) {
		for (int i = 0; i < 30; i++, seq++) {
			r = TC_EMIT_HERE(&tc_client_chan, chan, 0, seq, (seq * 37) % 700, seq);
			ASSERT_TRUE(r == 0 || r == -ENOBUFS);
			refused += r < 0;
		}
		if (round == 20) {	/* a time gap: 2^27 TSC cycles is < 100 ms */
			struct timespec gap = { 0, 100 * 1000 * 1000 };

			nanosleep(&gap, NULL);
		}
		if (tc_drain(chan, &v, 1) < 0)
			test_fail(__FILE__, __LINE__, "%s", v.err);
	}
	/* The largest record (4-byte header, padding to 8, payload) ends
	 * exactly at its sub-buffer's end. */
	ASSERT_OK(rb_flush(chan, 0, 0));
	ASSERT_TRUE(tc_drain(chan, &v, 1) >= 0);
	ASSERT_OK(TC_EMIT_HERE(&tc_client_chan, chan, 0, seq, 4 * KIB - TC_HDR_AREA - 8 -
						 sizeof(struct tc_payload), seq));
	seq++;
	/* The consumer flushes CPU 0's buffer from CPU 1: it moves there and
	 * back (its affinity is restored). */
	ASSERT_OK(tc_run_on(1));
	ASSERT_EQ_INT(sched_getaffinity(0, sizeof(before), &before), 0);
	if (tc_final_drain(chan, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_EQ_INT(sched_getaffinity(0, sizeof(after), &after), 0);
	ASSERT_TRUE(CPU_EQUAL(&before, &after));
	rb_buffer_stats(chan, 0, &st);
	ASSERT_EQ_U64(st.discarded, refused);
	ASSERT_EQ_U64(v.total + refused, seq);
	ASSERT_GT_INT(v.escapes, 0);	/* after the gap */
	ASSERT_GT_INT(v.compact, v.escapes);
	ASSERT_EQ_U64(st.consumed, st.write_pos);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}

/* A writer that moves to another CPU between reserve and commit commits to
 * the remote word; the sub-buffer completes from both words. */
TEST(rseq_commit_after_migration)
{
	struct rb_channel *chan;
	struct tc_verifier v;
	struct rb_ctx ctx;
	uint32_t seq = 0;

	chan = rseq_setup(&v, 1000);
	for (int i = 0; i < 200; i++, seq++) {
		ASSERT_OK(tc_run_on(0));
		ASSERT_OK(rb_reserve(&tc_client_chan, chan, sizeof(struct tc_payload) + 40, 8, &ctx));
		ASSERT_EQ_INT(ctx.cpu, 0);
		tc_write(&ctx, 1, 0, seq, 40, seq);
		if (i % 3 == 0)
			ASSERT_OK(tc_run_on(1));
		rb_commit(chan, &ctx);
	}
	ASSERT_GT_INT(atomic_load(&rb_cpu(chan, 0)->sb[0].commit), 0);
	ASSERT_GT_INT(atomic_load(&rb_cpu(chan, 0)->sb[0].commit_local), 0);
	if (tc_final_drain(chan, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_EQ_U64(v.total, seq);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}

/* A reservation never committed on CPU 1: the consumer (on CPU 0) flushes
 * it and, the writer being dead, skips it; writers then go on. */
TEST(rseq_consumer_skips_a_stuck_subbuffer)
{
	struct rb_channel *chan;
	struct tc_verifier v;
	struct rb_stats st;
	struct rb_ctx ctx;
	uint32_t seq = 0;

	chan = rseq_setup(&v, 10000);
	ASSERT_OK(tc_run_on(1));
	for (int i = 0; i < 5; i++)
		ASSERT_OK(TC_EMIT_HERE(&tc_client_chan, chan, 0, seq++, 8, 0));
	ASSERT_OK(rb_reserve(&tc_client_chan, chan, 64, 8, &ctx));	/* never committed */
	for (int i = 0; i < 3; i++)
		ASSERT_OK(TC_EMIT_HERE(&tc_client_chan, chan, 0, seq++, 8, 0));
	ASSERT_OK(tc_run_on(0));
	ASSERT_EQ_INT(rb_flush(chan, 1, 0), 1);
	ASSERT_EQ_INT(tc_drain(chan, &v, 1), 0);
	ASSERT_OK(rb_skip_subbuf(chan, 1));
	rb_buffer_stats(chan, 1, &st);
	ASSERT_EQ_U64(st.subbufs_corrupt, 1);
	ASSERT_EQ_U64(st.records_corrupt, 8);
	ASSERT_OK(tc_run_on(1));
	for (int i = 0; i < 600; i++) {
		ASSERT_OK(TC_EMIT_HERE(&tc_client_chan, chan, 0, seq++, 50, 0));
		if (tc_drain(chan, &v, 0) < 0)
			test_fail(__FILE__, __LINE__, "%s", v.err);
	}
	if (tc_final_drain(chan, &v, 0) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_EQ_U64(v.total + st.records_corrupt, seq);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}

struct unregistered_arg {
	struct rb_channel *chan;
	int usable, unregister, emit, flush;
};

/* Unregisters glibc's rseq area of this thread (the kernel then reports no
 * CPU in it), as a thread glibc did not set up would be. */
static int rseq_unregister(void)
{
#ifdef RB_HAVE_RSEQ
	struct rseq *rs = rb_rseq_area();

	/* glibc registers the area's full size (32) or its feature size. */
	if (syscall(__NR_rseq, rs, 32, RSEQ_FLAG_UNREGISTER, 0x53053053) == 0 ||
	    syscall(__NR_rseq, rs, __rseq_size, RSEQ_FLAG_UNREGISTER, 0x53053053) == 0)
		return 0;
	return -errno;
#else
	return -ENOSYS;
#endif
}

static void *unregistered_writer(void *p)
{
	struct unregistered_arg *a = p;

	a->unregister = rseq_unregister();
	a->usable = rb_rseq_usable();
	for (uint32_t i = 0; i < 100; i++)
		a->emit |= TC_EMIT_HERE(&tc_client_chan, a->chan, 0, i, 8, i) != -EOPNOTSUPP;
	a->flush = rb_flush(a->chan, 0, RB_FLUSH_EMPTY);
	return NULL;
}

/* A thread without rseq never writes an rseq channel: each of its events is
 * counted as discarded, and it cannot flush; other threads go on. */
TEST(rseq_thread_without_rseq_counts_discards)
{
	struct unregistered_arg a = { 0 };
	struct rb_channel *chan;
	struct tc_verifier v;
	uint64_t discarded = 0;
	pthread_t t;

	chan = rseq_setup(&v, 1);
	a.chan = chan;
	ASSERT_EQ_INT(pthread_create(&t, NULL, unregistered_writer, &a), 0);
	ASSERT_EQ_INT(pthread_join(t, NULL), 0);
	ASSERT_OK(a.unregister);
	ASSERT_FALSE(a.usable);
	ASSERT_EQ_INT(a.emit, 0);
	ASSERT_EQ_INT(a.flush, -EOPNOTSUPP);
	for (unsigned cpu = 0; cpu < chan->g.nr_cpus; cpu++) {
		struct rb_stats st;

		rb_buffer_stats(chan, cpu, &st);
		discarded += st.discarded;
		ASSERT_EQ_U64(st.write_pos, 0);
	}
	ASSERT_EQ_U64(discarded, 100);
	ASSERT_OK(TC_EMIT_HERE(&tc_client_chan, chan, 0, 0, 8, 0));	/* this thread can */
	if (tc_final_drain(chan, &v, 1) < 0)
		test_fail(__FILE__, __LINE__, "%s", v.err);
	ASSERT_EQ_U64(v.total, 1);
	tc_verifier_free(&v);
	rb_channel_free(chan);
}
