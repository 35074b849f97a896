/*
 * test-kernel-page.c - the ring-buffer page decoder, the format-file
 * parser, the LTTng name mapping and the ELF symbol resolver, on
 * synthesized inputs (no tracefs, no root).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "kt-test.h"
#include "ltt-test.h"

#define PAGE 4096

struct page_builder {
	uint8_t page[PAGE];
	uint32_t pos;		/* bytes of records after the 16-byte header */
};

static void pb_init(struct page_builder *pb, uint64_t ts)
{
	memset(pb, 0, sizeof(*pb));
	memcpy(pb->page, &ts, 8);
}

static void pb_word(struct page_builder *pb, uint32_t w)
{
	memcpy(pb->page + 16 + pb->pos, &w, 4);
	pb->pos += 4;
}

static uint32_t hdr(uint32_t type_len, uint32_t delta)
{
	return type_len | delta << 5;
}

/* A data record of len bytes (a multiple of 4), bytes = id, then fill. */
static void pb_data(struct page_builder *pb, uint32_t delta, uint16_t id, uint32_t len,
		    uint8_t fill)
{
	uint8_t *p;

	if (len <= 112) {
		pb_word(pb, hdr(len / 4, delta));
	} else {
		pb_word(pb, hdr(0, delta));
		pb_word(pb, len + 4);
	}
	p = pb->page + 16 + pb->pos;
	memset(p, fill, len);
	memcpy(p, &id, 2);
	pb->pos += len;
}

static void pb_commit(struct page_builder *pb, uint64_t flags)
{
	uint64_t c = pb->pos | flags;

	memcpy(pb->page + 8, &c, 8);
}

static const struct kt_page_layout L = KT_PAGE_LAYOUT_DEFAULT;

TEST(header_flags_and_stored_missed_count)
{
	struct page_builder pb;
	struct kt_page_header h;
	uint64_t missed = 4242;

	pb_init(&pb, 1000);
	pb_data(&pb, 5, 7, 8, 0);
	memcpy(pb.page + 16 + pb.pos, &missed, 8);	/* after the records */
	pb_commit(&pb, KT_RB_MISSED_EVENTS | KT_RB_MISSED_STORED);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
	ASSERT_EQ_U64(h.ts, 1000);
	ASSERT_EQ_U64(h.commit, 12);
	ASSERT_TRUE(h.missed);
	ASSERT_TRUE(h.missed_stored);
	ASSERT_EQ_U64(h.missed_count, 4242);

	pb_commit(&pb, KT_RB_MISSED_EVENTS);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
	ASSERT_TRUE(h.missed);
	ASSERT_FALSE(h.missed_stored);
}

TEST(commit_past_the_page_is_refused)
{
	struct page_builder pb;
	struct kt_page_header h;

	pb_init(&pb, 0);
	pb.pos = PAGE - 16 + 4;
	pb_commit(&pb, 0);
	ASSERT_EQ_INT(kt_page_header_decode(&L, pb.page, PAGE, &h), -EBADMSG);
	pb.pos = PAGE - 16;
	pb_commit(&pb, 0);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
}

TEST(deltas_accumulate_and_lengths_follow_type_len)
{
	struct page_builder pb;
	struct kt_page_header h;
	struct kt_page_iter it;
	struct kt_record rec;
	uint16_t id;

	pb_init(&pb, 1000000);
	pb_data(&pb, 10, 1, 8, 0xaa);
	pb_data(&pb, 0, 2, 12, 0xbb);
	pb_data(&pb, (1u << 27) - 1, 3, 112, 0xcc);	/* largest small record, largest delta */
	pb_commit(&pb, 0);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
	kt_page_iter_init(&it, &L, pb.page, &h);

	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_U64(rec.ts, 1000010);
	ASSERT_EQ_INT(rec.len, 8);
	memcpy(&id, rec.data, 2);
	ASSERT_EQ_INT(id, 1);
	ASSERT_EQ_INT(rec.data[7], 0xaa);

	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_U64(rec.ts, 1000010);
	ASSERT_EQ_INT(rec.len, 12);

	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_U64(rec.ts, 1000010 + (1u << 27) - 1);
	ASSERT_EQ_INT(rec.len, 112);
	ASSERT_EQ_INT(rec.data[111], 0xcc);

	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 0);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 0);
}

