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
 * Groups of dynamic events (uprobes, kprobes...: ours are ltt_PID, global
 * to tracefs): a session gets them by naming them, never through a bare
 * name or a glob meant for tracepoints.
 */
static bool dynamic_group(const char *s)
{
	static const char *const groups[] = { "uprobes", "kprobes", "eprobes", "fprobes",
					      "tracepoint", "synthetic" };

	if (strncmp(s, "ltt_", 4) == 0)
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(groups); i++)
		if (strcmp(s, groups[i]) == 0)
			return true;
	return false;
}

/*
 * Splits pattern into system and event globs: "sys:ev", "sys/ev", or a
 * bare "ev" (sys = "": every system, LTTng names too).
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

bool kt_event_matches(const char *pattern, const char *system, const char *name)
{
	bool all = strcmp(pattern, "*") == 0 || strcmp(pattern, "all") == 0;
	char sysglob[128], lname[256];
	const char *evglob;

	if (skip_system(system))
		return false;
	split_pattern(pattern, sysglob, sizeof(sysglob), &evglob);
	if (sysglob[0])
		return fnmatch(sysglob, system, 0) == 0 && fnmatch(evglob, name, 0) == 0;
	if (dynamic_group(system))
		return false;
	/* bare globs and "all" leave the syscalls to kt_instance_enable_syscalls */
	if ((all || strchr(evglob, '*')) && strcmp(system, "syscalls") == 0)
		return false;
	if (all || fnmatch(evglob, name, 0) == 0)
		return true;
	kt_lttng_event_name(system, name, lname, sizeof(lname));
	return fnmatch(evglob, lname, 0) == 0;
}

typedef int (*event_fn)(const char *events_dir, const char *sys, const char *ev, void *arg);

/*
 * Calls fn for each event of the instance matching pattern; returns the
 * number of matches or fn's first error.
 */
