/*
 * page.c - the kernel ring buffer's page and record format, decoded.
 *
 * A page (a "sub-buffer", buffer_subbuf_size_kb, 4 KiB by default) is, as
 * events/header_page describes it:
 *
 *   u64 time_stamp        base of the first record's delta
 *   local_t commit        bytes of records; bit 31: events were missed
 *                         before this page, bit 30: their count is stored
 *                         (an unsigned long right after the records)
 *   data[]                records
 *
 * A record starts with a 32-bit little-endian word (events/header_event):
 * type_len (5 low bits) and time_delta (27 high bits), then array[]:
 *
 *   type_len 1..28   data of type_len * 4 bytes follows the word
 *   type_len 0       array[0] = data length + 4; data after array[0]
 *   29 PADDING       array[0] = length of the hole minus 4 (a discarded
 *                    event); time_delta 0: the rest of the page is unused
 *   30 TIME_EXTEND   delta = array[0] << 27 | time_delta, 8 bytes
 *   31 TIME_STAMP    absolute time = array[0] << 27 | time_delta (its top
 *                    bits from the current time), 8 bytes
 *
 * Data records add their time_delta to the running timestamp; padding does
 * not (as the kernel's own reader). The page comes from the kernel
 * (mapped, or read) or from a file: every length is checked against the
 * commit, and a malformed record ends the page with -EBADMSG.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kernel/kernel-internal.h"

#define TYPE_PADDING 29
#define TYPE_TIME_EXTEND 30
#define TYPE_TIME_STAMP 31
#define TS_SHIFT 27
#define TS_MSB_MASK (~((UINT64_C(1) << 59) - 1))

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t rdn(const uint8_t *p, uint32_t size)
{
	uint32_t v32;
	uint64_t v;

	if (size == 4) {
		memcpy(&v32, p, 4);
		return v32;
	}
	memcpy(&v, p, 8);
	return v;
}

int kt_page_header_decode(const struct kt_page_layout *l, const void *page, size_t page_size,
			  struct kt_page_header *h)
{
	const uint8_t *p = page;
	uint64_t commit;

	if ((l->commit_size != 4 && l->commit_size != 8) || l->data_offset > page_size ||
	    l->ts_offset + 8 > page_size || l->commit_offset + l->commit_size > page_size)
		return -EINVAL;
	memset(h, 0, sizeof(*h));
	h->ts = rdn(p + l->ts_offset, 8);
	commit = rdn(p + l->commit_offset, l->commit_size);
	h->missed = commit & KT_RB_MISSED_EVENTS;
	h->missed_stored = commit & KT_RB_MISSED_STORED;
	commit &= ~(KT_RB_MISSED_EVENTS | KT_RB_MISSED_STORED);
	/* bits above 31 of a 64-bit commit are never set by the kernel */
	commit &= UINT64_C(0x3fffffff);
	if (commit > page_size - l->data_offset)
		return -EBADMSG;
	h->commit = commit;
	if (h->missed_stored) {
		/* an unsigned long (commit_size bytes) right after the records */
		if (commit + l->commit_size <= page_size - l->data_offset)
			h->missed_count = rdn(p + l->data_offset + commit, l->commit_size);
		else
			h->missed_stored = false;
	}
	return 0;
}

void kt_page_iter_init(struct kt_page_iter *it, const struct kt_page_layout *l,
		       const void *page, const struct kt_page_header *h)
{
	memset(it, 0, sizeof(*it));
	it->data = (const uint8_t *)page + l->data_offset;
	it->commit = (uint32_t)h->commit;
	it->ts = h->ts;
}

int kt_page_iter_next(struct kt_page_iter *it, struct kt_record *rec)
{
	while (it->pos < it->commit) {
		const uint8_t *p = it->data + it->pos;
		uint32_t left = it->commit - it->pos, word, type_len, delta, a0, len;

		if (left < 4)
			return -EBADMSG;
		word = rd32(p);
		type_len = word & 0x1f;
		delta = word >> 5;
		switch (type_len) {
		case TYPE_PADDING:
			if (delta == 0) {
				/* the rest of the page is unused */
				it->pos = it->commit;
				return 0;
			}
			if (left < 8)
				return -EBADMSG;
			a0 = rd32(p + 4);
			if (a0 > left - 4)
				return -EBADMSG;
			it->pos += 4 + (a0 < 4 ? 4 : a0);
			it->padding++;
			continue;
		case TYPE_TIME_EXTEND:
			if (left < 8)
				return -EBADMSG;
			it->ts += ((uint64_t)rd32(p + 4) << TS_SHIFT) | delta;
			it->pos += 8;
			it->extended++;
			continue;
		case TYPE_TIME_STAMP: {
			uint64_t abs;

			if (left < 8)
				return -EBADMSG;
			abs = ((uint64_t)rd32(p + 4) << TS_SHIFT) | delta;
			it->ts = abs | (it->ts & TS_MSB_MASK);
			it->pos += 8;
			it->extended++;
			continue;
		}
		case 0:
			if (left < 8)
				return -EBADMSG;
			a0 = rd32(p + 4);
			if (a0 < 4 || a0 - 4 > left - 8)
				return -EBADMSG;
			len = a0 - 4;
			it->ts += delta;
			rec->ts = it->ts;
			rec->data = p + 8;
			rec->len = len;
			it->pos += 8 + ((len + 3) & ~3u);
			if (it->pos > it->commit)
				it->pos = it->commit;
			return 1;
		default:
			len = type_len * 4;
			if (len > left - 4)
				return -EBADMSG;
			it->ts += delta;
			rec->ts = it->ts;
			rec->data = p + 4;
			rec->len = len;
			it->pos += 4 + len;
			return 1;
		}
	}
	return 0;
}

int kt_page_layout_load(struct kt_page_layout *l)
{
	static const char fake_head[] = "name: header_page\nID: 0\nformat:\n";
	char path[PATH_MAX], buf[2048 + sizeof(fake_head)];
	struct kt_event_format *f = NULL;
	struct kt_page_layout def = KT_PAGE_LAYOUT_DEFAULT;
	ssize_t n;
	int ts, commit, data, r;

	*l = def;
	kt_fmt(path, sizeof(path), "%s/events/header_page", kt_tracefs_root());
	memcpy(buf, fake_head, sizeof(fake_head) - 1);
	n = kt_file_read(path, buf + sizeof(fake_head) - 1, sizeof(buf) - sizeof(fake_head) + 1);
	if (n < 0)
		return (int)n;
	r = kt_event_format_parse(buf, (size_t)n + sizeof(fake_head) - 1, NULL, &f);
	if (r < 0)
		return r;
	ts = kt_event_format_field(f, "timestamp");
	commit = kt_event_format_field(f, "commit");
	data = kt_event_format_field(f, "data");
	if (ts >= 0 && commit >= 0 && data >= 0 &&
	    (f->fields[commit].size == 4 || f->fields[commit].size == 8)) {
		l->ts_offset = f->fields[ts].offset;
		l->commit_offset = f->fields[commit].offset;
		l->commit_size = f->fields[commit].size;
		l->data_offset = f->fields[data].offset;
	}
	kt_event_format_free(f);
	return 0;
}