TEST(long_record_has_its_length_in_array0)
{
	struct page_builder pb;
	struct kt_page_header h;
	struct kt_page_iter it;
	struct kt_record rec;

	pb_init(&pb, 5);
	pb_data(&pb, 1, 9, 200, 0x11);
	pb_data(&pb, 1, 10, 4, 0x22);
	pb_commit(&pb, 0);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
	kt_page_iter_init(&it, &L, pb.page, &h);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_INT(rec.len, 200);
	ASSERT_EQ_PTR(rec.data, pb.page + 16 + 8);
	ASSERT_EQ_INT(rec.data[199], 0x11);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_INT(rec.data[0], 10);
	ASSERT_EQ_U64(rec.ts, 7);
}

TEST(time_extend_and_absolute_time_stamp)
{
	struct page_builder pb;
	struct kt_page_header h;
	struct kt_page_iter it;
	struct kt_record rec;
	uint64_t base = (UINT64_C(3) << 59) | 100;	/* top bits only the page knows */
	uint64_t abs = UINT64_C(0x123456789abc);	/* < 2^59 */

	pb_init(&pb, base);
	/* extend by 5 << 27 | 7 */
	pb_word(&pb, hdr(30, 7));
	pb_word(&pb, 5);
	pb_data(&pb, 3, 1, 4, 0);
	/* absolute time: low 27 bits in time_delta, the rest in array[0] */
	pb_word(&pb, hdr(31, (uint32_t)(abs & ((1u << 27) - 1))));
	pb_word(&pb, (uint32_t)(abs >> 27));
	pb_data(&pb, 0, 2, 4, 0);
	pb_commit(&pb, 0);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
	kt_page_iter_init(&it, &L, pb.page, &h);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_U64(rec.ts, base + ((UINT64_C(5) << 27) | 7) + 3);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_U64(rec.ts, (UINT64_C(3) << 59) | abs);
	ASSERT_EQ_U64(it.extended, 2);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 0);
}

TEST(padding_is_skipped_without_time_and_null_padding_ends_the_page)
{
	struct page_builder pb;
	struct kt_page_header h;
	struct kt_page_iter it;
	struct kt_record rec;

	pb_init(&pb, 0);
	pb_data(&pb, 10, 1, 8, 0);
	/* a discarded event of 12 data bytes: array[0] = 12 + 4 */
	pb_word(&pb, hdr(29, 50));
	pb_word(&pb, 16);
	pb.pos += 12;
	pb_data(&pb, 20, 2, 8, 0);
	/* null padding: the rest is unused, even if bytes follow */
	pb_word(&pb, hdr(29, 0));
	pb_data(&pb, 1, 3, 8, 0);
	pb_commit(&pb, 0);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
	kt_page_iter_init(&it, &L, pb.page, &h);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_U64(rec.ts, 10);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_INT(rec.data[0], 2);
	ASSERT_EQ_U64(rec.ts, 30);
	ASSERT_EQ_U64(it.padding, 1);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 0);
}

TEST(records_past_the_commit_are_malformed)
{
	struct page_builder pb;
	struct kt_page_header h;
	struct kt_page_iter it;
	struct kt_record rec;

	/* type_len 28 says 112 bytes; only 8 committed */
	pb_init(&pb, 0);
	pb_word(&pb, hdr(28, 1));
	pb.pos += 8;
	pb_commit(&pb, 0);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
	kt_page_iter_init(&it, &L, pb.page, &h);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), -EBADMSG);

	/* type_len 0 with a length beyond the commit */
	pb_init(&pb, 0);
	pb_word(&pb, hdr(0, 1));
	pb_word(&pb, 4000);
	pb.pos += 8;
	pb_commit(&pb, 0);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
	kt_page_iter_init(&it, &L, pb.page, &h);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), -EBADMSG);

	/* a time extend cut in half */
	pb_init(&pb, 0);
	pb_word(&pb, hdr(30, 1));
	pb_commit(&pb, 0);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
	kt_page_iter_init(&it, &L, pb.page, &h);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), -EBADMSG);
}

