/*
 * tracefile.h - the files one stream is written to, named as LTTng names
 * them: DIR/CHANNEL_CPU and DIR/index/CHANNEL_CPU.idx; with a size limit,
 * DIR/CHANNEL_CPU_K and DIR/index/CHANNEL_CPU_K.idx, K = 0, 1, 2... and,
 * with a count limit N as well, K cycling through 0..N-1: the oldest file
 * (and its index) is replaced by the next one, so that at most N files of
 * at most the size limit each hold the newest packets.
 *
 * A packet never spans two files: before writing one the writer asks for
 * room (tracefile_make_room()), which opens the next file when the packet
 * would not fit in the current one (the size limit is at least a packet,
 * the sub-buffer size: the session daemon checks it). Each index file
 * starts with its header, and its entries' offsets are in its own stream
 * file.
 *
 * The files can move to another directory (a rotation's next chunk) or be
 * emptied (a clear): both are operations on the files only, whatever
 * produced the packets (a ring buffer here, a kernel stream as well).
 *
 * Context: the consumer thread that owns the stream; not thread-safe.
 */
#ifndef LTT_CONSUMERD_TRACEFILE_H
#define LTT_CONSUMERD_TRACEFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

struct tracefile_limits {
	uint64_t size;		/* bytes per stream file; 0: one file without limit */
	uint32_t count;		/* files kept (needs size); 0: all */
};

struct tracefile {
	char dir[PATH_MAX];	/* "" while closed */
	char base[300];		/* CHANNEL_CPU */
	struct tracefile_limits limits;
	uint64_t opened;	/* files opened in dir so far: the current one is number opened - 1 */
	int fd, idx_fd;		/* -1 while closed */
	uint64_t size;		/* bytes in the current stream file */
	uint64_t entries;	/* entries in the current index file */
};

/*
 * Opens the first files of the stream CHANNEL_CPU in dir (created with
 * DIR/index if missing; existing files are truncated); dir NULL leaves the
 * stream closed. 0, -EINVAL (bad channel name), -ENAMETOOLONG, or an errno
 * of mkdir/open/write.
 */
int tracefile_open(struct tracefile *tf, const char *dir, const char *channel, unsigned cpu,
		   const struct tracefile_limits *limits);

bool tracefile_is_open(const struct tracefile *tf);

/*
 * Before writing a packet of `size` bytes: opens the next file if the
 * current one has packets and would grow past the size limit. 0 or -errno.
 */
int tracefile_make_room(struct tracefile *tf, uint64_t size);

/* Offset in the current index file where the next entry goes. */
uint64_t tracefile_index_end(const struct tracefile *tf);

/* A packet of size bytes and its index entry were written. */
void tracefile_written(struct tracefile *tf, uint64_t size);

/*
 * Truncates both files back to what tracefile_written() accounted: a write
 * that failed half way leaves nothing. 0 or -errno.
 */
int tracefile_undo(struct tracefile *tf);

/* Removes the last packet written (size bytes) and its index entry. 0 or -errno. */
int tracefile_drop_last(struct tracefile *tf, uint64_t size);

/*
 * Closes the files and opens new ones in dir (a rotation's next chunk;
 * numbering restarts at 0), or stays closed with dir NULL. The old files
 * stay as they are. 0 or an error of tracefile_open().
 */
int tracefile_move(struct tracefile *tf, const char *dir);

/*
 * Empties the stream: removes every file it wrote in its directory, then
 * opens its first files again, empty (a clear). A closed stream stays
 * closed. 0 or -errno.
 */
int tracefile_reset(struct tracefile *tf);

/* Closes the files (they stay); a closed stream is a no-op. */
void tracefile_close(struct tracefile *tf);

#endif /* LTT_CONSUMERD_TRACEFILE_H */
