/* chunk.c - trace chunks, rotations and clear; see chunk.h. */
#include "chunk.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "kernel-session.h"
#include "ust-session.h"
#include "util/fs.h"

/* How often a size-based schedule looks at what the consumer wrote. */
#define SIZE_CHECK_MS 250

/* The domain directories of a chunk (what moves when the output itself is archived). */
static const char *const domain_dirs[] = { "ust", "kernel" };

static uint64_t monotonic_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* YYYYMMDDTHHMMSS+ZZZZ, as LTTng names chunks. */
static void chunk_time(time_t t, char *buf, size_t size)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, size, "%Y%m%dT%H%M%S%z", &tm);
}

/* OUTPUT/BEGIN-INDEX, the directory of a chunk after the first. */
static int chunk_path(const struct reg_session *s, time_t begin, unsigned index, char **ret)
{
	char stamp[32];

	chunk_time(begin, stamp, sizeof(stamp));
	return asprintf(ret, "%s/%s-%u", s->output, stamp, index) < 0 ? -ENOMEM : 0;
}

/*
 * Renames the current chunk to OUTPUT/archives/BEGIN-END-INDEX (the first
 * chunk, the output itself: its domain directories move there).
 */
static int archive(const struct reg_session *s, time_t end, char *path, size_t size,
		   const char **detail)
{
	char begin_s[32], end_s[32], from[PATH_MAX], to[PATH_MAX];
	int r;

	chunk_time(s->chunk.begin, begin_s, sizeof(begin_s));
	chunk_time(end, end_s, sizeof(end_s));
	if (snprintf(from, sizeof(from), "%s/archives", s->output) >= (int)sizeof(from) ||
	    snprintf(path, size, "%s/%s-%s-%u", from, begin_s, end_s, s->chunk.index) >= (int)size)
		return -ENAMETOOLONG;
	*detail = "cannot archive the trace chunk";
	if ((r = mkdir_p(from, 0750)) < 0)
		return r;
	if (s->chunk.rotated) {
		if (rename(s->chunk.dir, path) < 0)
			return -errno;
		*detail = NULL;
		return 0;
	}
	if (mkdir(path, 0750) < 0)
		return -errno;
	for (size_t i = 0; i < sizeof(domain_dirs) / sizeof(domain_dirs[0]); i++) {
		snprintf(from, sizeof(from), "%s/%s", s->output, domain_dirs[i]);
		if (snprintf(to, sizeof(to), "%s/%s", path, domain_dirs[i]) >= (int)sizeof(to))
			return -ENAMETOOLONG;
		if (rename(from, to) < 0 && errno != ENOENT)
			return -errno;
	}
	*detail = NULL;
	return 0;
}

/* What the consumer wrote for s so far (0 if it cannot tell). */
static uint64_t written(struct reg_session *s, struct consumer *c)
{
	const char *detail;
	uint64_t bytes = 0;

	if (s->rotation.size && ust_session_written(s, c, &bytes, &detail) < 0)
		bytes = 0;
	return bytes;
}

/* A new chunk begins at when in dir (owned; NULL: the output itself). */
static void begin(struct reg_session *s, struct consumer *c, char *dir, time_t when)
{
	if (dir) {
		free(s->chunk.dir);
		s->chunk.dir = dir;
	}
	s->chunk.begin = when;
	s->chunk.open = true;
	s->chunk.bytes_at_begin = written(s, c);
	s->chunk.next_timer_ns = monotonic_ns() + s->rotation.timer_us * 1000;
}

/* Both domains' traces: the current one ends, the next is in dir (NULL: none yet). */
static int rotate_domains(struct reg_session *s, struct consumer *c, const char *dir,
			  const char **detail)
{
	int r = ust_session_rotate(s, c, dir, detail);

	return r < 0 ? r : kernel_session_rotate(s, c, dir, detail);
}

int chunk_rotate(struct reg_session *s, struct consumer *c, char *path, size_t size,
		 const char **detail)
{
	time_t now = time(NULL);
	char *next = NULL;
	int r;

	if (s->snapshot || !s->output[0]) {
		*detail = s->snapshot ? "a snapshot session does not rotate: record snapshots"
				      : "the session has no output";
		return -LTT_ERR_ROTATION_UNAVAILABLE;
	}
	if (!s->chunk.started) {
		*detail = "it never started: there is nothing to rotate yet";
		return -LTT_ERR_NOT_STARTED;
	}
	if (!s->active && (s->chunk.rotated_since_stop || !s->chunk.open))
		return -LTT_ERR_ROTATED_AFTER_STOP;
	if (s->active && (r = chunk_path(s, now, s->chunk.index + 1, &next)) < 0)
		return r;
	if (next && mkdir_p(next, 0750) < 0) {
		*detail = "cannot create the next chunk's directory";
		free(next);
		return -LTT_ERR_NO_OUTPUT;
	}
	/* what was recorded so far stays in the current files; what follows goes to next */
	r = rotate_domains(s, c, next, detail);
	if (r == 0)
		r = archive(s, now, path, size, detail);
	if (r < 0) {
		free(next);
		return r;
	}
	s->chunk.index++;
	s->chunk.rotated = true;
	if (s->active) {
		begin(s, c, next, now);	/* the archive's end, to the second */
	} else {
		s->chunk.open = false;
		s->chunk.rotated_since_stop = true;
	}
	return 0;
}

