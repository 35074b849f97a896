/*
 * fuzz-metadata.c - the TSDL parser (plain or packetized metadata) on any
 * input: it must return 0 or an error, never crash, hang or leak.
 */
#include <stdint.h>
#include <stdlib.h>

#include "reader/reader-internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	char *text = NULL;
	size_t len;
	struct rd_meta *m = NULL;

	if (rd_metadata_text(data, size, &text, &len, err, sizeof(err)) < 0)
		return 0;
	if (rd_meta_parse(text, len, &m, err, sizeof(err)) == 0)
		rd_meta_free(m);
	free(text);
	return 0;
}
