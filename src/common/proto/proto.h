/*
 * proto.h - the control protocol shared by the ltt daemons, the CLI's
 * library and the traced applications.
 *
 * A message is a 16-byte header followed by a payload of attributes:
 *
 *   header   u32 magic "LTTp" | u16 version | u16 type | u32 payload_len | u32 seq
 *   payload  attribute*          each: u16 id | u16 kind | u32 len | value | pad to 8
 *
 * All integers are in host byte order (both ends run on one machine). An
 * attribute's kind says how its value is read: U64, I64 (8 bytes), STR
 * (len bytes ending in the one NUL of the value), BYTES (len bytes), or
 * NEST (a payload of attributes, len bytes). Ids are per message type; an
 * id may repeat (a list). Messages travel on stream Unix sockets, file
 * descriptors (SCM_RIGHTS) attached to their header.
 *
 * Everything received is validated by proto_msg_parse() before any use:
 * lengths are bounded by the buffer, kinds known, strings terminated, nesting
 * shallow, and nothing read is trusted further than those checks.
 */
#ifndef LTT_PROTO_H
#define LTT_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PROTO_MAGIC 0x7054544cu		/* "LTTp" read as little-endian */
#define PROTO_VERSION 1
#define PROTO_HEADER_SIZE 16
#define PROTO_MAX_PAYLOAD (16u << 20)	/* a bigger message is refused */
#define PROTO_MAX_FDS 64		/* descriptors per message */
#define PROTO_MAX_DEPTH 4		/* NEST levels */

struct proto_header {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t payload_len;
	uint32_t seq;
};

enum proto_kind {
	PROTO_U64 = 1,
	PROTO_I64 = 2,
	PROTO_STR = 3,
	PROTO_BYTES = 4,
	PROTO_NEST = 5,
};

/* ---- Building a message ------------------------------------------------ */

/*
 * A message under construction. Allocation failure and misuse are sticky:
 * every later call is a no-op and proto_builder_error() reports the first
 * error, so callers check once, at send time.
 */
struct proto_builder {
	uint8_t *buf;		/* header + payload */
	size_t len, cap;
	size_t nest[PROTO_MAX_DEPTH];	/* offsets of open NEST attributes */
	unsigned depth;
	int error;		/* 0, -ENOMEM, -EMSGSIZE or -EINVAL */
};

/* Starts a message of the given type; seq is echoed by replies. */
void proto_builder_init(struct proto_builder *b, uint16_t type, uint32_t seq);
void proto_put_u64(struct proto_builder *b, uint16_t id, uint64_t v);
void proto_put_i64(struct proto_builder *b, uint16_t id, int64_t v);
/* s must not be NULL; it is sent with its NUL. */
void proto_put_str(struct proto_builder *b, uint16_t id, const char *s);
void proto_put_bytes(struct proto_builder *b, uint16_t id, const void *p, size_t n);
/* Opens a nested attribute list; close it with proto_nest_end(). */
void proto_nest_begin(struct proto_builder *b, uint16_t id);
void proto_nest_end(struct proto_builder *b);
/* 0 or the first error (-ENOMEM, -EMSGSIZE past PROTO_MAX_PAYLOAD, -EINVAL). */
int proto_builder_error(const struct proto_builder *b);
/* The encoded message (header included), valid until the builder changes. */
const uint8_t *proto_builder_data(const struct proto_builder *b, size_t *ret_len);
void proto_builder_free(struct proto_builder *b);

/* ---- Reading a message -------------------------------------------------- */

/* A view of one attribute list (a payload, or a NEST value). */
struct proto_attrs {
	const uint8_t *p;
	size_t len;
};

struct proto_attr {
	uint16_t id;
	uint16_t kind;
	uint32_t len;
	const uint8_t *value;
};

/*
 * Validates a payload of payload_len bytes (all of it attributes, each well
 * formed, nesting at most PROTO_MAX_DEPTH) and returns a view of it.
 * Returns 0, or -EBADMSG naming nothing more: the message is rejected whole.
 */
int proto_attrs_parse(const void *payload, size_t payload_len, struct proto_attrs *ret);

