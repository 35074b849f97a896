/*
 * statedump.c - what was running when the session started, as LTTng's
 * state dump events, from /proc:
 *
 *   lttng_statedump_start {}
 *   lttng_statedump_process_state {tid, vtid, pid, vpid, ppid, vppid,
 *       name (char[16]), type, mode, submode, status, cpu}   per thread
 *   lttng_statedump_file_descriptor {pid, fd, flags, fmode, filename}
 *                                                  per open fd of a process
 *   lttng_statedump_end {}
 *
 * Enums as lttng-modules declares them. /proc does not say the execution
 * mode of a thread, so mode is MODE_UNKNOWN and submode UNKNOWN (as
 * lttng-modules writes for threads that are not current). Virtual ids are
 * the ids of our pid namespace (the daemon runs in the initial one).
 * fmode is derived from the access mode of the open flags (FMODE_READ 1,
 * FMODE_WRITE 2). Threads and fds that vanish while we walk are skipped.
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

struct sd_classes {
	const struct ctf_event_class *start, *end, *proc, *fd;
};

static int add_int(struct ctf_type *st, const char *name, unsigned bits, bool sgn,
		   unsigned base)
{
	struct ctf_int_params p = { .size = bits, .align = 8, .is_signed = sgn, .base = base };
	struct ctf_type *t = NULL;
	int r = ctf_type_int_create(&p, &t);

	return r < 0 ? r : ctf_type_struct_add(st, name, t);
}

static int add_enum(struct ctf_type *st, const char *name, const char *const *labels,
		    size_t n)
{
	struct ctf_int_params p = { .size = 32, .align = 8, .is_signed = true };
	struct ctf_type *c = NULL, *e = NULL;
	int r;

	r = ctf_type_int_create(&p, &c);
	if (r < 0)
		return r;
	r = ctf_type_enum_create(c, &e);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		r = ctf_type_enum_add(e, labels[i], i, i);
		if (r < 0) {
			ctf_type_free(e);
			return r;
		}
	}
	return ctf_type_struct_add(st, name, e);
}

static int make_classes(struct kt_converter *c, struct sd_classes *k, struct kt_error *err)
{
	static const char *const type_l[] = { "USER_THREAD", "KERNEL_THREAD" };
	static const char *const mode_l[] = { "USER_MODE", "SYSCALL", "TRAP", "IRQ", "SOFTIRQ",
					      "MODE_UNKNOWN" };
	static const char *const submode_l[] = { "NONE", "UNKNOWN" };
	static const char *const status_l[] = { "UNNAMED", "WAIT_FORK", "WAIT_CPU", "EXIT",
						"ZOMBIE", "WAIT", "RUN", "DEAD" };
	static const char *const ids[] = { "tid", "vtid", "pid", "vpid", "ppid", "vppid" };
	struct ctf_type *st = NULL, *ch = NULL, *arr = NULL;
	int r;

	r = ctf_type_struct_create(0, &st);
	if (r < 0)
		return r;
	r = kt_converter_new_class(c, "lttng_statedump_start", st, &k->start, err);
	if (r < 0)
		return r;
	r = ctf_type_struct_create(0, &st);
	if (r < 0)
		return r;
	r = kt_converter_new_class(c, "lttng_statedump_end", st, &k->end, err);
	if (r < 0)
		return r;

	r = ctf_type_struct_create(0, &st);
	if (r < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(ids) && r >= 0; i++)
		r = add_int(st, ids[i], 32, true, 10);
	if (r >= 0)
		r = ctf_type_by_name("char", &ch);
	if (r >= 0)
		r = ctf_type_array_create(ch, 16, &arr);
	if (r >= 0)
		r = ctf_type_struct_add(st, "name", arr);
	if (r >= 0)
		r = add_enum(st, "type", type_l, ARRAY_SIZE(type_l));
	if (r >= 0)
		r = add_enum(st, "mode", mode_l, ARRAY_SIZE(mode_l));
	if (r >= 0)
		r = add_enum(st, "submode", submode_l, ARRAY_SIZE(submode_l));
	if (r >= 0)
		r = add_enum(st, "status", status_l, ARRAY_SIZE(status_l));
	if (r >= 0)
		r = add_int(st, "cpu", 32, true, 10);
	if (r < 0) {
		ctf_type_free(st);
		return r;
	}
	r = kt_converter_new_class(c, "lttng_statedump_process_state", st, &k->proc, err);
	if (r < 0)
		return r;

	r = ctf_type_struct_create(0, &st);
	if (r < 0)
		return r;
	r = add_int(st, "pid", 32, true, 10);
	if (r >= 0)
		r = add_int(st, "fd", 32, true, 10);
	if (r >= 0)
		r = add_int(st, "flags", 32, false, 16);
	if (r >= 0)
		r = add_int(st, "fmode", 32, false, 16);
	if (r >= 0) {
		struct ctf_type *s = NULL;

		r = ctf_type_string_create(CTF_ENC_UTF8, &s);
		if (r >= 0)
			r = ctf_type_struct_add(st, "filename", s);
	}
	if (r < 0) {
		ctf_type_free(st);
		return r;
	}
	return kt_converter_new_class(c, "lttng_statedump_file_descriptor", st, &k->fd, err);
}

struct thread_stat {
	char comm[17];
	char state;
	long ppid;
	unsigned long flags;
	int cpu;
};

/* Parses /proc/PID/task/TID/stat; 0 or -errno. */
static int read_stat(const char *path, struct thread_stat *ts)
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

static int dump_fds(struct kt_converter *c, const struct sd_classes *k, unsigned cpu,
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

int kt_converter_statedump(struct kt_converter *c, unsigned cpu, uint64_t ts,
			   struct kt_error *err)
{
	struct sd_classes k;
	struct dirent *pe, *te;
	long self = (long)syscall(SYS_gettid);
	DIR *proc, *task;
	int r, threads = 0;

	r = make_classes(c, &k, err);
	if (r < 0)
		return r;
	r = kt_converter_write(c, cpu, k.start, ts, self, NULL, 0, err);
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
			struct thread_stat st;
			long tid;

			if (te->d_name[0] < '0' || te->d_name[0] > '9')
				continue;
			tid = strtol(te->d_name, NULL, 10);
			kt_fmt(path, sizeof(path), "%s/%ld/stat", tdir, tid);
			if (read_stat(path, &st) < 0)
				continue;
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

				r = kt_converter_write(c, cpu, k.proc, ts, tid, v, ARRAY_SIZE(v),
						       err);
			}
			threads++;
		}
		closedir(task);
		if (r >= 0)
			r = dump_fds(c, &k, cpu, ts, pid, err);
	}
	closedir(proc);
	if (r < 0)
		return r;
	r = kt_converter_write(c, cpu, k.end, ts, self, NULL, 0, err);
	return r < 0 ? r : threads;
}
