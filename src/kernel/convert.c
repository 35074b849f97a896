/*
 * convert.c - kernel records to CTF, with LTTng's kernel names.
 *
 * One CTF trace (the kernel/ directory of a session), one stream class
 * (LTTng's packet header and context; the compact event header when the
 * session declares fewer than 31 events, as lttng-modules does, else the
 * large one), one stream per CPU (CHANNEL_CPU), and an event class per
 * tracefs event, generated from its format file:
 *
 *   event name   kt_lttng_event_name(): syscalls:sys_enter_X ->
 *                syscall_entry_X, sys_exit_X -> syscall_exit_X; SYSTEM:NAME
 *                -> NAME when it starts with SYSTEM_, else SYSTEM_NAME
 *                (irq:softirq_entry -> irq_softirq_entry, kmem:kmalloc ->
 *                kmem_kmalloc, timer:hrtimer_start -> timer_hrtimer_start).
 *   fields       the format's fields but the common_* header and the
 *                syscalls' __syscall_nr, in order; in sched:* events
 *                `pid` is LTTng's `tid` and `X_pid` is `X_tid`;
 *                sched_process_fork also gets parent_pid and child_pid (the
 *                thread group ids: /proc, else the kernel's saved_tgids,
 *                else the tid).
 *   types        integers as the kernel declares them (size, signedness),
 *                pointers as hex u64, char arrays and __data_loc/__rel_loc
 *                char[] as strings, other arrays as integer arrays, other
 *                __data_loc as a sequence with a NAME_length field before.
 *   context      every event carries the stream event context { tid }
 *                (the record's common_pid): kernel records say who emitted
 *                them, and syscall events are useless without it; then the
 *                contexts the channel asked for (pid, procname, prio,
 *                cpu_id: threads.c).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "kernel/kernel-internal.h"
#include "ctf/ctf-clock.h"
#include "ltt-config.h"

#define MAX_IDS 65536
#define SCRATCH_BYTES (4 * 65536)	/* a packed record: at most its bytes, NULs, lengths */

char *kt_lttng_event_name(const char *system, const char *name, char *buf, size_t size)
{
	size_t sl = strlen(system);

	if (strcmp(system, "syscalls") == 0 && strncmp(name, "sys_enter_", 10) == 0)
		kt_fmt(buf, size, "syscall_entry_%s", name + 10);
	else if (strcmp(system, "syscalls") == 0 && strncmp(name, "sys_exit_", 9) == 0)
		kt_fmt(buf, size, "syscall_exit_%s", name + 9);
	else if (strncmp(system, "ltt_", 4) == 0)
		kt_fmt(buf, size, "%s", name);	/* our uprobes: the symbol */
	else if (strncmp(name, system, sl) == 0 && name[sl] == '_')
		kt_fmt(buf, size, "%s", name);
	else
		kt_fmt(buf, size, "%s_%s", system, name);
	return buf;
}

/* The LTTng name of a field of event system:event, into buf. */
static const char *lttng_field_name(const char *system, const char *name, char *buf,
				    size_t size)
{
	size_t n = strlen(name);

	if (system && strcmp(system, "sched") == 0) {
		if (strcmp(name, "pid") == 0)
			return "tid";
		if (n > 4 && strcmp(name + n - 4, "_pid") == 0) {
			kt_fmt(buf, size, "%.*s_tid", (int)(n - 4), name);
			return buf;
		}
	}
	if (!ctf_is_identifier(name)) {
		/* TSDL keywords ("event", "string"...) and odd spellings */
		size_t j = 0;

		for (size_t i = 0; name[i] && j + 2 < size; i++)
			buf[j++] = isalnum((unsigned char)name[i]) ? name[i] : '_';
		if (j && isdigit((unsigned char)buf[0]))
			buf[0] = '_';
		buf[j++] = '_';
		buf[j] = '\0';
		return buf;
	}
	return name;
}

