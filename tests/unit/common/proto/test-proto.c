#include "ltt-test.h"
#include "proto/proto.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { A_NAME = 1, A_COUNT, A_DELTA, A_BLOB, A_CHANNEL };

static void build_sample(struct proto_builder *b)
{
	proto_builder_init(b, 7, 42);
	proto_put_str(b, A_NAME, "session-1");
	proto_put_u64(b, A_COUNT, UINT64_MAX);
	proto_put_i64(b, A_DELTA, INT64_MIN);
	proto_put_bytes(b, A_BLOB, "\x01\x02\x03", 3);
	for (int i = 0; i < 3; i++) {
		proto_nest_begin(b, A_CHANNEL);
		proto_put_u64(b, A_COUNT, (uint64_t)i);
		proto_nest_end(b);
	}
}

/* Parses what b built, as a receiver would. */
static void parse_built(const struct proto_builder *b, struct proto_attrs *attrs)
{
	size_t len;
	const uint8_t *data = proto_builder_data(b, &len);
	struct proto_header h;

	memcpy(&h, data, sizeof(h));
	ASSERT_OK(proto_header_check(&h));
	ASSERT_EQ_INT(h.payload_len, len - PROTO_HEADER_SIZE);
	ASSERT_OK(proto_attrs_parse(data + PROTO_HEADER_SIZE, h.payload_len, attrs));
}

TEST(round_trip_of_every_kind)
{
	struct proto_builder b;
	struct proto_attrs a, nest;
	struct proto_attr at;
	const char *s;
	const void *blob;
	size_t blob_len, cur = 0;
	uint64_t u;
	int64_t i;
	int channels = 0;

	build_sample(&b);
	ASSERT_OK(proto_builder_error(&b));
	parse_built(&b, &a);
	ASSERT_OK(proto_get_str(&a, A_NAME, &s));
	ASSERT_EQ_STR(s, "session-1");
	ASSERT_OK(proto_get_u64(&a, A_COUNT, &u));
	ASSERT_EQ_U64(u, UINT64_MAX);
	ASSERT_OK(proto_get_i64(&a, A_DELTA, &i));
	ASSERT_EQ_INT(i, INT64_MIN);
	ASSERT_OK(proto_get_bytes(&a, A_BLOB, &blob, &blob_len));
	ASSERT_EQ_INT(blob_len, 3);
	ASSERT_EQ_MEM(blob, "\x01\x02\x03", 3);
	while (proto_attrs_next(&a, &cur, &at)) {
		if (at.id != A_CHANNEL)
			continue;
		nest = (struct proto_attrs){ at.value, at.len };
		ASSERT_OK(proto_get_u64(&nest, A_COUNT, &u));
		ASSERT_EQ_U64(u, (uint64_t)channels);
		channels++;
	}
	ASSERT_EQ_INT(channels, 3);
	proto_builder_free(&b);
}

TEST(getters_report_absent_and_wrong_kind)
{
	struct proto_builder b;
	struct proto_attrs a;
	uint64_t u = 5;
	const char *s;

	build_sample(&b);
	parse_built(&b, &a);
	ASSERT_EQ_INT(proto_get_u64(&a, 99, &u), -ENOENT);
	ASSERT_EQ_INT(proto_get_str(&a, A_COUNT, &s), -EBADMSG);
	ASSERT_EQ_U64(u, 5);	/* untouched on error */
	proto_builder_free(&b);
}

TEST(builder_errors_are_sticky)
{
	struct proto_builder b;

	proto_builder_init(&b, 1, 0);
	proto_nest_end(&b);
	ASSERT_EQ_INT(proto_builder_error(&b), -EINVAL);
	proto_put_u64(&b, 1, 1);
	ASSERT_EQ_INT(proto_builder_error(&b), -EINVAL);
	proto_builder_free(&b);

	proto_builder_init(&b, 1, 0);
	proto_nest_begin(&b, 1);
	ASSERT_EQ_INT(proto_builder_error(&b), -EINVAL);	/* left open */
	proto_builder_free(&b);

	proto_builder_init(&b, 1, 0);
	for (int d = 0; d < PROTO_MAX_DEPTH + 1; d++)
		proto_nest_begin(&b, 1);
	ASSERT_EQ_INT(proto_builder_error(&b), -EINVAL);
	proto_builder_free(&b);
}

