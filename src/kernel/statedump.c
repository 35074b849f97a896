/*
 * statedump.c - what was running when the session started, as LTTng's
 * state dump events, from /proc:
 *
 *   lttng_statedump_start {}
 *   lttng_statedump_process_state {tid, vtid, pid, vpid, ppid, vppid,
 *       name (char[16]), type, mode, submode, status, cpu}   per thread
 *   lttng_statedump_file_descriptor {pid, fd, flags, fmode, filename}
 *                                                  per open fd of a process
 *   lttng_statedump_vm_map {pid, start, end, flags, inode, pgoff}
 *                                                  per memory map of a process
 *   lttng_statedump_end {}
 *
 * Enums as lttng-modules declares them. /proc does not say the execution
 * mode of a thread, so mode is MODE_UNKNOWN and submode UNKNOWN (as
 * lttng-modules writes for threads that are not current). Virtual ids are
 * the ids of our pid namespace (the daemon runs in the initial one).
 * fmode is derived from the access mode of the open flags (FMODE_READ 1,
 * FMODE_WRITE 2). Memory maps come from /proc/PID/maps: flags are the
 * kernel's VM_READ 1, VM_WRITE 2, VM_EXEC 4, VM_SHARED 8 from its
 * permissions (the VM_MAY* bits are not shown there), pgoff the file
 * offset in bytes, as lttng-modules writes it. Threads, fds and maps that
 * vanish while we walk are skipped. The classes are made by the first dump
 * and reused by the next ones (a restarted session dumps again).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kernel/kernel-internal.h"

#define PF_KTHREAD 0x00200000u

enum { STATUS_UNNAMED, STATUS_WAIT_FORK, STATUS_WAIT_CPU, STATUS_EXIT, STATUS_ZOMBIE,
       STATUS_WAIT, STATUS_RUN, STATUS_DEAD };

struct kt_statedump_classes {
	const struct ctf_event_class *start, *end, *proc, *fd, *vm_map;
};

/* A field of a state dump event. */
struct sd_field {
	const char *name;
	char kind;			/* 'i' integer, 's' string, 't' char[16], 'e' enum */
	unsigned bits, base;
	bool is_signed;
	const char *const *labels;	/* 'e': labels of 0, 1, ... */
	size_t nlabels;
};

#define SD_INT(n, bits, sgn, base) { n, 'i', bits, base, sgn, NULL, 0 }
#define SD_ENUM(n, l) { n, 'e', 32, 10, true, l, ARRAY_SIZE(l) }

static int field_type(const struct sd_field *f, struct ctf_type **ret)
{
	struct ctf_int_params p = { .size = f->bits, .align = 8, .is_signed = f->is_signed,
				    .base = f->base };
	struct ctf_type *t = NULL, *e = NULL;
	int r;

	if (f->kind == 's')
		return ctf_type_string_create(CTF_ENC_UTF8, ret);
	if (f->kind == 't') {
		r = ctf_type_by_name("char", &t);
		return r < 0 ? r : ctf_type_array_create(t, 16, ret);
	}
	r = ctf_type_int_create(&p, &t);
	if (r < 0 || f->kind == 'i') {
		*ret = t;
		return r;
	}
	r = ctf_type_enum_create(t, &e);
	for (size_t i = 0; r >= 0 && i < f->nlabels; i++)
		r = ctf_type_enum_add(e, f->labels[i], i, i);
	if (r < 0) {
		ctf_type_free(e);
		return r;
	}
	*ret = e;
	return 0;
}

/* Adds event class `name` with fields f[0..n). */
static int make_class(struct kt_converter *c, const char *name, const struct sd_field *f,
		      size_t n, const struct ctf_event_class **ret, struct kt_error *err)
{
	struct ctf_type *st = NULL, *t;
	int r = ctf_type_struct_create(0, &st);

	for (size_t i = 0; r >= 0 && i < n; i++) {
		r = field_type(&f[i], &t);
		if (r >= 0)
			r = ctf_type_struct_add(st, f[i].name, t);
	}
	if (r < 0) {
		ctf_type_free(st);
		return r;
	}
	return kt_converter_new_class(c, name, st, ret, err);
}