static int int_type(unsigned bits, bool is_signed, unsigned base, struct ctf_type **ret)
{
	struct ctf_int_params p = { .size = bits, .align = 8, .is_signed = is_signed,
				    .base = base };

	return ctf_type_int_create(&p, ret);
}

static int field_type(const struct kt_field *f, struct ctf_type **ret)
{
	struct ctf_type *elem = NULL;
	int r;

	switch (f->kind) {
	case KT_FIELD_INT:
		return int_type(f->size * 8, f->is_signed, 10, ret);
	case KT_FIELD_POINTER:
		return int_type(f->size * 8, false, 16, ret);
	case KT_FIELD_STRING:
		return ctf_type_string_create(CTF_ENC_UTF8, ret);
	case KT_FIELD_DATA_LOC:
	case KT_FIELD_REL_LOC:
		if (f->is_string)
			return ctf_type_string_create(CTF_ENC_UTF8, ret);
		return -EAGAIN;	/* a sequence: built by the caller */
	case KT_FIELD_ARRAY:
		r = int_type(f->elem_size * 8, f->is_signed && f->elem_size > 1,
			     f->elem_size == 1 ? 16 : 10, &elem);
		if (r < 0)
			return r;
		return ctf_type_array_create(elem, f->size / f->elem_size, ret);
	}
	return -EINVAL;
}

