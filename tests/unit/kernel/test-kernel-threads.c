/*
 * test-kernel-threads.c - the kernel contexts' per-thread state
 * (src/kernel/threads.c): what sched_switch records and the state dump say
 * of a thread, as the context values of its records (no tracefs, no root).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel-internal.h"
#include "kt-test.h"
#include "ltt-test.h"

/* tids above PID_MAX_LIMIT: no /proc entry, no saved_tgids line can name them */
#define T1 5000001
#define T2 5000002

static const enum kt_context all[] = { KT_CTX_PROCNAME, KT_CTX_PID, KT_CTX_PRIO, KT_CTX_CPU_ID };

static struct kt_converter *converter(char *dir, const enum kt_context *ctx, size_t n)
{
	struct kt_converter_config cfg = { .ncpus = 2, .start_ts = 1000, .contexts = ctx,
					   .ncontexts = n };
	struct kt_converter *c = NULL;

	ASSERT_NOT_NULL(mkdtemp(dir));
	cfg.dir = dir;
	ASSERT_OK(kt_converter_create(&cfg, &c, NULL));
	return c;
}

static void done(struct kt_converter *c, const char *dir)
{
	ASSERT_OK(kt_converter_close(c, NULL));
	kt_converter_free(c);
	kt_test_rmtree(dir);
}

TEST(sched_switch_names_both_threads_and_their_prio)
{
	char dir[] = "/tmp/kt-threads-XXXXXX", comm[17];
	struct kt_converter *c = converter(dir, all, 4);
	struct kt_event_format *f = NULL;
	struct kt_record rec = { .ts = 2000 };
	struct ctf_value v[KT_CONTEXT_MAX + 1];
	uint8_t buf[64];

	ASSERT_OK(kt_event_format_parse(kt_test_switch_fmt, strlen(kt_test_switch_fmt), "sched",
					  &f));
	ASSERT_OK(kt_converter_declare(c, f, NULL, NULL));
	rec.data = buf;
	rec.len = (uint32_t)kt_test_switch(buf, T1, "ltt-ping", 139, T2, "ltt-pong", 100);
	ASSERT_OK(kt_converter_record(c, 1, &rec, NULL));
	ASSERT_EQ_INT(kt_context_values(c, T1, 1, v, comm), 5);
	ASSERT_EQ_INT(v[0].s64, T1);				/* tid */
	ASSERT_EQ_STR(v[1].str, "ltt-ping");			/* procname */
	ASSERT_EQ_INT(v[2].s64, T1);				/* pid: nothing knows it but the tid */
	ASSERT_EQ_INT(v[3].s64, 39);				/* prio: the kernel's 139 - 100 */
	ASSERT_EQ_INT(v[4].s64, 1);				/* cpu_id */
	kt_context_values(c, T2, 0, v, comm);
	ASSERT_EQ_STR(v[1].str, "ltt-pong");
	ASSERT_EQ_INT(v[3].s64, 0);
	ASSERT_EQ_INT(v[4].s64, 0);
	/* renamed: the next record carrying the name says so */
	rec.len = (uint32_t)kt_test_switch(buf, T2, "renamed-pong", 120, T1, "ltt-ping", 139);
	ASSERT_OK(kt_converter_record(c, 0, &rec, NULL));
	kt_context_values(c, T2, 0, v, comm);
	ASSERT_EQ_STR(v[1].str, "renamed-pong");
	ASSERT_EQ_INT(v[3].s64, 20);
	kt_event_format_free(f);
	done(c, dir);
}

TEST(state_dump_seeds_the_threads_and_unknown_ones_say_so)
{
	char dir[] = "/tmp/kt-threads-XXXXXX", comm[17];
	struct kt_converter *c = converter(dir, all, 4);
	struct ctf_value v[KT_CONTEXT_MAX + 1];

	kt_threads_seed(c, T1, T2, "a-long-thread-name", -51);
	kt_context_values(c, T1, 0, v, comm);
	ASSERT_EQ_STR(v[1].str, "a-long-thread-n");		/* 15 characters and NUL */
	ASSERT_EQ_INT(v[2].s64, T2);
	ASSERT_EQ_INT(v[3].s64, -51);
	ASSERT_EQ_INT(kt_threads_tgid(c, T1), T2);		/* filters' $ctx.pid */
	/* a thread met nowhere: its own group, no name, no prio */
	kt_context_values(c, T2, 0, v, comm);
	ASSERT_EQ_INT(v[2].s64, T2);
	ASSERT_EQ_STR(v[1].str, "");
	ASSERT_EQ_INT(v[3].s64, KT_PRIO_UNKNOWN);
	/* the idle task */
	kt_context_values(c, 0, 1, v, comm);
	ASSERT_EQ_STR(v[1].str, "swapper/1");
	ASSERT_EQ_INT(v[3].s64, 20);
	done(c, dir);
}

TEST(contexts_are_given_once_each)
{
	const enum kt_context twice[] = { KT_CTX_PID, KT_CTX_PID };
	const enum kt_context bad[] = { (enum kt_context)9 };
	struct kt_converter_config cfg = { .dir = "/tmp", .ncpus = 1, .contexts = twice,
					   .ncontexts = 2 };
	struct kt_converter *c = NULL;
	struct kt_error err = { { 0 } };

	ASSERT_EQ_INT(kt_converter_create(&cfg, &c, &err), -EINVAL);
	ASSERT_CONTAINS(err.msg, "given twice");
	cfg.contexts = bad;
	cfg.ncontexts = 1;
	ASSERT_EQ_INT(kt_converter_create(&cfg, &c, &err), -EINVAL);
	ASSERT_NULL(c);
}