static int make_classes(struct kt_converter *c, struct kt_statedump_classes *k, struct kt_error *err)
{
	static const char *const type_l[] = { "USER_THREAD", "KERNEL_THREAD" };
	static const char *const mode_l[] = { "USER_MODE", "SYSCALL", "TRAP", "IRQ", "SOFTIRQ",
					      "MODE_UNKNOWN" };
	static const char *const submode_l[] = { "NONE", "UNKNOWN" };
	static const char *const status_l[] = { "UNNAMED", "WAIT_FORK", "WAIT_CPU", "EXIT",
						"ZOMBIE", "WAIT", "RUN", "DEAD" };
	static const struct sd_field proc[] = {
		SD_INT("tid", 32, true, 10), SD_INT("vtid", 32, true, 10),
		SD_INT("pid", 32, true, 10), SD_INT("vpid", 32, true, 10),
		SD_INT("ppid", 32, true, 10), SD_INT("vppid", 32, true, 10),
		{ "name", 't', 8, 10, false, NULL, 0 },
		SD_ENUM("type", type_l), SD_ENUM("mode", mode_l), SD_ENUM("submode", submode_l),
		SD_ENUM("status", status_l), SD_INT("cpu", 32, true, 10),
	};
	static const struct sd_field fd[] = {
		SD_INT("pid", 32, true, 10), SD_INT("fd", 32, true, 10),
		SD_INT("flags", 32, false, 16), SD_INT("fmode", 32, false, 16),
		{ "filename", 's', 8, 10, false, NULL, 0 },
	};
	static const struct sd_field vm_map[] = {
		SD_INT("pid", 32, true, 10), SD_INT("start", 64, false, 16),
		SD_INT("end", 64, false, 16), SD_INT("flags", 64, false, 16),
		SD_INT("inode", 64, false, 10), SD_INT("pgoff", 64, false, 10),
	};
	int r;

	if ((r = make_class(c, "lttng_statedump_start", NULL, 0, &k->start, err)) < 0 ||
	    (r = make_class(c, "lttng_statedump_end", NULL, 0, &k->end, err)) < 0 ||
	    (r = make_class(c, "lttng_statedump_process_state", proc, ARRAY_SIZE(proc), &k->proc,
			    err)) < 0 ||
	    (r = make_class(c, "lttng_statedump_file_descriptor", fd, ARRAY_SIZE(fd), &k->fd,
			    err)) < 0)
		return r;
	return make_class(c, "lttng_statedump_vm_map", vm_map, ARRAY_SIZE(vm_map), &k->vm_map,
			  err);
}

