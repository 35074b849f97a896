/*
 * textout.h - a fast buffered writer for the CLI's text output (no printf on
 * the per-event path). Write errors are sticky and reported by out_flush().
 */
#ifndef LTT_CLI_TEXTOUT_H
#define LTT_CLI_TEXTOUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/numfmt.h"

struct out {
	int fd;		/* -1: a memory buffer that only grows */
	char *buf;
	size_t n, cap;
	int error;		/* 0 or a negative errno */
};

int out_init(struct out *o, int fd, size_t cap);
/* Writes what is buffered; returns 0 or the first write error. */
int out_flush(struct out *o);
void out_free(struct out *o);
void out_grow_(struct out *o, size_t need);

static inline char *out_reserve(struct out *o, size_t need)
{
	if (o->cap - o->n < need)
		out_grow_(o, need);
	return o->buf + o->n;
}

static inline void out_mem(struct out *o, const char *s, size_t len)
{
	char *d = out_reserve(o, len);

	/* short copies without a call: overlapping fixed-size moves within [s, s + len) */
	if (len >= 8 && len <= 16) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + len - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + len - 8, &b, 8);
	} else if (len >= 4 && len < 8) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + len - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + len - 4, &b, 4);
	} else if (len < 4) {
		for (size_t i = 0; i < len; i++)
			d[i] = s[i];
	} else {
		memcpy(d, s, len);
	}
	o->n += len;
}

static inline void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static inline void out_c(struct out *o, char c)
{
	*out_reserve(o, 1) = c;
	o->n++;
}

static inline void out_u64(struct out *o, uint64_t v)
{
	o->n += numfmt_u64(out_reserve(o, NUMFMT_MAX), v);
}

static inline void out_i64(struct out *o, int64_t v)
{
	o->n += numfmt_i64(out_reserve(o, NUMFMT_MAX), v);
}

/* v in exactly width digits (1..20), zeros first; v < 10^width. */
static inline void out_u64_fixed(struct out *o, uint64_t v, unsigned width)
{
	numfmt_u64_fixed(out_reserve(o, NUMFMT_MAX), v, width);
	o->n += width;
}

/* v zero-padded to width digits (at most 20). */
void out_u64_pad(struct out *o, uint64_t v, unsigned width);
void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* LTT_CLI_TEXTOUT_H */