TEST(iteration_resumes_when_the_commit_grows)
{
	struct page_builder pb;
	struct kt_page_header h;
	struct kt_page_iter it;
	struct kt_record rec;

	pb_init(&pb, 100);
	pb_data(&pb, 1, 1, 8, 0);
	pb_commit(&pb, 0);
	ASSERT_OK(kt_page_header_decode(&L, pb.page, PAGE, &h));
	kt_page_iter_init(&it, &L, pb.page, &h);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 0);
	/* the writer adds a record on the reader page */
	pb_data(&pb, 2, 2, 8, 0);
	it.commit = pb.pos;
	ASSERT_EQ_INT(kt_page_iter_next(&it, &rec), 1);
	ASSERT_EQ_INT(rec.data[0], 2);
	ASSERT_EQ_U64(rec.ts, 103);
}

/* sched_switch's start, then a field of every kind */
static const char sched_switch_fmt[] = KT_TEST_SWITCH_HEAD
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:__data_loc char[] filename;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\tfield:const char * name;\toffset:48;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned long args[6];\toffset:56;\tsize:48;\tsigned:0;\n"
	"\tfield:__data_loc u32[] ids;\toffset:104;\tsize:4;\tsigned:0;\n"
	"\tfield:u8 mac[6];\toffset:108;\tsize:6;\tsigned:0;\n"
	"\n"
	"print fmt: \"prev_comm=%s\", REC->prev_comm\n";

TEST(format_file_fields)
{
	struct kt_event_format *f = NULL;
	const struct kt_field *x;

	ASSERT_OK(kt_event_format_parse(sched_switch_fmt, strlen(sched_switch_fmt), "sched", &f));
	ASSERT_EQ_STR(f->name, "sched_switch");
	ASSERT_EQ_STR(f->system, "sched");
	ASSERT_EQ_INT(f->id, 372);
	ASSERT_EQ_INT(f->nfields, 12);
	ASSERT_TRUE(f->fields[0].common);
	ASSERT_EQ_STR(f->fields[3].name, "common_pid");
	ASSERT_TRUE(f->fields[3].is_signed);

	x = &f->fields[kt_event_format_field(f, "prev_comm")];
	ASSERT_EQ_INT(x->kind, KT_FIELD_STRING);
	ASSERT_EQ_INT(x->offset, 8);
	ASSERT_EQ_INT(x->size, 16);
	ASSERT_FALSE(x->common);
	x = &f->fields[kt_event_format_field(f, "prev_pid")];
	ASSERT_EQ_INT(x->kind, KT_FIELD_INT);
	ASSERT_EQ_STR(x->type, "pid_t");
	x = &f->fields[kt_event_format_field(f, "prev_state")];
	ASSERT_EQ_INT(x->size, 8);
	ASSERT_TRUE(x->is_signed);
	x = &f->fields[kt_event_format_field(f, "filename")];
	ASSERT_EQ_INT(x->kind, KT_FIELD_DATA_LOC);
	ASSERT_TRUE(x->is_string);
	x = &f->fields[kt_event_format_field(f, "name")];
	ASSERT_EQ_INT(x->kind, KT_FIELD_POINTER);
	x = &f->fields[kt_event_format_field(f, "args")];
	ASSERT_EQ_INT(x->kind, KT_FIELD_ARRAY);
	ASSERT_EQ_INT(x->elem_size, 8);
	x = &f->fields[kt_event_format_field(f, "ids")];
	ASSERT_EQ_INT(x->kind, KT_FIELD_DATA_LOC);
	ASSERT_FALSE(x->is_string);
	ASSERT_EQ_INT(x->elem_size, 4);
	x = &f->fields[kt_event_format_field(f, "mac")];
	ASSERT_EQ_INT(x->kind, KT_FIELD_ARRAY);
	ASSERT_EQ_INT(x->elem_size, 1);
	ASSERT_EQ_INT(kt_event_format_field(f, "nope"), -ENOENT);
	kt_event_format_free(f);
}

