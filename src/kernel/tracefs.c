/*
 * tracefs.c - finding (and mounting) tracefs, its file helpers, and the
 * life of a session's instance: create, configure, start/stop, destroy,
 * and the removal of instances left behind by dead daemons.
 *
 * Teardown leaves tracefs as found: the instance directory is removed
 * (which drops its buffers and its event enables), and the uprobes it
 * added are removed from the global uprobe_events.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "kernel/kernel-internal.h"
#include "util/strbuf.h"

#define TRACEFS_MAGIC_NUMBER 0x74726163

static char tracefs_root[PATH_MAX] = KT_TRACEFS_PATH;
static bool tracefs_ready;

int kt_error_set(struct kt_error *err, int r, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return r;
}

int kt_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

const char *kt_trace_clock(enum ctf_clock_kind kind)
{
	return kind == CTF_CLOCK_TSC ? "x86-tsc" : "mono";
}

uint64_t kt_clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *kt_tracefs_root(void)
{
	return tracefs_root;
}

int kt_tracefs_open(const char **ret_path, struct kt_error *err)
{
	const char *env = getenv("LTT_TRACEFS");
	struct statfs sfs;
	int r;

	if (tracefs_ready) {
		*ret_path = tracefs_root;
		return 0;
	}
	if (env && *env) {
		if (strlen(env) >= sizeof(tracefs_root))
			return kt_error_set(err, -ENAMETOOLONG, "LTT_TRACEFS is too long");
		strcpy(tracefs_root, env);
	}
	if (statfs(tracefs_root, &sfs) == 0 && sfs.f_type == TRACEFS_MAGIC_NUMBER) {
		tracefs_ready = true;
		*ret_path = tracefs_root;
		return 0;
	}
	if (mount("nodev", tracefs_root, "tracefs", 0, NULL) < 0) {
		r = -errno;
		return kt_error_set(err, r, "cannot mount tracefs on %s: %s%s", tracefs_root,
				    strerror(-r),
				    r == -EPERM ? " (kernel tracing needs root or CAP_SYS_ADMIN)" : "");
	}
	tracefs_ready = true;
	*ret_path = tracefs_root;
	return 0;
}

int kt_file_write(const char *path, const char *s, bool append)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, r = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int kt_file_writef(bool append, const char *s, const char *pathfmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, pathfmt);
	n = vsnprintf(path, sizeof(path), pathfmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	return kt_file_write(path, s, append);
}

ssize_t kt_file_read(const char *path, char *buf, size_t cap)
{
	ssize_t n, total = 0;
	int fd, r = 0;

	if (cap == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < cap - 1) {
		n = read(fd, buf + total, cap - 1 - (size_t)total);
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	if (r < 0)
		return r;
	buf[total] = '\0';
	return total;
}

int kt_file_read_all(const char *path, char **ret, size_t *ret_len)
{
	size_t cap = 4096, len = 0;
	char *buf = NULL, *nb;
	ssize_t n;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	if (!buf) {
		r = -ENOMEM;
		goto err;
	}
	for (;;) {
		if (len + 1 >= cap) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				r = -ENOMEM;
				goto err;
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0) {
			r = -errno;
			goto err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*ret = buf;
	if (ret_len)
		*ret_len = len;
	return 0;
err:
	free(buf);
	close(fd);
	return r;
}

/* ---- instances ---- */

static bool session_name_ok(const char *s)
{
	size_t n = 0;

	if (!s || !*s)
		return false;
	for (; s[n]; n++)
		if (!isalnum((unsigned char)s[n]) && s[n] != '_' && s[n] != '.' && s[n] != '-')
			return false;
	return n <= 64;
}

static int inst_write(struct kt_instance *inst, const char *file, const char *s,
		      struct kt_error *err)
{
	int r = kt_file_writef(false, s, "%s/%s", inst->path, file);

	if (r < 0)
		return kt_error_set(err, r, "instance '%s': cannot write '%s' to %s: %s",
				    inst->name, s, file, strerror(-r));
	return 0;
}

static unsigned count_cpus(const char *inst_path)
{
	char path[PATH_MAX];
	struct dirent *de;
	unsigned n = 0;
	DIR *d;

	kt_fmt(path, sizeof(path), "%s/per_cpu", inst_path);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (strncmp(de->d_name, "cpu", 3) == 0 && isdigit((unsigned char)de->d_name[3])) {
			unsigned c = (unsigned)strtoul(de->d_name + 3, NULL, 10);

			if (c + 1 > n)
				n = c + 1;
		}
	closedir(d);
	return n;
}

