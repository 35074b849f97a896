/*
 * strbuf.h - a growable, always NUL-terminated string buffer.
 *
 * Used off the fast path (metadata generation, text output). Allocation
 * failure is sticky: after one, every append is a no-op and strbuf_error()
 * returns -ENOMEM, so callers check once at the end.
 */
#ifndef LTT_UTIL_STRBUF_H
#define LTT_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;	/* NUL-terminated; NULL until the first append */
	size_t len;	/* bytes before the NUL */
	size_t cap;
	int error;	/* 0 or -ENOMEM */
};

#define STRBUF_INIT { NULL, 0, 0, 0 }

void strbuf_append(struct strbuf *sb, const char *s);
void strbuf_append_len(struct strbuf *sb, const char *s, size_t n);
void strbuf_appendf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vappendf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void strbuf_putc(struct strbuf *sb, char c);
/* Drops everything after the first n bytes (n <= len). */
void strbuf_truncate(struct strbuf *sb, size_t n);
/* 0, or -ENOMEM if any append failed. */
int strbuf_error(const struct strbuf *sb);
/* The text ("" when empty); valid until the next append. */
const char *strbuf_str(const struct strbuf *sb);
/* Hands the text over to the caller (free() it); the strbuf is reset. */
char *strbuf_steal(struct strbuf *sb);
void strbuf_free(struct strbuf *sb);

#endif /* LTT_UTIL_STRBUF_H */
