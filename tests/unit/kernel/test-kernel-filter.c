/*
 * test-kernel-filter.c - kernel filters: LTTng expressions translated to
 * the kernel's grammar (or refused for the consumer), and the filters a
 * converter evaluates on records (no tracefs, no root).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filter/filter.h"
#include "kernel/kernel.h"
#include "kt-test.h"
#include "ltt-test.h"

static struct kt_event_format *format(void)
{
	struct kt_event_format *f = NULL;

	ASSERT_OK(kt_event_format_parse(kt_test_switch_fmt, strlen(kt_test_switch_fmt), "sched",
					  &f));
	return f;
}

static const char *translate(const char *expr, const struct kt_event_format *f)
{
	static char out[600];
	struct kt_error err = { { 0 } };
	char *k = NULL;
	int r = kt_filter_translate(expr, f, &k, &err);

	if (r < 0) {
		snprintf(out, sizeof(out), "REFUSED: %s", err.msg);
		return out;
	}
	snprintf(out, sizeof(out), "%s", k);
	free(k);
	return out;
}

TEST(lttng_names_become_the_kernels)
{
	struct kt_event_format *f = format();

	ASSERT_EQ_STR(translate("next_tid == 42", f), "next_pid == 42");
	ASSERT_EQ_STR(translate("prev_tid != 1 && next_prio < 100", f),
		      "prev_pid != 1 && next_prio < 100");
	ASSERT_EQ_STR(translate("tid == 7", f), "common_pid == 7");	/* no pid field here */
	ASSERT_EQ_STR(translate("$ctx.vtid == 7 || $ctx.cpu_id == 1", f),
		      "common_pid == 7 || CPU == 1");
	ASSERT_EQ_STR(translate("$ctx.procname == \"bash\"", f), "COMM == \"bash\"");
	ASSERT_EQ_STR(translate("!(prev_state & 2)", f), "! ( prev_state & 2 )");
	ASSERT_EQ_STR(translate("prev_state == -1", f), "prev_state == -1");
	/* LTTng's wildcard: the kernel's glob match */
	ASSERT_EQ_STR(translate("next_comm == \"ltt-*\"", f), "next_comm ~ \"ltt-*\"");
	ASSERT_EQ_STR(translate("next_comm != \"ltt-*\"", f), "!(next_comm ~ \"ltt-*\")");
	ASSERT_EQ_STR(translate("next_comm == \"plain\"", f), "next_comm == \"plain\"");
	/* a field of no event is left for the kernel to refuse */
	ASSERT_EQ_STR(translate("nope == 1", f), "nope == 1");
	kt_event_format_free(f);
}

TEST(what_the_kernel_grammar_cannot_say_is_refused)
{
	struct kt_event_format *f = format();

	ASSERT_CONTAINS(translate("$ctx.pid == 1", f), "REFUSED: the kernel cannot filter on $ctx.pid");
	ASSERT_CONTAINS(translate("(next_tid | 1) == 3", f), "no operator '|'");
	ASSERT_CONTAINS(translate("(next_tid ^ 1) == 3", f), "no operator '^'");
	ASSERT_CONTAINS(translate("(next_tid << 1) == 3", f), "no operator '<<'");
	ASSERT_CONTAINS(translate("(next_tid >> 1) == 3", f), "no operator '>>'");
	ASSERT_CONTAINS(translate("~next_tid == 3", f), "no operator '~'");
	ASSERT_CONTAINS(translate("a.b == 3", f), "nested fields");
	ASSERT_CONTAINS(translate("a[1] == 3", f), "nested fields");
	ASSERT_CONTAINS(translate("next_comm == \"a\\*b\"", f), "matches this string differently");
	ASSERT_CONTAINS(translate("next_comm == \"a?\"", f), "matches this string differently");
	ASSERT_CONTAINS(translate("\"a*\" == next_comm", f), "matches this string differently");
	ASSERT_CONTAINS(translate("next_comm == \"open", f), "matches this string differently");
	kt_event_format_free(f);
}

/* ---- filters evaluated by a converter ---- */

static uint8_t *compile(const char *expr, size_t *len)
{
	struct filter_error err;
	uint8_t *code = NULL;

	ASSERT_OK(filter_compile(expr, &code, len, &err));
	return code;
}

TEST(converter_filters_records_on_lttng_fields_and_contexts)
{
	char dir[] = "/tmp/kt-filter-XXXXXX";
	struct kt_converter_config cfg = { 0 };
	struct kt_event_format *f = format();
	struct kt_converter *c = NULL;
	struct kt_converter_stats st;
	struct kt_record rec = { .ts = 2000 };
	struct kt_error err = { { 0 } };
	const uint8_t *codes[2];
	size_t lens[2];
	uint8_t buf[64], *a, *b;

	ASSERT_NOT_NULL(mkdtemp(dir));
	cfg.dir = dir;
	cfg.ncpus = 2;
	cfg.start_ts = 1000;
	ASSERT_OK(kt_converter_create(&cfg, &c, NULL));
	/* OR'ed: LTTng's bitwise or on a field, or a glob on a char array */
	a = compile("(next_tid | 0) == 5 && $ctx.cpu_id == 1", &lens[0]);
	b = compile("prev_comm == \"ltt-*\"", &lens[1]);
	codes[0] = a;
	codes[1] = b;
	ASSERT_OK(kt_converter_set_filter(c, f, codes, lens, 2, &err));
	rec.data = buf;
	rec.len = (uint32_t)kt_test_switch(buf, 10, "bash", 120, 5, "next", 120);
	ASSERT_OK(kt_converter_record(c, 1, &rec, NULL));	/* next_tid 5 on cpu 1 */
	ASSERT_OK(kt_converter_record(c, 0, &rec, NULL));	/* cpu 0: filtered */
	rec.len = (uint32_t)kt_test_switch(buf, 10, "ltt-pong", 120, 6, "next", 120);
	ASSERT_OK(kt_converter_record(c, 0, &rec, NULL));	/* the glob */
	rec.len = (uint32_t)kt_test_switch(buf, 10, "bash", 120, 6, "next", 120);
	ASSERT_OK(kt_converter_record(c, 1, &rec, NULL));	/* neither */
	kt_converter_stats(c, &st);
	ASSERT_EQ_U64(st.events, 2);
	ASSERT_EQ_U64(st.filtered, 2);
	/* removed: every record passes again */
	kt_converter_clear_filters(c);
	ASSERT_OK(kt_converter_record(c, 1, &rec, NULL));
	kt_converter_stats(c, &st);
	ASSERT_EQ_U64(st.events, 3);
	ASSERT_OK(kt_converter_close(c, NULL));
	kt_converter_free(c);
	free(a);
	free(b);
	kt_event_format_free(f);
	kt_test_rmtree(dir);
}

TEST(contexts_records_do_not_carry_are_refused)
{
	struct kt_error err = { { 0 } };
	size_t len;
	uint8_t *code = compile("$ctx.procname == \"x\"", &len);

	ASSERT_EQ_INT(kt_filter_check(code, len, &err), -EINVAL);
	ASSERT_CONTAINS(err.msg, "$ctx.procname is not known after the fact");
	free(code);
	code = compile("$ctx.pid == 3 || $ctx.vtid == 4 || $ctx.cpu_id == 0", &len);
	ASSERT_OK(kt_filter_check(code, len, &err));
	ASSERT_EQ_INT(kt_filter_check(code, len - 1, &err), -EINVAL);	/* truncated */
	free(code);
}
