/*
 * consumer-protocol.h - the messages from ltt-sessiond to its ltt-consumerd.
 *
 * The session daemon starts the consumer with one end of a socketpair as its
 * standard input (fd 0); each request gets one CONS_REPLY with the request's
 * seq and CONS_A_STATUS (0 or a negative errno), plus CONS_A_DETAIL on error.
 *
 *   request          attributes                                       fds
 *   ADD_CHANNEL      KEY DIR CHANNEL STREAM_ID UUID SWITCH_TIMER      shm, wakeup eventfd
 *                    READ_TIMER [SNAPSHOT: kept in the buffers, written
 *                    only by SNAPSHOT] [TRACEFILE_SIZE [TRACEFILE_COUNT]]
 *   METADATA         DIR UUID TEXT (the whole metadata so far)
 *   FLUSH            KEY: close the open sub-buffers (an empty one too),
 *                    write all; the reply comes when what was committed is
 *                    on disk. The session stopped: the switch timer stops
 *                    (no more empty packets) until START
 *   START            KEY: the session starts again: the switch timer runs
 *   DEL_CHANNEL      KEY: close the non-empty open sub-buffers, write all,
 *                    then close the stream files
 *   STATS            KEY                                            reply: PACKETS BYTES
 *   SNAPSHOT         KEY DIR [MAX_PACKETS]: what the buffers hold now (the
 *                    newest MAX_PACKETS sub-buffers of each CPU buffer), as
 *                    stream files in DIR  reply: PACKETS OVERWRITTEN INCOMPLETE
 *   ROTATE           KEY UUID [DIR]: what was recorded so far is written to
 *                    the current files, what follows to new files in DIR
 *                    (none without DIR) of the trace UUID
 *   CLEAR            KEY: what the buffers hold is dropped and the stream
 *                    files emptied; recording goes on
 *
 * Kernel channels (a tracefs instance the session daemon made; the consumer
 * reads it, converts its records to CTF in DIR and never changes tracefs):
 *   ADD_KERNEL_CHANNEL  KEY DIR (OUTPUT/kernel) CHANNEL INSTANCE (its name)
 *                    PACKET_SIZE SWITCH_TIMER READ_TIMER TRACE_NAME CLOCK
 *                    CONTEXT* (in order): maps the instance's per-CPU
 *                    buffers, creates the trace
 *   KERNEL_START     KEY [FUNCTION_NAME: the CTF name of the function
 *                    tracer's records]: declares the events enabled now,
 *                    writes the state dump (the daemon turns tracing on after
 *                    the reply)
 *   KERNEL_FILTERS   KEY FILTER_DESC*: the filters evaluated on converted
 *                    records, replacing the previous ones
 *   KERNEL_CLOCK     KEY CLOCK: the session's clock resampled (regenerate
 *                    metadata): the trace's metadata rewritten with it
 *   ROTATE           KEY [DIR]: as above; the kernel trace so far is closed,
 *                    the next made in DIR (none without)
 *   CLEAR            as above: the kernel trace made again, empty
 *   FLUSH            as above; for a kernel channel (tracing off), drains the
 *                    buffers to the end; the reply comes when it is on disk
 *   DEL_CHANNEL      as above; then unmaps the instance, whose removal is the
 *                    daemon's (or, if the daemon dies, the consumer's as it exits)
 *   STATS            reply adds, for a kernel channel: EVENTS LOST FILTERED
 *
 *   CLOCK        nest: NAME FREQ OFFSET_S OFFSET UUID (ctf/ctf-clock.h)
 *   FILTER_DESC  nest: EVENT ("system:name", tracefs) BYTECODE+ (OR'ed)
 */
#ifndef LTT_CONSUMER_PROTOCOL_H
#define LTT_CONSUMER_PROTOCOL_H

#include "proto.h"

enum cons_msg_type {
	CONS_REPLY = 1,
	CONS_ADD_CHANNEL,
	CONS_METADATA,
	CONS_FLUSH,
	CONS_DEL_CHANNEL,
	CONS_STATS,
	CONS_SNAPSHOT,
	CONS_ROTATE,
	CONS_CLEAR,
	CONS_START,
	CONS_ADD_KERNEL_CHANNEL,
	CONS_KERNEL_START,
	CONS_KERNEL_FILTERS,
	CONS_KERNEL_CLOCK,
	CONS_MSG_TYPE_END,
};

enum cons_attr_id {
	CONS_A_STATUS = 1,	/* i64 */
	CONS_A_DETAIL,		/* str */
	CONS_A_KEY,		/* u64: the channel, unique in the consumer */
	CONS_A_DIR,		/* str: the stream directory (absolute) */
	CONS_A_CHANNEL,		/* str: the channel name (file prefix) */
	CONS_A_STREAM_ID,	/* u64: CTF stream class id */
	CONS_A_UUID,		/* bytes[16]: the trace's uuid */
	CONS_A_SWITCH_TIMER,	/* u64 µs, 0: none */
	CONS_A_READ_TIMER,	/* u64 µs, 0: default */
	CONS_A_TEXT,		/* bytes: metadata */
	CONS_A_PACKETS,		/* u64 */
	CONS_A_BYTES,		/* u64 */
	CONS_A_SNAPSHOT,	/* u64 0/1 */
	CONS_A_OVERWRITTEN,	/* u64: sub-buffers overwritten while copied */
	CONS_A_INCOMPLETE,	/* u64: sub-buffers still being written */
	CONS_A_TRACEFILE_SIZE,	/* u64: bytes per stream file, 0: no limit */
	CONS_A_TRACEFILE_COUNT,	/* u64: stream files kept, 0: all */
	CONS_A_MAX_PACKETS,	/* u64: per CPU buffer, 0: all */
	CONS_A_INSTANCE,	/* str: tracefs instance name (ltt-...) */
	CONS_A_PACKET_SIZE,	/* u64 bytes */
	CONS_A_TRACE_NAME,	/* str: the session's name */
	CONS_A_CLOCK,		/* nest */
	CONS_A_NAME,		/* str */
	CONS_A_FREQ,		/* u64 Hz */
	CONS_A_OFFSET_S,	/* i64 */
	CONS_A_OFFSET,		/* u64 cycles */
	CONS_A_FUNCTION_NAME,	/* str */
	CONS_A_FILTER_DESC,	/* nest */
	CONS_A_EVENT,		/* str: "system:name" */
	CONS_A_BYTECODE,	/* bytes: compiled filter */
	CONS_A_EVENTS,		/* u64 */
	CONS_A_LOST,		/* u64 */
	CONS_A_FILTERED,	/* u64 */
	CONS_A_CONTEXT,		/* u64: a kernel context after tid (enum kt_context) */
};

#endif /* LTT_CONSUMER_PROTOCOL_H */
