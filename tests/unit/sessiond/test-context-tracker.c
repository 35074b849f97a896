/* Contexts and trackers of the session daemon's model (context.h, tracker.h). */
#include "context.h"
#include "ltt-test.h"
#include "proto/context-types.h"
#include "tracker.h"

#include <errno.h>

static struct reg_session *new_session(struct registry *reg)
{
	const char *detail = NULL;
	struct reg_session *s = NULL;

	ASSERT_OK(registry_session_create(reg, "s", "/tmp/s", false, false, &s, &detail));
	return s;
}

static const char *type_name(unsigned t)
{
	return proto_context_type(t)->name;
}

TEST(context_types_table)
{
	int vpid = proto_context_type_find("vpid");
	int clock = proto_context_type_find("perf:thread:task-clock");
	int l1 = proto_context_type_find("perf:thread:L1-dcache-load-misses");

	ASSERT_GE_INT(vpid, 0);
	ASSERT_EQ_STR(proto_context_type((size_t)clock)->field, "perf_thread_task_clock");
	ASSERT_EQ_STR(proto_context_type((size_t)l1)->field, "perf_thread_L1_dcache_load_misses");
	ASSERT_EQ_INT(proto_context_type_find("perf:thread:nope"), -1);
	ASSERT_NULL(proto_context_type(proto_context_type_count()));
	/* every name is unique, and every field a TSDL identifier once prefixed */
	for (size_t i = 0; i < proto_context_type_count(); i++) {
		const struct proto_context_type *t = proto_context_type(i);

		ASSERT_EQ_INT(proto_context_type_find(t->name), (long long)i);
		ASSERT_EQ_INT(strspn(t->field, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					       "0123456789_"), strlen(t->field));
	}
}

TEST(contexts_are_added_all_or_none)
{
	struct registry reg = { 0 };
	struct reg_session *s = new_session(&reg);
	const char *detail = NULL;
	struct ltt_channel_attr attr;
	const char *two[] = { "vpid", "procname" }, *bad[] = { "vtid", "bogus" },
		   *dup[] = { "vtid", "procname" }, *kernel[] = { "prio" }, *twice[] = { "ip", "ip" };

	/* no channel: channel0 is created */
	ASSERT_OK(context_add(s, LTT_DOMAIN_USER, NULL, two, 2, &detail));
	ASSERT_EQ_INT(s->n_channels, 1);
	ASSERT_EQ_STR(s->channels[0].name, "channel0");
	ASSERT_EQ_INT(s->channels[0].n_contexts, 2);
	ASSERT_EQ_STR(type_name(s->channels[0].contexts[1]), "procname");
	/* a second channel; adding to all: both, or neither */
	ltt_channel_attr_init(&attr, LTT_DOMAIN_USER);
	ASSERT_OK(registry_channel_add(s, LTT_DOMAIN_USER, "c2", &attr, &detail));
	ASSERT_EQ_INT(context_add(s, LTT_DOMAIN_USER, NULL, bad, 2, &detail),
		      -LTT_ERR_CONTEXT_UNKNOWN);
	ASSERT_EQ_INT(context_add(s, LTT_DOMAIN_USER, NULL, dup, 2, &detail),
		      -LTT_ERR_CONTEXT_EXISTS);
	ASSERT_EQ_STR(detail, "channel 'channel0' records 'procname' already");
	ASSERT_EQ_INT(context_add(s, LTT_DOMAIN_USER, NULL, kernel, 1, &detail),
		      -LTT_ERR_CONTEXT_UNKNOWN);
	ASSERT_EQ_INT(context_add(s, LTT_DOMAIN_USER, "c2", twice, 2, &detail),
		      -LTT_ERR_CONTEXT_EXISTS);
	ASSERT_EQ_INT(context_add(s, LTT_DOMAIN_USER, "nochan", two, 2, &detail),
		      -LTT_ERR_CHANNEL_NOT_FOUND);
	ASSERT_EQ_INT(s->channels[0].n_contexts, 2);
	ASSERT_EQ_INT(s->channels[1].n_contexts, 0);
	ASSERT_OK(context_add(s, LTT_DOMAIN_USER, "c2", dup, 2, &detail));
	ASSERT_EQ_INT(s->channels[1].n_contexts, 2);
	/* once started, never again */
	s->chunk.started = true;
	ASSERT_EQ_INT(context_add(s, LTT_DOMAIN_USER, "c2", twice, 1, &detail),
		      -LTT_ERR_STARTED_ONCE);
	registry_free(&reg);
}

