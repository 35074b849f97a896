/* strbuf.c - see strbuf.h. */
#include "strbuf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int strbuf_reserve(struct strbuf *sb, size_t extra)
{
	size_t need, cap;
	char *p;

	if (sb->error)
		return sb->error;
	need = sb->len + extra + 1;
	if (need <= sb->cap)
		return 0;
	cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap *= 2;
	p = realloc(sb->buf, cap);
	if (!p) {
		sb->error = -ENOMEM;
		return sb->error;
	}
	sb->buf = p;
	sb->cap = cap;
	return 0;
}

void strbuf_append_len(struct strbuf *sb, const char *s, size_t n)
{
	if (strbuf_reserve(sb, n) < 0)
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_append(struct strbuf *sb, const char *s)
{
	strbuf_append_len(sb, s, strlen(s));
}

void strbuf_putc(struct strbuf *sb, char c)
{
	strbuf_append_len(sb, &c, 1);
}

void strbuf_vappendf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0 || strbuf_reserve(sb, (size_t)n) < 0)
		return;
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_appendf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vappendf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_truncate(struct strbuf *sb, size_t n)
{
	if (n < sb->len) {
		sb->len = n;
		sb->buf[n] = '\0';
	}
}

int strbuf_error(const struct strbuf *sb)
{
	return sb->error;
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *strbuf_steal(struct strbuf *sb)
{
	char *s = sb->buf;

	if (!s)
		s = strdup("");
	*sb = (struct strbuf)STRBUF_INIT;
	return s;
}

void strbuf_free(struct strbuf *sb)
{
	if (!sb)
		return;
	free(sb->buf);
	*sb = (struct strbuf)STRBUF_INIT;
}