/* A handle on instance `name` of the tracefs root (mounted if needed). */
static int instance_new(const char *name, struct kt_instance **ret, struct kt_error *err)
{
	struct kt_instance *inst;
	const char *root;
	int r = kt_tracefs_open(&root, err);

	if (r < 0)
		return r;
	inst = calloc(1, sizeof(*inst));
	if (!inst)
		return -ENOMEM;
	kt_fmt(inst->name, sizeof(inst->name), "%s", name);
	kt_fmt(inst->path, sizeof(inst->path), "%s/instances/%s", root, name);
	*ret = inst;
	return 0;
}

int kt_instance_create(const struct kt_instance_config *cfg, struct kt_instance **ret,
		       struct kt_error *err)
{
	struct kt_instance *inst = NULL;
	uint64_t subbuf, nsub, kb;
	char num[32], name[sizeof(inst->name)];
	int r;

	if (!cfg || !session_name_ok(cfg->session))
		return kt_error_set(err, -EINVAL,
				    "session name '%s' is not [A-Za-z0-9_.-]{1,64}",
				    cfg && cfg->session ? cfg->session : "(null)");
	subbuf = cfg->subbuf_size ? cfg->subbuf_size : 4096;
	nsub = cfg->num_subbuf ? cfg->num_subbuf : 256;
	if (subbuf < 4096 || (subbuf & (subbuf - 1)) || nsub < 2 || subbuf > (UINT64_C(1) << 30) ||
	    nsub > (UINT64_C(1) << 20))
		return kt_error_set(err, -EINVAL,
				    "sub-buffer size %llu (a power of two >= 4096) x count %llu (>= 2) "
				    "is not a kernel buffer size",
				    (unsigned long long)subbuf, (unsigned long long)nsub);
	kt_fmt(name, sizeof(name), KT_INSTANCE_PREFIX "%s-%d", cfg->session, (int)getpid());
	r = instance_new(name, &inst, err);
	if (r < 0)
		return r;
	if (mkdir(inst->path, 0750) < 0) {
		r = -errno;
		kt_error_set(err, r, "cannot create tracefs instance %s: %s", inst->path,
			     strerror(-r));
		free(inst);
		return r;
	}
	r = inst_write(inst, "tracing_on", "0", err);
	if (r < 0)
		goto err;
	r = inst_write(inst, "trace_clock", cfg->clock ? cfg->clock : "mono", err);
	if (r < 0)
		goto err;
	r = inst_write(inst, "options/overwrite", cfg->overwrite ? "1" : "0", err);
	if (r < 0)
		goto err;
	/*
	 * The kernel then remembers each traced task's thread group in
	 * saved_tgids: what LTTng's sched_process_fork says as parent_pid and
	 * child_pid, when the thread is gone by conversion time. Optional.
	 */
	kt_file_writef(false, "1", "%s/options/record-tgid", inst->path);
	if (subbuf != 4096) {
		/*
		 * The ring buffer's sub-buffer size (kernel 6.8+), at most the
		 * kernel's largest (512 KiB on x86-64: it refuses more); the
		 * buffer keeps its total size, in more sub-buffers.
		 */
		for (uint64_t kb_sub = subbuf / 1024;; kb_sub /= 2) {
			kt_fmt(num, sizeof(num), "%llu", (unsigned long long)kb_sub);
			r = kt_file_writef(false, num, "%s/buffer_subbuf_size_kb", inst->path);
			if (r != -EINVAL || kb_sub <= 4)
				break;
		}
		if (r < 0) {
			kt_error_set(err, r, "instance '%s': cannot set the sub-buffer size to %llu "
				     "KiB: %s", inst->name, (unsigned long long)(subbuf / 1024),
				     strerror(-r));
			goto err;
		}
	}
	if (cfg->wakeup_percent) {
		/* a reader poll()ing the buffer wakes when it is this full */
		kt_fmt(num, sizeof(num), "%u", cfg->wakeup_percent > 100 ? 100 : cfg->wakeup_percent);
		r = inst_write(inst, "buffer_percent", num, err);
		if (r < 0)
			goto err;
	}
	kb = (subbuf * nsub + 1023) / 1024;
	kt_fmt(num, sizeof(num), "%llu", (unsigned long long)kb);
	r = inst_write(inst, "buffer_size_kb", num, err);
	if (r < 0)
		goto err;
	inst->ncpus = count_cpus(inst->path);
	if (!inst->ncpus) {
		r = kt_error_set(err, -ENOENT, "instance '%s' has no per_cpu directory", inst->name);
		goto err;
	}
	inst->owned = true;
	*ret = inst;
	return 0;
err:
	rmdir(inst->path);
	free(inst);
	return r;
}

