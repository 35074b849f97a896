#include "ltt-test.h"
#include "registry.h"

#include <errno.h>

TEST(glob_matching)
{
	ASSERT_TRUE(registry_glob_match("*", ""));
	ASSERT_TRUE(registry_glob_match("*", "app:x"));
	ASSERT_TRUE(registry_glob_match("app:*", "app:x"));
	ASSERT_TRUE(registry_glob_match("app:*", "app:"));
	ASSERT_FALSE(registry_glob_match("app:*", "ap:x"));
	ASSERT_TRUE(registry_glob_match("*:start", "req:start"));
	ASSERT_FALSE(registry_glob_match("*:start", "req:started"));
	ASSERT_TRUE(registry_glob_match("a*b*c", "axxbyyc"));
	ASSERT_TRUE(registry_glob_match("a*b*c", "abcbc"));
	ASSERT_FALSE(registry_glob_match("a*b*c", "acb"));
	ASSERT_TRUE(registry_glob_match("exact", "exact"));
	ASSERT_FALSE(registry_glob_match("exact", "exactly"));
	ASSERT_TRUE(registry_glob_match("**x", "x"));
}

TEST(names_and_patterns)
{
	ASSERT_TRUE(registry_valid_name("s1"));
	ASSERT_TRUE(registry_valid_name("my-session_2.0"));
	ASSERT_FALSE(registry_valid_name(""));
	ASSERT_FALSE(registry_valid_name(".hidden"));
	ASSERT_FALSE(registry_valid_name("-opt"));
	ASSERT_FALSE(registry_valid_name("a/b"));
	ASSERT_FALSE(registry_valid_name("a b"));
	ASSERT_TRUE(registry_valid_pattern("provider:event"));
	ASSERT_TRUE(registry_valid_pattern("prov*:ev*"));
	ASSERT_FALSE(registry_valid_pattern("a b"));
	ASSERT_FALSE(registry_valid_pattern(""));
}

TEST(sessions_sorted_and_unique)
{
	struct registry reg = { 0 };
	const char *detail = NULL;

	ASSERT_OK(registry_session_create(&reg, "b", NULL, false, false, NULL, &detail));
	ASSERT_OK(registry_session_create(&reg, "a", "/tmp/x", false, false, NULL, &detail));
	ASSERT_OK(registry_session_create(&reg, "c", NULL, true, false, NULL, &detail));
	ASSERT_EQ_INT(registry_session_create(&reg, "a", NULL, false, false, NULL, &detail),
		      -LTT_ERR_SESSION_EXISTS);
	ASSERT_EQ_INT(registry_session_create(&reg, "d", "relative", false, false, NULL, &detail),
		      -LTT_ERR_INVALID_ATTR);
	ASSERT_EQ_INT(reg.n_sessions, 3);
	ASSERT_EQ_STR(reg.sessions[0]->name, "a");
	ASSERT_EQ_STR(reg.sessions[0]->output, "/tmp/x");
	ASSERT_EQ_STR(reg.sessions[1]->name, "b");
	ASSERT_EQ_STR(reg.sessions[2]->output, "");
	ASSERT_OK(registry_session_destroy(&reg, "b", &detail));
	ASSERT_EQ_INT(registry_session_destroy(&reg, "b", &detail), -LTT_ERR_SESSION_NOT_FOUND);
	ASSERT_NULL(registry_find(&reg, "b"));
	ASSERT_NOT_NULL(registry_find(&reg, "c"));
	registry_free(&reg);
}

TEST(rules_create_default_channel_and_dedupe)
{
	struct registry reg = { 0 };
	struct reg_session *s;
	struct ltt_event_rule rule;
	const char *detail = NULL, *excl[] = { "app:noisy" };

	ASSERT_OK(registry_session_create(&reg, "s", NULL, false, false, &s, &detail));
	ltt_event_rule_init(&rule);
	rule.pattern = "app:*";
	rule.exclusions = excl;
	rule.n_exclusions = 1;
	ASSERT_OK(registry_rule_enable(s, LTT_DOMAIN_USER, NULL, &rule, NULL, &detail));
	ASSERT_EQ_INT(s->n_channels, 1);
	ASSERT_EQ_STR(s->channels[0].name, "channel0");
	ASSERT_EQ_INT(registry_rule_enable(s, LTT_DOMAIN_USER, NULL, &rule, NULL, &detail),
		      -LTT_ERR_EVENT_EXISTS);
	rule.n_exclusions = 0;	/* another rule: no exclusion */
	ASSERT_OK(registry_rule_enable(s, LTT_DOMAIN_USER, NULL, &rule, NULL, &detail));
	ASSERT_EQ_INT(s->channels[0].n_rules, 2);
	ASSERT_EQ_INT(registry_rule_disable(s, LTT_DOMAIN_USER, NULL, "app:*", false, &detail), 2);
	ASSERT_EQ_INT(registry_rule_disable(s, LTT_DOMAIN_USER, NULL, "app:*", false, &detail),
		      -LTT_ERR_EVENT_NOT_FOUND);
	ASSERT_OK(registry_rule_enable(s, LTT_DOMAIN_USER, NULL, &rule, NULL, &detail));
	ASSERT_EQ_INT(s->channels[0].n_rules, 2);	/* re-enabled, not added */
	ASSERT_EQ_INT(registry_rule_enable(s, LTT_DOMAIN_USER, "other", &rule, NULL, &detail),
		      -LTT_ERR_CHANNEL_NOT_FOUND);
	registry_free(&reg);
}

TEST(channel_attributes_are_checked)
{
	struct registry reg = { 0 };
	struct reg_session *s;
	struct ltt_channel_attr attr;
	const char *detail = NULL;

	ASSERT_OK(registry_session_create(&reg, "s", NULL, false, false, &s, &detail));
	ltt_channel_attr_init(&attr, LTT_DOMAIN_USER);
	ASSERT_OK(registry_channel_add(s, LTT_DOMAIN_USER, "c0", &attr, &detail));
	ASSERT_EQ_INT(registry_channel_add(s, LTT_DOMAIN_USER, "c0", &attr, &detail),
		      -LTT_ERR_CHANNEL_EXISTS);
	attr.subbuf_size = 2048;
	ASSERT_EQ_INT(registry_channel_add(s, LTT_DOMAIN_USER, "c1", &attr, &detail),
		      -LTT_ERR_INVALID_ATTR);
	ASSERT_CONTAINS(detail, "sub-buffer size");
	ltt_channel_attr_init(&attr, LTT_DOMAIN_USER);
	attr.num_subbuf = 3;
	ASSERT_EQ_INT(registry_channel_add(s, LTT_DOMAIN_USER, "c1", &attr, &detail),
		      -LTT_ERR_INVALID_ATTR);
	ltt_channel_attr_init(&attr, LTT_DOMAIN_USER);
	s->active = true;
	ASSERT_EQ_INT(registry_channel_add(s, LTT_DOMAIN_USER, "c1", &attr, &detail),
		      -LTT_ERR_SESSION_ACTIVE);
	registry_free(&reg);
}