/* Appends one raw attribute to buf at *len. */
static void raw_attr(uint8_t *buf, size_t *len, uint16_t id, uint16_t kind, uint32_t alen,
		     const void *value, size_t vlen)
{
	memcpy(buf + *len, &id, 2);
	memcpy(buf + *len + 2, &kind, 2);
	memcpy(buf + *len + 4, &alen, 4);
	memcpy(buf + *len + 8, value, vlen);
	*len += 8 + ((vlen + 7) & ~7ul);
}

TEST(rejects_malformed_payloads)
{
	uint8_t buf[256] = { 0 };
	struct proto_attrs a;
	size_t len;
	uint64_t v = 1;

	len = 0;
	raw_attr(buf, &len, 1, PROTO_STR, 4, "ab\0c", 4);	/* inner NUL */
	ASSERT_EQ_INT(proto_attrs_parse(buf, len, &a), -EBADMSG);
	len = 0;
	raw_attr(buf, &len, 1, PROTO_STR, 3, "abc", 3);	/* no NUL */
	ASSERT_EQ_INT(proto_attrs_parse(buf, len, &a), -EBADMSG);
	len = 0;
	raw_attr(buf, &len, 1, PROTO_U64, 4, &v, 8);		/* wrong size */
	ASSERT_EQ_INT(proto_attrs_parse(buf, len, &a), -EBADMSG);
	len = 0;
	raw_attr(buf, &len, 1, 77, 8, &v, 8);			/* unknown kind */
	ASSERT_EQ_INT(proto_attrs_parse(buf, len, &a), -EBADMSG);
	len = 0;
	raw_attr(buf, &len, 1, PROTO_BYTES, 0xfffffff0u, &v, 8);	/* past the end */
	ASSERT_EQ_INT(proto_attrs_parse(buf, len, &a), -EBADMSG);
	len = 0;
	raw_attr(buf, &len, 1, PROTO_U64, 8, &v, 8);
	ASSERT_EQ_INT(proto_attrs_parse(buf, len - 1, &a), -EBADMSG);	/* truncated */
	ASSERT_OK(proto_attrs_parse(buf, len, &a));
}

TEST(rejects_nesting_too_deep)
{
	uint8_t buf[512] = { 0 };
	size_t len = 0;
	struct proto_attrs a;
	uint16_t id = 1, kind = PROTO_NEST;

	/* PROTO_MAX_DEPTH + 1 nested empty lists, each header's len the rest */
	for (int d = 0; d <= PROTO_MAX_DEPTH; d++) {
		uint32_t l = (uint32_t)(8 * (PROTO_MAX_DEPTH - d));

		memcpy(buf + len, &id, 2);
		memcpy(buf + len + 2, &kind, 2);
		memcpy(buf + len + 4, &l, 4);
		len += 8;
	}
	ASSERT_EQ_INT(proto_attrs_parse(buf, len, &a), -EBADMSG);
	ASSERT_OK(proto_attrs_parse(buf + 8, len - 8, &a));
}

TEST(header_check)
{
	struct proto_header h = { PROTO_MAGIC, PROTO_VERSION, 1, 0, 0 };

	ASSERT_OK(proto_header_check(&h));
	h.version = PROTO_VERSION + 1;
	ASSERT_EQ_INT(proto_header_check(&h), -EBADMSG);
	h.version = PROTO_VERSION;
	h.magic ^= 1;
	ASSERT_EQ_INT(proto_header_check(&h), -EBADMSG);
	h.magic ^= 1;
	h.payload_len = PROTO_MAX_PAYLOAD + 1;
	ASSERT_EQ_INT(proto_header_check(&h), -EMSGSIZE);
}

TEST(send_and_receive_with_descriptors)
{
	struct proto_builder b;
	struct proto_msg m;
	int sv[2], pipefd[2];
	const char *s;
	char c;

	ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	ASSERT_OK(pipe(pipefd));
	build_sample(&b);
	ASSERT_OK(proto_send(sv[0], &b, &pipefd[1], 1, 1000));
	ASSERT_OK(proto_recv(sv[1], &m, 1000));
	ASSERT_EQ_INT(m.hdr.type, 7);
	ASSERT_EQ_INT(m.hdr.seq, 42);
	ASSERT_EQ_INT(m.n_fds, 1);
	ASSERT_OK(proto_get_str(&m.attrs, A_NAME, &s));
	ASSERT_EQ_STR(s, "session-1");
	/* the descriptor received is the pipe's write end */
	ASSERT_EQ_INT(write(m.fds[0], "x", 1), 1);
	ASSERT_EQ_INT(read(pipefd[0], &c, 1), 1);
	ASSERT_EQ_INT(c, 'x');
	proto_msg_free(&m);
	proto_builder_free(&b);
	close(pipefd[0]);
	close(pipefd[1]);
	close(sv[0]);
	close(sv[1]);
}

