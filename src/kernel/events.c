/*
 * events.c - which kernel events an instance records: tracepoints by name
 * or glob (tracefs and LTTng spellings), syscalls, kernel filters, uprobes,
 * the function tracer; and the listings of what the kernel offers.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kernel-internal.h"

/* Systems that are not events one enables ("ftrace": the tracers' records). */
static bool skip_system(const char *s)
{
	return s[0] == '.' || strcmp(s, "ftrace") == 0 || strcmp(s, "enable") == 0 ||
	       strcmp(s, "filter") == 0 || strncmp(s, "header_", 7) == 0;
}

/*
 * Splits pattern into system and event globs: "sys:ev", "sys/ev", or a
 * bare "ev" (sys = NULL: every system, LTTng names too).
 */
static void split_pattern(const char *pattern, char *sys, size_t ssz, const char **ev)
{
	const char *sep = strpbrk(pattern, ":/");

	if (!sep) {
		sys[0] = '\0';
		*ev = pattern;
		return;
	}
	kt_fmt(sys, ssz, "%.*s", (int)(sep - pattern), pattern);
	*ev = sep + 1;
}

typedef int (*event_fn)(const char *events_dir, const char *sys, const char *ev, void *arg);

/*
 * Calls fn for each event of the instance matching pattern; returns the
 * number of matches or fn's first error.
 */
static int for_each_match(struct kt_instance *inst, const char *pattern, event_fn fn,
			  void *arg)
{
	char dir[PATH_MAX], sdir[PATH_MAX], sysglob[128];
	bool all = strcmp(pattern, "*") == 0 || strcmp(pattern, "all") == 0;
	const char *evglob;
	struct dirent *sd, *ed;
	DIR *d, *e;
	int n = 0, r;

	split_pattern(pattern, sysglob, sizeof(sysglob), &evglob);
	kt_fmt(dir, sizeof(dir), "%s/events", inst->path);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((sd = readdir(d))) {
		bool bare = !sysglob[0];

		if (skip_system(sd->d_name) || sd->d_type == DT_REG)
			continue;
		if (!bare && fnmatch(sysglob, sd->d_name, 0) != 0)
			continue;
		/* bare globs and "all" leave the syscalls to kt_instance_enable_syscalls */
		if ((all || (bare && strchr(evglob, '*'))) && strcmp(sd->d_name, "syscalls") == 0)
			continue;
		kt_fmt(sdir, sizeof(sdir), "%s/%s", dir, sd->d_name);
		e = opendir(sdir);
		if (!e)
			continue;
		while ((ed = readdir(e))) {
			char lname[256];

			if (ed->d_name[0] == '.' || ed->d_type == DT_REG)
				continue;
			if (!all) {
				bool m = fnmatch(evglob, ed->d_name, 0) == 0;

				if (!m && bare) {
					kt_lttng_event_name(sd->d_name, ed->d_name, lname,
							    sizeof(lname));
					m = fnmatch(evglob, lname, 0) == 0;
				}
				if (!m)
					continue;
			}
			r = fn(dir, sd->d_name, ed->d_name, arg);
			if (r < 0) {
				closedir(e);
				closedir(d);
				return r;
			}
			n++;
		}
		closedir(e);
	}
	closedir(d);
	return n;
}

static int set_enable(const char *dir, const char *sys, const char *ev, void *arg)
{
	int r = kt_file_writef(false, arg, "%s/%s/%s/enable", dir, sys, ev);

	return r == -ENOENT ? 0 : r;	/* events without an enable file */
}

static int enable_common(struct kt_instance *inst, const char *pattern, const char *v,
			 struct kt_error *err)
{
	int n;

	if (!pattern || !*pattern)
		return kt_error_set(err, -EINVAL, "empty event name");
	n = for_each_match(inst, pattern, set_enable, (void *)v);
	if (n < 0)
		return kt_error_set(err, n, "instance '%s': cannot %s '%s': %s", inst->name,
				    *v == '1' ? "enable" : "disable", pattern, strerror(-n));
	if (n == 0)
		return kt_error_set(err, -ENOENT, "no kernel event matches '%s'", pattern);
	return n;
}

int kt_instance_enable_events(struct kt_instance *inst, const char *pattern,
			      struct kt_error *err)
{
	return enable_common(inst, pattern, "1", err);
}

