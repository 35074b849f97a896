/*
 * fuzz-packet.c - the packet decoder and the merge on any stream bytes, with
 * a fixed metadata (every type the reader decodes: bit fields, both byte
 * orders, floats, strings, text arrays, structs, arrays, sequences, variants,
 * enums, the compact event header with its 27-bit wrapping clock), each
 * event printed by the event and the value printers. The input is split in
 * two streams at its first byte's proportion.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/reader-internal.h"
#include "fuzz-packet-metadata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *bufs[2];
	size_t sizes[2], cut;
	struct ltt_reader *r = NULL;
	const struct ltt_event *ev;
	char *err = NULL;
	uint8_t *copy;
	int ret;

	/* a private copy, so that reads past the end are caught by ASan */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	cut = size ? (size_t)copy[0] * size / 256 : 0;
	bufs[0] = copy;
	sizes[0] = cut;
	bufs[1] = copy + cut;
	sizes[1] = size - cut;
	ret = rd_reader_open_mem(fuzz_packet_metadata, sizeof(fuzz_packet_metadata) - 1,
				 bufs, sizes, 2, &r, &err);
	if (ret == 0) {
		char *text = NULL;
		size_t len = 0, cap = 0;
		unsigned n = 0;

		while ((ret = ltt_reader_next(r, &ev)) > 0) {
			(void)ltt_event_name(ev);
			if (ret != LTT_RECORD_EVENT)
				continue;
			/* print it both ways, as ltt view would, with every set of flags */
			len = 0;
			ltt_event_format_pretty(ev, n++ % 8, &text, &len, &cap);
			for (int s = 0; s < 4; s++) {
				const struct ltt_value *v = ltt_event_scope(ev, (enum ltt_scope)s);

				if (v)
					ltt_value_format_pretty(v, 1, &text, &len, &cap);
			}
		}
		free(text);
		ltt_reader_free(r);
	}
	free(err);
	free(copy);
	return 0;
}
