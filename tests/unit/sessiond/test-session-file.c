/* test-session-file.c - the session file format (session-file.c) and save/load (save.c). */
#include "ltt-test.h"
#include "save.h"
#include "session-file.h"

#include <errno.h>
#include <string.h>

/* Parses text; expects failure at line:column with message containing msg. */
static void expect_error(const char *text, unsigned line, unsigned column, const char *msg)
{
	struct sf_error err = { 0 };
	struct sf_file f;

	ASSERT_EQ_INT(sf_parse(text, strlen(text), &f, &err), -EINVAL);
	ASSERT_EQ_INT(err.line, line);
	ASSERT_EQ_INT(err.column, column);
	ASSERT_CONTAINS(err.message, msg);
}

TEST(parses_sections_pairs_comments_and_quotes)
{
	static const char text[] =
		"# a comment\r\n"
		"  version = 1  \n"
		"\n"
		"[one]\n"
		"\tkey = bare value with # and \"quotes\"  \n"
		"  # indented comment\n"
		"q = \"a\\tb\\n\\\"c\\\\ \\x01 \"   \n"
		"[two-2]\n"
		"empty = \"\"\n"
		"utf8 = caf\xc3\xa9";
	struct sf_error err = { 0 };
	struct sf_file f;

	ASSERT_OK(sf_parse(text, strlen(text), &f, &err));
	ASSERT_EQ_INT(f.n_sections, 2);
	ASSERT_EQ_STR(f.sections[0].name, "one");
	ASSERT_EQ_INT(f.sections[0].line, 4);
	ASSERT_EQ_INT(f.sections[0].n_pairs, 2);
	ASSERT_EQ_STR(f.sections[0].pairs[0].key, "key");
	ASSERT_EQ_STR(f.sections[0].pairs[0].value, "bare value with # and \"quotes\"");
	ASSERT_EQ_INT(f.sections[0].pairs[0].line, 5);
	ASSERT_EQ_INT(f.sections[0].pairs[0].column, 2);
	ASSERT_EQ_INT(f.sections[0].pairs[0].value_column, 8);
	ASSERT_EQ_STR(f.sections[0].pairs[1].value, "a\tb\n\"c\\ \x01 ");
	ASSERT_EQ_STR(f.sections[1].name, "two-2");
	ASSERT_EQ_STR(f.sections[1].pairs[0].value, "");
	ASSERT_EQ_STR(f.sections[1].pairs[1].value, "caf\xc3\xa9");
	sf_file_free(&f);
}

TEST(errors_name_line_and_column)
{
	expect_error("", 1, 1, "starts with `version = 1`");
	expect_error("# only a comment\n", 1, 1, "starts with `version = 1`");
	expect_error("[session]\n", 1, 1, "starts with `version = 1`");
	expect_error("name = x\n", 1, 1, "starts with `version = 1`");
	expect_error("version = 2\n", 1, 11, "format version '2' is not supported");
	expect_error("version = 1\nkey = v\n", 2, 1, "before the first [section]");
	expect_error("version = 1\n[Session]\n", 2, 2, "section name");
	expect_error("version = 1\n[session\n", 2, 9, "expected ']'");
	expect_error("version = 1\n[session] x\n", 2, 11, "text after the section name");
	expect_error("version = 1\n[s]\nKey = v\n", 3, 1, "expected `key = value`");
	expect_error("version = 1\n[s]\nkey v\n", 3, 5, "expected '='");
	expect_error("version = 1\n[s]\nkey =\n", 3, 6, "the value is missing");
	expect_error("version = 1\n[s]\nkey = \"open\n", 3, 7, "not closed");
	expect_error("version = 1\n[s]\nkey = \"a\" b\n", 3, 11, "text after the closing");
	expect_error("version = 1\n[s]\nkey = \"\\q\"\n", 3, 8, "unknown escape '\\q'");
	expect_error("version = 1\n[s]\nkey = \"\\x0\"\n", 3, 8, "two hexadecimal digits");
	expect_error("version = 1\n[s]\nkey = \"\\x00\"\n", 3, 8, "not 00");
	expect_error("version = 1\n[s]\nkey = a\tb\n", 3, 8, "control character");
	expect_error("version = 1\n[s]\nkey = \"a\tb\"\n", 3, 9, "control character");
	expect_error("version = 1\n[s]\nkey = a\rb\n", 3, 8, "control character");
	{
		static const char nul[] = "version = 1\n[s]\nk = a\0b\n";
		struct sf_error err = { 0 };
		struct sf_file f;

		ASSERT_EQ_INT(sf_parse(nul, sizeof(nul) - 1, &f, &err), -EINVAL);
		ASSERT_EQ_INT(err.line, 3);
		ASSERT_EQ_INT(err.column, 6);
		ASSERT_CONTAINS(err.message, "NUL");
	}
}

