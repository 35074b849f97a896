/*
 * kt-test.h - what the kernel backend's unit tests share: a sched_switch
 * format file as the kernel writes it, a record of it, and the removal of
 * a converter's trace directory.
 */
#ifndef LTT_KT_TEST_H
#define LTT_KT_TEST_H

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The start of sched_switch's format (id 372): the common fields, prev_comm, prev_pid. */
#define KT_TEST_SWITCH_HEAD                                                              \
	"name: sched_switch\n"                                                           \
	"ID: 372\n"                                                                      \
	"format:\n"                                                                      \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"            \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"            \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"    \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"                        \
	"\n"                                                                             \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"                   \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"

/* sched_switch's format as the kernel writes it. */
__attribute__((unused)) static const char kt_test_switch_fmt[] = KT_TEST_SWITCH_HEAD
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s\", REC->prev_comm\n";

/* A sched_switch record (64 bytes at buf, emitted by prev); returns its length. */
static inline size_t kt_test_switch(uint8_t *buf, int32_t prev, const char *prev_comm,
				    int32_t prev_prio, int32_t next, const char *next_comm,
				    int32_t next_prio)
{
	uint16_t id = 372;

	memset(buf, 0, 64);
	memcpy(buf, &id, 2);
	memcpy(buf + 4, &prev, 4);
	memcpy(buf + 8, prev_comm, strlen(prev_comm));
	memcpy(buf + 24, &prev, 4);
	memcpy(buf + 28, &prev_prio, 4);
	memcpy(buf + 40, next_comm, strlen(next_comm));
	memcpy(buf + 56, &next, 4);
	memcpy(buf + 60, &next_prio, 4);
	return 64;
}

static inline int kt_test_rm_one(const char *path, const struct stat *st, int flag,
				 struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Removes directory dir and everything under it. */
static inline void kt_test_rmtree(const char *dir)
{
	nftw(dir, kt_test_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif /* LTT_KT_TEST_H */