int kt_instance_disable_events(struct kt_instance *inst, const char *pattern,
			       struct kt_error *err)
{
	return enable_common(inst, pattern, "0", err);
}

int kt_instance_enable_syscalls(struct kt_instance *inst, const char *name,
				struct kt_error *err)
{
	char pat[300];
	int a, b;

	if (!name || !*name || strcmp(name, "all") == 0)
		name = "*";
	kt_fmt(pat, sizeof(pat), "syscalls:sys_enter_%s", name);
	a = for_each_match(inst, pat, set_enable, "1");
	kt_fmt(pat, sizeof(pat), "syscalls:sys_exit_%s", name);
	b = a < 0 ? 0 : for_each_match(inst, pat, set_enable, "1");
	if (a < 0 || b < 0)
		return kt_error_set(err, a < 0 ? a : b, "instance '%s': cannot enable syscall '%s': %s",
				    inst->name, name, strerror(-(a < 0 ? a : b)));
	if (a + b == 0)
		return kt_error_set(err, -ENOENT, "no syscall matches '%s'", name);
	return a + b;
}

struct filter_arg {
	const char *expr;
	struct kt_error *err;
	char pattern_ev[256];
};

/*
 * The expression in the kernel's field names: LTTng's names of sched
 * fields (tid, X_tid) become the kernel's (pid, X_pid), and `tid` of an
 * event without such a field is the record's common_pid. Identifiers in
 * quotes are left alone. Returns a malloc'ed string or NULL.
 */
static char *kernel_filter(const char *expr, const struct kt_event_format *fmt)
{
	size_t len = strlen(expr), cap = len * 2 + 64, o = 0;
	bool sched = fmt && fmt->system && strcmp(fmt->system, "sched") == 0;
	char *out = malloc(cap), q = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		char c = expr[i];

		if (q) {
			out[o++] = c;
			if (c == '\\' && i + 1 < len)
				out[o++] = expr[++i];
			else if (c == q)
				q = 0;
			i++;
			continue;
		}
		if (c == '"' || c == '\'') {
			q = c;
			out[o++] = c;
			i++;
			continue;
		}
		if (c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
			size_t j = i;
			char id[128], alt[160];
			const char *use = id;

			while (j < len && (expr[j] == '_' || (expr[j] >= 'a' && expr[j] <= 'z') ||
					   (expr[j] >= 'A' && expr[j] <= 'Z') ||
					   (expr[j] >= '0' && expr[j] <= '9')))
				j++;
			kt_fmt(id, sizeof(id), "%.*s", (int)(j - i), expr + i);
			if (fmt && kt_event_format_field(fmt, id) < 0) {
				size_t n = strlen(id);

				if (strcmp(id, "tid") == 0)
					use = sched && kt_event_format_field(fmt, "pid") >= 0 ? "pid" :
					      "common_pid";
				else if (sched && n > 4 && strcmp(id + n - 4, "_tid") == 0) {
					kt_fmt(alt, sizeof(alt), "%.*s_pid", (int)(n - 4), id);
					if (kt_event_format_field(fmt, alt) >= 0)
						use = alt;
				}
			}
			if (o + strlen(use) + 1 >= cap) {
				free(out);
				return NULL;
			}
			memcpy(out + o, use, strlen(use));
			o += strlen(use);
			i = j;
			continue;
		}
		out[o++] = c;
		i++;
		if (o + 1 >= cap) {
			free(out);
			return NULL;
		}
	}
	out[o] = '\0';
	return out;
}

