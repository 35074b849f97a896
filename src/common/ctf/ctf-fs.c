/*
 * ctf-fs.c - the trace directory writer (see ctf-fs.h).
 */
#include "ctf/ctf-fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctf/ctf-encode.h"
#include "util/fs.h"

#define GROWING_PACKET_PAD 4096

struct ctf_fs_stream {
	struct ctf_fs_trace *ft;
	uint32_t cpu, sc_id;
	int fd, idx_fd;
	uint64_t offset;		/* bytes written to the stream file */
	bool renamed;			/* its files have their final names */
	struct ctf_stream_writer *w;
	char *tmp, *final, *idx_tmp, *idx_final;
};

struct ctf_fs_trace {
	char *dir;
	struct ctf_trace *t;
	enum ctf_metadata_form form;
	struct ctf_fs_stream **streams;
	size_t n;
	bool closed;
	bool growing;			/* final names from the start (ctf_fs_trace_set_growing) */
	size_t meta_written;		/* growing: bytes of metadata text in the file */
	char *meta_tmp, *meta_final;
};

static char *path_join(const char *dir, const char *sub, const char *pre,
		       const char *name, const char *post)
{
	char *s;

	if (asprintf(&s, "%s%s%s/%s%s%s", dir, sub ? "/" : "", sub ? sub : "", pre,
		     name, post) < 0)
		return NULL;
	return s;
}

int ctf_fs_trace_create(const char *dir, struct ctf_trace *t, enum ctf_metadata_form form,
			struct ctf_fs_trace **ret)
{
	struct ctf_fs_trace *ft = NULL;
	char *idx = NULL;
	int r;

	if (!dir || !*dir || !t || form > CTF_METADATA_PACKETIZED)
		return -EINVAL;
	if ((r = mkdir_p(dir, 0770)) < 0)
		return r;
	r = -ENOMEM;
	if (asprintf(&idx, "%s/index", dir) < 0) {
		idx = NULL;
		goto err;
	}
	if ((r = mkdir_p(idx, 0770)) < 0)
		goto err;
	r = -ENOMEM;
	ft = calloc(1, sizeof(*ft));
	if (!ft || !(ft->dir = strdup(dir)))
		goto err;
	ft->meta_tmp = path_join(dir, NULL, ".", "metadata", ".tmp");
	ft->meta_final = path_join(dir, NULL, "", "metadata", "");
	if (!ft->meta_tmp || !ft->meta_final)
		goto err;
	ft->t = t;
	ft->form = form;
	free(idx);
	*ret = ft;
	return 0;
err:
	free(idx);
	ctf_fs_trace_free(ft);
	return r;
}

static void stream_free(struct ctf_fs_stream *s, bool unlink_files)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	if (s->idx_fd >= 0)
		close(s->idx_fd);
	if (unlink_files) {
		if (s->tmp)
			unlink(s->tmp);
		if (s->idx_tmp)
			unlink(s->idx_tmp);
	}
	ctf_stream_writer_free(s->w);
	free(s->tmp);
	free(s->final);
	free(s->idx_tmp);
	free(s->idx_final);
	free(s);
}

static bool valid_channel(const char *c)
{
	if (!c || !*c || strlen(c) > 200)
		return false;
	for (; *c; c++)
		if (*c == '/' || (*c == '.' && c[1] == '\0') || (unsigned char)*c < 0x20)
			return false;
	return true;
}

int ctf_fs_stream_create(struct ctf_fs_trace *ft, const char *channel, uint32_t cpu,
			 uint32_t stream_class_id, size_t packet_size,
			 struct ctf_fs_stream **ret)
{
	struct ctf_fs_stream *s = NULL, **arr;
	char name[256];
	uint8_t hdr[CTF_INDEX_HEADER_SIZE];
	int r;

