/*
 * ctf-metadata.c - the packetized form of the metadata stream: each packet
 * is a 37-byte header (magic 0x75D11D57, trace uuid, checksum, content and
 * packet sizes in bits, compression/encryption/checksum schemes, version
 * 1.8) followed by a slice of the TSDL text and zero padding. Readers
 * concatenate the slices, so a packet boundary may fall anywhere in the text.
 */
#include "ctf/ctf-trace.h"

#include <errno.h>
#include <string.h>

#include "ctf/ctf-encode.h"

void ctf_metadata_packet_header_write(void *dst, const uint8_t uuid[16],
				      enum ctf_byte_order bo, uint32_t content_bytes,
				      uint32_t packet_bytes)
{
	uint8_t *b = dst;

	memset(b, 0, CTF_METADATA_HEADER_SIZE);
	ctf_bits_write(b, 0, 32, CTF_METADATA_MAGIC, bo);
	memcpy(b + 4, uuid, 16);
	ctf_bits_write(b, 20 * 8, 32, 0, bo);				/* checksum */
	ctf_bits_write(b, 24 * 8, 32, 8 * (uint64_t)content_bytes, bo);
	ctf_bits_write(b, 28 * 8, 32, 8 * (uint64_t)packet_bytes, bo);
	b[32] = 0;	/* compression scheme */
	b[33] = 0;	/* encryption scheme */
	b[34] = 0;	/* checksum scheme */
	b[35] = 1;	/* major */
	b[36] = 8;	/* minor */
}

size_t ctf_metadata_packetized_size(size_t len, size_t packet_size)
{
	size_t room;

	if (packet_size <= CTF_METADATA_HEADER_SIZE)
		return 0;
	room = packet_size - CTF_METADATA_HEADER_SIZE;
	return (len + room - 1) / room * packet_size;
}

long ctf_metadata_packetize(const uint8_t uuid[16], enum ctf_byte_order bo,
			    const char *text, size_t len, size_t packet_size,
			    void *dst, size_t dst_cap)
{
	size_t room, need = ctf_metadata_packetized_size(len, packet_size), done = 0;
	uint8_t *out = dst;

	/* Packet sizes are u32 bit counts. */
	if (!need && len)
		return -EINVAL;
	if (packet_size > UINT32_MAX / 8)
		return -EINVAL;
	if (need > dst_cap)
		return -ENOSPC;
	room = packet_size - CTF_METADATA_HEADER_SIZE;
	while (done < len) {
		size_t n = len - done < room ? len - done : room;

		ctf_metadata_packet_header_write(out, uuid, bo,
						 (uint32_t)(CTF_METADATA_HEADER_SIZE + n),
						 (uint32_t)packet_size);
		memcpy(out + CTF_METADATA_HEADER_SIZE, text + done, n);
		memset(out + CTF_METADATA_HEADER_SIZE + n, 0, room - n);
		out += packet_size;
		done += n;
	}
	return (long)need;
}
