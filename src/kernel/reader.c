/*
 * reader.c - one CPU's kernel ring buffer, consumed from trace_pipe_raw.
 *
 * Mapped mode (kernel 6.10+, Documentation/trace/ring-buffer-map.rst): the
 * file maps to a meta page (struct trace_buffer_meta) followed by every
 * sub-buffer, read-only. The kernel lends one sub-buffer at a time, the
 * "reader page", whose id is in meta->reader.id; the ioctl
 * TRACE_MMAP_IOCTL_GET_READER first marks the reader page consumed up to
 * its commit, and when it was already consumed swaps in the next one.
 * The writer may still be filling the reader page (when the buffer is
 * almost empty), so its commit can grow under us: we keep our own offset in
 * it (cur_off) and, after each ioctl that leaves the same page, read what
 * was committed past that offset.
 *
 * Read mode (fallback): read() of trace_pipe_raw returns one page at a
 * time, a copy the kernel made.
 *
 * Context: one consumer thread per reader. The mapped pages are written by
 * the kernel concurrently: the commit is read once per pass, and records
 * below a commit the kernel published are complete (the kernel updates
 * commit after the record's bytes).
 *
 * Lost events: per_cpu/cpuN/stats counts "overrun" (overwritten, overwrite
 * mode) and "dropped events" (refused, discard mode); what we report is
 * their sum, so that the trace says exactly what the kernel says.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel/kernel-internal.h"

/* include/uapi/linux/trace_mmap.h (kernel 6.10), not in Debian 12's headers */
struct kt_trace_buffer_meta {
	uint32_t meta_page_size;
	uint32_t meta_struct_len;
	uint32_t subbuf_size;
	uint32_t nr_subbufs;
	struct {
		uint64_t lost_events;
		uint32_t id;
		uint32_t read;
	} reader;
	uint64_t flags;
	uint64_t entries;
	uint64_t overrun;
	uint64_t read;
	uint64_t reserved1;
	uint64_t reserved2;
};

#define KT_TRACE_MMAP_IOCTL_GET_READER _IO('R', 0x20)

struct kt_cpu_reader {
	unsigned cpu;
	int fd;
	enum kt_reader_mode mode;
	struct kt_page_layout layout;
	char stats_path[PATH_MAX];
	/* mapped */
	volatile struct kt_trace_buffer_meta *meta;
	size_t meta_len;
	const uint8_t *data;
	size_t data_len;
	uint32_t subbuf_size, nr_subbufs;
	long cur_id;			/* reader page we are in, -1: none yet */
	uint32_t cur_off;		/* bytes of its records consumed by us */
	uint64_t cur_ts;		/* the running timestamp at cur_off */
	/* read */
	uint8_t *page;
	size_t page_size;
	size_t max_pages;		/* per drain: the buffer's pages, + slack */
	/* accounting */
	uint64_t lost_reported;		/* taken from the stats file */
	uint64_t lost_carry;		/* taken, not yet given to a callback */
	struct kt_reader_stats st;
};

static void reader_unmap(struct kt_cpu_reader *r)
{
	if (r->data)
		munmap((void *)r->data, r->data_len);
	if (r->meta)
		munmap((void *)r->meta, r->meta_len);
	r->data = NULL;
	r->meta = NULL;
}

static int reader_map(struct kt_cpu_reader *r)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *m;
	int e;

	m = mmap(NULL, (size_t)pg, PROT_READ, MAP_SHARED, r->fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	r->meta = m;
	r->meta_len = (size_t)pg;
	if (r->meta->meta_struct_len < offsetof(struct kt_trace_buffer_meta, flags) ||
	    r->meta->subbuf_size < 4096 || r->meta->nr_subbufs == 0 ||
	    r->meta->meta_page_size < (uint32_t)pg) {
		reader_unmap(r);
		return -EPROTO;
	}
	r->subbuf_size = r->meta->subbuf_size;
	r->nr_subbufs = r->meta->nr_subbufs;
	r->data_len = (size_t)r->subbuf_size * r->nr_subbufs;
	m = mmap(NULL, r->data_len, PROT_READ, MAP_SHARED, r->fd, r->meta->meta_page_size);
	if (m == MAP_FAILED) {
		e = -errno;
		reader_unmap(r);
		return e;
	}
	r->data = m;
	/* the first GET_READER lends us a reader page */
	if (ioctl(r->fd, KT_TRACE_MMAP_IOCTL_GET_READER) < 0) {
		e = -errno;
		reader_unmap(r);
		return e;
	}
	r->cur_id = r->meta->reader.id < r->nr_subbufs ? (long)r->meta->reader.id : -1;
	r->cur_off = 0;	/* a new instance: nobody read its buffer before us */
	return 0;
}

