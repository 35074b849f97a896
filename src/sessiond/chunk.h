/*
 * chunk.h - where a session's trace goes over time, laid out as LTTng 2.13
 * lays it out: in the output itself until the first rotation; from then on
 * the current chunk is OUTPUT/BEGIN-INDEX, and each rotation archives it as
 * OUTPUT/archives/BEGIN-END-INDEX (BEGIN, END: YYYYMMDDTHHMMSS+ZZZZ), a
 * complete trace (metadata, streams, index) that babeltrace2 reads alone
 * or with the others. Rotations happen on request (ltt rotate), every T
 * while tracing, or when the current chunk holds S bytes (enable-rotation);
 * a clear empties the current chunk. See doc/design/chunks-and-session-files.md.
 *
 * Single-threaded: the daemon's loop. Functions return 0 or a negative
 * errno / -LTT_ERR_* with *detail naming what was wrong.
 */
#ifndef LTT_SESSIOND_CHUNK_H
#define LTT_SESSIOND_CHUNK_H

#include <stddef.h>

#include "consumer.h"
#include "registry.h"

/*
 * Archives the current chunk into archive (size bytes: its path) and, if
 * the session is tracing, goes on in a new one. Refused for snapshot
 * sessions and sessions without output (-LTT_ERR_ROTATION_UNAVAILABLE), a
 * session that never started (-LTT_ERR_NOT_STARTED), and a second rotation
 * after a stop (-LTT_ERR_ROTATED_AFTER_STOP).
 */
int chunk_rotate(struct reg_session *s, struct consumer *c, char *archive, size_t size,
		 const char **detail);

/*
 * The session starts: its first chunk begins, or, after a rotation while
 * it was stopped, the next one (its buffers move there). Call before the
 * buffers are created (ust_session_start()).
 */
int chunk_session_starting(struct reg_session *s, struct consumer *c, const char **detail);

/* The session stopped (its buffers were flushed). */
void chunk_session_stopped(struct reg_session *s);

/*
 * The session is destroyed (its buffers written out): the current chunk of
 * a session that was rotated is archived too, its path in archive (""
 * otherwise). 0 or -errno.
 */
int chunk_session_destroyed(struct reg_session *s, char *archive, size_t size);

/* Sets (timer_us, size non-zero) or unsets (timer, size true) automatic rotations. */
int chunk_schedule_set(struct reg_session *s, uint64_t timer_us, uint64_t size,
		       const char **detail);
int chunk_schedule_unset(struct reg_session *s, bool timer, bool size, const char **detail);

/* Drops what the session recorded: buffers and current chunk (archives stay). */
int chunk_clear(struct reg_session *s, struct consumer *c, const char **detail);

/* Milliseconds until chunk_tick() has work (-1: none scheduled). */
int chunk_timeout_ms(const struct registry *reg);

/*
 * Runs the automatic rotations that are due; a failure is reported through
 * report(session, error, detail) and the session keeps its chunk.
 */
void chunk_tick(struct registry *reg, struct consumer *c,
		void (*report)(const char *session, int error, const char *detail));

#endif /* LTT_SESSIOND_CHUNK_H */