TEST(malformed_format_files)
{
	static const char *const bad[] = {
		"ID: 1\nformat:\n",					/* no name */
		"name: x\nformat:\n",					/* no ID */
		"name: x\nID: 99999999\nformat:\n",			/* ID too large */
		"name: x\nID: 1\nformat:\n\tfield:int a;\toffset:0;\n",	/* no size */
		"name: x\nID: 1\nformat:\n\tfield:int a\toffset:0;\tsize:4;\n",
		"name: x\nID: 1\nformat:\n\tfield:int a;\toffset:65535;\tsize:4;\n",
		"name: x\nID: 1\nformat:\n\tfield:int ;\toffset:0;\tsize:4;\n",
		"name: x\nID: 1\nformat:\n\tfield:__data_loc char[] s;\toffset:0;\tsize:8;\n",
	};
	struct kt_event_format *f = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = kt_event_format_parse(bad[i], strlen(bad[i]), NULL, &f);

		if (r != -EBADMSG)
			fprintf(stderr, "case %zu\n", i);
		ASSERT_EQ_INT(r, -EBADMSG);
	}
	/* not NUL-terminated: the length bounds the parse */
	ASSERT_OK(kt_event_format_parse("name: y\nID: 3\nformat:\nXXXX", 21, NULL, &f));
	ASSERT_EQ_INT(f->id, 3);
	kt_event_format_free(f);
}

TEST(lttng_event_names)
{
	char buf[128];

	ASSERT_EQ_STR(kt_lttng_event_name("sched", "sched_switch", buf, sizeof(buf)),
		      "sched_switch");
	ASSERT_EQ_STR(kt_lttng_event_name("irq", "softirq_entry", buf, sizeof(buf)),
		      "irq_softirq_entry");
	ASSERT_EQ_STR(kt_lttng_event_name("irq", "irq_handler_entry", buf, sizeof(buf)),
		      "irq_handler_entry");
	ASSERT_EQ_STR(kt_lttng_event_name("syscalls", "sys_enter_openat", buf, sizeof(buf)),
		      "syscall_entry_openat");
	ASSERT_EQ_STR(kt_lttng_event_name("syscalls", "sys_exit_openat", buf, sizeof(buf)),
		      "syscall_exit_openat");
	ASSERT_EQ_STR(kt_lttng_event_name("kmem", "kmalloc", buf, sizeof(buf)), "kmem_kmalloc");
	ASSERT_EQ_STR(kt_lttng_event_name("timer", "hrtimer_start", buf, sizeof(buf)),
		      "timer_hrtimer_start");
	ASSERT_EQ_STR(kt_lttng_event_name("timer", "timer_start", buf, sizeof(buf)),
		      "timer_start");
	ASSERT_EQ_STR(kt_lttng_event_name("block", "block_rq_issue", buf, sizeof(buf)),
		      "block_rq_issue");
	ASSERT_EQ_STR(kt_lttng_event_name("ltt_123", "my_func", buf, sizeof(buf)), "my_func");
}

__attribute__((noinline, used)) int kt_test_probe_target(int x);
__attribute__((noinline, used)) int kt_test_probe_target(int x)
{
	__asm__ volatile("" ::: "memory");
	return x * 7 + 3;
}