int kt_cpu_reader_create(struct kt_instance *inst, unsigned cpu, enum kt_reader_mode mode,
			 struct kt_cpu_reader **ret, struct kt_error *err)
{
	struct kt_cpu_reader *r;
	char path[PATH_MAX], kb[32];
	int e;

	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->cpu = cpu;
	r->cur_id = -1;
	kt_page_layout_load(&r->layout);
	kt_fmt(r->stats_path, sizeof(r->stats_path), "%s/per_cpu/cpu%u/stats", inst->path, cpu);
	kt_fmt(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", inst->path, cpu);
	r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (r->fd < 0) {
		e = -errno;
		free(r);
		return kt_error_set(err, e, "cannot open %s: %s", path, strerror(-e));
	}
	if (mode != KT_READER_READ) {
		e = reader_map(r);
		if (e == 0) {
			r->mode = KT_READER_MMAP;
			*ret = r;
			return 0;
		}
		if (mode == KT_READER_MMAP) {
			kt_error_set(err, e, "cannot map %s: %s", path, strerror(-e));
			close(r->fd);
			free(r);
			return e;
		}
	}
	r->mode = KT_READER_READ;
	kt_fmt(path, sizeof(path), "%s/buffer_subbuf_size_kb", inst->path);
	r->page_size = kt_file_read(path, kb, sizeof(kb)) > 0 ? strtoul(kb, NULL, 10) * 1024 : 0;
	if (r->page_size < 4096)
		r->page_size = (size_t)sysconf(_SC_PAGESIZE);
	/*
	 * A drain reads at most the buffer's worth of pages: a read of a
	 * page the writer is on returns what it has so far, and a consumer
	 * whose own syscalls are traced would otherwise chase its tail.
	 */
	kt_fmt(path, sizeof(path), "%s/buffer_size_kb", inst->path);
	r->max_pages = kt_file_read(path, kb, sizeof(kb)) > 0 ?
		       strtoul(kb, NULL, 10) * 1024 / r->page_size + 2 : 1024;
	r->page = malloc(r->page_size);
	if (!r->page) {
		close(r->fd);
		free(r);
		return -ENOMEM;
	}
	*ret = r;
	return 0;
}

void kt_cpu_reader_free(struct kt_cpu_reader *r)
{
	if (!r)
		return;
	reader_unmap(r);
	if (r->fd >= 0)
		close(r->fd);
	free(r->page);
	free(r);
}

int kt_cpu_reader_fd(const struct kt_cpu_reader *r)
{
	return r->fd;
}

enum kt_reader_mode kt_cpu_reader_mode(const struct kt_cpu_reader *r)
{
	return r->mode;
}

void kt_cpu_reader_stats(const struct kt_cpu_reader *r, struct kt_reader_stats *s)
{
	*s = r->st;
}

/* overrun + dropped events of per_cpu/cpuN/stats. */
static long long stats_lost(struct kt_cpu_reader *r)
{
	char buf[1024], *p;
	long long lost = 0;
	ssize_t n;

	n = kt_file_read(r->stats_path, buf, sizeof(buf));
	if (n < 0)
		return n;
	if ((p = strstr(buf, "\noverrun:")) || (strncmp(buf, "overrun:", 8) == 0 && (p = buf - 1)))
		lost += strtoll(p + 1 + 8, NULL, 10);
	if ((p = strstr(buf, "dropped events:")))
		lost += strtoll(p + 15, NULL, 10);
	return lost;
}

/* What the stats file counts beyond what we took already. */
static long long stats_delta(struct kt_cpu_reader *r)
{
	long long lost = stats_lost(r);

	if (lost < 0)
		return lost;
	if ((uint64_t)lost <= r->lost_reported)
		return 0;
	lost -= (long long)r->lost_reported;
	r->lost_reported += (uint64_t)lost;
	r->st.lost += (uint64_t)lost;
	return lost;
}

long long kt_cpu_reader_lost_pending(struct kt_cpu_reader *r)
{
	long long d = stats_delta(r);
	uint64_t lost;

	if (d < 0)
		return d;
	lost = r->lost_carry + (uint64_t)d;
	r->lost_carry = 0;
	return (long long)lost;
}

/*
 * Delivers the records of page [0, commit) that start at or after *off,
 * advancing *off; *ts is the running timestamp at *off (when *off > 0), so
 * that a page the writer is still filling is resumed, not rescanned.
 * Returns records delivered or the callback's value.
 */
static long deliver_page(struct kt_cpu_reader *r, const uint8_t *page, size_t size,
			 uint32_t *off, uint64_t *ts, kt_record_cb cb, void *arg, uint64_t *lost)
{
	struct kt_page_header h;
	struct kt_page_iter it;
	struct kt_record rec;
	long n = 0;
	int e;

	if (kt_page_header_decode(&r->layout, page, size, &h) < 0)
		return 0;
	kt_page_iter_init(&it, &r->layout, page, &h);
	if (*off > 0 && *off <= it.commit) {
		/* *off is a record boundary we stopped at, *ts the time there */
		it.pos = *off;
		it.ts = *ts;
	}
	while ((e = kt_page_iter_next(&it, &rec)) > 0) {
		e = cb(&rec, *lost, arg);
		*lost = 0;
		r->st.records++;
		n++;
		if (e) {
			r->st.bytes += it.pos - *off;
			*off = it.pos;
			*ts = it.ts;
			return e;
		}
	}
	if (it.pos > *off) {
		r->st.bytes += it.pos - *off;
		*off = it.pos;
		*ts = it.ts;
	}
	r->st.padding += it.padding;
	return n;
}

static long drain_records(struct kt_cpu_reader *r, kt_record_cb cb, void *arg, uint64_t *lost);

long kt_cpu_reader_drain(struct kt_cpu_reader *r, kt_record_cb cb, void *arg)
{
	uint64_t lost;
	long total;
	long long l;

	/*
	 * Losses go with the next record delivered; what no record carried
	 * waits in lost_carry for the next drain or kt_cpu_reader_lost_pending.
	 */
	l = stats_delta(r);
	lost = r->lost_carry + (l > 0 ? (uint64_t)l : 0);
	r->lost_carry = 0;
	total = drain_records(r, cb, arg, &lost);
	r->lost_carry += lost;
	return total;
}

static long drain_records(struct kt_cpu_reader *r, kt_record_cb cb, void *arg, uint64_t *lost)
{
	long total = 0, n;

	if (r->mode == KT_READER_READ) {
		for (size_t pages = 0; pages < r->max_pages; pages++) {
			ssize_t got = read(r->fd, r->page, r->page_size);
			uint32_t off = 0;
			uint64_t ts = 0;

			if (got < 0) {
				if (errno == EAGAIN || errno == EINTR)
					break;
				return -errno;
			}
			if (got == 0)
				break;
			if ((size_t)got < r->page_size)
				memset(r->page + got, 0, r->page_size - (size_t)got);
			r->st.pages++;
			n = deliver_page(r, r->page, r->page_size, &off, &ts, cb, arg, lost);
			if (n < 0 || n > INT32_MAX)
				return n;
			total += n;
		}
		return total;
	}

	for (unsigned guard = 0; guard < 4 * r->nr_subbufs + 16; guard++) {
		uint32_t id, kread = r->meta->reader.read;

		if (r->cur_id >= 0) {
			const uint8_t *page = r->data + (size_t)r->cur_id * r->subbuf_size;

			n = deliver_page(r, page, r->subbuf_size, &r->cur_off, &r->cur_ts, cb, arg,
					 lost);
			if (n < 0)
				return n;
			total += n;
		}
		if (ioctl(r->fd, KT_TRACE_MMAP_IOCTL_GET_READER) < 0) {
			if (errno == EAGAIN || errno == EINTR)
				break;
			return -errno;
		}
		id = r->meta->reader.id;
		if (id >= r->nr_subbufs)
			return -EPROTO;
		if ((long)id == r->cur_id) {
			/* same page: anything committed past our offset? */
			struct kt_page_header h;
			const uint8_t *page = r->data + (size_t)id * r->subbuf_size;

			if (kt_page_header_decode(&r->layout, page, r->subbuf_size, &h) < 0)
				break;
			if (h.commit > r->cur_off) {
				/*
				 * The writer is in this page (the buffer is
				 * nearly empty): take what it committed
				 * meanwhile and stop. Chasing it would cost an
				 * ioctl every few records (a third of the
				 * consumer's time, measured); the next drain
				 * goes on from here.
				 */
				n = deliver_page(r, page, r->subbuf_size, &r->cur_off, &r->cur_ts, cb,
						 arg, lost);
				if (n < 0)
					return n;
				total += n;
				break;
			}
			/*
			 * Nothing new for us. If this ioctl only moved the
			 * kernel's read mark up to the commit, the next one
			 * swaps in the next page, if there is one: ask again.
			 * If the mark did not move, the buffer is empty.
			 */
			if (r->meta->reader.read != kread)
				continue;
			break;
		}
		/*
		 * A fresh reader page: all of it is ours. (meta->reader.read
		 * already says "consumed up to the commit": the kernel assumes
		 * the mapper reads the whole page it lends.)
		 */
		r->cur_id = id;
		r->cur_off = 0;
		r->st.pages++;
	}
	return total;
}