TEST(large_message_through_a_small_socket_buffer)
{
	struct proto_builder b;
	struct proto_msg m;
	static char big[3 << 20];
	const void *p;
	size_t n;
	int sv[2], sz = 4096;
	pid_t pid;

	memset(big, 'q', sizeof(big));
	ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	ASSERT_OK(setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz)));
	ASSERT_OK(fcntl(sv[0], F_SETFL, O_NONBLOCK));
	pid = fork();
	ASSERT_GE_INT(pid, 0);
	if (pid == 0) {
		proto_builder_init(&b, 3, 1);
		proto_put_bytes(&b, A_BLOB, big, sizeof(big));
		_exit(proto_send(sv[0], &b, NULL, 0, 10000) == 0 ? 0 : 1);
	}
	ASSERT_OK(proto_recv(sv[1], &m, 10000));
	ASSERT_OK(proto_get_bytes(&m.attrs, A_BLOB, &p, &n));
	ASSERT_EQ_INT(n, sizeof(big));
	ASSERT_EQ_MEM(p, big, n);
	proto_msg_free(&m);
	int status;
	ASSERT_EQ_INT(waitpid(pid, &status, 0), pid);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(receive_errors)
{
	struct proto_msg m;
	struct proto_header h = { PROTO_MAGIC, PROTO_VERSION, 1, 64, 0 };
	int sv[2];

	ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	ASSERT_EQ_INT(proto_recv(sv[1], &m, 20), -ETIMEDOUT);
	/* header announcing 64 bytes, then the peer closes */
	ASSERT_EQ_INT(write(sv[0], &h, sizeof(h)), (long long)sizeof(h));
	close(sv[0]);
	ASSERT_EQ_INT(proto_recv(sv[1], &m, 1000), -EBADMSG);
	close(sv[1]);

	ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	close(sv[0]);
	ASSERT_EQ_INT(proto_recv(sv[1], &m, 1000), -ECONNRESET);
	close(sv[1]);

	ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	h.magic = 0xdeadbeef;
	ASSERT_EQ_INT(write(sv[0], &h, sizeof(h)), (long long)sizeof(h));
	ASSERT_EQ_INT(proto_recv(sv[1], &m, 1000), -EBADMSG);
	close(sv[0]);
	close(sv[1]);
}

TEST(peer_credentials)
{
	int sv[2];
	pid_t pid;
	uid_t uid;
	gid_t gid;

	ASSERT_OK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	ASSERT_OK(proto_peer_cred(sv[0], &pid, &uid, &gid));
	ASSERT_EQ_INT(pid, getpid());
	ASSERT_EQ_INT(uid, geteuid());
	ASSERT_EQ_INT(gid, getegid());
	close(sv[0]);
	close(sv[1]);
}

TEST(listen_replaces_a_stale_socket_and_refuses_a_live_one)
{
	char dir[] = "/tmp/ltt-test-proto-XXXXXX", path[128];
	int l1, l2, c;

	ASSERT_NOT_NULL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sock", dir);
	ASSERT_EQ_INT(proto_connect(path, &c), -ENOENT);
	ASSERT_OK(proto_listen(path, &l1));
	ASSERT_EQ_INT(proto_listen(path, &l2), -EADDRINUSE);
	ASSERT_OK(proto_connect(path, &c));
	close(c);
	close(l1);	/* the file stays: stale */
	ASSERT_EQ_INT(proto_connect(path, &c), -ECONNREFUSED);
	ASSERT_OK(proto_listen(path, &l2));
	close(l2);
	unlink(path);
	rmdir(dir);
}

TEST(runtime_dir_is_private)
{
	char dir[] = "/tmp/ltt-test-home-XXXXXX", sub[128], got[256];

	ASSERT_NOT_NULL(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/ltt", dir);
	setenv("LTT_HOME", sub, 1);
	ASSERT_OK(proto_runtime_dir(got, sizeof(got)));
	ASSERT_EQ_STR(got, sub);
	struct stat st;
	ASSERT_OK(stat(sub, &st));
	ASSERT_EQ_INT(st.st_mode & 0777, 0700);
	ASSERT_OK(chmod(sub, 0755));
	ASSERT_EQ_INT(proto_runtime_dir(got, sizeof(got)), -EPERM);
	ASSERT_EQ_INT(proto_runtime_dir(got, 4), -ENAMETOOLONG);
	rmdir(sub);
	rmdir(dir);
}