int kt_instance_open(const char *name, struct kt_instance **ret, struct kt_error *err)
{
	struct kt_instance *inst;
	struct stat st;
	int r;

	if (!name || strncmp(name, KT_INSTANCE_PREFIX, strlen(KT_INSTANCE_PREFIX)) != 0 ||
	    strchr(name, '/') || strlen(name) >= sizeof(inst->name))
		return kt_error_set(err, -EINVAL, "'%s' is not an ltt tracefs instance",
				    name ? name : "(null)");
	r = instance_new(name, &inst, err);
	if (r < 0)
		return r;
	if (stat(inst->path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		r = -ENOENT;
		kt_error_set(err, r, "no tracefs instance %s", inst->path);
		free(inst);
		return r;
	}
	inst->ncpus = count_cpus(inst->path);
	if (!inst->ncpus) {
		free(inst);
		return kt_error_set(err, -ENOENT, "instance '%s' has no per_cpu directory", name);
	}
	*ret = inst;
	return 0;
}

void kt_instance_close(struct kt_instance *inst)
{
	free(inst);
}

const char *kt_instance_name(const struct kt_instance *inst)
{
	return inst->name;
}

const char *kt_instance_path(const struct kt_instance *inst)
{
	return inst->path;
}

unsigned kt_instance_ncpus(const struct kt_instance *inst)
{
	return inst->ncpus;
}

int kt_instance_exclude_pid(struct kt_instance *inst, pid_t pid, struct kt_error *err)
{
	char num[32];
	int r;

	kt_fmt(num, sizeof(num), "%d", (int)pid);
	r = kt_file_writef(true, num, "%s/set_event_notrace_pid", inst->path);
	if (r < 0)
		return kt_error_set(err, r, "instance '%s': cannot exclude pid %d: %s", inst->name,
				    (int)pid, strerror(-r));
	return 0;
}

/* Appends pid and, while it runs, the tids of its threads (/proc/PID/task). */
static void append_threads(struct strbuf *sb, int64_t pid)
{
	char dir[64];
	struct dirent *de;
	DIR *d;

	strbuf_appendf(sb, "%lld ", (long long)pid);
	kt_fmt(dir, sizeof(dir), "/proc/%lld/task", (long long)pid);
	if (!(d = opendir(dir)))
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9' &&
		    strtoll(de->d_name, NULL, 10) != pid)
			strbuf_appendf(sb, "%s ", de->d_name);
	closedir(d);
}

int kt_instance_track_pids(struct kt_instance *inst, const int64_t *pids, size_t n, bool all,
			   struct kt_error *err)
{
	struct strbuf sb = STRBUF_INIT;
	int r;

	/* the kernel's own list: tasks by tid; event-fork adds what they fork */
	for (size_t i = 0; !all && i < n; i++)
		append_threads(&sb, pids[i]);
	if (!all && n == 0)
		strbuf_appendf(&sb, "%d", KT_PID_NONE);
	if ((r = strbuf_error(&sb)) < 0) {
		strbuf_free(&sb);
		return r;
	}
	r = inst_write(inst, "options/event-fork", all ? "0" : "1", err);
	if (r == 0)
		r = inst_write(inst, "set_event_pid", all ? "" : strbuf_str(&sb), err);
	strbuf_free(&sb);
	return r;
}

int kt_instance_start(struct kt_instance *inst, struct kt_error *err)
{
	return inst_write(inst, "tracing_on", "1", err);
}

int kt_instance_stop(struct kt_instance *inst, struct kt_error *err)
{
	return inst_write(inst, "tracing_on", "0", err);
}

static void keep_first(int *r, int e)
{
	if (*r == 0 && e < 0)
		*r = e;
}

void kt_uprobe_group(pid_t pid, char *buf, size_t size)
{
	kt_fmt(buf, size, "ltt_%d", (int)pid);
}

/*
 * Removes each line "p:GROUP/NAME ..." of uprobe_events whose group is
 * `group`. Instances using the event must be gone (else EBUSY).
 */
int kt_uprobe_group_remove(const char *group)
{
	char path[PATH_MAX], *text = NULL, *line, *save = NULL;
	size_t glen = strlen(group);
	int r = 0, e;

	kt_fmt(path, sizeof(path), "%s/uprobe_events", tracefs_root);
	e = kt_file_read_all(path, &text, NULL);
	if (e < 0)
		return e == -ENOENT ? 0 : e;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *ev = strchr(line, ':'), *sp, cmd[256];

		if (!ev)
			continue;
		ev++;
		sp = strchr(ev, ' ');
		if (sp)
			*sp = '\0';
		if (strncmp(ev, group, glen) != 0 || ev[glen] != '/')
			continue;
		/* Disable it at the top level too, in case someone enabled it there. */
		kt_file_writef(false, "0", "%s/events/%s/enable", tracefs_root, ev);
		kt_fmt(cmd, sizeof(cmd), "-:%s", ev);
		keep_first(&r, kt_file_write(path, cmd, true));
	}
	free(text);
	return r;
}

