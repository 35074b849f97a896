/*
 * recorder-internal.h - the in-process recorder: a tracer channel backed by
 * one fixed buffer in this process, used by tests and for debugging until
 * the shared-memory ring buffer channels exist.
 *
 * It is a real backend of ltt_ust_event_reserve()/ltt_ust_event_commit():
 * lock-free (one compare-and-swap per record), safe in any thread and in
 * signal handlers, no allocation after creation. When full it counts
 * discarded records, exactly: recorded + discarded = reservations tried.
 *
 * Buffer layout: records one after the other from offset 0, each at an
 * 8-byte boundary:
 *     struct rec_hdr (32 bytes) | padding | payload (aligned as asked)
 * where the payload's offset in the buffer is a multiple of the probe's
 * alignment, so relative field alignment is absolute alignment, as in a
 * packet.
 */
#ifndef LTT_UST_RECORDER_INTERNAL_H
#define LTT_UST_RECORDER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/tracepoint.h>

#include "registry-internal.h"

struct ust_recorder;

/*
 * ust_recorder_create - a recorder of size bytes (at least 64).
 * Returns 0 and *ret_rec, to free with ust_recorder_free(); -EINVAL, -ENOMEM.
 */
int ust_recorder_create(size_t size, struct ust_recorder **ret_rec);

/*
 * Frees a recorder; NULL is a no-op. It must be detached and no probe may
 * still be writing into it.
 */
void ust_recorder_free(struct ust_recorder *rec);

/*
 * ust_tracer_attach_recorder - make rec the backend of tracer channel
 * channel (< UST_MAX_CHANNELS), replacing what was there.
 * Context: control thread. Returns 0 or -EINVAL.
 */
int ust_tracer_attach_recorder(unsigned channel, struct ust_recorder *rec);

/* Detach whatever backs channel: later events of it are not recorded. */
void ust_tracer_detach(unsigned channel);

struct rb_channel;

struct ust_context;

/*
 * ust_tracer_attach_rb - make the ring-buffer channel rb (mapped from the
 * session daemon's shared memory, never unmapped: see tracer.c inv. 6) the
 * backend of tracer channel `channel`; key is the daemon's name for it
 * (< 2^48). context: the fields each record carries after its header
 * (NULL: none; kept as long as the slot); blocking_us: how long a writer
 * may wait for room (0 never, -1 for ever; tracer.c inv. 8).
 * Returns 0, -EINVAL, -ENOMEM.
 */
int ust_tracer_attach_rb(unsigned channel, struct rb_channel *rb, uint64_t key,
			 const struct ust_context *context, int64_t blocking_us);

/* The key of the ring-buffer channel attached to `channel`, or 0. */
uint64_t ust_tracer_slot_key(unsigned channel);

/* The event ids of one event, per tracer channel: key << 16 | id. */
#define UST_EVENT_ID_MAX 0xfffeu
#define UST_EVENT_ID_NONE UINT64_C(0xffff)	/* key 0: matches no channel */
struct ust_event_ids {
	uint64_t slot[UST_MAX_CHANNELS];	/* atomic */
};

/*
 * ust_event_ids_set - the id the session daemon gave desc in the channel
 * named key attached to `channel`. Context: the listener thread only (one
 * writer). Returns 0, -EINVAL, -ENOMEM.
 */
int ust_event_ids_set(const struct ltt_event_desc *desc, unsigned channel, uint64_t key,
		      uint32_t id);
/* Whether desc has an id for the channel named key attached to `channel`. */
bool ust_event_has_id(const struct ltt_event_desc *desc, unsigned channel, uint64_t key);

/* One committed record, as returned by ust_recorder_next(). */
struct ust_record {
	const struct ltt_event_desc *desc;
	const unsigned char *payload;
	size_t len;			/* payload bytes */
	size_t align;			/* its alignment, as the probe asked */
	size_t offset;			/* payload's offset in the buffer */
};

/*
 * ust_recorder_next - the record at *cursor (0 first); advances *cursor.
 * Context: a reader, typically once producers are done.
 * Returns 0 and *ret; -ENOENT at the end; -EAGAIN if the record there is
 * reserved but not yet committed.
 */
int ust_recorder_next(struct ust_recorder *rec, size_t *cursor, struct ust_record *ret);

/* Records committed and discarded (buffer full) so far. */
void ust_recorder_counts(struct ust_recorder *rec, uint64_t *ret_recorded,
			 uint64_t *ret_discarded);

/* Empties the recorder. Context: no producer running. */
void ust_recorder_clear(struct ust_recorder *rec);

#endif /* LTT_UST_RECORDER_INTERNAL_H */
