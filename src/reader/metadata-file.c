/*
 * metadata-file.c - the TSDL text of a metadata file: plain ("/" "* CTF 1.8")
 * or packetized (packets of a 37-byte header, magic 0x75D11D57, then text).
 */
#include "reader-internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TSDL_MAGIC 0x75D11D57u
#define MD_HEADER_BYTES 37

static uint32_t rd32(const uint8_t *p, bool be)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
		  : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

int rd_metadata_text(const uint8_t *data, size_t size, char **ret_text,
		     size_t *ret_len, char *errbuf, size_t errlen)
{
	char *text = NULL;
	size_t n = 0;
	bool be;

	if (size > RD_MAX_METADATA) {
		snprintf(errbuf, errlen, "metadata larger than %u bytes", RD_MAX_METADATA);
		return -EPROTO;
	}
	if (size >= 4 && (rd32(data, false) == TSDL_MAGIC || rd32(data, true) == TSDL_MAGIC)) {
		size_t off = 0;

		be = rd32(data, true) == TSDL_MAGIC;
		text = malloc(size + 1);
		if (!text)
			return -ENOMEM;
		while (off < size) {
			uint32_t content, packet;

			if (size - off < MD_HEADER_BYTES || rd32(data + off, be) != TSDL_MAGIC) {
				snprintf(errbuf, errlen, "offset %zu: bad metadata packet header", off);
				goto err;
			}
			content = rd32(data + off + 24, be);
			packet = rd32(data + off + 28, be);
			if (content % 8 || packet % 8 || content < MD_HEADER_BYTES * 8 ||
			    content > packet || packet / 8 > size - off) {
				snprintf(errbuf, errlen,
					 "offset %zu: metadata packet sizes (content %u, packet %u bits) out of bounds",
					 off, content, packet);
				goto err;
			}
			if (data[off + 32] || data[off + 33] || data[off + 34]) {
				snprintf(errbuf, errlen, "offset %zu: compressed, encrypted or checksummed metadata is not supported", off);
				goto err;
			}
			memcpy(text + n, data + off + MD_HEADER_BYTES, content / 8 - MD_HEADER_BYTES);
			n += content / 8 - MD_HEADER_BYTES;
			off += packet / 8;
		}
	} else {
		text = malloc(size + 1);
		if (!text)
			return -ENOMEM;
		memcpy(text, data, size);
		n = size;
	}
	text[n] = '\0';
	/* the text ends at its first NUL, if any (padding) */
	*ret_len = strlen(text);
	*ret_text = text;
	return 0;
err:
	free(text);
	return -EPROTO;
}
