/*
 * analysis.h - analyses of traces read with libltt-reader (`ltt analyze`).
 *
 * Each analysis consumes a reader to its end and fills a result, which the
 * caller prints with the matching *_print() (text or JSON, to a FILE it
 * gives: the report is the output, nothing is logged). Errors: negative
 * errno; a reader error is -EBADMSG with ltt_reader_errmsg() saying why.
 */
#ifndef LTT_ANALYSIS_H
#define LTT_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <ltt/reader.h>

/* --- events: counts and rates -------------------------------------------- */

struct an_count {
	char *key;		/* event name, or "stream class/stream id" */
	int64_t num;		/* CPU number for per-CPU counts */
	uint64_t count;
};

struct an_events {
	uint64_t total;
	int64_t first_ns, last_ns;	/* of timed events; first > last if none */
	struct an_count *names;		/* sorted by count, then name */
	size_t nnames;
	struct an_count *cpus;		/* sorted by CPU; num -1: no cpu_id */
	size_t ncpus;
	uint64_t *per_second;		/* events in [first + i s, first + i + 1 s) */
	size_t nseconds;
	struct an_count *discarded;	/* per stream, sorted by key; count UINT64_MAX unknown */
	size_t ndiscarded;
};

/* Reads r to its end. 0, -ENOMEM, or -EBADMSG. Free with an_events_free(). */
int an_events_run(struct ltt_reader *r, struct an_events *res);
void an_events_print(const struct an_events *res, bool json, FILE *out);
void an_events_free(struct an_events *res);

/* --- period: durations between pairs of events ---------------------------- */

struct an_period {
	uint64_t count;			/* pairs */
	uint64_t unmatched_begin, unmatched_end;
	uint64_t min, max, p50, p90, p99;	/* ns; 0 if no pair */
	double mean;
	uint64_t *durations;		/* every pair's, sorted (for exact percentiles) */
};

/*
 * Pairs each `end` event with a `begin` event: with key_field, the begin with
 * the same value of that field (an integer or a string, found with
 * ltt_event_field()); without, the most recent open begin (nesting).
 * 0, -ENOMEM, -EBADMSG. Free with an_period_free().
 */
int an_period_run(struct ltt_reader *r, const char *begin, const char *end,
		  const char *key_field, struct an_period *res);
void an_period_print(const struct an_period *res, const char *begin, const char *end,
		     const char *key_field, bool json, FILE *out);
void an_period_free(struct an_period *res);

/* --- kernel: syscalls and interrupts (LTTng's kernel event names) --------- */

struct an_latency {
	char *name;		/* syscall name ("openat"), or "irq 17 (eth0)", "softirq 3" */
	uint64_t count;
	uint64_t errors;	/* syscalls: exits with ret < 0 */
	uint64_t min, max;	/* ns */
	double mean;
	uint64_t total;
};

struct an_kernel {
	struct an_latency *rows;	/* sorted by total time, then name */
	size_t nrows;
	uint64_t unmatched;		/* exits without an entry */
};

/*
 * syscalls: pairs syscall_entry_NAME with syscall_exit_NAME (and the
 * compat_ ones) of the same thread (the event's `tid` context field, else
 * the CPU's current thread from sched_switch's next_tid, else the CPU);
 * exits with a negative `ret` count as errors.
 * irq: pairs irq_handler_entry/exit by CPU and `irq`, irq_softirq_entry/exit
 * by CPU and `vec`.
 * 0, -ENOMEM, -EBADMSG. Free with an_kernel_free().
 */
int an_syscalls_run(struct ltt_reader *r, struct an_kernel *res);
int an_irq_run(struct ltt_reader *r, struct an_kernel *res);
/*
 * sched-latency: per woken thread (its comm), the time from sched_wakeup
 * (or sched_waking's absence: sched_wakeup_new too) of `tid` to the
 * sched_switch whose next_tid is that thread.
 * process: per thread (next_comm, tid), the CPU time between its
 * sched_switch in (next_tid) and out (prev_tid) on a CPU; errors counts
 * its switches out.
 */
int an_sched_latency_run(struct ltt_reader *r, struct an_kernel *res);
int an_process_run(struct ltt_reader *r, struct an_kernel *res);
void an_kernel_print(const struct an_kernel *res, const char *what, bool json, FILE *out);
void an_kernel_free(struct an_kernel *res);

#endif /* LTT_ANALYSIS_H */
