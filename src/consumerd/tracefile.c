/* tracefile.c - the files of one stream; see tracefile.h. */
#include "tracefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctf/ctf.h"
#include "util/fs.h"

/* The number K of file n (the n-th opened in the directory), as named. */
static uint64_t file_number(const struct tracefile *tf, uint64_t n)
{
	return tf->limits.count ? n % tf->limits.count : n;
}

/* DIR/BASE[_K] or DIR/index/BASE[_K].idx of file n. */
static int file_path(const struct tracefile *tf, uint64_t n, bool index, char *buf, size_t size)
{
	char suffix[32] = "";
	int len;

	if (tf->limits.size)
		snprintf(suffix, sizeof(suffix), "_%llu",
			 (unsigned long long)file_number(tf, n));
	len = index ? snprintf(buf, size, "%s/index/%s%s.idx", tf->dir, tf->base, suffix)
		    : snprintf(buf, size, "%s/%s%s", tf->dir, tf->base, suffix);
	return len < 0 || (size_t)len >= size ? -ENAMETOOLONG : 0;
}

static void close_files(struct tracefile *tf)
{
	if (tf->fd >= 0)
		close(tf->fd);
	if (tf->idx_fd >= 0)
		close(tf->idx_fd);
	tf->fd = tf->idx_fd = -1;
}

/* Opens (truncating) file number tf->opened and its index, which gets its header. */
static int open_next(struct tracefile *tf)
{
	uint8_t header[CTF_INDEX_HEADER_SIZE];
	char path[PATH_MAX];
	int r;

	close_files(tf);
	if ((r = file_path(tf, tf->opened, false, path, sizeof(path))) < 0)
		return r;
	tf->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (tf->fd < 0)
		return -errno;
	if ((r = file_path(tf, tf->opened, true, path, sizeof(path))) < 0)
		goto err;
	tf->idx_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
	if (tf->idx_fd < 0) {
		r = -errno;
		goto err;
	}
	ctf_index_header_write(header);
	if ((r = write_all(tf->idx_fd, header, sizeof(header))) < 0)
		goto err;
	tf->opened++;
	tf->size = 0;
	tf->entries = 0;
	return 0;
err:
	close_files(tf);
	return r;
}

/* Creates dir and dir/index, then opens the first files. */
static int open_in(struct tracefile *tf, const char *dir)
{
	char path[PATH_MAX];
	int r;

	if (snprintf(tf->dir, sizeof(tf->dir), "%s", dir) >= (int)sizeof(tf->dir) ||
	    snprintf(path, sizeof(path), "%s/index", dir) >= (int)sizeof(path)) {
		tf->dir[0] = '\0';
		return -ENAMETOOLONG;
	}
	tf->opened = 0;
	r = mkdir_p(path, 0750);	/* DIR/index, and DIR */
	if (r == 0)
		r = open_next(tf);
	if (r < 0)
		tf->dir[0] = '\0';
	return r;
}

int tracefile_open(struct tracefile *tf, const char *dir, const char *channel, unsigned cpu,
		   const struct tracefile_limits *limits)
{
	*tf = (struct tracefile){ .fd = -1, .idx_fd = -1 };
	if (!*channel || strchr(channel, '/') || channel[0] == '.')
		return -EINVAL;
	if (snprintf(tf->base, sizeof(tf->base), "%s_%u", channel, cpu) >= (int)sizeof(tf->base))
		return -ENAMETOOLONG;
	if (limits)
		tf->limits = *limits;
	if (!tf->limits.size)
		tf->limits.count = 0;	/* a count means nothing without a size */
	return dir ? open_in(tf, dir) : 0;
}

bool tracefile_is_open(const struct tracefile *tf)
{
	return tf->fd >= 0;
}

int tracefile_make_room(struct tracefile *tf, uint64_t size)
{
	if (!tf->limits.size || tf->size == 0 || tf->size + size <= tf->limits.size)
		return 0;
	return open_next(tf);
}

uint64_t tracefile_index_end(const struct tracefile *tf)
{
	return CTF_INDEX_HEADER_SIZE + tf->entries * CTF_INDEX_ENTRY_SIZE;
}

void tracefile_written(struct tracefile *tf, uint64_t size)
{
	tf->size += size;
	tf->entries++;
}

int tracefile_undo(struct tracefile *tf)
{
	int r = 0;

	if (ftruncate(tf->fd, (off_t)tf->size) < 0 ||
	    ftruncate(tf->idx_fd, (off_t)tracefile_index_end(tf)) < 0)
		r = -errno;
	if (lseek(tf->fd, (off_t)tf->size, SEEK_SET) < 0 ||
	    lseek(tf->idx_fd, (off_t)tracefile_index_end(tf), SEEK_SET) < 0)
		r = r ? r : -errno;
	return r;
}

int tracefile_drop_last(struct tracefile *tf, uint64_t size)
{
	tf->size -= size;
	tf->entries--;
	return tracefile_undo(tf);
}

int tracefile_move(struct tracefile *tf, const char *dir)
{
	close_files(tf);
	tf->dir[0] = '\0';
	return dir ? open_in(tf, dir) : 0;
}

int tracefile_reset(struct tracefile *tf)
{
	uint64_t n = tf->limits.count && tf->opened > tf->limits.count ? tf->limits.count
									: tf->opened;
	char path[PATH_MAX];
	int r = 0;

	if (!tracefile_is_open(tf))
		return 0;
	close_files(tf);
	for (uint64_t i = 0; i < n; i++)
		for (int index = 0; index < 2; index++)
			if (file_path(tf, i, index, path, sizeof(path)) == 0 && unlink(path) < 0 &&
			    errno != ENOENT && r == 0)
				r = -errno;
	tf->opened = 0;
	if (r == 0)
		r = open_next(tf);
	return r;
}

void tracefile_close(struct tracefile *tf)
{
	close_files(tf);
	tf->dir[0] = '\0';
}
