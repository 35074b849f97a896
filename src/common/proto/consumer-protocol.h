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
};

#endif /* LTT_CONSUMER_PROTOCOL_H */
