/*
 * test-context.c - libltt-ust's context fields (context.c) and their place
 * in a ring-buffer record (tracer.c inv. 7): the layout the session
 * daemon's metadata declares, the values, the per-thread cache and its
 * refresh, the perf counters read from their page.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "context-internal.h"
#include "ctf/ctf-rb-client.h"
#include "ltt-test.h"
#include "proto/context-types.h"
#include "recorder-internal.h"
#include "util/macros.h"

static struct ust_context *make(const char *const *names, size_t n)
{
	uint64_t types[16];
	struct ust_context *c = NULL;

	for (size_t i = 0; i < n; i++) {
		int t = proto_context_type_find(names[i]);

		ASSERT_GE_INT(t, 0);
		types[i] = (uint64_t)t;
	}
	ASSERT_OK(ust_context_create(types, n, &c));
	return c;
}

static uint32_t get32(const char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

TEST(fields_are_naturally_aligned_from_the_struct_start)
{
	const char *names[] = { "vpid", "procname", "ip", "vtid", "cpu_id", "net_ns", "vuid" };
	struct ust_context *c = make(names, ARRAY_SIZE(names));
	char buf[128] __attribute__((aligned(8)));
	char name[17] = "";
	struct stat st;

	/* vpid 0, procname 4..21, ip 24, vtid 32, cpu_id 36, net_ns 40, vuid 48 */
	ASSERT_EQ_INT(ust_context_size(c), 52);
	memset(buf, 0xee, sizeof(buf));
	ust_context_write(c, buf, 3, (const void *)0x1234);
	prctl(PR_GET_NAME, name, 0, 0, 0);
	ASSERT_EQ_INT(get32(buf), getpid());
	ASSERT_EQ_STR(buf + 4, name);
	for (size_t i = strlen(name); i < PROTO_CTX_PROCNAME_LEN; i++)
		ASSERT_EQ_INT(buf[4 + i], 0);	/* NUL-padded */
	ASSERT_EQ_HEX(get64(buf + 24), 0x1234);
	ASSERT_EQ_INT(get32(buf + 32), gettid());
	ASSERT_EQ_INT(get32(buf + 36), 3);
	ASSERT_OK(stat("/proc/self/ns/net", &st) < 0 ? -errno : 0);
	ASSERT_EQ_U64(get64(buf + 40), (uint64_t)st.st_ino);
	ASSERT_EQ_INT(get32(buf + 48), getuid());
	free(c);
}

TEST(kernel_and_unknown_types_are_refused)
{
	uint64_t prio = (uint64_t)proto_context_type_find("prio");
	uint64_t cpu = (uint64_t)proto_context_type_find("perf:cpu:cpu-cycles");
	uint64_t none = proto_context_type_count();
	struct ust_context *c;

	ASSERT_EQ_INT(ust_context_create(&prio, 1, &c), -EINVAL);
	ASSERT_EQ_INT(ust_context_create(&cpu, 1, &c), -EINVAL);
	ASSERT_EQ_INT(ust_context_create(&none, 1, &c), -EINVAL);
}

static void *read_name(void *arg)
{
	char *out = arg;

	strcpy(out, ust_context_procname());
	return NULL;
}

TEST(procname_is_cached_per_thread_until_a_refresh)
{
	char other[17];
	pthread_t t;

	prctl(PR_SET_NAME, "before", 0, 0, 0);
	ust_context_refresh();
	ASSERT_EQ_STR(ust_context_procname(), "before");
	prctl(PR_SET_NAME, "after", 0, 0, 0);
	ASSERT_EQ_STR(ust_context_procname(), "before");	/* cached */
	/* a new thread reads its own (inherited) name */
	ASSERT_EQ_INT(pthread_create(&t, NULL, read_name, other), 0);
	pthread_join(t, NULL);
	ASSERT_EQ_STR(other, "after");
	ust_context_refresh();	/* what applying a new state does */
	ASSERT_EQ_STR(ust_context_procname(), "after");
}

static int perf_open_self(uint64_t config)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_SOFTWARE,
					.config = config, .exclude_hv = 1 };

	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static uint64_t perf_read_fd(int fd)
{
	uint64_t v = 0;

	ASSERT_EQ_INT(read(fd, &v, sizeof(v)), sizeof(v));
	return v;
}

/*
 * The tracer's value of a counter read from its page (c) and read(2) on a
 * counter of ours (r), with no context switch between them: r read before
 * and after agree, so c is read at a moment r holds.
 */
static void sample(const struct ust_context *c, int fd, uint64_t *ret_c, uint64_t *ret_r)
{
	char buf[8] __attribute__((aligned(8)));

	for (int tries = 0; tries < 1000; tries++) {
		uint64_t r0 = perf_read_fd(fd), r1;

		ust_context_write(c, buf, 0, NULL);
		r1 = perf_read_fd(fd);
		if (r0 == r1) {
			*ret_c = get64(buf);
			*ret_r = r0;
			return;
		}
	}
	test_fail(__FILE__, __LINE__, "always switched while sampling");
}

