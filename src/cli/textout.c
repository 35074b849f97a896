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

void out_u64_pad(struct out *o, uint64_t v, unsigned width)
{
	o->n += numfmt_u64_pad(out_reserve(o, NUMFMT_MAX), v, width > 20 ? 20 : width);
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