TEST(writer_quotes_what_needs_it_and_reads_back_the_same)
{
	static const char *const values[] = { "plain", "", " lead", "trail ", "\"q", "a\"b",
					      "back\\slash", "tab\there", "nl\nx", "\x01\x7f",
					      "caf\xc3\xa9", "#x", "a = b" };
	struct strbuf sb = { 0 };
	struct sf_error err = { 0 };
	struct sf_file f;

	sf_write_header(&sb, "test");
	sf_write_section(&sb, "s");
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		sf_write_str(&sb, "k", values[i]);
	sf_write_u64(&sb, "n", UINT64_MAX);
	sf_write_bool(&sb, "b", true);
	ASSERT_OK(sf_parse(strbuf_str(&sb), sb.len, &f, &err));
	ASSERT_EQ_INT(f.n_sections, 1);
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		ASSERT_EQ_STR(f.sections[0].pairs[i].value, values[i]);
	ASSERT_CONTAINS(strbuf_str(&sb), "k = plain\n");
	ASSERT_CONTAINS(strbuf_str(&sb), "k = \"tab\\there\"\n");
	ASSERT_CONTAINS(strbuf_str(&sb), "n = 18446744073709551615\nb = yes\n");
	sf_file_free(&f);
	strbuf_free(&sb);
}

/* A session with every kind of section, as the registry builds it. */
static struct reg_session *full_session(void)
{
	static const char *const excl[] = { "app:x", "app:y*" };
	struct reg_session *s = NULL;
	struct ltt_channel_attr a;
	struct ltt_event_rule e;
	const char *detail = NULL;

	ASSERT_OK(registry_session_new("full", "/tmp/out put", false, true, &s, &detail));
	ASSERT_OK(registry_snapshot_output_add(s, 3, "mine", "/tmp/snaps", 4096, NULL, &detail));
	ltt_channel_attr_init(&a, LTT_DOMAIN_USER);
	a.subbuf_size = 8192;
	a.num_subbuf = 8;
	a.overwrite = true;
	a.switch_timer_us = 1000;
	a.buffers = LTT_BUFFERS_PID;
	a.tracefile_size = 65536;
	a.tracefile_count = 3;
	ASSERT_OK(registry_channel_add(s, LTT_DOMAIN_USER, "ch", &a, &detail));
	ltt_event_rule_init(&e);
	e.pattern = "app:*";
	e.loglevel_match = LTT_LOGLEVEL_SINGLE;
	e.loglevel = 4;
	e.exclusions = excl;
	e.n_exclusions = 2;
	e.filter = "s == \"a\\\"b*\" && n > 1";
	ASSERT_TRUE(registry_rule_enable(s, LTT_DOMAIN_USER, "ch", &e, NULL, &detail) >= 0);
	ltt_event_rule_init(&e);
	e.pattern = "other:event";
	ASSERT_TRUE(registry_rule_enable(s, LTT_DOMAIN_USER, "ch", &e, NULL, &detail) >= 0);
	s->channels[0].rules[1].enabled = false;
	return s;
}

TEST(save_then_load_gives_the_same_session)
{
	struct reg_session *s = full_session(), *back = NULL;
	struct strbuf one = { 0 }, two = { 0 };
	const char *detail = NULL;
	bool started = true;

	ASSERT_OK(save_text(s, &one));
	ASSERT_OK(load_text(strbuf_str(&one), one.len, "mem", NULL, &back, &started, &detail));
	ASSERT_FALSE(started);
	ASSERT_EQ_STR(back->name, "full");
	ASSERT_EQ_STR(back->output, "/tmp/out put");
	ASSERT_TRUE(back->snapshot);
	ASSERT_EQ_INT(back->snapshot_output->id, 3);
	ASSERT_EQ_INT(back->next_output_id, 4);
	ASSERT_EQ_INT(back->channels[0].attr.tracefile_count, 3);
	ASSERT_FALSE(back->channels[0].rules[1].enabled);
	ASSERT_EQ_STR(back->channels[0].rules[0].filter, "s == \"a\\\"b*\" && n > 1");
	ASSERT_OK(save_text(back, &two));
	ASSERT_EQ_STR(strbuf_str(&two), strbuf_str(&one));
	strbuf_free(&one);
	strbuf_free(&two);
	registry_session_free(back);
	registry_session_free(s);
}