int chunk_session_starting(struct reg_session *s, struct consumer *c, const char **detail)
{
	time_t now;
	char *next;
	int r;

	s->chunk.rotated_since_stop = false;
	if (!s->chunk.started || s->chunk.open) {
		s->chunk.started = true;
		begin(s, c, NULL, time(NULL));
		return 0;
	}
	/* rotated while stopped: the next chunk begins now */
	now = time(NULL);
	if ((r = chunk_path(s, now, s->chunk.index, &next)) < 0)
		return r;
	if (mkdir_p(next, 0750) < 0 || (r = rotate_domains(s, c, next, detail)) < 0) {
		free(next);
		return r < 0 ? r : -LTT_ERR_NO_OUTPUT;
	}
	begin(s, c, next, now);
	return 0;
}

void chunk_session_stopped(struct reg_session *s)
{
	s->chunk.rotated_since_stop = false;
}

int chunk_session_destroyed(struct reg_session *s, char *path, size_t size)
{
	const char *detail;

	path[0] = '\0';
	if (!s->chunk.rotated || !s->chunk.open)
		return 0;
	return archive(s, time(NULL), path, size, &detail);
}

int chunk_schedule_set(struct reg_session *s, uint64_t timer_us, uint64_t size,
		       const char **detail)
{
	if (s->snapshot || !s->output[0]) {
		*detail = s->snapshot ? "a snapshot session does not rotate"
				      : "the session has no output";
		return -LTT_ERR_ROTATION_UNAVAILABLE;
	}
	if (size && s->kernel) {
		*detail = "a size-based rotation counts what the consumer wrote of user-space "
			  "channels only, and this session has a kernel channel: rotate with --timer";
		return -LTT_ERR_ROTATION_UNAVAILABLE;
	}
	if (!timer_us && !size) {
		*detail = "give a period or a size";
		return -LTT_ERR_INVALID_ATTR;
	}
	if ((timer_us && s->rotation.timer_us) || (size && s->rotation.size)) {
		*detail = timer_us && s->rotation.timer_us ? "a periodic rotation is set already"
							   : "a size-based rotation is set already";
		return -LTT_ERR_ROTATION_SCHEDULE_SET;
	}
	if (timer_us) {
		s->rotation.timer_us = timer_us;
		s->chunk.next_timer_ns = monotonic_ns() + timer_us * 1000;
	}
	if (size)
		s->rotation.size = size;
	return 0;
}

int chunk_schedule_unset(struct reg_session *s, bool timer, bool size, const char **detail)
{
	if (!timer && !size) {
		*detail = "say which: the period or the size";
		return -LTT_ERR_INVALID_ATTR;
	}
	if ((timer && !s->rotation.timer_us) || (size && !s->rotation.size)) {
		*detail = timer && !s->rotation.timer_us ? "no periodic rotation is set"
							 : "no size-based rotation is set";
		return -LTT_ERR_ROTATION_SCHEDULE_NOT_SET;
	}
	if (timer)
		s->rotation.timer_us = 0;
	if (size)
		s->rotation.size = 0;
	return 0;
}

int chunk_clear(struct reg_session *s, struct consumer *c, const char **detail)
{
	int r;

	if (!s->chunk.started || !c)
		return 0;	/* nothing recorded yet */
	r = ust_session_clear(s, c, detail);
	if (r == 0)
		r = kernel_session_clear(s, c, detail);
	if (r == 0)
		s->chunk.bytes_at_begin = written(s, c);
	return r;
}

int chunk_timeout_ms(const struct registry *reg)
{
	uint64_t now = monotonic_ns();
	int timeout = -1;

	for (size_t i = 0; i < reg->n_sessions; i++) {
		const struct reg_session *s = reg->sessions[i];
		int ms = -1;

		if (!s->active)
			continue;
		if (s->rotation.timer_us)
			ms = s->chunk.next_timer_ns <= now
				     ? 0 : (int)((s->chunk.next_timer_ns - now + 999999) / 1000000);
		if (s->rotation.size && (ms < 0 || ms > SIZE_CHECK_MS))
			ms = SIZE_CHECK_MS;
		if (ms >= 0 && (timeout < 0 || ms < timeout))
			timeout = ms;
	}
	return timeout;
}

/* Whether an automatic rotation of s is due now. */
static bool due(struct reg_session *s, struct consumer *c)
{
	if (s->rotation.timer_us && monotonic_ns() >= s->chunk.next_timer_ns)
		return true;
	return s->rotation.size && written(s, c) - s->chunk.bytes_at_begin >= s->rotation.size;
}

void chunk_tick(struct registry *reg, struct consumer *c,
		void (*report)(const char *session, int error, const char *detail))
{
	char path[PATH_MAX];

	for (size_t i = 0; c && i < reg->n_sessions; i++) {
		struct reg_session *s = reg->sessions[i];
		const char *detail = NULL;
		int r;

		if (!s->active || !due(s, c))
			continue;
		r = chunk_rotate(s, c, path, sizeof(path), &detail);
		if (r < 0) {
			/* try again after a period, not in a loop */
			s->chunk.next_timer_ns = monotonic_ns() + s->rotation.timer_us * 1000;
			s->chunk.bytes_at_begin = written(s, c);
			report(s->name, r, detail);
		}
	}
}
