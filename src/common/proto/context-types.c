/* context-types.c - the table of context types; see context-types.h. */
#include "context-types.h"

#include <linux/perf_event.h>
#include <string.h>

#include "util/macros.h"

#define U PROTO_CTX_USER
#define K PROTO_CTX_KERNEL_DOMAIN

/* An integer field: name and field are the same. */
#define INT(_name, _domains, _kind, _arg, _bits, _signed, _base)                         \
	{ .name = _name, .field = _name, .domains = _domains, .kind = _kind, .arg = _arg,  \
	  .bits = _bits, .is_signed = _signed, .base = _base }

#define NS(_name, _arg) INT(_name, U | K, PROTO_CTX_NS, _arg, 64, false, 10)
#define VID(_name, _arg) INT(_name, U | K, PROTO_CTX_ID, _arg, 32, false, 10)
#define KID(_name) INT(_name, K, PROTO_CTX_KERNEL, 0, 32, false, 10)

/*
 * The perf counters as LTTng names them (perf's event names), each as a
 * per-thread and a per-CPU counter: X(name, field suffix, perf type, config).
 */
#define HW(_n, _f, _c) X(_n, _f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##_c)
#define SW(_n, _f, _c) X(_n, _f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##_c)
#define CACHE_CONFIG(_id, _op, _res)                                                     \
	((uint64_t)PERF_COUNT_HW_CACHE_##_id | (uint64_t)PERF_COUNT_HW_CACHE_OP_##_op << 8 | \
	 (uint64_t)PERF_COUNT_HW_CACHE_RESULT_##_res << 16)
#define CACHE1(_n, _f, _id, _op, _res) X(_n, _f, PERF_TYPE_HW_CACHE, CACHE_CONFIG(_id, _op, _res))
#define CACHE(_n, _f, _id)                                                              \
	CACHE1(_n "-loads", _f##_loads, _id, READ, ACCESS)                              \
	CACHE1(_n "-load-misses", _f##_load_misses, _id, READ, MISS)                    \
	CACHE1(_n "-stores", _f##_stores, _id, WRITE, ACCESS)                           \
	CACHE1(_n "-store-misses", _f##_store_misses, _id, WRITE, MISS)                 \
	CACHE1(_n "-prefetches", _f##_prefetches, _id, PREFETCH, ACCESS)                \
	CACHE1(_n "-prefetch-misses", _f##_prefetch_misses, _id, PREFETCH, MISS)

#define PERF_COUNTERS                                                                   \
	HW("cpu-cycles", cpu_cycles, CPU_CYCLES)                                         \
	HW("cycles", cycles, CPU_CYCLES)                                                 \
	HW("stalled-cycles-frontend", stalled_cycles_frontend, STALLED_CYCLES_FRONTEND)  \
	HW("idle-cycles-frontend", idle_cycles_frontend, STALLED_CYCLES_FRONTEND)        \
	HW("stalled-cycles-backend", stalled_cycles_backend, STALLED_CYCLES_BACKEND)     \
	HW("idle-cycles-backend", idle_cycles_backend, STALLED_CYCLES_BACKEND)           \
	HW("instructions", instructions, INSTRUCTIONS)                                   \
	HW("cache-references", cache_references, CACHE_REFERENCES)                       \
	HW("cache-misses", cache_misses, CACHE_MISSES)                                   \
	HW("branch-instructions", branch_instructions, BRANCH_INSTRUCTIONS)              \
	HW("branches", branches, BRANCH_INSTRUCTIONS)                                    \
	HW("branch-misses", branch_misses, BRANCH_MISSES)                                \
	HW("bus-cycles", bus_cycles, BUS_CYCLES)                                         \
	CACHE("L1-dcache", L1_dcache, L1D)                                               \
	CACHE("L1-icache", L1_icache, L1I)                                               \
	CACHE("LLC", LLC, LL)                                                            \
	CACHE("dTLB", dTLB, DTLB)                                                        \
	CACHE1("iTLB-loads", iTLB_loads, ITLB, READ, ACCESS)                             \
	CACHE1("iTLB-load-misses", iTLB_load_misses, ITLB, READ, MISS)                   \
	CACHE1("branch-loads", branch_loads, BPU, READ, ACCESS)                          \
	CACHE1("branch-load-misses", branch_load_misses, BPU, READ, MISS)                \
	SW("cpu-clock", cpu_clock, CPU_CLOCK)                                            \
	SW("task-clock", task_clock, TASK_CLOCK)                                         \
	SW("page-fault", page_fault, PAGE_FAULTS)                                        \
	SW("faults", faults, PAGE_FAULTS)                                                \
	SW("major-faults", major_faults, PAGE_FAULTS_MAJ)                                \
	SW("minor-faults", minor_faults, PAGE_FAULTS_MIN)                                \
	SW("context-switches", context_switches, CONTEXT_SWITCHES)                       \
	SW("cs", cs, CONTEXT_SWITCHES)                                                   \
	SW("cpu-migrations", cpu_migrations, CPU_MIGRATIONS)                             \
	SW("migrations", migrations, CPU_MIGRATIONS)                                     \
	SW("alignment-faults", alignment_faults, ALIGNMENT_FAULTS)                       \
	SW("emulation-faults", emulation_faults, EMULATION_FAULTS)

static const struct proto_context_type types[] = {
	INT("vpid", U | K, PROTO_CTX_VPID, 0, 32, true, 10),
	INT("vtid", U | K, PROTO_CTX_VTID, 0, 32, true, 10),
	INT("pid", U | K, PROTO_CTX_PID, 0, 32, true, 10),
	INT("tid", U | K, PROTO_CTX_TID, 0, 32, true, 10),
	{ .name = "procname", .field = "procname", .domains = U | K, .kind = PROTO_CTX_PROCNAME },
	INT("pthread_id", U, PROTO_CTX_PTHREAD_ID, 0, 64, false, 10),
	INT("ip", U | K, PROTO_CTX_IP, 0, 64, false, 16),
	INT("cpu_id", U | K, PROTO_CTX_CPU_ID, 0, 32, true, 10),
	NS("cgroup_ns", PROTO_NS_CGROUP),
	NS("ipc_ns", PROTO_NS_IPC),
	NS("mnt_ns", PROTO_NS_MNT),
	NS("net_ns", PROTO_NS_NET),
	NS("pid_ns", PROTO_NS_PID),
	NS("time_ns", PROTO_NS_TIME),
	NS("user_ns", PROTO_NS_USER),
	NS("uts_ns", PROTO_NS_UTS),
	VID("vuid", PROTO_ID_VUID),
	VID("veuid", PROTO_ID_VEUID),
	VID("vsuid", PROTO_ID_VSUID),
	VID("vgid", PROTO_ID_VGID),
	VID("vegid", PROTO_ID_VEGID),
	VID("vsgid", PROTO_ID_VSGID),
	/* the kernel domain's own */
	INT("prio", K, PROTO_CTX_KERNEL, 0, 32, true, 10),
	INT("nice", K, PROTO_CTX_KERNEL, 0, 32, true, 10),
	INT("ppid", K, PROTO_CTX_KERNEL, 0, 32, true, 10),
	INT("vppid", K, PROTO_CTX_KERNEL, 0, 32, true, 10),
	{ .name = "hostname", .field = "hostname", .domains = K, .kind = PROTO_CTX_KERNEL },
	INT("interruptible", K, PROTO_CTX_KERNEL, 0, 8, false, 10),
	INT("preemptible", K, PROTO_CTX_KERNEL, 0, 8, false, 10),
	INT("need_reschedule", K, PROTO_CTX_KERNEL, 0, 8, false, 10),
	INT("migratable", K, PROTO_CTX_KERNEL, 0, 8, false, 10),
	{ .name = "callstack-kernel", .field = "callstack_kernel", .domains = K,
	  .kind = PROTO_CTX_KERNEL },
	{ .name = "callstack-user", .field = "callstack_user", .domains = K,
	  .kind = PROTO_CTX_KERNEL },
	KID("uid"), KID("euid"), KID("suid"), KID("gid"), KID("egid"), KID("sgid"),
#define X(_n, _f, _type, _config)                                                        \
	{ .name = "perf:thread:" _n, .field = "perf_thread_" #_f, .domains = U | K,       \
	  .kind = PROTO_CTX_PERF, .bits = 64, .base = 10, .perf_type = _type,             \
	  .perf_config = _config },
	PERF_COUNTERS
#undef X
#define X(_n, _f, _type, _config)                                                        \
	{ .name = "perf:cpu:" _n, .field = "perf_cpu_" #_f, .domains = K,                 \
	  .kind = PROTO_CTX_PERF, .bits = 64, .base = 10, .per_cpu = true,                \
	  .perf_type = _type, .perf_config = _config },
	PERF_COUNTERS
#undef X
};

size_t proto_context_type_count(void)
{
	return ARRAY_SIZE(types);
}

const struct proto_context_type *proto_context_type(size_t i)
{
	return i < ARRAY_SIZE(types) ? &types[i] : NULL;
}

int proto_context_type_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (strcmp(types[i].name, name) == 0)
			return (int)i;
	return -1;
}