TEST(event_context_type_as_lttng_declares_it)
{
	struct registry reg = { 0 };
	struct reg_session *s = new_session(&reg);
	const char *detail = NULL;
	const char *types[] = { "vpid", "procname", "ip", "perf:thread:task-clock" };
	struct ctf_type *st;

	ASSERT_OK(context_ctf_type(&(struct reg_channel){ 0 }, &st));
	ASSERT_NULL(st);
	ASSERT_OK(context_add(s, LTT_DOMAIN_USER, NULL, types, 4, &detail));
	ASSERT_OK(context_ctf_type(&s->channels[0], &st));
	ASSERT_EQ_INT(st->kind, CTF_TYPE_STRUCT);
	ASSERT_EQ_INT(st->st.min_align, PROTO_CTX_STRUCT_ALIGN * 8);
	ASSERT_EQ_INT(st->st.n, 4);
	ASSERT_EQ_STR(st->st.fields[0].name, "vpid");
	ASSERT_TRUE(st->st.fields[0].type->i.is_signed && st->st.fields[0].type->i.size == 32);
	ASSERT_EQ_INT(st->st.fields[1].type->kind, CTF_TYPE_ARRAY);
	ASSERT_EQ_INT(st->st.fields[1].type->a.length, PROTO_CTX_PROCNAME_LEN);
	ASSERT_EQ_INT(st->st.fields[1].type->a.elem->i.encoding, CTF_ENC_UTF8);
	ASSERT_EQ_INT(st->st.fields[2].type->i.base, 16);
	ASSERT_EQ_STR(st->st.fields[3].name, "perf_thread_task_clock");
	ASSERT_FALSE(st->st.fields[3].type->i.is_signed);
	ctf_type_free(st);
	registry_free(&reg);
}

TEST(inclusion_sets)
{
	struct registry reg = { 0 };
	struct reg_session *s = new_session(&reg);
	const struct reg_tracker *t = tracker_get(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VPID);
	const int64_t a[] = { 30, 10 }, b[] = { 20 }, dup[] = { 40, 10 }, twice[] = { 5, 5 },
		      gone[] = { 10, 99 };
	const char *detail = NULL;

	ASSERT_TRUE(t->all && tracker_tracks_app(s, 1, 2, 3));
	ASSERT_OK(tracker_track(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VPID, a, 2, &detail));
	ASSERT_FALSE(t->all);
	ASSERT_EQ_INT(t->n_values, 2);
	ASSERT_EQ_INT(t->values[0], 10);	/* sorted */
	ASSERT_OK(tracker_track(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VPID, b, 1, &detail));
	ASSERT_TRUE(tracker_tracks_app(s, 20, 0, 0));
	ASSERT_FALSE(tracker_tracks_app(s, 21, 0, 0));
	ASSERT_EQ_INT(tracker_track(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VPID, dup, 2, &detail),
		      -LTT_ERR_ID_TRACKED);
	ASSERT_EQ_STR(detail, "already tracked: 10");
	ASSERT_EQ_INT(tracker_track(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VPID, twice, 2, &detail),
		      -LTT_ERR_ID_TRACKED);
	ASSERT_EQ_INT(tracker_untrack(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VPID, gone, 2, &detail),
		      -LTT_ERR_ID_NOT_TRACKED);
	ASSERT_EQ_INT(t->n_values, 3);		/* unchanged by the refusals */
	ASSERT_OK(tracker_untrack(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VPID, a, 2, &detail));
	ASSERT_EQ_INT(t->n_values, 1);
	ASSERT_EQ_INT(t->values[0], 20);
	/* the other attributes count too */
	ASSERT_OK(tracker_untrack(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VGID, NULL, 0, &detail));
	ASSERT_FALSE(tracker_tracks_app(s, 20, 0, 0));
	ASSERT_OK(tracker_track(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VGID, NULL, 0, &detail));
	ASSERT_TRUE(tracker_tracks_app(s, 20, 0, 0));
	/* untracking from a set that includes all is refused */
	ASSERT_EQ_INT(tracker_untrack(s, LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VUID, b, 1, &detail),
		      -LTT_ERR_ID_NOT_TRACKED);
	ASSERT_TRUE(tracker_attr_valid(LTT_DOMAIN_USER, LTT_PROCESS_ATTR_VUID));
	ASSERT_FALSE(tracker_attr_valid(LTT_DOMAIN_USER, LTT_PROCESS_ATTR_UID));
	ASSERT_TRUE(tracker_attr_valid(LTT_DOMAIN_KERNEL, LTT_PROCESS_ATTR_PID));
	ASSERT_FALSE(tracker_attr_valid(LTT_DOMAIN_KERNEL, 0));
	registry_free(&reg);
}