/*
 * Iterates: *cursor starts at 0; returns 1 with *ret_attr filled, or 0 at
 * the end. Only call on a list that proto_attrs_parse() accepted (or a NEST
 * value inside one).
 */
int proto_attrs_next(const struct proto_attrs *a, size_t *cursor, struct proto_attr *ret_attr);

/*
 * Typed getters of the first attribute with this id. Return 0, -ENOENT when
 * absent, -EBADMSG when of another kind. ret_ is written only on success;
 * a string stays inside the message buffer.
 */
int proto_get_u64(const struct proto_attrs *a, uint16_t id, uint64_t *ret);
int proto_get_i64(const struct proto_attrs *a, uint16_t id, int64_t *ret);
int proto_get_str(const struct proto_attrs *a, uint16_t id, const char **ret);
int proto_get_bytes(const struct proto_attrs *a, uint16_t id, const void **ret, size_t *ret_len);
int proto_get_nest(const struct proto_attrs *a, uint16_t id, struct proto_attrs *ret);

/* Checks a received header: magic, version, payload bound. 0 or -EBADMSG/-EMSGSIZE. */
int proto_header_check(const struct proto_header *h);

/* ---- Transport ------------------------------------------------------------ */

/* A received message: owns its buffer; fds the caller must close or take. */
struct proto_msg {
	struct proto_header hdr;
	uint8_t *payload;
	struct proto_attrs attrs;
	int fds[PROTO_MAX_FDS];
	unsigned n_fds;
};

/*
 * Sends the built message with n_fds descriptors attached (may be 0).
 * Blocks until all is written (the socket may be non-blocking: it then waits
 * with poll up to timeout_ms, -1 for ever). Returns 0, the builder's error,
 * -ETIMEDOUT, or a negative errno of sendmsg (-EPIPE when the peer is gone;
 * SIGPIPE is never raised).
 */
int proto_send(int sock, const struct proto_builder *b, const int *fds, unsigned n_fds,
	       int timeout_ms);

/*
 * Receives one whole message into *msg (free it with proto_msg_free()).
 * Returns 0, -ECONNRESET on an orderly close before a header, -ETIMEDOUT,
 * -EBADMSG / -EMSGSIZE for an invalid message (the connection is then out of
 * step and must be closed), or a negative errno of recvmsg. Descriptors that
 * arrive with an invalid message are closed.
 */
int proto_recv(int sock, struct proto_msg *msg, int timeout_ms);
/* Frees the payload and closes descriptors still held (set to -1 to keep one). */
void proto_msg_free(struct proto_msg *msg);

/*
 * Credentials of a connected Unix socket's peer (SO_PEERCRED).
 * Returns 0 or a negative errno.
 */
int proto_peer_cred(int sock, pid_t *ret_pid, uid_t *ret_uid, gid_t *ret_gid);

/* ---- Endpoints ------------------------------------------------------------- */

/*
 * The directory of this user's control sockets: $LTT_HOME if set, else
 * /run/ltt for root, else $XDG_RUNTIME_DIR/ltt, else $HOME/.ltt. Created
 * (mode 0700) if missing; refused with -EPERM if it exists but is not a
 * directory owned by this user, or is accessible by others.
 * Writes at most size bytes (NUL included) into buf; 0 or a negative errno
 * (-ENAMETOOLONG).
 */
int proto_runtime_dir(char *buf, size_t size);
/* The same path, neither created nor checked (for traced applications). */
int proto_runtime_dir_path(char *buf, size_t size);

/*
 * Listens on a stream Unix socket at path (backlog 64, close-on-exec).
 * A stale socket file (nobody accepting) is replaced; a live one gives
 * -EADDRINUSE. Returns 0 with *ret_fd set, or a negative errno.
 */
int proto_listen(const char *path, int *ret_fd);

/*
 * Connects to the stream Unix socket at path (close-on-exec, blocking).
 * Returns 0 with *ret_fd set, -ENOENT / -ECONNREFUSED when nobody listens,
 * or another negative errno.
 */
int proto_connect(const char *path, int *ret_fd);

#endif /* LTT_PROTO_H */
