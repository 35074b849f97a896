/*
 * fuzz-kernel-page.c - the kernel backend's parsers of kernel data: a
 * ring-buffer page (header, records, time extends, padding) whose records
 * are then converted field by field with a format file parsed from the
 * same input, as the consumer does with a page it mapped and a format file
 * it read.
 *
 * Input: u16 format length L, L bytes of format text, then the page.
 */
#include <stdint.h>
#include <string.h>

#include "kernel/kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kt_page_layout l = KT_PAGE_LAYOUT_DEFAULT;
	struct kt_event_format *fmt = NULL;
	struct kt_page_header h;
	struct kt_page_iter it;
	struct kt_record rec;
	uint8_t page[8192];
	size_t flen, psize;
	uint64_t sum = 0;
	int r;

	if (size < 2)
		return 0;
	flen = (size_t)data[0] | (size_t)data[1] << 8;
	if (flen > size - 2)
		flen = size - 2;
	if (kt_event_format_parse((const char *)data + 2, flen, "fuzz", &fmt) == 0) {
		for (size_t i = 0; i < fmt->nfields; i++)
			sum += fmt->fields[i].offset + fmt->fields[i].size + strlen(fmt->fields[i].name);
	}
	psize = size - 2 - flen;
	if (psize > sizeof(page))
		psize = sizeof(page);
	memset(page, 0, sizeof(page));
	memcpy(page, data + 2 + flen, psize);
	/* a page is always a whole sub-buffer: 4096 unless the input is larger */
	if (kt_page_header_decode(&l, page, psize > 4096 ? sizeof(page) : 4096, &h) == 0) {
		kt_page_iter_init(&it, &l, page, &h);
		while ((r = kt_page_iter_next(&it, &rec)) > 0) {
			sum += rec.ts + rec.len;
			for (uint32_t i = 0; i < rec.len; i++)
				sum += rec.data[i];
			if (fmt) {
				for (size_t i = 0; i < fmt->nfields; i++) {
					const struct kt_field *f = &fmt->fields[i];

					if (f->offset + f->size <= rec.len)
						sum += rec.data[f->offset];
				}
			}
		}
	}
	kt_event_format_free(fmt);
	return sum == 0xdeadbeef;
}
