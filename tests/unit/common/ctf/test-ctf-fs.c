/* Tests of the packet builder and the trace directory writer. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctf/ctf.h"
#include "ltt-test.h"

static const uint8_t uuid[16] = { 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6 };

/*
 * Scratch space: made by the parent before any case is forked, removed by
 * the parent when the binary exits, whatever the cases did.
 */
static char scratch[] = "/tmp/ltt-test-ctf-XXXXXX";
static pid_t scratch_owner;

__attribute__((constructor)) static void scratch_make(void)
{
	scratch_owner = getpid();
	if (!mkdtemp(scratch))
		scratch[0] = '\0';
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

__attribute__((destructor)) static void scratch_remove(void)
{
	if (scratch[0] && getpid() == scratch_owner && access(scratch, F_OK) == 0)
		nftw(scratch, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static char *dir_for(const char *name)
{
	char *d;

	ASSERT_TRUE(scratch[0] != '\0');
	ASSERT_TRUE(asprintf(&d, "%s/%s", scratch, name) > 0);
	return d;
}

/* Names of the visible regular files under dir (recursively), sorted. */
static char names[64][64];
static size_t nnames;

static int collect(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	if (flag == FTW_F && path[ftw->base] != '.' && nnames < 64)
		snprintf(names[nnames++], sizeof(names[0]), "%s", path + ftw->base);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static const char *files_in(const char *dir)
{
	static char listing[4096];

	nnames = 0;
	listing[0] = '\0';
	nftw(dir, collect, 16, FTW_PHYS);
	qsort(names, nnames, sizeof(names[0]), cmp_name);
	for (size_t i = 0; i < nnames; i++) {
		strcat(listing, i ? " " : "");
		strcat(listing, names[i]);
	}
	return listing;
}

/* Every file under dir, hidden ones included. */
static size_t all_files_in(const char *dir);
static size_t nall;

static int count_all(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)st;
	(void)ftw;
	nall += flag == FTW_F;
	return 0;
}

static size_t all_files_in(const char *dir)
{
	nall = 0;
	nftw(dir, count_all, 16, FTW_PHYS);
	return nall;
}

static struct ctf_type *named(const char *n)
{
	struct ctf_type *t = NULL;

	ASSERT_OK(ctf_type_by_name(n, &t));
	return t;
}

struct fixture {
	struct ctf_trace *t;
	const struct ctf_event_class *u32_ev, *str_ev, *other;
};

static struct fixture fixture(void)
{
	struct ctf_clock_desc c = { .name = "monotonic", .freq = 1000000000 };
	struct ctf_error err = { { 0 } };
	struct ctf_event_class_desc d = { .name = "t:u32", .id = 1 };
	struct fixture f = { 0 };
	struct ctf_type *p;

	ASSERT_OK(ctf_trace_create(uuid, CTF_BO_LE, &f.t));
	ASSERT_OK(ctf_trace_add_clock(f.t, &c, &err));
	ASSERT_OK(ctf_trace_add_stream_class(f.t, 0, CTF_HEADER_COMPACT, "monotonic", NULL,
					     &err, NULL));
	ASSERT_OK(ctf_trace_add_stream_class(f.t, 1, CTF_HEADER_LARGE, "monotonic", NULL,
					     &err, NULL));
	ASSERT_OK(ctf_type_struct_create(0, &p));
	ASSERT_OK(ctf_type_struct_add(p, "v", named("uint32_t")));
	ASSERT_OK(ctf_trace_add_event_class(f.t, &d, p, &err, &f.u32_ev));
	ASSERT_OK(ctf_type_struct_create(0, &p));
	ASSERT_OK(ctf_type_struct_add(p, "s", named("string")));
	d = (struct ctf_event_class_desc){ .name = "t:str", .id = 2 };
	ASSERT_OK(ctf_trace_add_event_class(f.t, &d, p, &err, &f.str_ev));
	d = (struct ctf_event_class_desc){ .name = "t:other", .id = 1, .stream_id = 1 };
	ASSERT_OK(ctf_trace_add_event_class(f.t, &d, NULL, &err, &f.other));
	return f;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

TEST(packets_fill_then_report_enospc)
{
	struct fixture f = fixture();
	struct ctf_stream_writer *w;
	struct ctf_packet_info info;
	const uint8_t *data;
	int n = 0, r;

	/* 84 bytes of header + context, then 8 bytes per event (4 + u32). */
	ASSERT_OK(ctf_stream_writer_create(f.t, 0, 5, 2, 256, &w));
	ASSERT_FALSE(ctf_stream_writer_pending(w));
	ASSERT_EQ_INT(ctf_stream_writer_close_packet(w, 0, (const void **)&data, &info),
		      -ENODATA);
	while ((r = ctf_stream_writer_event(w, f.u32_ev, 1000 + n, NULL, 0,
					    &CTF_U64((uint64_t)n), 1)) == 0)
		n++;
	ASSERT_EQ_INT(r, -ENOSPC);
	ASSERT_EQ_INT(n, (256 - 84) / 8);
	ASSERT_OK(ctf_stream_writer_close_packet(w, 0, (const void **)&data, &info));
	ASSERT_EQ_U64(info.ts_begin, 1000);
	ASSERT_EQ_U64(info.ts_end, 1000 + n - 1);
	ASSERT_EQ_U64(info.content_size, (84 + 8 * (uint64_t)n) * 8);
	ASSERT_EQ_U64(info.packet_size, 256 * 8);
	ASSERT_EQ_U64(info.seq_num, 0);
	ASSERT_EQ_U64(info.stream_instance_id, 5);
	ASSERT_EQ_U64(le64(data + CTF_PACKET_OFF_CONTENT_SIZE), info.content_size);
	ASSERT_EQ_U64(le64(data + CTF_PACKET_OFF_TS_END), info.ts_end);
	ASSERT_EQ_INT(data[CTF_PACKET_OFF_CPU_ID], 2);
	/* First event: compact header, id 1, timestamp bits = 1000. */
	ASSERT_EQ_HEX(data[84] & 31, 1);
	for (size_t i = info.content_size / 8; i < 256; i++)
		ASSERT_EQ_INT(data[i], 0);	/* padding */
	/* The event that did not fit goes into the next packet. */
	ASSERT_OK(ctf_stream_writer_event(w, f.u32_ev, 1000 + n, NULL, 0,
					  &CTF_U64(7), 1));
	ASSERT_OK(ctf_stream_writer_close_packet(w, 5000, (const void **)&data, &info));
	ASSERT_EQ_U64(info.seq_num, 1);
	ASSERT_EQ_U64(info.ts_begin, 1000 + (uint64_t)n);
	ASSERT_EQ_U64(info.ts_end, 5000);
	ASSERT_EQ_U64(info.content_size, (84 + 8) * 8);
	/* Nothing may go before the previous packet's end. */
	ASSERT_EQ_INT(ctf_stream_writer_event(w, f.u32_ev, 4999, NULL, 0, &CTF_U64(7), 1),
		      -ERANGE);
	ctf_stream_writer_free(w);
	ctf_trace_free(f.t);
}

TEST(event_errors_leave_the_packet_unchanged)
{
	struct fixture f = fixture();
	struct ctf_stream_writer *w;
	struct ctf_packet_info info;
	const uint8_t *data;
	char big[300];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ASSERT_OK(ctf_stream_writer_create(f.t, 0, 0, 0, 256, &w));
	ASSERT_EQ_INT(ctf_stream_writer_event(w, f.str_ev, 10, NULL, 0, &CTF_STR(big), 1),
		      -EMSGSIZE);
	ASSERT_FALSE(ctf_stream_writer_pending(w));
	ASSERT_OK(ctf_stream_writer_event(w, f.u32_ev, 10, NULL, 0, &CTF_U64(1), 1));
	ASSERT_EQ_INT(ctf_stream_writer_event(w, f.u32_ev, 9, NULL, 0, &CTF_U64(1), 1),
		      -ERANGE);
	ASSERT_EQ_INT(ctf_stream_writer_event(w, f.u32_ev, 11, NULL, 0, &CTF_S64(-1), 1),
		      -ERANGE);
	ASSERT_EQ_INT(ctf_stream_writer_event(w, f.u32_ev, 11, NULL, 0, &CTF_STR("1"), 1),
		      -EINVAL);
	ASSERT_EQ_INT(ctf_stream_writer_event(w, f.other, 11, NULL, 0, NULL, 0), -EINVAL);
	ASSERT_EQ_INT(ctf_stream_writer_event(w, f.str_ev, 11, NULL, 0, &CTF_STR(big), 1),
		      -ENOSPC);
	ASSERT_OK(ctf_stream_writer_close_packet(w, 0, (const void **)&data, &info));
	ASSERT_EQ_U64(info.content_size, (84 + 8) * 8);
	ASSERT_EQ_U64(info.ts_end, 10);
	for (size_t i = 92; i < 256; i++)
		ASSERT_EQ_INT(data[i], 0);
	ASSERT_EQ_INT(ctf_stream_writer_create(f.t, 7, 0, 0, 256, &w), -EINVAL);
	ASSERT_EQ_INT(ctf_stream_writer_create(f.t, 0, 0, 0, 80, &w), -EINVAL);
	ctf_trace_free(f.t);
}

TEST(gap_uses_extended_header_then_compact_again)
{
	struct fixture f = fixture();
	struct ctf_stream_writer *w;
	struct ctf_packet_info info;
	const uint8_t *data;
	const uint64_t t0 = 100, t1 = 100 + (UINT64_C(1) << 27), t2 = t1 + 5;

	ASSERT_OK(ctf_stream_writer_create(f.t, 0, 0, 0, 512, &w));
	ASSERT_OK(ctf_stream_writer_event(w, f.u32_ev, t0, NULL, 0, &CTF_U64(1), 1));
	ASSERT_OK(ctf_stream_writer_event(w, f.u32_ev, t1, NULL, 0, &CTF_U64(2), 1));
	ASSERT_OK(ctf_stream_writer_event(w, f.u32_ev, t2, NULL, 0, &CTF_U64(3), 1));
	ASSERT_OK(ctf_stream_writer_close_packet(w, 0, (const void **)&data, &info));
	/* 84: compact (4) + u32 → 92; extended: id 31 at 92, u32 id at 96,
	 * u64 timestamp at 104, payload at 112 → 116; compact at 116 → 124. */
	ASSERT_EQ_HEX(data[92] & 31, 31);
	ASSERT_EQ_INT(data[96], 1);
	ASSERT_EQ_U64(le64(data + 104), t1);
	ASSERT_EQ_INT(data[112], 2);
	ASSERT_EQ_HEX(data[116] & 31, 1);
	ASSERT_EQ_U64(info.content_size, 124 * 8);
	ctf_stream_writer_free(w);
	ctf_trace_free(f.t);
}

TEST(discarded_only_makes_an_empty_packet)
{
	struct fixture f = fixture();
	struct ctf_stream_writer *w;
	struct ctf_packet_info info;
	const uint8_t *data;

	ASSERT_OK(ctf_stream_writer_create(f.t, 1, 0, 0, 256, &w));
	ASSERT_OK(ctf_stream_writer_event(w, f.other, 50, NULL, 0, NULL, 0));
	ASSERT_OK(ctf_stream_writer_close_packet(w, 0, (const void **)&data, &info));
	ASSERT_EQ_U64(info.events_discarded, 0);
	ctf_stream_writer_add_discarded(w, 3);
	ASSERT_TRUE(ctf_stream_writer_pending(w));
	ASSERT_OK(ctf_stream_writer_close_packet(w, 60, (const void **)&data, &info));
	ASSERT_EQ_U64(info.events_discarded, 3);
	ASSERT_EQ_U64(info.content_size, 84 * 8);
	ASSERT_EQ_U64(info.ts_begin, 60);
	ASSERT_EQ_U64(info.seq_num, 1);
	ASSERT_EQ_U64(le64(data + CTF_PACKET_OFF_DISCARDED), 3);
	ASSERT_FALSE(ctf_stream_writer_pending(w));
	/* Cumulative: later packets carry the running total. */
	ctf_stream_writer_add_discarded(w, 2);
	ASSERT_OK(ctf_stream_writer_event(w, f.other, 70, NULL, 0, NULL, 0));
	ASSERT_OK(ctf_stream_writer_close_packet(w, 0, (const void **)&data, &info));
	ASSERT_EQ_U64(info.events_discarded, 5);
	ctf_stream_writer_free(w);
	ctf_trace_free(f.t);
}

TEST(trace_directory_and_index)
{
	struct fixture f = fixture();
	struct ctf_fs_trace *ft;
	struct ctf_fs_stream *s0, *s1;
	char *dir = dir_for("trace"), path[512];
	uint8_t idx[16 + 3 * 72];
	int fd;

	ASSERT_OK(ctf_fs_trace_create(dir, f.t, CTF_METADATA_TEXT, &ft));
	ASSERT_OK(ctf_fs_stream_create(ft, "chan", 0, 0, 256, &s0));
	ASSERT_OK(ctf_fs_stream_create(ft, "chan", 1, 0, 256, &s1));
	ASSERT_EQ_INT(ctf_fs_stream_create(ft, "chan", 1, 0, 256, &s1), -EEXIST);
	ASSERT_EQ_INT(ctf_fs_stream_create(ft, "a/b", 2, 0, 256, &s1), -EINVAL);
	ASSERT_EQ_INT(ctf_fs_stream_create(ft, "x", 2, 9, 256, &s1), -EINVAL);
	/* 21 events fit a packet: 45 events make 3 packets. */
	for (int i = 0; i < 45; i++)
		ASSERT_OK(ctf_fs_stream_event(s0, f.u32_ev, 10 + (uint64_t)i, NULL, 0,
					      &CTF_U64((uint64_t)i), 1));
	ctf_fs_stream_add_discarded(s0, 4);
	ASSERT_EQ_STR(files_in(dir), "");	/* only hidden temporaries so far */
	ASSERT_OK(ctf_fs_trace_close(ft));
	ctf_fs_trace_free(ft);
	ASSERT_EQ_STR(files_in(dir), "chan_0 chan_0.idx chan_1 chan_1.idx metadata");
	ASSERT_EQ_INT(all_files_in(dir), 5);	/* no temporary left */

	snprintf(path, sizeof(path), "%s/index/chan_0.idx", dir);
	fd = open(path, O_RDONLY);
	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ_INT(read(fd, idx, sizeof(idx)), sizeof(idx));
	ASSERT_EQ_INT(read(fd, idx, 1), 0);
	close(fd);
	ASSERT_EQ_HEX((uint32_t)idx[0] << 24 | idx[1] << 16 | idx[2] << 8 | idx[3], 0xC1F1DCC1);
	ASSERT_EQ_INT(idx[7], 1);
	ASSERT_EQ_INT(idx[11], 1);
	ASSERT_EQ_INT(idx[15], 72);
	for (int p = 0; p < 3; p++) {
		const uint8_t *e = idx + 16 + 72 * p;

		ASSERT_EQ_U64(be64(e), 256 * (uint64_t)p);		/* offset */
		ASSERT_EQ_U64(be64(e + 8), 256 * 8);			/* packet size */
		ASSERT_EQ_U64(be64(e + 16), (84 + 8 * (p < 2 ? 21 : 3)) * 8);
		ASSERT_EQ_U64(be64(e + 24), 10 + 21 * (uint64_t)p);	/* ts begin */
		ASSERT_EQ_U64(be64(e + 32), p < 2 ? 30 + 21 * (uint64_t)p : 54);
		ASSERT_EQ_U64(be64(e + 40), p == 2 ? 4 : 0);		/* discarded */
		ASSERT_EQ_U64(be64(e + 48), 0);				/* stream id */
		ASSERT_EQ_U64(be64(e + 56), 0);				/* instance */
		ASSERT_EQ_U64(be64(e + 64), (uint64_t)p);		/* seq num */
	}
	{
		struct stat st;

		snprintf(path, sizeof(path), "%s/chan_0", dir);
		ASSERT_OK(stat(path, &st));
		ASSERT_EQ_INT(st.st_size, 3 * 256);
		snprintf(path, sizeof(path), "%s/chan_1", dir);	/* no packet */
		ASSERT_OK(stat(path, &st));
		ASSERT_EQ_INT(st.st_size, 0);
	}
	ctf_trace_free(f.t);
	free(dir);
}

TEST(abandoned_trace_leaves_no_file)
{
	struct fixture f = fixture();
	struct ctf_fs_trace *ft;
	struct ctf_fs_stream *s;
	struct ctf_error err = { { 0 } };
	struct ctf_event_class_desc d = { .name = "bad", .id = 9 };
	struct ctf_type *p;
	char *dir = dir_for("abandoned");

	ASSERT_OK(ctf_fs_trace_create(dir, f.t, CTF_METADATA_PACKETIZED, &ft));
	ASSERT_OK(ctf_fs_stream_create(ft, "chan", 0, 0, 256, &s));
	for (int i = 0; i < 30; i++)
		ASSERT_OK(ctf_fs_stream_event(s, f.u32_ev, 10 + (uint64_t)i, NULL, 0,
					      &CTF_U64(1), 1));
	/* A declaration error while tracing: the caller gives up. */
	ASSERT_OK(ctf_type_struct_create(0, &p));
	ASSERT_OK(ctf_type_struct_add(p, "enum", named("uint8_t")));
	ASSERT_EQ_INT(ctf_trace_add_event_class(f.t, &d, p, &err, NULL), -EINVAL);
	ASSERT_CONTAINS(err.msg, "'enum' is a TSDL keyword");
	ASSERT_EQ_INT(all_files_in(dir), 2);	/* the stream and index temporaries */
	ctf_fs_trace_free(ft);
	ASSERT_EQ_INT(all_files_in(dir), 0);
	ctf_trace_free(f.t);
	free(dir);
}

TEST(packetized_metadata_file)
{
	struct fixture f = fixture();
	struct ctf_fs_trace *ft;
	char *dir = dir_for("pk"), path[512];
	const char *text;
	size_t len;
	uint8_t *buf;
	struct stat st;
	int fd;

	ASSERT_OK(ctf_fs_trace_create(dir, f.t, CTF_METADATA_PACKETIZED, &ft));
	ASSERT_OK(ctf_fs_trace_close(ft));
	ctf_fs_trace_free(ft);
	ASSERT_OK(ctf_trace_metadata(f.t, &text, &len));
	snprintf(path, sizeof(path), "%s/metadata", dir);
	ASSERT_OK(stat(path, &st));
	ASSERT_EQ_INT(st.st_size, ctf_metadata_packetized_size(len, 4096));
	buf = malloc((size_t)st.st_size);
	fd = open(path, O_RDONLY);
	ASSERT_EQ_INT(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	ASSERT_EQ_HEX(buf[0] | buf[1] << 8 | buf[2] << 16 | (uint64_t)buf[3] << 24, 0x75D11D57);
	ASSERT_EQ_MEM(buf + 37, "/* CTF 1.8 */", 13);
	free(buf);
	ctf_trace_free(f.t);
	free(dir);
}

static off_t file_size(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 ? st.st_size : -1;
}

static bool metadata_has(const char *dir, const char *needle)
{
	char path[512], buf[16384];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return strstr(buf, needle) != NULL;
}

TEST(growing_trace_is_readable_while_written)
{
	struct fixture f = fixture();
	struct ctf_fs_trace *ft;
	struct ctf_fs_stream *s;
	struct ctf_error err = { { 0 } };
	struct ctf_event_class_desc d = { .name = "t:late", .id = 7 };
	const struct ctf_event_class *late;
	struct ctf_type *p;
	char *dir = dir_for("growing");

	ASSERT_OK(ctf_fs_trace_create(dir, f.t, CTF_METADATA_TEXT, &ft));
	ASSERT_OK(ctf_fs_trace_set_growing(ft));
	ASSERT_OK(ctf_fs_stream_create(ft, "chan", 0, 0, 16384, &s));
	ASSERT_EQ_INT(ctf_fs_trace_set_growing(ft), -EBUSY);
	/* final names from the start, no temporary */
	ASSERT_EQ_STR(files_in(dir), "chan_0 chan_0.idx");
	ASSERT_EQ_INT(all_files_in(dir), 2);
	for (int i = 0; i < 3; i++)
		ASSERT_OK(ctf_fs_stream_event(s, f.u32_ev, 10 + (uint64_t)i, NULL, 0,
					      &CTF_U64((uint64_t)i), 1));
	ASSERT_OK(ctf_fs_trace_sync(ft));
	/* the packet ends at its content rounded up to 4 KiB, not at 16 KiB */
	ASSERT_EQ_INT(file_size(dir, "chan_0"), 4096);
	ASSERT_EQ_INT(file_size(dir, "index/chan_0.idx"), 16 + 72);
	ASSERT_TRUE(metadata_has(dir, "t:u32"));
	/* an event class added while tracing is described before its first packet */
	ASSERT_OK(ctf_type_struct_create(0, &p));
	ASSERT_OK(ctf_type_struct_add(p, "x", named("uint8_t")));
	ASSERT_OK(ctf_trace_add_event_class(f.t, &d, p, &err, &late));
	ASSERT_OK(ctf_fs_stream_event(s, late, 20, NULL, 0, &CTF_U64(1), 1));
	ASSERT_FALSE(metadata_has(dir, "t:late"));
	ASSERT_OK(ctf_fs_stream_flush(s, 0));
	ASSERT_TRUE(metadata_has(dir, "t:late"));
	ASSERT_EQ_INT(file_size(dir, "chan_0"), 2 * 4096);
	/* freed without a close: the files stay */
	ctf_fs_trace_free(ft);
	ASSERT_EQ_STR(files_in(dir), "chan_0 chan_0.idx metadata");
	ASSERT_EQ_INT(all_files_in(dir), 3);
	ctf_trace_free(f.t);
	free(dir);
}

TEST(raw_events_encode_as_the_value_model_does)
{
	struct fixture f = fixture();
	struct ctf_stream_writer *a, *b;
	struct ctf_packet_info ia, ib;
	struct ctf_error err = { { 0 } };
	struct ctf_event_class_desc d = { .name = "t:packed", .id = 3 };
	struct ctf_int_params byte32 = { .size = 32, .align = 8 };
	const struct ctf_event_class *packed;
	const void *pa, *pb;
	struct ctf_type *p, *t;
	uint8_t *copy, bytes[16];

	ASSERT_OK(ctf_stream_writer_create(f.t, 0, 0, 0, 256, &a));
	ASSERT_OK(ctf_stream_writer_create(f.t, 0, 0, 0, 256, &b));
	/* { uint32 align 8, string }: the concatenation of their bytes */
	ASSERT_OK(ctf_type_struct_create(0, &p));
	ASSERT_OK(ctf_type_int_create(&byte32, &t));
	ASSERT_OK(ctf_type_struct_add(p, "v", t));
	ASSERT_OK(ctf_type_struct_add(p, "s", named("string")));
	ASSERT_OK(ctf_trace_add_event_class(f.t, &d, p, &err, &packed));
	ASSERT_TRUE(packed->byte_packed);
	ASSERT_FALSE(f.u32_ev->byte_packed);	/* uint32_t is 32-bit aligned */
	for (uint32_t i = 0; i < 5; i++) {
		/* the gap after 2 forces an extended header in both */
		uint64_t ts = 100 + i + (i > 2 ? 1u << 27 : 0);
		struct ctf_value v[] = { CTF_U64(i * 7), CTF_STR("hi") };
		uint32_t le = i * 7;

		memcpy(bytes, &le, 4);
		memcpy(bytes + 4, "hi", 3);
		ASSERT_OK(ctf_stream_writer_event(a, packed, ts, NULL, 0, v, 2));
		ASSERT_OK(ctf_stream_writer_event_raw(b, packed, ts, bytes, 7));
	}
	ASSERT_OK(ctf_stream_writer_close_packet(a, 0, &pa, &ia));
	copy = malloc(ia.packet_size / 8);
	memcpy(copy, pa, ia.packet_size / 8);
	ASSERT_OK(ctf_stream_writer_close_packet(b, 0, &pb, &ib));
	ASSERT_EQ_U64(ib.content_size, ia.content_size);
	ASSERT_EQ_MEM(pb, copy, ia.packet_size / 8);
	/* too big for a packet, not byte packed, timestamps back in time */
	ASSERT_EQ_INT(ctf_stream_writer_event_raw(b, packed, 1u << 29, copy, 300), -EMSGSIZE);
	ASSERT_EQ_INT(ctf_stream_writer_event_raw(b, f.u32_ev, 1u << 29, "abcd", 4), -EINVAL);
	ASSERT_OK(ctf_stream_writer_event_raw(b, packed, 1u << 29, bytes, 7));
	ASSERT_EQ_INT(ctf_stream_writer_event_raw(b, packed, 1, bytes, 7), -ERANGE);
	free(copy);
	ctf_stream_writer_free(a);
	ctf_stream_writer_free(b);
	ctf_trace_free(f.t);
}