TEST(elf_symbol_file_offset_points_at_the_code)
{
	uint8_t file_bytes[16];
	uint64_t off = 0;
	FILE *f;

	ASSERT_OK(kt_elf_symbol_offset("/proc/self/exe", "kt_test_probe_target", &off));
	ASSERT_GT_INT((long long)off, 0);
	f = fopen("/proc/self/exe", "rb");
	ASSERT_NOT_NULL(f);
	ASSERT_OK(fseek(f, (long)off, SEEK_SET));
	ASSERT_EQ_INT(fread(file_bytes, 1, sizeof(file_bytes), f), sizeof(file_bytes));
	fclose(f);
	/* the bytes at that file offset are the function's code as mapped */
	ASSERT_EQ_MEM(file_bytes, (const void *)kt_test_probe_target, sizeof(file_bytes));

	ASSERT_EQ_INT(kt_elf_symbol_offset("/proc/self/exe", "no_such_symbol_xyz", &off),
		      -ENOENT);
	ASSERT_EQ_INT(kt_elf_symbol_offset("/proc/self/status", "main", &off), -ENOEXEC);
	ASSERT_EQ_INT(kt_elf_symbol_offset("/nonexistent/file", "main", &off), -ENOENT);
}

/* Pages the kernel wrote (captured from trace_pipe_raw on 6.18 with sched_switch on). */
TEST(captured_kernel_pages_decode_cleanly)
{
	static const char *const files[] = { "captured-cpu0-sched", "captured-cpu1-sched" };
	unsigned total = 0;

	for (size_t k = 0; k < 2; k++) {
		char path[1024], *buf = malloc(65536);
		struct kt_event_format *fmt = NULL;
		struct kt_page_header h;
		struct kt_page_iter it;
		struct kt_record rec;
		uint64_t last = 0;
		size_t n, flen;
		FILE *f;
		int r, comm;

		ASSERT_NOT_NULL(buf);
		snprintf(path, sizeof(path), "%s/%s", KT_CORPUS_DIR, files[k]);
		f = fopen(path, "rb");
		ASSERT_NOT_NULL(f);
		n = fread(buf, 1, 65536, f);
		fclose(f);
		flen = (uint8_t)buf[0] | (size_t)(uint8_t)buf[1] << 8;
		ASSERT_EQ_INT(n, 2 + flen + 4096);
		ASSERT_OK(kt_event_format_parse(buf + 2, flen, "sched", &fmt));
		comm = kt_event_format_field(fmt, "prev_comm");
		ASSERT_GE_INT(comm, 0);
		ASSERT_OK(kt_page_header_decode(&L, buf + 2 + flen, 4096, &h));
		kt_page_iter_init(&it, &L, buf + 2 + flen, &h);
		while ((r = kt_page_iter_next(&it, &rec)) > 0) {
			uint16_t id;

			ASSERT_LE_U64(last, rec.ts);
			last = rec.ts;
			memcpy(&id, rec.data, 2);
			if (id != fmt->id)
				continue;
			ASSERT_GE_INT(rec.len, fmt->fields[comm].offset + 16);
			/* a NUL-terminated, printable command name */
			ASSERT_LT_INT(strnlen((const char *)rec.data + fmt->fields[comm].offset, 16), 16);
			for (const char *c = (const char *)rec.data + fmt->fields[comm].offset; *c; c++)
				ASSERT_TRUE(*c >= 0x20 && *c < 0x7f);
			total++;
		}
		ASSERT_EQ_INT(r, 0);
		ASSERT_EQ_U64(it.pos, h.commit);
		kt_event_format_free(fmt);
		free(buf);
	}
	ASSERT_GT_INT(total, 0);
}

/* ---- the converter, on a synthesized format and records (no tracefs) ---- */

static const char fork_fmt[] =
	"name: sched_process_exec\n"
	"ID: 365\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"filename=%s\", __get_str(filename)\n";