static int add_slot(struct kt_conv_event *ce, enum kt_src_kind kind, int src)
{
	struct kt_slot *ns = realloc(ce->slots, (ce->nslots + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	ce->slots = ns;
	ns[ce->nslots].kind = kind;
	ns[ce->nslots].src = src;
	ce->nslots++;
	return 0;
}

static void conv_event_free(struct kt_conv_event *ce)
{
	if (!ce)
		return;
	kt_event_format_free(ce->fmt);
	kt_record_filter_free(ce->filter);
	free(ce->slots);
	free(ce);
}

static int ensure_stream_class(struct kt_converter *c, struct kt_error *err)
{
	struct ctf_type *ctx = NULL;
	struct ctf_error cerr;
	int r;

	if (c->stream_class_added)
		return 0;
	r = kt_context_type(c, &ctx);
	if (r < 0)
		return r;
	r = ctf_trace_add_stream_class(c->trace, 0, c->header, c->clock_name, ctx, &cerr, NULL);
	if (r < 0)
		return kt_error_set(err, r, "kernel stream class: %s", cerr.msg);
	c->stream_class_added = true;
	return 0;
}

/* Builds the event class of fmt (owned by ce on success), named ctf_name or LTTng's name. */
static int make_event(struct kt_converter *c, struct kt_event_format *fmt, const char *ctf_name,
		      struct kt_conv_event **ret, struct kt_error *err)
{
	const char *system = fmt->system ? fmt->system : "";
	bool syscall = strcmp(system, "syscalls") == 0;
	bool fork = strcmp(system, "sched") == 0 && strcmp(fmt->name, "sched_process_fork") == 0;
	struct ctf_event_class_desc d = { 0 };
	struct ctf_type *payload = NULL, *t = NULL;
	struct kt_conv_event *ce;
	struct ctf_error cerr;
	char name[256], fbuf[256], lbuf[300];
	int r;

	r = ensure_stream_class(c, err);
	if (r < 0)
		return r;
	ce = calloc(1, sizeof(*ce));
	if (!ce)
		return -ENOMEM;
	ce->pid_field = kt_event_format_field(fmt, "common_pid");
	r = ctf_type_struct_create(0, &payload);
	if (r < 0)
		goto err;
	for (size_t i = 0; i < fmt->nfields; i++) {
		const struct kt_field *f = &fmt->fields[i];
		const char *fname;

		if (f->common || (syscall && strcmp(f->name, "__syscall_nr") == 0))
			continue;
		fname = lttng_field_name(system, f->name, fbuf, sizeof(fbuf));
		if (ctf_type_struct_find(payload, fname) >= 0)
			fname = f->name;	/* a rename would collide: keep the kernel's */
		if (ctf_type_struct_find(payload, fname) >= 0)
			continue;
		r = field_type(f, &t);
		if (r == -EAGAIN) {
			/* __data_loc of integers: NAME_length then the sequence */
			struct ctf_type *len = NULL, *elem = NULL;

			kt_fmt(lbuf, sizeof(lbuf), "%s_length", fname);
			r = int_type(32, false, 10, &len);
			if (r < 0)
				goto err;
			r = ctf_type_struct_add(payload, lbuf, len);
			if (r < 0)
				goto err;
			r = add_slot(ce, KT_SRC_LENGTH, (int)i);
			if (r < 0)
				goto err;
			r = int_type(f->elem_size * 8, false, f->elem_size == 1 ? 16 : 10, &elem);
			if (r < 0)
				goto err;
			r = ctf_type_sequence_create(elem, lbuf, &t);
		}
		if (r < 0)
			goto err;
		r = ctf_type_struct_add(payload, fname, t);
		t = NULL;
		if (r < 0)
			goto err;
		r = add_slot(ce, KT_SRC_FIELD, (int)i);
		if (r < 0)
			goto err;
		if (fork && (strcmp(f->name, "parent_pid") == 0 || strcmp(f->name, "child_pid") == 0)) {
			/* LTTng's parent_pid / child_pid: the thread group ids */
			r = int_type(32, true, 10, &t);
			if (r < 0)
				goto err;
			r = ctf_type_struct_add(payload, f->name, t);
			t = NULL;
			if (r < 0)
				goto err;
			r = add_slot(ce, KT_SRC_TGID, (int)i);
			if (r < 0)
				goto err;
		}
	}
	if (ctf_name)
		kt_fmt(name, sizeof(name), "%s", ctf_name);
	else
		kt_lttng_event_name(system, fmt->name, name, sizeof(name));
	d.name = name;
	d.id = c->next_id;
	d.stream_id = 0;
	r = ctf_trace_add_event_class(c->trace, &d, payload, &cerr, &ce->ec);
	payload = NULL;
	if (r < 0) {
		kt_error_set(err, r, "event %s:%s: %s", system, fmt->name, cerr.msg);
		goto err;
	}
	c->next_id++;
	ce->fmt = fmt;
	kt_threads_watch(ce);
	*ret = ce;
	return 0;
err:
	ctf_type_free(payload);
	free(ce->slots);
	free(ce);
	return r;
}

int kt_converter_declare(struct kt_converter *c, const struct kt_event_format *fmt,
			 const char *name, struct kt_error *err)
{
	struct kt_event_format *copy = NULL;
	struct kt_conv_event *ce = NULL;
	int r;

	if (fmt->id >= MAX_IDS)
		return -EINVAL;
	if (c->by_id[fmt->id])
		return 0;
	/* a deep copy through the format's own fields */
	copy = calloc(1, sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	copy->id = fmt->id;
	copy->name = strdup(fmt->name);
	copy->system = fmt->system ? strdup(fmt->system) : NULL;
	copy->fields = calloc(fmt->nfields ? fmt->nfields : 1, sizeof(*copy->fields));
	if (!copy->name || (fmt->system && !copy->system) || !copy->fields) {
		r = -ENOMEM;
		goto err;
	}
	for (size_t i = 0; i < fmt->nfields; i++) {
		copy->fields[i] = fmt->fields[i];
		copy->fields[i].name = strdup(fmt->fields[i].name);
		copy->fields[i].type = strdup(fmt->fields[i].type);
		copy->nfields++;
		if (!copy->fields[i].name || !copy->fields[i].type) {
			r = -ENOMEM;
			goto err;
		}
	}
	r = make_event(c, copy, name, &ce, err);
	if (r < 0)
		goto err;
	c->by_id[fmt->id] = ce;
	return 0;
err:
	kt_event_format_free(copy);
	return r;
}

/* Maps every tracefs event id to its system/name (once, on a first unknown id). */
static void scan_ids(struct kt_converter *c)
{
	char dir[PATH_MAX], sdir[PATH_MAX], path[PATH_MAX], buf[8192];
	struct dirent *sd, *ed;
	DIR *d, *e;

	c->scanned = true;
	c->id_paths = calloc(MAX_IDS, sizeof(char *));
	if (!c->id_paths)
		return;
	kt_fmt(dir, sizeof(dir), "%s/events", kt_tracefs_root());
	d = opendir(dir);
	if (!d)
		return;
	while ((sd = readdir(d))) {
		if (sd->d_name[0] == '.' || sd->d_type == DT_REG)
			continue;
		kt_fmt(sdir, sizeof(sdir), "%s/%s", dir, sd->d_name);
		e = opendir(sdir);
		if (!e)
			continue;
		while ((ed = readdir(e))) {
			char *p;
			long id;

			if (ed->d_name[0] == '.' || ed->d_type == DT_REG)
				continue;
			kt_fmt(path, sizeof(path), "%s/%s/id", sdir, ed->d_name);
			if (kt_file_read(path, buf, sizeof(buf)) <= 0)
				continue;
			id = strtol(buf, &p, 10);
			if (id < 0 || id >= MAX_IDS || c->id_paths[id])
				continue;
			kt_fmt(path, sizeof(path), "%s/%s", sd->d_name, ed->d_name);
			c->id_paths[id] = strdup(path);
		}
		closedir(e);
	}
	closedir(d);
}

static struct kt_conv_event *lookup(struct kt_converter *c, uint32_t id, struct kt_error *err)
{
	struct kt_event_format *fmt = NULL;
	struct kt_conv_event *ce = NULL;
	char sys[256], *slash;

	if (c->by_id[id])
		return c->by_id[id];
	if (!c->scanned)
		scan_ids(c);
	if (!c->id_paths || !c->id_paths[id])
		return NULL;
	kt_fmt(sys, sizeof(sys), "%s", c->id_paths[id]);
	slash = strchr(sys, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	if (kt_event_format_load(sys, slash + 1, &fmt) < 0)
		return NULL;
	if (make_event(c, fmt, NULL, &ce, err) < 0) {
		kt_event_format_free(fmt);
		return NULL;
	}
	c->by_id[id] = ce;
	return ce;
}

int64_t kt_tgid_of(int64_t tid)
{
	char path[PATH_MAX], buf[1024], *p, *text = NULL, *line, *save = NULL;
	int64_t tgid = tid;

	if (tid <= 0)
		return tid;
	kt_fmt(path, sizeof(path), "/proc/%lld/status", (long long)tid);
	if (kt_file_read(path, buf, sizeof(buf)) > 0 && (p = strstr(buf, "\nTgid:")))
		return strtoll(p + 6, NULL, 10);
	kt_fmt(path, sizeof(path), "%s/saved_tgids", kt_tracefs_root());
	if (kt_file_read_all(path, &text, NULL) < 0)
		return tid;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *end;

		if (strtoll(line, &end, 10) == tid && *end == ' ') {
			tgid = strtoll(end + 1, NULL, 10);
			break;
		}
	}
	free(text);
	return tgid;
}

static void account_lost(struct kt_converter *c, unsigned cpu);

/*
 * The record's event context ({ tid, contexts }) and payload as CTF encodes them,
 * into c->bytes: every type make_event gives is byte packed (whole bytes,
 * byte aligned, little endian like the kernel's fields), so that integers,
 * pointers and arrays are the record's own bytes, strings those bytes up to
 * a NUL, sequences their length then their bytes. Returns the length, or
 * -EBADMSG for a record that does not hold what its format says.
 */
static long pack(struct kt_converter *c, const struct kt_conv_event *ce,
		 const struct kt_record *rec, int32_t tid, unsigned cpu)
{
	uint8_t *o = (uint8_t *)c->bytes;
	size_t n = c->ctx_bytes;

	kt_context_pack(c, tid, cpu, o);
	for (size_t i = 0; i < ce->nslots; i++) {
		const struct kt_field *f = &ce->fmt->fields[ce->slots[i].src];
		const uint8_t *p = rec->data + f->offset, *from = p;
		uint32_t off, len = f->size;
		int32_t v32;

		if (f->offset + f->size > rec->len)
			return -EBADMSG;
		if (ce->slots[i].kind == KT_SRC_TGID) {
			v32 = (int32_t)kt_tgid_of(kt_rd_int(p, f->size));	/* fork events: rare */
			from = (const uint8_t *)&v32;
			len = 4;
		} else if (f->kind == KT_FIELD_DATA_LOC || f->kind == KT_FIELD_REL_LOC) {
			if (kt_dyn_loc(f, rec, &off, &len) < 0)
				return -EBADMSG;
			from = rec->data + off;
			if (ce->slots[i].kind == KT_SRC_LENGTH) {
				v32 = (int32_t)(len / f->elem_size);
				from = (const uint8_t *)&v32;
				len = 4;
			} else if (!f->is_string) {
				len -= len % f->elem_size;
			}
		} else if (f->kind == KT_FIELD_ARRAY) {
			len -= len % f->elem_size;
		}
		if (f->kind == KT_FIELD_STRING || (f->is_string && ce->slots[i].kind == KT_SRC_FIELD))
			len = (uint32_t)strnlen((const char *)from, len);
		if (n + len + 1 > SCRATCH_BYTES)
			return -EBADMSG;
		memcpy(o + n, from, len);
		n += len;
		if (f->kind == KT_FIELD_STRING || (f->is_string && ce->slots[i].kind == KT_SRC_FIELD))
			o[n++] = '\0';
	}
	return (long)n;
}

int kt_converter_record(struct kt_converter *c, unsigned cpu, const struct kt_record *rec,
			struct kt_error *err)
{
	struct kt_conv_event *ce;
	int32_t tid;
	uint64_t ts;
	uint16_t id;
	long len;
	int r;

	if (cpu >= c->ncpus)
		return -EINVAL;
	if (rec->len < 8) {
		c->st.bad++;
		return -EBADMSG;
	}
	memcpy(&id, rec->data, 2);
	ce = lookup(c, id, err);
	if (!ce) {
		c->st.unknown++;
		return kt_error_set(err, -ENOENT, "no format for kernel event id %u", id);
	}
	tid = ce->pid_field < 0 ? -1 :
	      (int32_t)kt_rd_int(rec->data + ce->fmt->fields[ce->pid_field].offset, 4);
	if (c->nctx && ce->nnotes)
		kt_threads_record(c, ce, rec);
	if (ce->filter && !kt_record_filter_pass(ce->filter, ce, rec, tid, cpu, kt_threads_tgid,
						 c)) {
		c->st.filtered++;
		return 0;
	}
	len = pack(c, ce, rec, tid, cpu);
	if (len < 0) {
		c->st.bad++;
		return kt_error_set(err, -EBADMSG, "%s: record of %u bytes shorter than its format",
				    ce->fmt->name, rec->len);
	}
	ts = rec->ts;
	if (ts < c->last_ts[cpu]) {
		ts = c->last_ts[cpu];	/* the stream must not go back in time */
		c->st.clamped++;
	}
	r = ctf_fs_stream_event_raw(c->streams[cpu], ce->ec, ts, c->bytes, (size_t)len);
	if (r < 0)
		return kt_error_set(err, r, "cannot write event %s on cpu %u: %s", ce->fmt->name,
				    cpu, strerror(-r));
	c->last_ts[cpu] = ts;
	c->st.events++;
	c->acct[cpu].events++;
	if (c->acct[cpu].pending_lost)
		account_lost(c, cpu);
	return 0;
}

/*
 * Readers (babeltrace2) cannot tell how many events a stream's first
 * packet lost ("may have discarded"): its events_discarded must be 0. So a
 * loss is held until the stream has an event, then the packet holding
 * that event is closed, and the count goes to the packets after it.
 */
static void account_lost(struct kt_converter *c, unsigned cpu)
{
	struct kt_cpu_acct *a = &c->acct[cpu];

	if (!a->pending_lost || !a->events)
		return;
	if (!a->first_closed) {
		if (ctf_fs_stream_flush(c->streams[cpu], 0) < 0)
			return;
		a->first_closed = true;
	}
	ctf_fs_stream_add_discarded(c->streams[cpu], a->pending_lost);
	a->pending_lost = 0;
}

void kt_converter_lost(struct kt_converter *c, unsigned cpu, uint64_t n)
{
	if (cpu >= c->ncpus || !n)
		return;
	c->acct[cpu].pending_lost += n;
	c->st.discarded += n;
	account_lost(c, cpu);
}

void kt_converter_stats(const struct kt_converter *c, struct kt_converter_stats *s)
{
	*s = c->st;
}

/* ---- creation ---- */

static void random_uuid(uint8_t uuid[16])
{
	FILE *f = fopen("/dev/urandom", "re");

	if (!f || fread(uuid, 1, 16, f) != 16) {
		uint64_t t = kt_clock_mono_ns() ^ (uint64_t)getpid() << 32;

		memcpy(uuid, &t, 8);
		memcpy(uuid + 8, &t, 8);
	}
	if (f)
		fclose(f);
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40);
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
}

int kt_converter_create(const struct kt_converter_config *cfg, struct kt_converter **ret,
			struct kt_error *err)
{
	struct kt_converter *c;
	struct ctf_env_lttng env = { 0 };
	struct ctf_clock_info now_clock;
	const struct ctf_clock_info *tc = cfg ? cfg->clock : NULL;
	struct ctf_clock_desc clk;
	struct ctf_error cerr;
	struct utsname un;
	uint8_t uuid[16];
	char host[256], date[64];
	time_t now;
	struct tm tm;
	int r;

	if (!cfg || !cfg->dir || !cfg->ncpus)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->ncpus = cfg->ncpus;
	c->ctx_bytes = 4;
	if (cfg->ncontexts > KT_CONTEXT_MAX) {
		r = -EINVAL;
		goto err;
	}
	for (size_t i = 0; i < cfg->ncontexts; i++) {
		enum kt_context k = cfg->contexts[i];

		for (size_t j = 0; j < i; j++)
			if (c->ctx[j] == k)
				k = 0;
		if (k < KT_CTX_PID || k > KT_CTX_CPU_ID) {
			r = kt_error_set(err, -EINVAL, "kernel context %d: unknown or given twice",
					 (int)cfg->contexts[i]);
			goto err;
		}
		c->ctx[c->nctx++] = k;
		c->ctx_bytes += k == KT_CTX_PROCNAME ? 16 : 4;
	}
	c->packet_size = cfg->packet_size ? cfg->packet_size : 64 * 1024;
	c->header = cfg->nevents_hint && cfg->nevents_hint < 31 ? CTF_HEADER_COMPACT :
		    CTF_HEADER_LARGE;
	c->by_id = calloc(MAX_IDS, sizeof(*c->by_id));
	c->streams = calloc(c->ncpus, sizeof(*c->streams));
	c->last_ts = calloc(c->ncpus, sizeof(*c->last_ts));
	c->acct = calloc(c->ncpus, sizeof(*c->acct));
	c->bytes = malloc(SCRATCH_BYTES);
	if (!c->by_id || !c->streams || !c->last_ts || !c->acct || !c->bytes) {
		r = -ENOMEM;
		goto err;
	}
	random_uuid(uuid);
	r = ctf_trace_create(uuid, CTF_BO_LE, &c->trace);
	if (r < 0)
		goto err;

	uname(&un);
	if (gethostname(host, sizeof(host)) < 0)
		kt_fmt(host, sizeof(host), "%s", un.nodename);
	host[sizeof(host) - 1] = '\0';
	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y%m%dT%H%M%S+0000", &tm);
	env.domain = "kernel";
	env.tracer_name = "lttng-modules";
	env.tracer_major = 2;
	env.tracer_minor = 13;
	env.tracer_patchlevel = 0;
	env.hostname = host;
	env.trace_name = cfg->trace_name ? cfg->trace_name : "ltt";
	env.trace_creation_datetime = date;
	env.sysname = un.sysname;
	env.kernel_release = un.release;
	env.kernel_version = un.version;
	env.ltt_version = LTT_VERSION;
	r = ctf_trace_env_lttng(c->trace, &env, &cerr);
	if (r < 0) {
		kt_error_set(err, r, "kernel trace env: %s", cerr.msg);
		goto err;
	}
	r = ctf_trace_env_set_string(c->trace, "ltt_kernel_backend", "tracefs", &cerr);
	if (r < 0)
		goto err;

	/* the session's clock (the user-space traces declare the same), else
	 * monotonic as LTTng's, described now (ctf/ctf-clock.h) */
	if (!tc) {
		r = ctf_clock_describe(CTF_CLOCK_MONOTONIC, &now_clock);
		if (r < 0)
			goto err;
		tc = &now_clock;
	}
	clk = ctf_clock_desc(tc);
	kt_fmt(c->clock_name, sizeof(c->clock_name), "%s", clk.name);
	r = ctf_trace_add_clock(c->trace, &clk, &cerr);
	if (r < 0) {
		kt_error_set(err, r, "kernel trace clock: %s", cerr.msg);
		goto err;
	}
	r = ensure_stream_class(c, err);
	if (r < 0)
		goto err;
	r = ctf_fs_trace_create(cfg->dir, c->trace, CTF_METADATA_TEXT, &c->fs);
	if (r < 0) {
		kt_error_set(err, r, "cannot create trace directory %s: %s", cfg->dir, strerror(-r));
		goto err;
	}
	if (cfg->growing && (r = ctf_fs_trace_set_growing(c->fs)) < 0)
		goto err;
	for (unsigned i = 0; i < c->ncpus; i++) {
		r = ctf_fs_stream_create(c->fs, cfg->channel ? cfg->channel : "channel0", i, 0,
					 c->packet_size, &c->streams[i]);
		if (r < 0) {
			kt_error_set(err, r, "cannot create stream %u in %s: %s", i, cfg->dir,
				     strerror(-r));
			goto err;
		}
		c->last_ts[i] = cfg->start_ts;
	}
	*ret = c;
	return 0;
err:
	kt_converter_free(c);
	return r;
}

int kt_converter_close(struct kt_converter *c, struct kt_error *err)
{
	int r;

	for (unsigned i = 0; i < c->ncpus; i++)
		if (c->acct[i].pending_lost) {
			/* no event at all on that cpu: the count goes in its only packet */
			ctf_fs_stream_add_discarded(c->streams[i], c->acct[i].pending_lost);
			c->acct[i].pending_lost = 0;
		}
	r = ctf_fs_trace_close(c->fs);

	if (r < 0)
		return kt_error_set(err, r, "cannot close the kernel trace: %s", strerror(-r));
	return 0;
}

int kt_converter_set_clock_offset(struct kt_converter *c, const struct ctf_clock_info *clock,
				  struct kt_error *err)
{
	struct ctf_clock_desc d = ctf_clock_desc(clock);
	int r = ctf_trace_set_clock_offset(c->trace, d.name, d.offset_s, d.offset);

	if (r == 0)
		r = ctf_fs_trace_rewrite_metadata(c->fs);
	if (r < 0)
		return kt_error_set(err, r, "cannot rewrite the kernel trace's metadata: %s",
				    strerror(-r));
	return 0;
}

int kt_converter_sync(struct kt_converter *c, struct kt_error *err)
{
	int r = ctf_fs_trace_sync(c->fs);

	if (r < 0)
		return kt_error_set(err, r, "cannot write the kernel trace: %s", strerror(-r));
	return 0;
}

int kt_converter_set_filter(struct kt_converter *c, const struct kt_event_format *fmt,
			    const uint8_t *const *codes, const size_t *lens, size_t n,
			    struct kt_error *err)
{
	struct kt_record_filter *f = NULL;
	struct kt_conv_event *ce;
	int r;

	if (fmt->id >= MAX_IDS)
		return -EINVAL;
	r = kt_converter_declare(c, fmt, NULL, err);
	if (r < 0)
		return r;
	ce = c->by_id[fmt->id];
	if (n && (r = kt_record_filter_create(ce->ec->payload, codes, lens, n, &f, err)) < 0)
		return r;
	kt_record_filter_free(ce->filter);
	ce->filter = f;
	return 0;
}

void kt_converter_clear_filters(struct kt_converter *c)
{
	for (size_t i = 0; i < MAX_IDS; i++)
		if (c->by_id[i]) {
			kt_record_filter_free(c->by_id[i]->filter);
			c->by_id[i]->filter = NULL;
		}
}

void kt_converter_free(struct kt_converter *c)
{
	if (!c)
		return;
	ctf_fs_trace_free(c->fs);
	ctf_trace_free(c->trace);
	if (c->by_id)
		for (size_t i = 0; i < MAX_IDS; i++)
			conv_event_free(c->by_id[i]);
	if (c->id_paths)
		for (size_t i = 0; i < MAX_IDS; i++)
			free(c->id_paths[i]);
	free(c->id_paths);
	free(c->by_id);
	free(c->streams);
	free(c->last_ts);
	free(c->acct);
	free(c->bytes);
	free(c->sd);
	free(c);
}

int kt_converter_new_class(struct kt_converter *c, const char *name, struct ctf_type *payload,
			  const struct ctf_event_class **ret, struct kt_error *err)
{
	struct ctf_event_class_desc d = { .name = name, .id = c->next_id, .stream_id = 0 };
	struct ctf_error cerr;
	int r;

	r = ensure_stream_class(c, err);
	if (r < 0) {
		ctf_type_free(payload);
		return r;
	}
	r = ctf_trace_add_event_class(c->trace, &d, payload, &cerr, ret);
	if (r < 0)
		return kt_error_set(err, r, "event %s: %s", name, cerr.msg);
	c->next_id++;
	return 0;
}

int kt_converter_write(struct kt_converter *c, unsigned cpu, const struct ctf_event_class *ec,
		       uint64_t ts, int64_t tid, const struct ctf_value *v, size_t n,
		       struct kt_error *err)
{
	struct ctf_value ctx[KT_CONTEXT_MAX + 1];
	char comm[17];
	size_t nctx;
	int r;

	if (cpu >= c->ncpus)
		return -EINVAL;
	nctx = kt_context_values(c, (int32_t)tid, cpu, ctx, comm);
	if (ts < c->last_ts[cpu])
		ts = c->last_ts[cpu];
	r = ctf_fs_stream_event(c->streams[cpu], ec, ts, ctx, nctx, v, n);
	if (r < 0)
		return kt_error_set(err, r, "cannot write event %s on cpu %u: %s", ec->name, cpu,
				    strerror(-r));
	c->last_ts[cpu] = ts;
	c->st.events++;
	c->acct[cpu].events++;
	if (c->acct[cpu].pending_lost)
		account_lost(c, cpu);
	return 0;
}
