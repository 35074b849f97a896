/*
 * ctf-fs.h - writes a CTF trace directory as LTTng lays it out:
 *
 *   DIR/metadata                 TSDL, plain text or packetized
 *   DIR/CHANNEL_CPU              one file per stream: its packets, back to back
 *   DIR/index/CHANNEL_CPU.idx    LTTng's index (v1.1): one entry per packet
 *
 * Files are written under hidden temporary names (.NAME.tmp, which readers
 * skip) and renamed when the trace is closed: a trace abandoned on an error
 * (ctf_fs_trace_free without a successful close) leaves no file behind; the
 * directories it created stay. A consumer that must keep a readable trace
 * while it records sets the growing mode instead (ctf_fs_trace_set_growing).
 *
 * Context: a consumer thread; not thread-safe (one owner per trace).
 */
#ifndef LTT_CTF_FS_H
#define LTT_CTF_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctf/ctf-event.h"
#include "ctf/ctf-trace.h"

#define CTF_INDEX_MAGIC 0xC1F1DCC1u
#define CTF_INDEX_MAJOR 1
#define CTF_INDEX_MINOR 1
#define CTF_INDEX_HEADER_SIZE 16	/* magic, major, minor, entry length: u32 BE */
#define CTF_INDEX_ENTRY_SIZE 72		/* 9 x u64 BE */

enum ctf_metadata_form {
	CTF_METADATA_TEXT = 0,		/* plain text starting with CTF 1.8 comment */
	CTF_METADATA_PACKETIZED,	/* 4 KiB packets, header magic 0x75D11D57 */
};

struct ctf_fs_trace;
struct ctf_fs_stream;

/*
 * Starts a trace in directory dir (created with its parents, mode 0770 & ~umask)
 * for trace class t (borrowed: it must outlive the writer; event classes
 * may still be added while streams are written). Returns 0 and *ret
 * (ctf_fs_trace_free), or a negative errno of mkdir.
 */
int ctf_fs_trace_create(const char *dir, struct ctf_trace *t, enum ctf_metadata_form form,
			struct ctf_fs_trace **ret);

/*
 * Opens stream file CHANNEL_CPU for stream class stream_class_id, with
 * packets of packet_size bytes; stream_instance_id = cpu. Returns 0 and
 * *ret (owned by the trace), -EINVAL (bad name, class or size), -EEXIST
 * (that file or that stream class and cpu already open), or an errno of
 * open().
 */
int ctf_fs_stream_create(struct ctf_fs_trace *ft, const char *channel, uint32_t cpu,
			 uint32_t stream_class_id, size_t packet_size,
			 struct ctf_fs_stream **ret);

/*
 * Appends an event (see ctf_stream_writer_event), closing the packet and
 * starting another when it does not fit. Returns 0, -EMSGSIZE (larger than
 * a packet), -EINVAL/-ERANGE (values, timestamp order), or a write error.
 */
int ctf_fs_stream_event(struct ctf_fs_stream *s, const struct ctf_event_class *ec,
			uint64_t ts, const struct ctf_value *ctx, size_t nctx,
			const struct ctf_value *payload, size_t npayload);

/*
 * Growing mode, for a consumer (call before the first stream is created):
 * files get their final names at once and grow packet by packet, so that
 * what was written is readable at any time (a viewer, a crash: a readable
 * prefix); packets end after their content, rounded up to 4 KiB (as LTTng's
 * consumer writes sub-buffers); the metadata is rewritten (whole, through a
 * temporary name) before any packet whose events it did not describe yet,
 * and by ctf_fs_trace_sync(); a trace freed without a close keeps its files.
 * Returns 0 or -EBUSY (streams exist already).
 */
int ctf_fs_trace_set_growing(struct ctf_fs_trace *ft);

/*
 * Closes the open packet of every stream and brings the metadata up to
 * date: everything recorded so far is in the files (growing mode). Returns
 * 0 or the first error.
 */
int ctf_fs_trace_sync(struct ctf_fs_trace *ft);

/*
 * Growing mode: writes the metadata file again now, e.g. after a clock's
 * offset changed (ctf_trace_set_clock_offset), which the sync's check of
 * the metadata's length would miss. 0 (also when not growing: the close
 * writes it) or a negative errno.
 */
int ctf_fs_trace_rewrite_metadata(struct ctf_fs_trace *ft);

/* ctf_fs_stream_event with the bytes of a byte-packed event (ctf_stream_writer_event_raw). */
int ctf_fs_stream_event_raw(struct ctf_fs_stream *s, const struct ctf_event_class *ec,
			    uint64_t ts, const void *bytes, size_t len);

/* n more events were discarded: the next packet of this stream says so. */
void ctf_fs_stream_add_discarded(struct ctf_fs_stream *s, uint64_t n);

/*
 * Closes the open packet (if anything is pending) with timestamp_end =
 * ts_end (0: its last event's). Returns 0 or a negative errno.
 */
int ctf_fs_stream_flush(struct ctf_fs_stream *s, uint64_t ts_end);

/*
 * Flushes every stream, writes the metadata and the index files, and
 * renames everything to its final name. Returns 0 or the first error
 * (then nothing is renamed and ctf_fs_trace_free removes the files).
 */
int ctf_fs_trace_close(struct ctf_fs_trace *ft);

/* Frees the writer; if the trace was not closed, removes its files. */
void ctf_fs_trace_free(struct ctf_fs_trace *ft);

/* Writes an index entry (72 bytes, big-endian) for a packet at `offset`. */
void ctf_index_entry_write(void *dst, uint64_t offset, const struct ctf_packet_info *pi);
/* Writes the index file header (16 bytes, big-endian). */
void ctf_index_header_write(void *dst);

#endif /* LTT_CTF_FS_H */