	if (ft->closed || !valid_channel(channel) || channel[0] == '.')
		return -EINVAL;
	snprintf(name, sizeof(name), "%s_%u", channel, cpu);
	for (size_t i = 0; i < ft->n; i++)
		if (strcmp(strrchr(ft->streams[i]->final, '/') + 1, name) == 0 ||
		    (ft->streams[i]->sc_id == stream_class_id && ft->streams[i]->cpu == cpu))
			return -EEXIST;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->fd = s->idx_fd = -1;
	s->ft = ft;
	s->cpu = cpu;
	s->sc_id = stream_class_id;
	r = ctf_stream_writer_create(ft->t, stream_class_id, cpu, cpu, packet_size, &s->w);
	if (r < 0)
		goto err;
	if (ft->growing)
		ctf_stream_writer_set_padding(s->w, GROWING_PACKET_PAD);
	r = -ENOMEM;
	/* growing: written under the final names (tmp == final) */
	s->tmp = path_join(ft->dir, NULL, ft->growing ? "" : ".", name, ft->growing ? "" : ".tmp");
	s->final = path_join(ft->dir, NULL, "", name, "");
	s->idx_tmp = path_join(ft->dir, "index", ft->growing ? "" : ".", name,
			       ft->growing ? ".idx" : ".idx.tmp");
	s->idx_final = path_join(ft->dir, "index", "", name, ".idx");
	if (!s->tmp || !s->final || !s->idx_tmp || !s->idx_final)
		goto err;
	arr = realloc(ft->streams, (ft->n + 1) * sizeof(*arr));
	if (!arr)
		goto err;
	ft->streams = arr;
	s->fd = open(s->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
	if (s->fd < 0) {
		r = -errno;
		goto err;
	}
	s->idx_fd = open(s->idx_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
	if (s->idx_fd < 0) {
		r = -errno;
		goto err;
	}
	ctf_index_header_write(hdr);
	if ((r = write_all(s->idx_fd, hdr, sizeof(hdr))) < 0)
		goto err;
	ft->streams[ft->n++] = s;
	*ret = s;
	return 0;
err:
	stream_free(s, true);
	return r;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (56 - 8 * i));
}

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

void ctf_index_header_write(void *dst)
{
	uint8_t *p = dst;

	put_be32(p, CTF_INDEX_MAGIC);
	put_be32(p + 4, CTF_INDEX_MAJOR);
	put_be32(p + 8, CTF_INDEX_MINOR);
	put_be32(p + 12, CTF_INDEX_ENTRY_SIZE);
}

void ctf_index_entry_write(void *dst, uint64_t offset, const struct ctf_packet_info *pi)
{
	uint8_t *p = dst;

	put_be64(p, offset);
	put_be64(p + 8, pi->packet_size);
	put_be64(p + 16, pi->content_size);
	put_be64(p + 24, pi->ts_begin);
	put_be64(p + 32, pi->ts_end);
	put_be64(p + 40, pi->events_discarded);
	put_be64(p + 48, pi->stream_id);
	put_be64(p + 56, pi->stream_instance_id);
	put_be64(p + 64, pi->seq_num);
}

static int metadata_update(struct ctf_fs_trace *ft);

static int write_packet(struct ctf_fs_stream *s, uint64_t ts_end)
{
	struct ctf_packet_info info;
	uint8_t entry[CTF_INDEX_ENTRY_SIZE];
	const void *data;
	int r;

	/* growing: a reader never meets an event the metadata does not describe */
	if (s->ft->growing && (r = metadata_update(s->ft)) < 0)
		return r;
	r = ctf_stream_writer_close_packet(s->w, ts_end, &data, &info);
	if (r < 0)
		return r;
	if ((r = write_all(s->fd, data, info.packet_size / 8)) < 0)
		return r;
	ctf_index_entry_write(entry, s->offset, &info);
	if ((r = write_all(s->idx_fd, entry, sizeof(entry))) < 0)
		return r;
	s->offset += info.packet_size / 8;
	return 0;
}

int ctf_fs_stream_event(struct ctf_fs_stream *s, const struct ctf_event_class *ec,
			uint64_t ts, const struct ctf_value *ctx, size_t nctx,
			const struct ctf_value *payload, size_t npayload)
{
	int r = ctf_stream_writer_event(s->w, ec, ts, ctx, nctx, payload, npayload);

	if (r != -ENOSPC)
		return r;
	/* The open packet ends at the previous event; this one starts the next. */
	if ((r = write_packet(s, 0)) < 0)
		return r;
	return ctf_stream_writer_event(s->w, ec, ts, ctx, nctx, payload, npayload);
}

int ctf_fs_stream_event_raw(struct ctf_fs_stream *s, const struct ctf_event_class *ec,
			    uint64_t ts, const void *bytes, size_t len)
{
	int r = ctf_stream_writer_event_raw(s->w, ec, ts, bytes, len);

	if (r != -ENOSPC)
		return r;
	if ((r = write_packet(s, 0)) < 0)
		return r;
	return ctf_stream_writer_event_raw(s->w, ec, ts, bytes, len);
}

void ctf_fs_stream_add_discarded(struct ctf_fs_stream *s, uint64_t n)
{
	ctf_stream_writer_add_discarded(s->w, n);
}

int ctf_fs_stream_flush(struct ctf_fs_stream *s, uint64_t ts_end)
{
	if (!ctf_stream_writer_pending(s->w))
		return 0;
	return write_packet(s, ts_end);
}

static int write_metadata(struct ctf_fs_trace *ft)
{
	const char *text;
	size_t len;
	void *pk = NULL;
	long n;
	int fd = -1, r;

	if ((r = ctf_trace_metadata(ft->t, &text, &len)) < 0)
		return r;
	if (ft->form == CTF_METADATA_PACKETIZED) {
		size_t need = ctf_metadata_packetized_size(len, CTF_METADATA_PACKET_SIZE);

		pk = malloc(need ? need : 1);
		if (!pk)
			return -ENOMEM;
		n = ctf_metadata_packetize(ctf_trace_uuid(ft->t), ctf_trace_byte_order(ft->t),
					   text, len, CTF_METADATA_PACKET_SIZE, pk, need);
		if (n < 0) {
			r = (int)n;
			goto out;
		}
		text = pk;
		len = (size_t)n;
	}
	fd = open(ft->meta_tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0660);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	r = write_all(fd, text, len);
	if (r == 0 && close(fd) < 0)
		r = -errno;
	else if (r < 0)
		close(fd);
out:
	free(pk);
	return r;
}

/* Growing mode: rewrites the metadata file if event classes were added since. */
static int metadata_update(struct ctf_fs_trace *ft)
{
	const char *text;
	size_t len;
	int r = ctf_trace_metadata(ft->t, &text, &len);

	if (r < 0 || len == ft->meta_written)
		return r;
	if ((r = write_metadata(ft)) < 0)
		return r;
	if (rename(ft->meta_tmp, ft->meta_final) < 0)
		return -errno;
	ft->meta_written = len;
	return 0;
}

int ctf_fs_trace_rewrite_metadata(struct ctf_fs_trace *ft)
{
	if (!ft->growing || ft->closed)
		return 0;
	ft->meta_written = 0;	/* never the length of a metadata text */
	return metadata_update(ft);
}

int ctf_fs_trace_set_growing(struct ctf_fs_trace *ft)
{
	if (ft->n || ft->closed)
		return -EBUSY;
	ft->growing = true;
	return 0;
}

int ctf_fs_trace_sync(struct ctf_fs_trace *ft)
{
	int r;

	if (ft->closed)
		return -EINVAL;
	for (size_t i = 0; i < ft->n; i++)
		if ((r = ctf_fs_stream_flush(ft->streams[i], 0)) < 0)
			return r;
	return ft->growing ? metadata_update(ft) : 0;
}

int ctf_fs_trace_close(struct ctf_fs_trace *ft)
{
	int r;

	/* every packet out; growing: the metadata up to date */
	if ((r = ctf_fs_trace_sync(ft)) < 0)
		return r;
	if (!ft->growing && (r = write_metadata(ft)) < 0)
		return r;
	for (size_t i = 0; i < ft->n; i++) {
		struct ctf_fs_stream *s = ft->streams[i];

		if (close(s->fd) < 0) {
			s->fd = -1;
			return -errno;
		}
		s->fd = -1;
		if (close(s->idx_fd) < 0) {
			s->idx_fd = -1;
			return -errno;
		}
		s->idx_fd = -1;
	}
	if (ft->growing) {
		ft->closed = true;
		return 0;
	}
	/* Streams and indexes first, metadata last: a reader that sees the
	 * metadata sees the whole trace. */
	for (size_t i = 0; i < ft->n; i++) {
		struct ctf_fs_stream *s = ft->streams[i];

		if (rename(s->tmp, s->final) < 0)
			return -errno;
		if (rename(s->idx_tmp, s->idx_final) < 0) {
			r = -errno;
			rename(s->final, s->tmp);
			return r;
		}
		s->renamed = true;
	}
	if (rename(ft->meta_tmp, ft->meta_final) < 0)
		return -errno;
	ft->closed = true;
	return 0;
}

void ctf_fs_trace_free(struct ctf_fs_trace *ft)
{
	bool drop;

	if (!ft)
		return;
	/* an abandoned trace leaves nothing, unless it grows (its files are readable) */
	drop = !ft->closed && !ft->growing;

	for (size_t i = 0; i < ft->n; i++) {
		struct ctf_fs_stream *s = ft->streams[i];

		if (drop && s->renamed) {	/* renamed by a failed close */
			unlink(s->final);
			unlink(s->idx_final);
		}
		stream_free(s, drop);
	}
	if (!ft->closed && ft->meta_tmp)
		unlink(ft->meta_tmp);
	free(ft->streams);
	free(ft->dir);
	free(ft->meta_tmp);
	free(ft->meta_final);
	free(ft);
}
