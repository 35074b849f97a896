/* textout.c - see textout.h. */
#include "textout.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int out_init(struct out *o, int fd, size_t cap)
{
	o->fd = fd;
	o->n = 0;
	o->cap = cap;
	o->error = 0;
	o->buf = malloc(cap);
	return o->buf ? 0 : -ENOMEM;
}

int out_flush(struct out *o)
{
	size_t off = 0;

	while (off < o->n && !o->error) {
		ssize_t w = write(o->fd, o->buf + off, o->n - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			o->error = -errno;
			break;
		}
		off += (size_t)w;
	}
	o->n = 0;
	return o->error;
}

void out_grow_(struct out *o, size_t need)
{
	if (o->fd >= 0)
		out_flush(o);
	need += o->n;
	if (o->cap < need) {
		size_t cap = o->cap;
		char *g;

		while (cap < need)
			cap *= 2;
		g = realloc(o->buf, cap);
		if (!g) {
			fprintf(stderr, "ltt: out of memory\n");
			exit(1);
		}
		o->buf = g;
		o->cap = cap;
	}
}

void out_free(struct out *o)
{
	free(o->buf);
	o->buf = NULL;
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Writes v's decimal digits ending at end; returns the first. */
static inline char *u64_digits(char *end, uint64_t v)
{
	char *p = end;
	uint32_t w;

	while (v > UINT32_MAX) {
		unsigned d = (unsigned)(v % 100) * 2;

		v /= 100;
		*--p = digit_pairs[d + 1];
		*--p = digit_pairs[d];
	}
	/* 32-bit divisions are cheaper */
	for (w = (uint32_t)v; w >= 100; w /= 100) {
		unsigned d = (w % 100) * 2;

		*--p = digit_pairs[d + 1];
		*--p = digit_pairs[d];
	}
	v = w;
	if (v >= 10) {
		unsigned d = (unsigned)v * 2;

		*--p = digit_pairs[d + 1];
		*--p = digit_pairs[d];
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

void out_u64(struct out *o, uint64_t v)
{
	char tmp[24];
	char *p = u64_digits(tmp + sizeof(tmp), v);

	out_mem(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

void out_i64(struct out *o, int64_t v)
{
	if (v < 0) {
		out_c(o, '-');
		out_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		out_u64(o, (uint64_t)v);
	}
}

void out_hex(struct out *o, uint64_t v)
{
	static const char digits[] = "0123456789ABCDEF";
	char tmp[20];
	char *p = tmp + sizeof(tmp);

	do {
		*--p = digits[v & 15];
		v >>= 4;
	} while (v);
	out_mem(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

void out_oct(struct out *o, uint64_t v)
{
	char tmp[24];
	char *p = tmp + sizeof(tmp);

	do {
		*--p = (char)('0' + (v & 7));
		v >>= 3;
	} while (v);
	out_mem(o, p, (size_t)(tmp + sizeof(tmp) - p));
}

void out_u64_pad(struct out *o, uint64_t v, unsigned width)
{
	char tmp[24];
	char *end = tmp + sizeof(tmp);
	char *p = u64_digits(end, v);

	while ((unsigned)(end - p) < width && p > tmp)
		*--p = '0';
	out_mem(o, p, (size_t)(end - p));
}

void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	out_reserve(o, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(o->buf + o->n, (size_t)n + 1, fmt, ap);
	va_end(ap);
	o->n += (size_t)n;
}
