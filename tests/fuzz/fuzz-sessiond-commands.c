/*
 * fuzz-sessiond-commands.c - requests as ltt-sessiond receives them from a
 * client: a header and a payload that passed proto validation, executed
 * against a registry that lives across inputs (so that sequences of
 * requests build state), as the daemon's loop does. Start, save and load
 * requests are left out: they create directories and files (the output,
 * session files) wherever the fuzzer says, or read them (session files have
 * their own target, fuzz-session-file.c); so are kernel requests: as root
 * they make tracefs instances, which are global to the machine.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct registry reg;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_builder reply;
	struct proto_msg msg = { .n_fds = 0 };
	uint64_t domain;
	uint8_t *payload;

	if (size < PROTO_HEADER_SIZE)
		return 0;
	memcpy(&msg.hdr, data, sizeof(msg.hdr));
	if (proto_header_check(&msg.hdr) < 0 || msg.hdr.payload_len != size - PROTO_HEADER_SIZE ||
	    msg.hdr.type == CTL_SESSION_START || msg.hdr.type == CTL_SESSION_SAVE ||
	    msg.hdr.type == CTL_SESSION_LOAD)
		return 0;
	/* a copy of exactly the payload, so that ASan sees any read past it */
	payload = malloc(msg.hdr.payload_len ? msg.hdr.payload_len : 1);
	if (!payload)
		return 0;
	memcpy(payload, data + PROTO_HEADER_SIZE, msg.hdr.payload_len);
	if (proto_attrs_parse(payload, msg.hdr.payload_len, &msg.attrs) == 0 &&
	    (proto_get_u64(&msg.attrs, CTL_A_DOMAIN, &domain) < 0 || domain != LTT_DOMAIN_KERNEL)) {
		commands_handle(&reg, &msg, &reply);
		proto_builder_free(&reply);
	}
	free(payload);
	if (reg.n_sessions > 64)
		registry_free(&reg);
	return 0;
}
