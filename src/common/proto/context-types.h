/*
 * context-types.h - the context fields ltt can add to every event of a
 * channel (`ltt add-context -t TYPE`), named as LTTng 2.13 names them, and
 * what each records.
 *
 * This table is the vocabulary the protocols share: the control protocol
 * and the CLI name a type by its name; the application protocol carries its
 * index in the table (the session daemon and libltt-ust of one build agree
 * on it; entries are only appended). The session daemon describes each as
 * a CTF field of the stream's event context (field name with LTTng's
 * leading underscore in the metadata: "_vpid", "_perf_thread_task_clock");
 * the tracer computes and writes it (src/ust/context.c).
 *
 * Which domain records which type follows LTTng: user space has vpid,
 * vtid, procname, pthread_id, ip, the namespace ids, vuid and its family
 * and the perf:thread:* counters; ltt adds pid, tid (as seen in the
 * application's pid namespace) and cpu_id. The kernel domain's types are
 * listed for `--list` and for the kernel backend.
 */
#ifndef LTT_PROTO_CONTEXT_TYPES_H
#define LTT_PROTO_CONTEXT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the tracer computes for a type. */
enum proto_ctx_kind {
	PROTO_CTX_VPID = 1,
	PROTO_CTX_VTID,
	PROTO_CTX_PID,
	PROTO_CTX_TID,
	PROTO_CTX_PROCNAME,	/* the thread's name, char[17] text (as prctl(PR_GET_NAME)) */
	PROTO_CTX_IP,		/* the tracepoint's call site */
	PROTO_CTX_PTHREAD_ID,
	PROTO_CTX_CPU_ID,	/* the CPU of the buffer the event is in */
	PROTO_CTX_NS,		/* a namespace's inode number; arg: enum proto_ctx_ns */
	PROTO_CTX_ID,		/* vuid, veuid...: arg: enum proto_ctx_id */
	PROTO_CTX_PERF,		/* a perf counter (perf_type, perf_config) of the thread or CPU */
	PROTO_CTX_KERNEL,	/* computed by the kernel backend only */
};

enum proto_ctx_ns {
	PROTO_NS_CGROUP, PROTO_NS_IPC, PROTO_NS_MNT, PROTO_NS_NET, PROTO_NS_PID,
	PROTO_NS_TIME, PROTO_NS_USER, PROTO_NS_UTS, PROTO_NS_COUNT,
};

enum proto_ctx_id {
	PROTO_ID_VUID, PROTO_ID_VEUID, PROTO_ID_VSUID, PROTO_ID_VGID, PROTO_ID_VEGID,
	PROTO_ID_VSGID, PROTO_ID_COUNT,
};

/* Bits of proto_context_type.domains (enum ltt_domain: 1 user, 2 kernel). */
#define PROTO_CTX_USER (1u << 1)
#define PROTO_CTX_KERNEL_DOMAIN (1u << 2)

/* The fixed length of the procname text (LTTng's: 16 characters and NUL). */
#define PROTO_CTX_PROCNAME_LEN 17

/* At most this many context fields per channel. */
#define PROTO_CTX_MAX 64

/*
 * The alignment (bytes) declared for the stream's event context struct
 * (`struct { ... } align(64)` in bits): the record after the event header
 * starts there, so that the payload that follows the context is at a fixed
 * distance from it whatever the header's size, for payload alignments up
 * to this (see src/ust/context.c).
 */
#define PROTO_CTX_STRUCT_ALIGN 8

struct proto_context_type {
	const char *name;	/* as `add-context -t` takes it: "vpid", "perf:thread:task-clock" */
	const char *field;	/* the CTF field name, without the metadata's '_' */
	uint8_t domains;	/* PROTO_CTX_USER | PROTO_CTX_KERNEL_DOMAIN */
	uint8_t kind;		/* enum proto_ctx_kind */
	uint8_t arg;		/* enum proto_ctx_ns / proto_ctx_id */
	uint8_t bits;		/* integer size (0: the procname text) */
	bool is_signed;
	uint8_t base;		/* 10 or 16 */
	bool per_cpu;		/* perf:cpu:* (kernel) rather than perf:thread:* */
	uint32_t perf_type;	/* PERF_TYPE_HARDWARE, _SOFTWARE, _HW_CACHE */
	uint64_t perf_config;
};

/* The number of types; indexes 0 .. count-1. */
size_t proto_context_type_count(void);

/* Type i (< proto_context_type_count()), or NULL. */
const struct proto_context_type *proto_context_type(size_t i);

/* The index of the type named name, or -1. */
int proto_context_type_find(const char *name);

#endif /* LTT_PROTO_CONTEXT_TYPES_H */