int kt_thread_stat_read(const char *path, struct kt_thread_stat *ts)
{
	char buf[2048], *lp, *rp, *save = NULL, *tok;
	int field = 3;

	if (kt_file_read(path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	lp = strchr(buf, '(');
	rp = strrchr(buf, ')');
	if (!lp || !rp || rp < lp)
		return -EBADMSG;
	kt_fmt(ts->comm, sizeof(ts->comm), "%.*s", (int)(rp - lp - 1), lp + 1);
	ts->cpu = 0;
	for (tok = strtok_r(rp + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 3)
			ts->state = tok[0];
		else if (field == 4)
			ts->ppid = strtol(tok, NULL, 10);
		else if (field == 9)
			ts->flags = strtoul(tok, NULL, 10);
		else if (field == 18)
			ts->prio = (int)strtol(tok, NULL, 10);
		else if (field == 39) {
			ts->cpu = (int)strtol(tok, NULL, 10);
			break;
		}
	}
	return 0;
}

static int status_of(char state, bool self)
{
	switch (state) {
	case 'R': return self ? STATUS_RUN : STATUS_WAIT_CPU;
	case 'Z': return STATUS_ZOMBIE;
	case 'X': return STATUS_DEAD;
	case 'S': case 'D': case 'I': case 'T': case 't': case 'P': return STATUS_WAIT;
	default: return STATUS_UNNAMED;
	}
}

static int dump_fds(struct kt_converter *c, const struct kt_statedump_classes *k, unsigned cpu,
		    uint64_t ts, long pid, struct kt_error *err)
{
	char dir[64], path[128], target[PATH_MAX], info[512], *p;
	struct dirent *de;
	DIR *d;
	int r = 0;

	kt_fmt(dir, sizeof(dir), "/proc/%ld/fd", pid);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) && r >= 0) {
		unsigned long flags = 0, acc;
		ssize_t n;
		long fd;

		if (de->d_name[0] == '.')
			continue;
		fd = strtol(de->d_name, NULL, 10);
		kt_fmt(path, sizeof(path), "%s/%s", dir, de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		kt_fmt(path, sizeof(path), "/proc/%ld/fdinfo/%s", pid, de->d_name);
		if (kt_file_read(path, info, sizeof(info)) > 0 && (p = strstr(info, "flags:")))
			flags = strtoul(p + 6, NULL, 8);
		acc = flags & O_ACCMODE;
		{
			struct ctf_value v[] = {
				CTF_S64(pid), CTF_S64(fd), CTF_U64(flags & 0xffffffffu),
				CTF_U64(acc == O_RDONLY ? 1 : acc == O_WRONLY ? 2 : 3),
				CTF_STR(target),
			};

			r = kt_converter_write(c, cpu, k->fd, ts, pid, v, ARRAY_SIZE(v), err);
		}
	}
	closedir(d);
	return r;
}

/* One lttng_statedump_vm_map per line of /proc/PID/maps. */
static int dump_maps(struct kt_converter *c, const struct kt_statedump_classes *k, unsigned cpu,
		     uint64_t ts, long pid, struct kt_error *err)
{
	char path[64], line[PATH_MAX + 128];
	FILE *f;
	int r = 0;

	kt_fmt(path, sizeof(path), "/proc/%ld/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (r >= 0 && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, pgoff, inode;
		char perms[8];
		uint64_t flags;

		if (sscanf(line, "%llx-%llx %7s %llx %*s %llu", &start, &end, perms, &pgoff,
			   &inode) != 5)
			continue;
		flags = (perms[0] == 'r' ? 1u : 0) | (perms[1] == 'w' ? 2u : 0) |
			(perms[2] == 'x' ? 4u : 0) | (perms[3] == 's' ? 8u : 0);
		{
			struct ctf_value v[] = {
				CTF_S64(pid), CTF_U64(start), CTF_U64(end), CTF_U64(flags),
				CTF_U64(inode), CTF_U64(pgoff),
			};

			r = kt_converter_write(c, cpu, k->vm_map, ts, pid, v, ARRAY_SIZE(v), err);
		}
	}
	fclose(f);
	return r;
}

int kt_converter_statedump(struct kt_converter *c, unsigned cpu, uint64_t ts,
			   struct kt_error *err)
{
	const struct kt_statedump_classes *k;
	struct dirent *pe, *te;
	long self = (long)syscall(SYS_gettid);
	DIR *proc, *task;
	int r, threads = 0;

	if (!c->sd) {
		struct kt_statedump_classes *made = calloc(1, sizeof(*made));

		if (!made)
			return -ENOMEM;
		r = make_classes(c, made, err);
		if (r < 0) {
			free(made);
			return r;
		}
		c->sd = made;
	}
	k = c->sd;
	r = kt_converter_write(c, cpu, k->start, ts, self, NULL, 0, err);
	if (r < 0)
		return r;
	proc = opendir("/proc");
	if (!proc)
		return -errno;
	while ((pe = readdir(proc)) && r >= 0) {
		char tdir[64], path[128];
		long pid;

		if (pe->d_name[0] < '0' || pe->d_name[0] > '9')
			continue;
		pid = strtol(pe->d_name, NULL, 10);
		kt_fmt(tdir, sizeof(tdir), "/proc/%ld/task", pid);
		task = opendir(tdir);
		if (!task)
			continue;
		while ((te = readdir(task)) && r >= 0) {
			struct kt_thread_stat st;
			long tid;

			if (te->d_name[0] < '0' || te->d_name[0] > '9')
				continue;
			tid = strtol(te->d_name, NULL, 10);
			kt_fmt(path, sizeof(path), "%s/%ld/stat", tdir, tid);
			if (kt_thread_stat_read(path, &st) < 0)
				continue;
			kt_threads_seed(c, (int32_t)tid, (int32_t)pid, st.comm, st.prio);
			{
				struct ctf_value v[] = {
					CTF_S64(tid), CTF_S64(tid), CTF_S64(pid), CTF_S64(pid),
					CTF_S64(st.ppid), CTF_S64(st.ppid), CTF_STR(st.comm),
					CTF_S64(st.flags & PF_KTHREAD ? 1 : 0),
					CTF_S64(5),	/* MODE_UNKNOWN */
					CTF_S64(1),	/* UNKNOWN */
					CTF_S64(status_of(st.state, tid == self)),
					CTF_S64(st.cpu),
				};

				r = kt_converter_write(c, cpu, k->proc, ts, tid, v, ARRAY_SIZE(v),
						       err);
			}
			threads++;
		}
		closedir(task);
		if (r >= 0)
			r = dump_fds(c, k, cpu, ts, pid, err);
		if (r >= 0)
			r = dump_maps(c, k, cpu, ts, pid, err);
	}
	closedir(proc);
	if (r < 0)
		return r;
	r = kt_converter_write(c, cpu, k->end, ts, self, NULL, 0, err);
	return r < 0 ? r : threads;
}
