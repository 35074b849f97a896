#include "ltt-test.h"
#include "util/macros.h"
#include "util/strbuf.h"

TEST(empty_is_empty_string)
{
	struct strbuf sb = STRBUF_INIT;

	ASSERT_EQ_STR(strbuf_str(&sb), "");
	ASSERT_EQ_INT(sb.len, 0);
	strbuf_free(&sb);
}

TEST(appends_and_formats)
{
	struct strbuf sb = STRBUF_INIT;
	char *s;

	strbuf_append(&sb, "id = ");
	strbuf_appendf(&sb, "%d;", 42);
	strbuf_putc(&sb, '\n');
	ASSERT_EQ_STR(strbuf_str(&sb), "id = 42;\n");
	strbuf_truncate(&sb, 4);
	ASSERT_EQ_STR(strbuf_str(&sb), "id =");
	s = strbuf_steal(&sb);
	ASSERT_EQ_STR(s, "id =");
	ASSERT_NULL(sb.buf);
	free(s);
}

TEST(grows_past_many_doublings)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < 10000; i++)
		strbuf_appendf(&sb, "%04d", i % 10000);
	ASSERT_EQ_INT(strbuf_error(&sb), 0);
	ASSERT_EQ_INT(sb.len, 40000);
	ASSERT_EQ_MEM(sb.buf + 39996, "9999", 4);
	strbuf_free(&sb);
	strbuf_free(NULL);
}

TEST(align_helpers)
{
	ASSERT_EQ_U64(align_up(13, 8), 16);
	ASSERT_EQ_U64(align_up(16, 8), 16);
	ASSERT_EQ_U64(align_pad(13, 4), 3);
	ASSERT_EQ_U64(align_pad(12, 4), 0);
	ASSERT_TRUE(is_pow2(4096));
	ASSERT_FALSE(is_pow2(0));
	ASSERT_FALSE(is_pow2(12));
}