static size_t exec_record(uint8_t *buf, const char *file, int32_t pid)
{
	uint16_t id = 365;
	uint32_t loc = (uint32_t)(strlen(file) + 1) << 16 | 20;

	memset(buf, 0, 64);
	memcpy(buf, &id, 2);
	memcpy(buf + 4, &pid, 4);
	memcpy(buf + 8, &loc, 4);
	memcpy(buf + 12, &pid, 4);
	memcpy(buf + 16, &pid, 4);
	memcpy(buf + 20, file, strlen(file) + 1);
	return 20 + strlen(file) + 1;
}

TEST(converter_writes_lttng_names_and_checks_records)
{
	char dir[] = "/tmp/kt-conv-XXXXXX", path[256], *meta;
	struct kt_converter_config cfg = { 0 };
	struct kt_event_format *fmt = NULL;
	struct kt_converter *c = NULL;
	struct kt_converter_stats st;
	struct kt_record rec;
	uint8_t buf[64];
	FILE *f;
	long n;

	ASSERT_NOT_NULL(mkdtemp(dir));
	ASSERT_OK(kt_event_format_parse(fork_fmt, strlen(fork_fmt), "sched", &fmt));
	cfg.dir = dir;
	cfg.channel = "channel0";
	cfg.ncpus = 2;
	cfg.start_ts = 1000;
	cfg.nevents_hint = 1;
	ASSERT_OK(kt_converter_create(&cfg, &c, NULL));
	ASSERT_OK(kt_converter_declare(c, fmt, NULL, NULL));

	rec.data = buf;
	rec.len = (uint32_t)exec_record(buf, "/bin/true", 77);
	rec.ts = 2000;
	ASSERT_OK(kt_converter_record(c, 1, &rec, NULL));
	rec.ts = 1500;		/* earlier than the stream's last: raised, counted */
	ASSERT_OK(kt_converter_record(c, 1, &rec, NULL));
	rec.len = 14;		/* shorter than its format */
	ASSERT_EQ_INT(kt_converter_record(c, 1, &rec, NULL), -EBADMSG);
	rec.len = (uint32_t)exec_record(buf, "/bin/true", 77);
	buf[10] = 0xff;		/* __data_loc length past the record */
	buf[11] = 0x7f;
	ASSERT_EQ_INT(kt_converter_record(c, 1, &rec, NULL), -EBADMSG);
	ASSERT_EQ_INT(kt_converter_record(c, 5, &rec, NULL), -EINVAL);
	kt_converter_lost(c, 1, 3);
	kt_converter_stats(c, &st);
	ASSERT_EQ_U64(st.events, 2);
	ASSERT_EQ_U64(st.clamped, 1);
	ASSERT_EQ_U64(st.bad, 2);
	ASSERT_EQ_U64(st.discarded, 3);
	ASSERT_OK(kt_converter_close(c, NULL));
	kt_converter_free(c);
	kt_event_format_free(fmt);

	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "r");
	ASSERT_NOT_NULL(f);
	meta = calloc(1, 65536);
	ASSERT_NOT_NULL(meta);
	n = (long)fread(meta, 1, 65535, f);
	fclose(f);
	ASSERT_GT_INT(n, 0);
	ASSERT_TRUE(strncmp(meta, "/* CTF 1.8 */", 13) == 0);
	ASSERT_CONTAINS(meta, "domain = \"kernel\"");
	ASSERT_CONTAINS(meta, "tracer_name = \"lttng-modules\"");
	ASSERT_CONTAINS(meta, "name = \"sched_process_exec\"");
	ASSERT_CONTAINS(meta, "string _filename;");
	ASSERT_CONTAINS(meta, " _tid;");		/* pid -> tid */
	ASSERT_CONTAINS(meta, " _old_tid;");	/* old_pid -> old_tid */
	ASSERT_TRUE(strstr(meta, "_common_") == NULL);	/* header fields dropped */
	free(meta);
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/channel0_%d", dir, i);
		ASSERT_OK(access(path, F_OK));
		unlink(path);
		snprintf(path, sizeof(path), "%s/index/channel0_%d.idx", dir, i);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/index", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	unlink(path);
	ASSERT_OK(rmdir(dir));
}