static int set_filter(const char *dir, const char *sys, const char *ev, void *arg)
{
	struct filter_arg *fa = arg;
	struct kt_event_format *fmt = NULL;
	char path[PATH_MAX], msg[512], *text = NULL, *kexpr;
	size_t len;
	int r;

	kt_fmt(path, sizeof(path), "%s/%s/%s/format", dir, sys, ev);
	if (kt_file_read_all(path, &text, &len) == 0) {
		if (kt_event_format_parse(text, len, sys, &fmt) < 0)
			fmt = NULL;
		free(text);
	}
	kexpr = kernel_filter(fa->expr, fmt);
	kt_event_format_free(fmt);
	if (!kexpr)
		return -ENOMEM;
	kt_fmt(path, sizeof(path), "%s/%s/%s/filter", dir, sys, ev);
	r = kt_file_write(path, kexpr, false);
	free(kexpr);
	if (r == 0)
		return 0;
	/* The kernel explains a refused filter in the filter file itself. */
	if (kt_file_read(path, msg, sizeof(msg)) > 0) {
		for (char *p = msg; *p; p++)
			if (*p == '\n')
				*p = ' ';
	} else {
		msg[0] = '\0';
	}
	return kt_error_set(fa->err, r, "kernel filter '%s' refused for %s:%s (%s)%s%s", fa->expr,
			    sys, ev, strerror(-r), msg[0] ? ": " : "", msg);
}

int kt_instance_set_filter(struct kt_instance *inst, const char *pattern, const char *expr,
			   struct kt_error *err)
{
	struct filter_arg fa = { .expr = expr, .err = err };
	int n;

	if (!expr)
		return kt_error_set(err, -EINVAL, "no filter expression");
	n = for_each_match(inst, pattern, set_filter, &fa);
	if (n == 0)
		return kt_error_set(err, -ENOENT, "no kernel event matches '%s'", pattern);
	return n;
}

/* ---- uprobes ---- */

int kt_instance_add_uprobe(struct kt_instance *inst, const char *spec, const char *fetchargs,
			   struct kt_error *err)
{
	char path[PATH_MAX], sym[128], ev[160], group[64], cmd[PATH_MAX + 512], full[256];
	const char *colon = spec ? strrchr(spec, ':') : NULL;
	struct kt_uprobe *nu;
	uint64_t off;
	char *end;
	int r;

	if (!colon || colon == spec || !colon[1])
		return kt_error_set(err, -EINVAL, "userspace probe '%s' is not ELF:SYMBOL",
				    spec ? spec : "(null)");
	kt_fmt(path, sizeof(path), "%.*s", (int)(colon - spec), spec);
	kt_fmt(sym, sizeof(sym), "%s", colon + 1);
	if (strncmp(sym, "0x", 2) == 0) {
		off = strtoull(sym, &end, 16);
		if (*end)
			return kt_error_set(err, -EINVAL, "bad offset in '%s'", spec);
	} else {
		r = kt_elf_symbol_offset(path, sym, &off);
		if (r < 0)
			return kt_error_set(err, r, "cannot resolve '%s' in %s: %s", sym, path,
					    r == -ENOENT ? "no such file or symbol" :
					    r == -ENOEXEC ? "not an ELF64 file" : strerror(-r));
	}
	/* event name: the symbol, made an identifier, unique in our group */
	kt_fmt(ev, sizeof(ev), "%s", sym);
	for (char *p = ev; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			*p = '_';
	if (ev[0] >= '0' && ev[0] <= '9')
		ev[0] = '_';
	kt_uprobe_group(getpid(), group, sizeof(group));
	for (unsigned i = 0;; i++) {
		char dir[PATH_MAX];

		if (i)
			kt_fmt(full, sizeof(full), "%s/%s_%u", group, ev, i);
		else
			kt_fmt(full, sizeof(full), "%s/%s", group, ev);
		kt_fmt(dir, sizeof(dir), "%s/events/%s", kt_tracefs_root(), full);
		if (access(dir, F_OK) != 0)
			break;
		if (i > 1000)
			return kt_error_set(err, -EEXIST, "too many uprobes on %s", sym);
	}
	kt_fmt(cmd, sizeof(cmd), "p:%s %s:0x%llx%s%s", full, path, (unsigned long long)off,
		 fetchargs ? " " : "", fetchargs ? fetchargs : "");
	kt_fmt(path, sizeof(path), "%s/uprobe_events", kt_tracefs_root());
	if (access(path, F_OK) != 0)
		return kt_error_set(err, -EOPNOTSUPP,
				    "this kernel has no uprobe_events (CONFIG_UPROBE_EVENTS)");
	r = kt_file_write(path, cmd, true);
	if (r < 0)
		return kt_error_set(err, r, "the kernel refused the uprobe '%s': %s", cmd,
				    strerror(-r));
	nu = realloc(inst->uprobes, (inst->nuprobes + 1) * sizeof(*nu));
	if (!nu) {
		kt_fmt(cmd, sizeof(cmd), "-:%s", full);
		kt_file_write(path, cmd, true);
		return -ENOMEM;
	}
	inst->uprobes = nu;
	nu[inst->nuprobes].event = strdup(full);
	if (!nu[inst->nuprobes].event) {
		kt_fmt(cmd, sizeof(cmd), "-:%s", full);
		kt_file_write(path, cmd, true);
		return -ENOMEM;
	}
	inst->nuprobes++;
	r = kt_file_writef(false, "1", "%s/events/%s/enable", inst->path, full);
	if (r < 0)
		return kt_error_set(err, r, "cannot enable uprobe %s: %s", full, strerror(-r));
	return 0;
}

/* ---- the function tracer ---- */

int kt_instance_enable_function(struct kt_instance *inst, const char *function,
				struct kt_error *err)
{
	char kprobes[PATH_MAX];
	bool have_kprobes;
	int r;