TEST(scheduling_counters_read_from_the_page_are_exact)
{
	const char *names[] = { "perf:thread:context-switches" };
	struct ust_context *c = make(names, 1);
	uint64_t c0, r0, c1, r1;
	int fd;

	/* kernel-mode events counted: a switch happens in the kernel */
	if (geteuid() != 0)
		TEST_SKIP("counting context switches needs kernel-mode events (root here)");
	fd = perf_open_self(PERF_COUNT_SW_CONTEXT_SWITCHES);
	ASSERT_GE_INT(fd, 0);
	sample(c, fd, &c0, &r0);
	for (int i = 0; i < 20; i++)
		usleep(100);	/* each sleep is a switch */
	sample(c, fd, &c1, &r1);
	ASSERT_GE_INT(r1 - r0, 20);
	ASSERT_EQ_U64(c1 - c0, r1 - r0);
	close(fd);
	free(c);
}

TEST(read_counters_grow_with_what_they_count)
{
	const char *names[] = { "perf:thread:task-clock", "perf:thread:page-fault" };
	struct ust_context *c = make(names, 2);
	char before[16] __attribute__((aligned(8))), after[16] __attribute__((aligned(8)));
	long page = sysconf(_SC_PAGESIZE);
	/* fresh pages (malloc may touch them: MALLOC_PERTURB_) */
	char *mem = mmap(NULL, (size_t)page * 64, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_TRUE(mem != MAP_FAILED);

	ust_context_write(c, before, 0, NULL);
	for (int i = 0; i < 64; i++)
		mem[(size_t)page * i] = (char)i;	/* faults */
	ust_context_write(c, after, 0, NULL);
	ASSERT_GT_INT(get64(after), get64(before));
	ASSERT_GE_INT(get64(after + 8) - get64(before + 8), 64);
	munmap(mem, (size_t)page * 64);
	free(c);
}

/* ---- in a ring-buffer record ---- */

static struct ltt_event_state state = { .struct_size = sizeof(state) };
static const struct ltt_event_desc desc = {
	.struct_size = sizeof(desc), .field_size = sizeof(struct ltt_field),
	.name = "t:e", .provider = "t", .event = "e", .signature = "", .state = &state,
};

/* Reserves through the tracer for the one-channel setup of the test. */
static int reserve(struct ltt_ust_ctx *ctx, size_t len, size_t align)
{
	*ctx = (struct ltt_ust_ctx){ .struct_size = sizeof(*ctx), .desc = &desc,
				     .ip = (const void *)0xabcdef };
	return ltt_ust_event_reserve(ctx, len, align);
}

TEST(records_carry_the_context_between_header_and_payload)
{
	const char *names[] = { "vtid", "ip", "cpu_id" };
	struct ust_context *c = make(names, 3);
	struct rb_config cfg = { .subbuf_size = 4096, .num_subbufs = 2, .nr_cpus = 1,
				 .hdr_area_size = CTF_RB_HDR_AREA_SIZE, .name = "ctx-test",
				 .client = &ctf_rb_client_large };
	struct rb_channel *rb = NULL;
	struct ltt_ust_ctx ctx;
	struct rb_packet pkt;
	struct rb_stats st;
	const char *p;

	ASSERT_OK(rb_channel_create(&cfg, &rb));
	ASSERT_OK(ust_tracer_attach_rb(0, rb, 7, c, 0));
	ASSERT_OK(ust_event_ids_set(&desc, 0, 7, 5));
	__atomic_store_n(&state.channel_mask, 1, __ATOMIC_RELEASE);

	ASSERT_EQ_INT(reserve(&ctx, 4, 4), 0);
	memcpy(ctx.data, "\x11\x22\x33\x44", 4);
	ltt_ust_event_commit(&ctx);
	ASSERT_EQ_INT(ltt_ust_event_reserve(&ctx, 4, 4), -ENOENT);
	/* a payload aligned beyond the context's struct: counted, never laid out wrong */
	ASSERT_EQ_INT(reserve(&ctx, 16, 16), -ENOENT);
	rb_buffer_stats(rb, 0, &st);
	ASSERT_EQ_U64(st.discarded, 1);

	ASSERT_EQ_INT(rb_flush(rb, 0, 0), 1);
	ASSERT_OK(rb_get_subbuf(rb, 0, &pkt));
	ASSERT_EQ_U64(pkt.records, 1);
	/* large header at the header area's end: u16 id, u32 timestamp (aligned 4) */
	p = pkt.data + CTF_RB_HDR_AREA_SIZE;
	ASSERT_EQ_INT(p[0] | p[1] << 8, 5);
	p = pkt.data + align_up(align_up(CTF_RB_HDR_AREA_SIZE + 2, 4) + 4, PROTO_CTX_STRUCT_ALIGN);
	ASSERT_EQ_INT(get32(p), gettid());		/* vtid at 0 */
	ASSERT_EQ_HEX(get64(p + 8), 0xabcdef);		/* ip at 8: the call site */
	ASSERT_EQ_INT(get32(p + 16), 0);		/* cpu_id at 16: the buffer's */
	ASSERT_EQ_INT(memcmp(p + 20, "\x11\x22\x33\x44", 4), 0);	/* payload at 20 */
	ASSERT_EQ_U64(pkt.content_size, (uint64_t)(p + 24 - pkt.data));
	rb_put_subbuf(rb, &pkt);
	ust_tracer_detach(0);
	__atomic_store_n(&state.channel_mask, 0, __ATOMIC_RELEASE);
}