int kt_instance_destroy(struct kt_instance *inst)
{
	char group[64];
	int r = 0;

	if (!inst)
		return 0;
	keep_first(&r, kt_file_writef(false, "0", "%s/tracing_on", inst->path));
	keep_first(&r, kt_file_writef(false, "0", "%s/events/enable", inst->path));
	if (inst->function_tracer) {
		keep_first(&r, kt_file_writef(false, "nop", "%s/current_tracer", inst->path));
		keep_first(&r, kt_file_writef(false, "", "%s/set_ftrace_filter", inst->path));
	}
	if (rmdir(inst->path) < 0)
		keep_first(&r, -errno);
	if (inst->nuprobes) {
		kt_uprobe_group(getpid(), group, sizeof(group));
		/* Only our own events: another instance of this process may use the group. */
		for (size_t i = 0; i < inst->nuprobes; i++) {
			char cmd[300];

			kt_fmt(cmd, sizeof(cmd), "-:%s", inst->uprobes[i].event);
			keep_first(&r, kt_file_writef(true, cmd, "%s/uprobe_events", tracefs_root));
		}
	}
	for (size_t i = 0; i < inst->nuprobes; i++)
		free(inst->uprobes[i].event);
	free(inst->uprobes);
	free(inst);
	return r;
}

/* Whether process pid runs (a zombie does not: its parent just did not reap it yet). */
static bool pid_alive(long pid)
{
	char path[64], buf[512], *rp;

	if (pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno != EPERM))
		return false;
	kt_fmt(path, sizeof(path), "/proc/%ld/stat", pid);
	if (kt_file_read(path, buf, sizeof(buf)) <= 0 || !(rp = strrchr(buf, ')')))
		return true;
	return rp[1] != ' ' || (rp[2] != 'Z' && rp[2] != 'X');
}

/* The owner pid at the end of "ltt-SESSION-PID", or -1. */
static long instance_owner(const char *name)
{
	const char *dash = strrchr(name, '-');
	char *end;
	long pid;

	if (strncmp(name, KT_INSTANCE_PREFIX, strlen(KT_INSTANCE_PREFIX)) != 0 || !dash ||
	    !dash[1])
		return -1;
	pid = strtol(dash + 1, &end, 10);
	return *end ? -1 : pid;
}

int kt_instance_cleanup_stale(unsigned *ret_removed, struct kt_error *err)
{
	char path[PATH_MAX], *text = NULL, *line, *save = NULL;
	const char *root;
	struct dirent *de;
	unsigned removed = 0;
	int r, first = 0;
	DIR *d;

	r = kt_tracefs_open(&root, err);
	if (r < 0)
		return r;
	kt_fmt(path, sizeof(path), "%s/instances", root);
	d = opendir(path);
	if (!d) {
		r = -errno;
		return kt_error_set(err, r, "cannot list %s: %s", path, strerror(-r));
	}
	while ((de = readdir(d))) {
		long pid = instance_owner(de->d_name);
		char ipath[PATH_MAX];

		if (pid < 0 || pid_alive(pid))
			continue;
		kt_fmt(ipath, sizeof(ipath), "%s/%s", path, de->d_name);
		kt_file_writef(false, "0", "%s/tracing_on", ipath);
		kt_file_writef(false, "0", "%s/events/enable", ipath);
		kt_file_writef(false, "nop", "%s/current_tracer", ipath);
		if (rmdir(ipath) < 0) {
			r = -errno;
			if (!first)
				first = kt_error_set(err, r, "cannot remove stale instance %s: %s",
						     ipath, strerror(-r));
			continue;
		}
		removed++;
	}
	closedir(d);

	/* uprobe groups ltt_PID of dead processes */
	kt_fmt(path, sizeof(path), "%s/uprobe_events", root);
	if (kt_file_read_all(path, &text, NULL) == 0) {
		char groups[64][32];
		size_t ng = 0;

		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *ev = strchr(line, ':'), *end;
			long pid;

			if (!ev || strncmp(ev + 1, "ltt_", 4) != 0)
				continue;
			pid = strtol(ev + 5, &end, 10);
			if (*end != '/' || pid_alive(pid) || ng == ARRAY_SIZE(groups))
				continue;
			kt_fmt(groups[ng++], sizeof(groups[0]), "ltt_%ld", pid);
		}
		for (size_t i = 0; i < ng; i++) {
			r = kt_uprobe_group_remove(groups[i]);
			if (r < 0 && !first)
				first = kt_error_set(err, r, "cannot remove stale uprobes %s: %s",
						     groups[i], strerror(-r));
		}
		free(text);
	}
	if (ret_removed)
		*ret_removed = removed;
	return first;
}