TEST(overrides_rename_and_move)
{
	struct reg_session *s = full_session(), *back = NULL;
	struct load_overrides o = { .output = "/elsewhere", .name = "renamed" };
	struct strbuf text = { 0 };
	const char *detail = NULL;
	bool started;

	ASSERT_OK(save_text(s, &text));
	ASSERT_OK(load_text(strbuf_str(&text), text.len, "mem", &o, &back, &started, &detail));
	ASSERT_EQ_STR(back->name, "renamed");
	ASSERT_EQ_STR(back->output, "/elsewhere");
	ASSERT_EQ_STR(back->snapshot_output->path, "/elsewhere");
	strbuf_free(&text);
	registry_session_free(back);
	registry_session_free(s);
}

/* Loads text; expects -LTT_ERR_SESSION_FILE with a detail containing msg. */
static void expect_invalid(const char *text, const char *msg)
{
	struct reg_session *s = NULL;
	const char *detail = NULL;
	bool started;

	ASSERT_EQ_INT(load_text(text, strlen(text), "f.ltt-session", NULL, &s, &started, &detail),
		      -LTT_ERR_SESSION_FILE);
	ASSERT_NULL(s);
	ASSERT_CONTAINS(detail, msg);
}

TEST(invalid_sessions_name_the_place)
{
	expect_invalid("version = 1\n", "f.ltt-session: no [session] section");
	expect_invalid("version = 1\n[channel]\n", "f.ltt-session:2:1: the first section is [session]");
	expect_invalid("version = 1\n[session]\n", "f.ltt-session:2:1: [session] needs a 'name'");
	expect_invalid("version = 1\n[session]\nname = a\nname = b\n",
		       "f.ltt-session:4:1: 'name' is given twice in [session]");
	expect_invalid("version = 1\n[session]\nname = a\ncolor = red\n",
		       "f.ltt-session:4:1: unknown key 'color' in [session]");
	expect_invalid("version = 1\n[session]\nname = a\n[session]\nname = b\n",
		       "f.ltt-session:4:1: [session] is given twice");
	expect_invalid("version = 1\n[session]\nname = a\n[chanel]\n",
		       "f.ltt-session:4:2: unknown section [chanel]");
	expect_invalid("version = 1\n[session]\nname = a b\n", "f.ltt-session:2:1: [session]: "
		       "Invalid name");
	expect_invalid("version = 1\n[session]\nname = a\nmode = live\n",
		       "f.ltt-session:4:8: 'mode' is one of normal, snapshot, not 'live'");
	expect_invalid("version = 1\n[session]\nname = a\n[channel]\ndomain = user\nname = c\n"
		       "num-subbuf = 3\n", "f.ltt-session:4:1: [channel]: Invalid attribute: the "
		       "sub-buffer count must be a power of two");
	expect_invalid("version = 1\n[session]\nname = a\n[channel]\ndomain = user\nname = c\n"
		       "subbuf-size = -1\n", "f.ltt-session:7:15: 'subbuf-size' is a number");
	expect_invalid("version = 1\n[session]\nname = a\n[channel]\ndomain = user\nname = c\n"
		       "num-subbuf = 99999999999\n", "f.ltt-session:7:14: 'num-subbuf' is at most");
	expect_invalid("version = 1\n[session]\nname = a\n[event-rule]\ndomain = user\n"
		       "channel = c\npattern = a:b\n",
		       "f.ltt-session:4:1: [event-rule]: no [channel] named 'c'");
	expect_invalid("version = 1\n[session]\nname = a\n[channel]\ndomain = user\nname = c\n"
		       "[event-rule]\ndomain = user\nchannel = c\npattern = a:b\nfilter = \"x >\"\n",
		       "f.ltt-session:11:10: Invalid filter expression: filter, column 4");
	expect_invalid("version = 1\n[session]\nname = a\n[snapshot-output]\npath = /x\n",
		       "f.ltt-session:4:1: [snapshot-output]: The session is not in snapshot mode");
	expect_invalid("version = 1\n[session]\nname = a\noutput = none\n[rotation]\ntimer-us = 5\n",
		       "f.ltt-session:5:1: [rotation]: Rotation is not available");
}
