/*
 * context-internal.h - the context fields libltt-ust records with every
 * event of a channel that has them (`ltt add-context`): vpid, vtid, pid,
 * tid, procname, ip, pthread_id, cpu_id, the namespace ids, vuid and its
 * family, perf:thread:* counters (proto/context-types.h).
 *
 * Record layout of such a channel (what the session daemon's metadata
 * says, src/sessiond/context.c):
 *
 *   event header | pad to 8 | context fields | pad to the payload's | payload
 *
 * The context struct is declared aligned to PROTO_CTX_STRUCT_ALIGN (8
 * bytes), its fields naturally aligned from its start, so that for payload
 * alignments up to 8 the payload is at a fixed distance from the context's
 * start: the tracer reserves that whole part as one block aligned to 8
 * (tracer.c). A payload that must be aligned more could not be placed so:
 * such a record would be counted as discarded (none can be described today:
 * the session daemon's types align on 8 bytes at most).
 *
 * Values that do not change during a thread's life (tid, vtid) or rarely
 * (procname, the namespaces, the ids) are cached per thread; the cache of
 * the rarely-changing ones is refreshed after each state the session
 * daemon pushes (ust_context_refresh(): e.g. a thread renamed before `ltt
 * start` shows its new name) and after fork. Per event are only read: the
 * CPU (given), pthread_self(), the call site, and the perf counters.
 *
 * perf counters are opened per thread (perf_event_open on the thread, at
 * its first event that needs them) and read: from their mmap'ed control
 * page without a system call for the counters the kernel updates there
 * exactly (those that change only when the thread is scheduled:
 * context-switches, cpu-migrations), else with read(2). The kernel events
 * are counted too when the kernel allows it (perf_event_paranoid, or
 * CAP_PERFMON), else user space only (exclude_kernel). They are closed at
 * the thread's exit (a pthread key destructor) and, in a forked child, at
 * fork.
 */
#ifndef LTT_UST_CONTEXT_INTERNAL_H
#define LTT_UST_CONTEXT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

struct ust_context;

/*
 * ust_context_create - compiles a channel's context fields (types: indexes
 * of proto/context-types.h, in record order; user-space ones only).
 * Context: the listener thread. Returns 0 and *ret (never freed: slots
 * keep it while probes may use it, tracer.c inv. 6), -EINVAL (a type the
 * tracer does not compute, too many), -ENOMEM.
 */
int ust_context_create(const uint64_t *types, size_t n, struct ust_context **ret);

/* The bytes of the fields (from the struct's start, no trailing padding). */
size_t ust_context_size(const struct ust_context *c);

/*
 * ust_context_write - writes the fields at dst, which is at a packet
 * offset multiple of PROTO_CTX_STRUCT_ALIGN. cpu: the CPU buffer the
 * record is in; ip: the call site. Context: probe (any thread, signal
 * handlers); no lock, no allocation; system calls only to fill the
 * thread's cache and, per event, to read the perf counters that need it.
 */
void ust_context_write(const struct ust_context *c, char *dst, unsigned cpu, const void *ip);

/* The calling thread's values, as the context fields record them (filters). */
int32_t ust_context_vpid(void);
int32_t ust_context_vtid(void);
const char *ust_context_procname(void);

/*
 * ust_context_refresh - a new state was applied: threads re-read their
 * procname, namespaces and ids at their next event. Context: listener.
 */
void ust_context_refresh(void);

/* In a forked child (its only thread): forgets the parent's values and counters. */
void ust_context_after_fork(void);

#endif /* LTT_UST_CONTEXT_INTERNAL_H */
