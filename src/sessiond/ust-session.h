/*
 * ust-session.h - the user-space buffers of a session, in sets: each set has,
 * for each of its channels, a ring-buffer channel in shared memory, the CTF
 * trace class that describes them, and their registration with the
 * consumer. The per-UID set (the daemon's own user's) holds the per-UID
 * channels, written to OUTPUT/ust/uid/UID/64-bit/, and is created at the
 * session's first start; each application gets a set of the per-PID
 * channels, written to OUTPUT/ust/pid/PROCNAME-PID-DATE/, when it registers
 * with a started session (or the session starts), released (its data kept)
 * when it exits. Every set is flushed at stop and released at destroy.
 */
#ifndef LTT_SESSIOND_UST_SESSION_H
#define LTT_SESSIOND_UST_SESSION_H

#include "consumer.h"
#include "ctf/ctf-types.h"
#include "registry.h"

struct ust_session;

/*
 * Creates the buffers of the session's user channels (if not done yet) and
 * hands them to the consumer, or has the consumer resume those of a
 * session that starts again. Returns 0 or a negative errno / -LTT_ERR_*,
 * with *detail saying what failed.
 */
int ust_session_start(struct reg_session *s, struct consumer *c, const char **detail);

/* Creates the per-PID set of application pid for session s, if it has per-PID channels. */
int ust_session_add_app(struct reg_session *s, struct consumer *c, pid_t pid,
			const char *procname, const char **detail);
/* Releases application pid's set (the consumer writes out what it holds). */
void ust_session_remove_app(struct reg_session *s, struct consumer *c, pid_t pid);

/*
 * Writes what every buffer set of a snapshot session holds now into dir
 * (dir/ust/uid/..., dir/ust/pid/...: metadata and streams), writers going
 * on: the newest max_packets sub-buffers of each stream (0: all).
 * 0 or a negative errno with *detail.
 */
int ust_session_snapshot(struct reg_session *s, struct consumer *c, const char *dir,
			 uint64_t max_packets, const char **detail);

/*
 * Bytes of stream files a snapshot of the newest `packets` sub-buffers per
 * stream writes at most (loss markers included), over every buffer set.
 */
uint64_t ust_session_snapshot_size(const struct reg_session *s, uint64_t packets);

/*
 * Moves every buffer set to the session's current chunk (s->chunk.dir; NULL
 * dir: to no files, until the next rotation): a new trace (uuid) whose
 * metadata is written there, and the consumer writes what follows there.
 * 0 or a negative errno with *detail.
 */
int ust_session_rotate(struct reg_session *s, struct consumer *c, const char *dir,
		       const char **detail);

/* Drops what the buffers hold and empties the stream files; recording goes on. */
int ust_session_clear(struct reg_session *s, struct consumer *c, const char **detail);

/* Resamples the clock offset and writes the metadata again (not for snapshot sessions). */
int ust_session_regenerate_metadata(struct reg_session *s, struct consumer *c,
				    const char **detail);

/* Bytes the consumer wrote for the session, ever (into *ret). 0 or -errno. */
int ust_session_written(struct reg_session *s, struct consumer *c, uint64_t *ret,
			const char **detail);

/* Closes the open sub-buffers; returns once the consumer wrote them. */
int ust_session_flush(struct reg_session *s, struct consumer *c, const char **detail);

/* Flushes, then releases the buffers and the consumer's streams. NULL c: local only. */
void ust_session_free(struct reg_session *s, struct consumer *c);

/* What an application needs of a channel of a started session. */
struct ust_channel_info {
	unsigned slot;			/* the application's channel number */
	uint64_t key;
	pid_t pid;			/* per-PID: the application it is for; 0: everyone's */
	int shm_fd, wakeup_fd;		/* owned by the session */
	const struct reg_channel *channel;	/* its rules */
};

size_t ust_session_channel_count(const struct reg_session *s);
void ust_session_channel(const struct reg_session *s, size_t i, struct ust_channel_info *ret);

/* The session (and the index of its channel) that owns slot; NULL if none. */
struct reg_session *ust_session_by_slot(const struct registry *reg, unsigned slot,
					size_t *ret_index);

/* An event an application records in a channel, as it described it. */
struct ust_event_desc {
	const char *name;		/* "provider:event" */
	int loglevel;
	const char *emf_uri;		/* or NULL */
	struct ctf_type *payload;	/* its fields (ust_event_id consumes it) */
	const void *sig;		/* the encoded fields: identity with name */
	size_t sig_len;
};

/*
 * The id of the event in channel index of s: known, or assigned now, its
 * class added to the metadata and the metadata sent to the consumer before
 * this returns (so that no record precedes its description). Consumes
 * ev->payload. Returns 0, or a negative errno with *detail.
 */
int ust_session_event_id(struct reg_session *s, size_t index, const struct ust_event_desc *ev,
			 struct consumer *c, uint32_t *ret_id, const char **detail);

#endif /* LTT_SESSIOND_UST_SESSION_H */