static int for_each_match(struct kt_instance *inst, const char *pattern, event_fn fn,
			  void *arg)
{
	char dir[PATH_MAX], sdir[PATH_MAX];
	struct dirent *sd, *ed;
	DIR *d, *e;
	int n = 0, r;

	kt_fmt(dir, sizeof(dir), "%s/events", inst->path);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((sd = readdir(d))) {
		if (skip_system(sd->d_name) || sd->d_type == DT_REG)
			continue;
		kt_fmt(sdir, sizeof(sdir), "%s/%s", dir, sd->d_name);
		e = opendir(sdir);
		if (!e)
			continue;
		while ((ed = readdir(e))) {
			if (ed->d_name[0] == '.' || ed->d_type == DT_REG ||
			    !kt_event_matches(pattern, sd->d_name, ed->d_name))
				continue;
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

struct each_arg {
	int (*cb)(const char *system, const char *name, void *arg);
	void *arg;
};

static int call_each(const char *dir, const char *sys, const char *ev, void *arg)
{
	struct each_arg *ea = arg;

	(void)dir;
	return ea->cb(sys, ev, ea->arg);
}

int kt_instance_for_each_event(struct kt_instance *inst, const char *pattern,
			       int (*cb)(const char *system, const char *name, void *arg),
			       void *arg, struct kt_error *err)
{
	struct each_arg ea = { cb, arg };
	int n;

	if (!pattern || !*pattern)
		return kt_error_set(err, -EINVAL, "empty event name");
	n = for_each_match(inst, pattern, call_each, &ea);
	if (n == 0)
		return kt_error_set(err, -ENOENT, "no kernel event matches '%s'", pattern);
	return n;
}

int kt_instance_event_enable(struct kt_instance *inst, const char *system, const char *name,
			     bool on, struct kt_error *err)
{
	int r = kt_file_writef(false, on ? "1" : "0", "%s/events/%s/%s/enable", inst->path,
			       system, name);

	if (r < 0)
		return kt_error_set(err, r, "instance '%s': cannot %s %s:%s: %s", inst->name,
				    on ? "enable" : "disable", system, name, strerror(-r));
	return 0;
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

/*
 * ---- kernel filters ----
 *
 * An LTTng filter expression in the kernel's grammar, for one event. The
 * kernel takes predicates FIELD OP VALUE (== != < <= > >= & and ~, its glob
 * match) joined by && || ! and parentheses; within that, LTTng's
 * expressions mean the same thing. Translated: LTTng's field names of
 * sched events (tid, X_tid) to the kernel's (pid, X_pid), `tid` of other
 * events to common_pid, $ctx.tid/vtid to common_pid, $ctx.procname to COMM
 * (the current task's name), $ctx.cpu_id to CPU, and a comparison with a
 * string holding LTTng's `*` wildcard to the kernel's glob match. Refused
 * (-EOPNOTSUPP, to be filtered in the consumer): LTTng's other contexts,
 * the operators the kernel does not have (| ^ << >> and ~ as bitwise not,
 * + and - but a negative number), nested fields (a.b, a[1]), string
 * escapes and the characters the kernel's glob treats specially (? [).
 * What the kernel refuses beyond that (a field the event does not have, a
 * constant on the left...) it reports itself (-EINVAL).
 */

struct out {
	char *s;
	size_t len, cap;
};

static int out_put(struct out *o, const char *p, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		size_t cap = (o->len + n + 1) * 2;
		char *g = realloc(o->s, cap);

		if (!g)
			return -ENOMEM;
		o->s = g;
		o->cap = cap;
	}
	memcpy(o->s + o->len, p, n);
	o->len += n;
	o->s[o->len] = '\0';
	return 0;
}

static bool ident_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* The kernel's name of an LTTng field name of event fmt (may be id itself). */
static const char *kernel_field(const char *id, const struct kt_event_format *fmt, char *buf,
				size_t size)
{
	bool sched = fmt && fmt->system && strcmp(fmt->system, "sched") == 0;
	size_t n = strlen(id);

	if (!fmt || kt_event_format_field(fmt, id) >= 0)
		return id;
	if (strcmp(id, "tid") == 0)
		return sched && kt_event_format_field(fmt, "pid") >= 0 ? "pid" : "common_pid";
	if (sched && n > 4 && strcmp(id + n - 4, "_tid") == 0) {
		kt_fmt(buf, size, "%.*s_pid", (int)(n - 4), id);
		if (kt_event_format_field(fmt, buf) >= 0)
			return buf;
	}
	return id;
}

/* The kernel's spelling of $ctx.NAME, or NULL. */
static const char *kernel_context(const char *name)
{
	if (strcmp(name, "tid") == 0 || strcmp(name, "vtid") == 0)
		return "common_pid";
	if (strcmp(name, "procname") == 0)
		return "COMM";
	if (strcmp(name, "cpu_id") == 0)
		return "CPU";
	return NULL;
}

/* One token of the output: where it starts, what it is. */
struct tok {
	size_t at;		/* offset in the output */
	char kind;		/* 'f' field, 'o' operator, 'v' value */
	char text[80];		/* fields and operators: their output text */
};

int kt_filter_translate(const char *expr, const struct kt_event_format *fmt, char **ret,
			struct kt_error *err)
{
	static const char *const ops[] = { "&&", "||", "==", "!=", "<=", ">=", "<", ">", "!",
					   "(", ")", "&" };
	struct out o = { 0 };
	struct tok prev[2] = { { 0 } };	/* the two tokens before this one */
	size_t len = strlen(expr);
	int r = 0;

	for (size_t i = 0; i < len && r == 0;) {
		struct tok t = { .at = o.len };
		char c = expr[i], buf[160];
		size_t j = i + 1;

		if (c == ' ' || c == '\t' || c == '\n') {
			i++;
			continue;
		}
		if (c == '"') {
			bool glob = false, ne;

			for (; j < len && expr[j] != '"'; j++) {
				if (expr[j] == '\\' || expr[j] == '?' || expr[j] == '[')
					goto unsupported_string;
				glob |= expr[j] == '*';
			}
			if (j++ == len)
				goto unsupported_string;
			t.kind = 'v';
			if (!glob) {
				r = out_put(&o, expr + i, j - i);
			} else {
				/* FIELD == "a*" -> FIELD ~ "a*"; FIELD != "a*" -> !(FIELD ~ "a*") */
				if (prev[1].kind != 'o' || prev[0].kind != 'f' ||
				    (strcmp(prev[1].text, "==") && strcmp(prev[1].text, "!=")))
					goto unsupported_string;
				ne = prev[1].text[0] == '!';
				o.len = prev[0].at;
				r = out_put(&o, ne ? "!(" : "", ne ? 2 : 0);
				if (!r)
					r = out_put(&o, prev[0].text, strlen(prev[0].text));
				if (!r)
					r = out_put(&o, " ~ ", 3);
				if (!r)
					r = out_put(&o, expr + i, j - i);
				if (!r && ne)
					r = out_put(&o, ")", 1);
			}
		} else if (c == '$' || ident_char(c, true)) {
			const char *k;

			while (j < len && (ident_char(expr[j], false) || (c == '$' && expr[j] == '.')))
				j++;
			kt_fmt(buf, sizeof(buf), "%.*s", (int)(j - i), expr + i);
			if (c == '$' && (strncmp(buf, "$ctx.", 5) != 0 ||
					 !(k = kernel_context(buf + 5)))) {
				r = kt_error_set(err, -EOPNOTSUPP, "the kernel cannot filter on %s", buf);
				break;
			}
			if (c != '$' && j < len && (expr[j] == '.' || expr[j] == '[')) {
				r = kt_error_set(err, -EOPNOTSUPP, "the kernel has no nested fields");
				break;
			}
			if (c != '$')
				k = kernel_field(buf, fmt, buf + 80, 80);
			t.kind = 'f';
			kt_fmt(t.text, sizeof(t.text), "%s", k);
			r = out_put(&o, k, strlen(k));
		} else if ((c >= '0' && c <= '9') ||
			   (c == '-' && j < len && expr[j] >= '0' && expr[j] <= '9')) {
			while (j < len && (ident_char(expr[j], false) || expr[j] == '.'))
				j++;
			t.kind = 'v';
			r = out_put(&o, expr + i, j - i);
		} else {
			size_t k, n = 0;

			for (k = 0; k < ARRAY_SIZE(ops); k++) {
				n = strlen(ops[k]);
				if (strncmp(expr + i, ops[k], n) == 0)
					break;
			}
			/* LTTng's | ^ ~ << >> + - (bitwise, arithmetic): not the kernel's */
			if (k == ARRAY_SIZE(ops) || (n == 1 && (c == '<' || c == '>') && expr[j] == c)) {
				r = kt_error_set(err, -EOPNOTSUPP, "the kernel has no operator '%.*s'",
						 (c == '<' || c == '>') && expr[j] == c ? 2 : 1, expr + i);
				break;
			}
			j = i + n;
			t.kind = 'o';
			kt_fmt(t.text, sizeof(t.text), "%s", ops[k]);
			r = out_put(&o, ops[k], n);
		}
		if (!r)
			r = out_put(&o, " ", 1);
		prev[0] = prev[1];
		prev[1] = t;
		i = j;
	}
	if (r == 0 && !o.s)
		r = out_put(&o, "", 0);
	if (r < 0) {
		free(o.s);
		return r;
	}
	while (o.len && o.s[o.len - 1] == ' ')
		o.s[--o.len] = '\0';
	*ret = o.s;
	return 0;
unsupported_string:
	free(o.s);
	return kt_error_set(err, -EOPNOTSUPP,
			    "the kernel matches this string differently (escapes, ? or [, or a "
			    "wildcard outside FIELD == \"...\" or FIELD != \"...\")");
}

/* Reads the kernel's explanation of a refused filter (the filter file says it). */
static void refused_reason(const char *path, char *msg, size_t size)
{
	if (kt_file_read(path, msg, size) > 0) {
		for (char *p = msg; *p; p++)
			if (*p == '\n')
				*p = ' ';
	} else {
		msg[0] = '\0';
	}
}

int kt_instance_event_filter(struct kt_instance *inst, const char *system, const char *name,
			     const char *expr, struct kt_error *err)
{
	struct kt_event_format *fmt = NULL;
	char path[PATH_MAX], msg[512], *kexpr = NULL;
	int r;

	kt_fmt(path, sizeof(path), "%s/events/%s/%s/filter", inst->path, system, name);
	if (!expr) {
		r = kt_file_write(path, "0", false);	/* "0" clears it */
		if (r < 0)
			return kt_error_set(err, r, "cannot clear the filter of %s:%s: %s", system,
					    name, strerror(-r));
		return 0;
	}
	if (kt_event_format_load(system, name, &fmt) < 0)
		fmt = NULL;
	r = kt_filter_translate(expr, fmt, &kexpr, err);
	kt_event_format_free(fmt);
	if (r < 0)
		return r;
	r = kt_file_write(path, kexpr, false);
	free(kexpr);
	if (r == 0)
		return 0;
	refused_reason(path, msg, sizeof(msg));
	kt_file_write(path, "0", false);
	return kt_error_set(err, r, "kernel filter '%s' refused for %s:%s (%s)%s%s", expr, system,
			    name, strerror(-r), msg[0] ? ": " : "", msg);
}

struct filter_arg {
	struct kt_instance *inst;
	const char *expr;
	struct kt_error *err;
};

static int set_filter(const char *dir, const char *sys, const char *ev, void *arg)
{
	struct filter_arg *fa = arg;

	(void)dir;
	return kt_instance_event_filter(fa->inst, sys, ev, fa->expr, fa->err);
}

int kt_instance_set_filter(struct kt_instance *inst, const char *pattern, const char *expr,
			   struct kt_error *err)
{
	struct filter_arg fa = { .inst = inst, .expr = expr, .err = err };
	int n;

	if (!expr)
		return kt_error_set(err, -EINVAL, "no filter expression");
	n = for_each_match(inst, pattern, set_filter, &fa);
	if (n == 0)
		return kt_error_set(err, -ENOENT, "no kernel event matches '%s'", pattern);
	return n;
}

/* ---- uprobes ---- */

int kt_instance_add_uprobe(struct kt_instance *inst, const char *spec, const char *name,
			   const char *fetchargs, char *ret_event, size_t size,
			   struct kt_error *err)
{
	char path[PATH_MAX], sym[128], ev[160], group[64], cmd[PATH_MAX + 512], full[256];
	const char *colon;
	struct kt_uprobe *nu;
	uint64_t off;
	char *end;
	int r;

	if (spec && strncmp(spec, "sdt:", 4) == 0)
		return kt_error_set(err, -EOPNOTSUPP, "userspace probe '%s': SDT probes are not "
				    "supported, only elf:PATH:SYMBOL", spec);
	if (spec && strncmp(spec, "elf:", 4) == 0)
		spec += 4;
	colon = spec ? strrchr(spec, ':') : NULL;
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
	/* event name: the given name or the symbol, made an identifier, unique in our group */
	kt_fmt(ev, sizeof(ev), "%s", name && *name ? name : sym);
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
	if (ret_event)
		kt_fmt(ret_event, size, "%s", full);
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

int kt_instance_disable_function(struct kt_instance *inst, struct kt_error *err)
{
	int r = kt_file_writef(false, "nop", "%s/current_tracer", inst->path);

	if (r == 0)
		r = kt_file_writef(false, "", "%s/set_ftrace_filter", inst->path);
	if (r < 0)
		return kt_error_set(err, r, "instance '%s': cannot stop the function tracer: %s",
				    inst->name, strerror(-r));
	inst->function_tracer = false;
	return 0;
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