	kt_fmt(kprobes, sizeof(kprobes), "%s/kprobe_events", kt_tracefs_root());
	have_kprobes = access(kprobes, F_OK) == 0;
	r = kt_file_writef(false, function, "%s/set_ftrace_filter", inst->path);
	if (r == 0) {
		r = kt_file_writef(false, "function", "%s/current_tracer", inst->path);
		if (r == 0) {
			inst->function_tracer = true;
			return 0;
		}
		kt_file_writef(false, "", "%s/set_ftrace_filter", inst->path);
	}
	if (r == -EPERM)
		return kt_error_set(err, r,
				    "function tracing of '%s' is refused by this kernel: the function "
				    "tracer gives EPERM (the kernel is in lockdown mode, which forbids "
				    "ftrace function hooks)%s; it would need a kernel without lockdown "
				    "(lockdown=none, no CONFIG_LOCK_DOWN_KERNEL_FORCE_*)%s",
				    function,
				    have_kprobes ? "" : " and there are no kprobes (no kprobe_events: "
				    "CONFIG_KPROBE_EVENTS is not set)",
				    have_kprobes ? "" : ", or kprobes (CONFIG_KPROBES, "
				    "CONFIG_KPROBE_EVENTS) for entry/return probes");
	if (r == -ENOENT)
		return kt_error_set(err, r,
				    "function tracing of '%s' is not available: no set_ftrace_filter "
				    "(CONFIG_FUNCTION_TRACER, CONFIG_DYNAMIC_FTRACE)%s", function,
				    have_kprobes ? "" : " and no kprobes (CONFIG_KPROBE_EVENTS)");
	if (r == -EINVAL)
		return kt_error_set(err, r, "function '%s' is not traceable (not in "
				    "available_filter_functions)", function);
	return kt_error_set(err, r, "cannot trace function '%s': %s", function, strerror(-r));
}

int kt_instance_for_each_enabled(struct kt_instance *inst,
				 int (*cb)(const char *system, const char *name, void *arg),
				 void *arg)
{
	char path[PATH_MAX], *text = NULL, *line, *save = NULL;
	int r;

	kt_fmt(path, sizeof(path), "%s/set_event", inst->path);
	r = kt_file_read_all(path, &text, NULL);
	if (r < 0)
		return r;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		r = cb(line, colon + 1, arg);
		if (r)
			break;
	}
	free(text);
	return r;
}

/* ---- listing ---- */

int kt_list_events(bool syscalls_only, int (*cb)(const char *name, void *arg), void *arg,
		   struct kt_error *err)
{
	char path[PATH_MAX], *text = NULL, *line, *save = NULL;
	const char *root;
	int r;

	r = kt_tracefs_open(&root, err);
	if (r < 0)
		return r;
	kt_fmt(path, sizeof(path), "%s/available_events", root);
	r = kt_file_read_all(path, &text, NULL);
	if (r < 0)
		return kt_error_set(err, r, "cannot read %s: %s", path, strerror(-r));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (syscalls_only) {
			if (strncmp(line, "syscalls:sys_enter_", 19) != 0)
				continue;
			r = cb(line + 19, arg);
		} else {
			r = cb(line, arg);
		}
		if (r)
			break;
	}
	free(text);
	return r;
}
