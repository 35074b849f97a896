/*
 * cmd-view.c - `ltt view`: prints a trace's events in babeltrace2's default
 * text layout (its `sink.text.pretty`, byte for byte, colors aside), as JSON
 * lines, or counts them.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ltt/reader.h>

#include "cli.h"
#include "textout.h"

#define NSEC_PER_SEC 1000000000LL

static void help_view(FILE *out)
{
	fputs(
"Usage: ltt view [OPTIONS] [TRACE_DIR | SESSION]\n"
"\n"
"Prints the events of every CTF trace under TRACE_DIR in time order, in\n"
"babeltrace2's text layout. SESSION (default: the current session) reads\n"
"that session's output.\n"
"\n"
"  -e, --event-names GLOB,...  only events whose name matches a glob\n"
"  -n, --names LIST      field names to print, as babeltrace2's -n: payload,\n"
"                        context, scope, header, all, none (default: payload,\n"
"                        context); any other item is an event-name glob\n"
"  -f, --fields LIST     header fields, as babeltrace2's -f: trace,\n"
"                        trace:hostname, trace:domain, trace:procname,\n"
"                        trace:vpid, loglevel, emf, all\n"
"      --begin TIME      drop events before TIME\n"
"      --end TIME        drop events after TIME\n"
"                        TIME: [YYYY-MM-DD] HH:MM[:SS[.NNNNNNNNN]] or\n"
"                        [-]SECONDS[.NNNNNNNNN] (from the Unix epoch)\n"
"      --clock-seconds   print timestamps as SECONDS.NNNNNNNNN\n"
"      --clock-date      print the date too\n"
"      --clock-gmt       print and parse times in UTC, not local time\n"
"      --clock-cycles    print raw clock values\n"
"      --no-delta        do not print the time since the previous event\n"
"      --json            one JSON object per event and line\n"
"      --count           decode everything, print the number of events\n"
"  -h, --help            this help\n"
"\n"
"See ltt-view(1).\n", out);
}

struct time_bound {
	bool set;
	bool tod;		/* time of day: the date comes from the first event */
	bool resolved;
	int y, mo, d, h, mi, s;
	bool has_date;
	int64_t ns;		/* resolved value, or the sub-second part for tod */
};

struct view {
	struct out o;
	/* options */
	char **globs;
	size_t nglobs;
	bool names_payload, names_context, names_scope, names_header;
	bool f_trace, f_host, f_domain, f_procname, f_vpid, f_loglevel, f_emf;
	bool clock_seconds, clock_date, clock_gmt, clock_cycles, delta;
	bool json, count;
	unsigned format_flags;	/* enum ltt_format_flag, from names_* */
	struct time_bound begin, end;
	/* state */
	int64_t last_ns;
	bool have_last;
	uint64_t last_cycles;
	bool have_last_cycles;
	time_t cached_sec;
	bool cache_valid;
	char cached_tod[32];
	size_t cached_len;
	bool neg_warned;
	/* the trace-dependent part of the header ("host:procname:(vpid) "), per trace */
	const char *hdr_key;
	struct out hdr;
	bool hdr_start_line, hdr_dom;
};

/* --- timestamps ------------------------------------------------------------------ */

/* "[YYYY-MM-DD ]HH:MM:SS." of second t in w->cached_tod (kept for the next
 * events of the same second); false if the time cannot be broken down. */
static bool time_of_day(struct view *w, time_t t)
{
	struct tm tm;
	size_t n = 0;

	if (w->cache_valid && w->cached_sec == t)
		return true;
	if (!(w->clock_gmt ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)))
		return false;
	if (w->clock_date)
		n = strftime(w->cached_tod, sizeof(w->cached_tod), "%Y-%m-%d ", &tm);
	snprintf(w->cached_tod + n, sizeof(w->cached_tod) - n, "%02d:%02d:%02d.",
		 tm.tm_hour, tm.tm_min, tm.tm_sec);
	w->cached_len = strlen(w->cached_tod);
	w->cached_sec = t;
	w->cache_valid = true;
	return true;
}

/*
 * The commonest start of a line, "[HH:MM:SS.NNNNNNNNN] (+S.NNNNNNNNN) ", with
 * one room check: false (nothing written) if the options or the time ask
 * for the general way.
 */
static bool put_time_fast(struct view *w, struct out *o, const struct ltt_event *ev)
{
	int64_t ts = ltt_event_ns(ev);
	char *d, *d0;

	if (ts < 0 || w->clock_seconds || w->clock_cycles || w->names_header ||
	    !time_of_day(w, (time_t)(ts / NSEC_PER_SEC)))
		return false;
	d = d0 = out_reserve(o, w->cached_len + 2 * NUMFMT_MAX + 32);
	*d++ = '[';
	memcpy(d, w->cached_tod, w->cached_len);
	d += w->cached_len;
	numfmt_u64_fixed(d, (uint64_t)(ts % NSEC_PER_SEC), 9);
	d += 9;
	memcpy(d, "] ", 2);
	d += 2;
	if (w->delta) {
		if (w->have_last) {
			uint64_t dt = (uint64_t)(ts - w->last_ns);

			memcpy(d, "(+", 2);
			d += 2;
			d += numfmt_u64(d, dt / NSEC_PER_SEC);
			*d++ = '.';
			numfmt_u64_fixed(d, dt % NSEC_PER_SEC, 9);
			d += 9;
			memcpy(d, ") ", 2);
			d += 2;
		} else {
			memcpy(d, "(+?.????????\?) ", 15);
			d += 15;
		}
	}
	o->n += (size_t)(d - d0);
	w->last_ns = ts;
	w->have_last = true;
	w->last_cycles = ltt_event_cycles(ev);
	w->have_last_cycles = true;
	return true;
}

static void put_wall(struct view *w, struct out *o, int64_t ts)
{
	int64_t sec = ts / NSEC_PER_SEC, nsec = ts % NSEC_PER_SEC;
	uint64_t sec_abs, nsec_abs;
	bool neg;

	/* babeltrace2's rules for negative times */
	if (sec >= 0 && nsec >= 0) {
		neg = false;
		sec_abs = (uint64_t)sec;
		nsec_abs = (uint64_t)nsec;
	} else if (sec > 0 && nsec < 0) {
		neg = false;
		sec_abs = (uint64_t)(sec - 1);
		nsec_abs = (uint64_t)(NSEC_PER_SEC + nsec);
	} else if (sec == 0 && nsec < 0) {
		neg = true;
		sec_abs = 0;
		nsec_abs = (uint64_t)-nsec;
	} else if (sec < 0 && nsec > 0) {
		neg = true;
		sec_abs = (uint64_t)-(sec + 1);
		nsec_abs = (uint64_t)(NSEC_PER_SEC - nsec);
	} else if (sec < 0 && nsec == 0) {
		neg = true;
		sec_abs = (uint64_t)-sec;
		nsec_abs = 0;
	} else {
		neg = true;
		sec_abs = (uint64_t)-sec;
		nsec_abs = (uint64_t)-nsec;
	}
	if (!w->clock_seconds) {
		if (neg && !w->neg_warned) {
			fprintf(stderr, "[warning] Fallback to [sec.ns] to print negative time value. Use --clock-seconds.\n");
			w->neg_warned = true;
			goto seconds;
		}
		if (!time_of_day(w, (time_t)sec_abs)) {
			fprintf(stderr, "[warning] Unable to get %s.\n", w->clock_gmt ? "gmtime" : "localtime");
			goto seconds;
		}
		out_mem(o, w->cached_tod, w->cached_len);
		out_u64_fixed(o, nsec_abs, 9);
		return;
	}
seconds:
	if (neg)
		out_c(o, '-');
	out_u64(o, sec_abs);
	out_c(o, '.');
	out_u64_fixed(o, nsec_abs, 9);
}

/* --- values ------------------------------------------------------------------------- */

/* --- the pretty layout -------------------------------------------------------------- */

static const char *const loglevel_names[] = {
	"TRACE_EMERG", "TRACE_ALERT", "TRACE_CRIT", "TRACE_ERR", "TRACE_WARNING",
	"TRACE_NOTICE", "TRACE_INFO", "TRACE_DEBUG_SYSTEM", "TRACE_DEBUG_PROGRAM",
	"TRACE_DEBUG_PROCESS", "TRACE_DEBUG_MODULE", "TRACE_DEBUG_UNIT",
	"TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE", "TRACE_DEBUG",
};

/*
 * The header fields that depend only on the trace (babeltrace2's -f);
 * returns whether one was printed (the next ones are joined with ':').
 */
static bool put_trace_header(struct view *w, struct out *o, const struct ltt_event *ev,
			     bool start_line)
{
	bool pn = w->names_header, dom = false;
	const char *s;
	int64_t iv;

	if (w->f_trace) {
		s = ltt_event_trace_name(ev);
		if (!start_line)
			out_mem(o, ", ", 2);
		if (pn)
			out_str(o, "trace = ");
		out_str(o, s);
		if (pn)
			out_mem(o, ", ", 2);
	}
	if (w->f_host && (s = ltt_event_env_string(ev, "hostname"))) {
		if (!start_line)
			out_mem(o, ", ", 2);
		if (pn)
			out_str(o, "trace:hostname = ");
		out_str(o, s);
		dom = true;
	}
	if (w->f_domain && (s = ltt_event_env_string(ev, "domain"))) {
		if (!start_line)
			out_mem(o, ", ", 2);
		if (pn)
			out_str(o, "trace:domain = ");
		else if (dom)
			out_c(o, ':');
		out_str(o, s);
		dom = true;
	}
	if (w->f_procname && (s = ltt_event_env_string(ev, "procname"))) {
		if (!start_line)
			out_mem(o, ", ", 2);
		if (pn)
			out_str(o, "trace:procname = ");
		else if (dom)
			out_c(o, ':');
		out_str(o, s);
		dom = true;
	}
	if (w->f_vpid && ltt_event_env_int(ev, "vpid", &iv) == 0) {
		if (!start_line)
			out_mem(o, ", ", 2);
		if (pn)
			out_str(o, "trace:vpid = ");
		else if (dom)
			out_c(o, ':');
		out_c(o, '(');
		out_i64(o, iv);
		out_c(o, ')');
		dom = true;
	}
	return dom;
}

static void put_event(struct view *w, const struct ltt_event *ev)
{
	struct out *o = &w->o;
	bool pn = w->names_header;
	bool start_line = true, dom;
	const char *s;
	int64_t iv;

	if (ltt_event_has_time(ev) && put_time_fast(w, o, ev)) {
		start_line = true;
	} else if (ltt_event_has_time(ev)) {
		if (pn)
			out_str(o, "timestamp = ");
		else
			out_c(o, '[');
		if (w->clock_cycles) {
			uint64_t c = ltt_event_cycles(ev);

			out_u64_pad(o, c, 20);
		} else {
			put_wall(w, o, ltt_event_ns(ev));
		}
		if (!pn)
			out_mem(o, "] ", 2);
		if (w->delta) {
			if (pn)
				out_str(o, ", delta = ");
			else
				out_c(o, '(');
			if (w->clock_cycles) {
				uint64_t c = ltt_event_cycles(ev);

				if (!w->have_last_cycles)
					out_str(o, "+??????????\?\?");
				else {
					out_c(o, '+');
					out_u64_pad(o, c - w->last_cycles, 12);
				}
			} else if (w->have_last) {
				uint64_t d = (uint64_t)(ltt_event_ns(ev) - w->last_ns);

				out_c(o, '+');
				out_u64(o, d / NSEC_PER_SEC);
				out_c(o, '.');
				out_u64_fixed(o, d % NSEC_PER_SEC, 9);
			} else {
				out_str(o, "+?.?????????");
			}
			if (!pn)
				out_mem(o, ") ", 2);
		}
		w->last_ns = ltt_event_ns(ev);
		w->have_last = true;
		w->last_cycles = ltt_event_cycles(ev);
		w->have_last_cycles = true;
		start_line = !pn;
	}
	if (w->hdr_key != ltt_event_trace_name(ev) || w->hdr_start_line != start_line) {
		/* the same for every event of a trace: built once */
		w->hdr_key = ltt_event_trace_name(ev);
		w->hdr_start_line = start_line;
		w->hdr.n = 0;
		w->hdr_dom = put_trace_header(w, &w->hdr, ev, start_line);
	}
	out_mem(o, w->hdr.buf, w->hdr.n);
	dom = w->hdr_dom;
	if (w->f_loglevel && ltt_event_loglevel(ev, &iv) == 0 && iv >= 0 && iv < 15) {
		if (!start_line)
			out_mem(o, ", ", 2);
		if (pn)
			out_str(o, "loglevel = ");
		else if (dom)
			out_c(o, ':');
		out_str(o, loglevel_names[iv]);
		out_printf(o, " (%d)", (int)iv);
		dom = true;
	}
	if (w->f_emf && (s = ltt_event_emf_uri(ev))) {
		if (!start_line)
			out_mem(o, ", ", 2);
		if (pn)
			out_str(o, "model.emf.uri = ");
		else if (dom)
			out_c(o, ':');
		out_str(o, s);
		dom = true;
	}
	if (dom && !pn)
		out_c(o, ' ');
	if (!start_line)
		out_mem(o, ", ", 2);
	if (pn)
		out_str(o, "name = ");
	out_str(o, ltt_event_name(ev));
	if (!pn)
		out_mem(o, ": ", 2);
	else
		out_mem(o, ", ", 2);
	if (ltt_event_format_pretty(ev, w->format_flags, &o->buf, &o->n, &o->cap) < 0) {
		fprintf(stderr, "Error: view: out of memory\n");
		exit(1);
	}
	out_c(o, '\n');
	if (o->n > o->cap / 2)
		out_flush(o);
}

static void put_discarded(struct view *w, const struct ltt_event *ev, bool packets)
{
	struct out e;
	int64_t b, en;
	int has_range;
	uint64_t count = ltt_event_discarded(ev, &b, &en, &has_range);
	const uint8_t *u = ltt_event_trace_uuid(ev);
	const char *type = packets ? "packet" : "event";

	if (out_init(&e, STDERR_FILENO, 1024) < 0)
		return;
	out_str(&e, "WARNING: ");
	out_str(&e, count == UINT64_MAX ? "Tracer may have discarded" : "Tracer discarded");
	out_c(&e, ' ');
	if (count == UINT64_MAX) {
		out_str(&e, type);
		out_c(&e, 's');
	} else {
		out_u64(&e, count);
		out_c(&e, ' ');
		out_str(&e, type);
		if (count != 1)
			out_c(&e, 's');
	}
	out_c(&e, ' ');
	if (has_range) {
		out_str(&e, "between [");
		put_wall(w, &e, b);
		out_str(&e, "] and [");
		put_wall(w, &e, en);
		out_c(&e, ']');
	} else {
		out_str(&e, "(unknown time range)");
	}
	out_printf(&e, " in trace \"%s\" ", ltt_event_trace_name(ev));
	if (u)
		out_printf(&e, "(UUID: %02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x) ",
			   u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10],
			   u[11], u[12], u[13], u[14], u[15]);
	else
		out_str(&e, "(no UUID) ");
	out_printf(&e, "within stream \"%s\" (stream class ID: %" PRIu64 ", stream ID: %" PRIu64 ").\n",
		   ltt_event_stream_name(ev), ltt_event_stream_class_id(ev), ltt_event_stream_id(ev));
	/* keep stdout and stderr in order for a terminal */
	out_flush(&w->o);
	out_flush(&e);
	out_free(&e);
}

/* --- JSON --------------------------------------------------------------------------- */

static void put_json_string(struct out *o, const char *s, size_t len)
{
	static const char hexd[] = "0123456789abcdef";

	out_c(o, '"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			out_c(o, '\\');
			out_c(o, (char)c);
		} else if (c < 0x20 || c == 0x7f) {
			out_mem(o, "\\u00", 4);
			out_c(o, hexd[c >> 4]);
			out_c(o, hexd[c & 15]);
		} else {
			out_c(o, (char)c);
		}
	}
	out_c(o, '"');
}

static void put_json_double(struct out *o, double d)
{
	char tmp[64];
	int n;

	if (d != d) {
		out_str(o, "NaN");
		return;
	}
	if (d > 1.7976931348623157e308 || d < -1.7976931348623157e308) {
		out_str(o, d > 0 ? "Infinity" : "-Infinity");
		return;
	}
	n = snprintf(tmp, sizeof(tmp), "%.17g", d);
	out_mem(o, tmp, (size_t)n);
	if (!strpbrk(tmp, ".eE"))
		out_mem(o, ".0", 2);
}

static void put_json(struct out *o, const struct ltt_value *v)
{
	size_t n, len;
	const char *s;

	switch (ltt_value_kind(v)) {
	case LTT_VALUE_UNSIGNED:
		out_u64(o, ltt_value_u64(v));
		return;
	case LTT_VALUE_SIGNED:
		out_i64(o, ltt_value_i64(v));
		return;
	case LTT_VALUE_ENUM_UNSIGNED:
	case LTT_VALUE_ENUM_SIGNED: {
		const char *label;

		out_c(o, '[');
		if (ltt_value_kind(v) == LTT_VALUE_ENUM_SIGNED)
			out_i64(o, ltt_value_i64(v));
		else
			out_u64(o, ltt_value_u64(v));
		out_mem(o, ", [", 3);
		for (size_t i = 0; (label = ltt_value_enum_label(v, i)); i++) {
			if (i)
				out_mem(o, ", ", 2);
			put_json_string(o, label, strlen(label));
		}
		out_mem(o, "]]", 2);
		return;
	}
	case LTT_VALUE_FLOAT:
	case LTT_VALUE_DOUBLE:
		put_json_double(o, ltt_value_double(v));
		return;
	case LTT_VALUE_STRING:
		s = ltt_value_string(v, &len);
		put_json_string(o, s, len);
		return;
	case LTT_VALUE_STRUCT:
		n = ltt_value_count(v);
		out_c(o, '{');
		for (size_t i = 0; i < n; i++) {
			const char *name = ltt_value_member_name(v, i);

			if (i)
				out_mem(o, ", ", 2);
			put_json_string(o, name, strlen(name));
			out_mem(o, ": ", 2);
			put_json(o, ltt_value_child(v, i));
		}
		out_c(o, '}');
		return;
	case LTT_VALUE_ARRAY:
	case LTT_VALUE_SEQUENCE:
		n = ltt_value_count(v);
		out_c(o, '[');
		for (size_t i = 0; i < n; i++) {
			if (i)
				out_mem(o, ", ", 2);
			put_json(o, ltt_value_child(v, i));
		}
		out_c(o, ']');
		return;
	case LTT_VALUE_VARIANT:
		put_json(o, ltt_value_child(v, 0));
		return;
	}
}

static void put_event_json(struct view *w, const struct ltt_event *ev)
{
	struct out *o = &w->o;
	const char *name = ltt_event_name(ev);
	static const struct { enum ltt_scope sc; const char *key; } scopes[] = {
		{ LTT_SCOPE_PACKET_CONTEXT, "packet" },
		{ LTT_SCOPE_COMMON_CONTEXT, "context" },
		{ LTT_SCOPE_SPECIFIC_CONTEXT, "event_context" },
		{ LTT_SCOPE_PAYLOAD, "fields" },
	};

	out_str(o, "{\"name\": ");
	put_json_string(o, name, strlen(name));
	if (ltt_event_has_time(ev)) {
		out_str(o, ", \"timestamp\": ");
		out_i64(o, ltt_event_ns(ev));
		out_str(o, ", \"cycles\": ");
		out_u64(o, ltt_event_cycles(ev));
	}
	out_str(o, ", \"stream_class_id\": ");
	out_u64(o, ltt_event_stream_class_id(ev));
	out_str(o, ", \"stream_id\": ");
	out_u64(o, ltt_event_stream_id(ev));
	if (ltt_event_cpu(ev) >= 0) {
		out_str(o, ", \"cpu\": ");
		out_i64(o, ltt_event_cpu(ev));
	}
	for (size_t i = 0; i < 4; i++) {
		const struct ltt_value *v = ltt_event_scope(ev, scopes[i].sc);

		if (!v)
			continue;
		out_str(o, ", \"");
		out_str(o, scopes[i].key);
		out_str(o, "\": ");
		put_json(o, v);
	}
	out_str(o, "}\n");
}

static void put_discarded_json(struct view *w, const struct ltt_event *ev, bool packets)
{
	struct out *o = &w->o;
	int64_t b, e;
	int has_range;
	uint64_t count = ltt_event_discarded(ev, &b, &e, &has_range);

	out_str(o, packets ? "{\"discarded_packets\": " : "{\"discarded_events\": ");
	if (count == UINT64_MAX)
		out_str(o, "null");
	else
		out_u64(o, count);
	if (has_range) {
		out_str(o, ", \"begin\": ");
		out_i64(o, b);
		out_str(o, ", \"end\": ");
		out_i64(o, e);
	}
	out_str(o, ", \"stream_class_id\": ");
	out_u64(o, ltt_event_stream_class_id(ev));
	out_str(o, ", \"stream_id\": ");
	out_u64(o, ltt_event_stream_id(ev));
	out_str(o, "}\n");
}

/* --- options ------------------------------------------------------------------------ */

static bool parse_digits(const char **p, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return false;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*out = v;
	return true;
}

static bool parse_ns_frac(const char *p, int64_t *out)
{
	int64_t v = 0;
	int n = 0;

	if (!*p) {
		*out = 0;
		return true;
	}
	if (*p++ != '.')
		return false;
	for (; *p; p++, n++) {
		if (*p < '0' || *p > '9' || n >= 9)
			return false;
		v = v * 10 + (*p - '0');
	}
	for (; n < 9; n++)
		v *= 10;
	*out = v;
	return true;
}

/* TIME: [YYYY-MM-DD ]HH:MM[:SS[.N]] or [-]SEC[.N] */
static bool parse_time(const char *arg, struct time_bound *tb)
{
	const char *p = arg;

	memset(tb, 0, sizeof(*tb));
	tb->set = true;
	if (strchr(arg, ':')) {
		if (strlen(p) >= 11 && p[4] == '-' && p[7] == '-' && (p[10] == ' ' || p[10] == 'T')) {
			if (!parse_digits(&p, 4, &tb->y) || *p++ != '-' || !parse_digits(&p, 2, &tb->mo) ||
			    *p++ != '-' || !parse_digits(&p, 2, &tb->d))
				return false;
			p++;
			tb->has_date = true;
		}
		if (!parse_digits(&p, 2, &tb->h) || *p++ != ':' || !parse_digits(&p, 2, &tb->mi))
			return false;
		if (*p == ':') {
			p++;
			if (!parse_digits(&p, 2, &tb->s))
				return false;
		}
		tb->tod = true;
		return parse_ns_frac(p, &tb->ns);
	}
	{
		bool neg = *p == '-';
		char *end;
		long long s;
		int64_t frac;

		if (neg)
			p++;
		errno = 0;
		s = strtoll(p, &end, 10);
		if (end == p || errno || !parse_ns_frac(end, &frac) || s > INT64_MAX / NSEC_PER_SEC - 1)
			return false;
		tb->ns = (s * NSEC_PER_SEC + frac) * (neg ? -1 : 1);
		tb->resolved = true;
		return true;
	}
}

/* A time of day gets its date from the first event, as babeltrace2's trimmer does. */
static void resolve_bound(struct view *w, struct time_bound *tb, int64_t first_ns)
{
	struct tm tm;
	time_t t;

	if (!tb->set || tb->resolved)
		return;
	if (!tb->has_date) {
		t = (time_t)(first_ns / NSEC_PER_SEC);
		if (!(w->clock_gmt ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)))
			return;
	} else {
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = tb->y - 1900;
		tm.tm_mon = tb->mo - 1;
		tm.tm_mday = tb->d;
	}
	tm.tm_hour = tb->h;
	tm.tm_min = tb->mi;
	tm.tm_sec = tb->s;
	tm.tm_isdst = -1;
	t = w->clock_gmt ? timegm(&tm) : mktime(&tm);
	tb->ns = (int64_t)t * NSEC_PER_SEC + tb->ns;
	tb->resolved = true;
}

static bool set_names(struct view *w, const char *list, char ***globs, size_t *nglobs)
{
	char *copy = strdup(list), *save = NULL, *tok;
	bool reset = false;

	if (!copy)
		return false;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool *flag[4] = { NULL };

		if (!strcmp(tok, "payload"))
			flag[0] = &w->names_payload;
		else if (!strcmp(tok, "context"))
			flag[0] = &w->names_context;
		else if (!strcmp(tok, "scope"))
			flag[0] = &w->names_scope;
		else if (!strcmp(tok, "header"))
			flag[0] = &w->names_header;
		else if (!strcmp(tok, "all") || !strcmp(tok, "none")) {
			bool on = !strcmp(tok, "all");

			w->names_payload = w->names_context = w->names_scope = w->names_header = on;
			reset = true;
			continue;
		} else {
			char **g = realloc(*globs, (*nglobs + 1) * sizeof(*g));

			if (!g || !(g[*nglobs] = strdup(tok))) {
				free(copy);
				return false;
			}
			*globs = g;
			(*nglobs)++;
			continue;
		}
		if (!reset) {
			/* babeltrace2: naming one replaces the default set */
			w->names_payload = w->names_context = w->names_scope = w->names_header = false;
			reset = true;
		}
		*flag[0] = true;
	}
	free(copy);
	return true;
}

static bool set_fields(struct view *w, const char *list)
{
	char *copy = strdup(list), *save = NULL, *tok;
	bool reset = false;

	if (!copy)
		return false;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool *flag = NULL;

		if (!strcmp(tok, "all")) {
			w->f_trace = w->f_host = w->f_domain = w->f_procname = w->f_vpid =
				w->f_loglevel = w->f_emf = true;
			reset = true;
			continue;
		}
		if (!strcmp(tok, "trace"))
			flag = &w->f_trace;
		else if (!strcmp(tok, "trace:hostname"))
			flag = &w->f_host;
		else if (!strcmp(tok, "trace:domain"))
			flag = &w->f_domain;
		else if (!strcmp(tok, "trace:procname"))
			flag = &w->f_procname;
		else if (!strcmp(tok, "trace:vpid"))
			flag = &w->f_vpid;
		else if (!strcmp(tok, "loglevel"))
			flag = &w->f_loglevel;
		else if (!strcmp(tok, "emf"))
			flag = &w->f_emf;
		else if (!strcmp(tok, "callsite"))
			continue;	/* babeltrace2 2.0 prints no call site either */
		else {
			cli_error("view: unknown field '%s' for --fields", tok);
			free(copy);
			return false;
		}
		if (!reset) {
			w->f_trace = w->f_host = w->f_domain = w->f_procname = w->f_vpid =
				w->f_loglevel = w->f_emf = false;
			reset = true;
		}
		*flag = true;
	}
	free(copy);
	return true;
}

static bool name_selected(const struct view *w, const char *name)
{
	if (!w->nglobs)
		return true;
	for (size_t i = 0; i < w->nglobs; i++)
		if (fnmatch(w->globs[i], name, 0) == 0)
			return true;
	return false;
}

/*
 * The trace directory for a command-line argument. A session name will be
 * mapped to its output directory here once sessions exist (ltt view SESSION).
 */
/*
 * The trace to read: arg if it is a directory, else the output of the
 * session named arg (NULL: the current session), asked of the daemon.
 * Reports its own error; NULL if there is no such trace.
 */
static const char *resolve_trace_path(const char *arg)
{
	static char output[PATH_MAX];
	struct ltt_session *s;
	struct ltt_ctl *ctl;
	const char *name;
	struct stat st;
	int r;

	if (arg && stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		return arg;
	if (arg && strchr(arg, '/')) {
		cli_error("view: '%s' is not a trace directory", arg);
		return NULL;
	}
	if (!(name = cli_session_or_current(arg)) || cli_connect(false, &ctl))
		return NULL;
	r = ltt_session_get(ctl, name, &s);
	if (r < 0) {
		cli_fail(ctl, r, "view: '%s' is neither a trace directory nor a session", name);
		ltt_ctl_close(ctl);
		return NULL;
	}
	snprintf(output, sizeof(output), "%s", ltt_session_output(s));
	ltt_session_free(s);
	ltt_ctl_close(ctl);
	if (!output[0]) {
		cli_error("view: session '%s' has no output on disk", name);
		return NULL;
	}
	return output;
}

enum { OPT_BEGIN = 256, OPT_END, OPT_SECONDS, OPT_DATE, OPT_GMT, OPT_CYCLES, OPT_NO_DELTA,
	OPT_JSON, OPT_COUNT };

int cmd_view(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "event-names", required_argument, NULL, 'e' },
		{ "names", required_argument, NULL, 'n' },
		{ "fields", required_argument, NULL, 'f' },
		{ "begin", required_argument, NULL, OPT_BEGIN },
		{ "end", required_argument, NULL, OPT_END },
		{ "clock-seconds", no_argument, NULL, OPT_SECONDS },
		{ "clock-date", no_argument, NULL, OPT_DATE },
		{ "clock-gmt", no_argument, NULL, OPT_GMT },
		{ "clock-cycles", no_argument, NULL, OPT_CYCLES },
		{ "no-delta", no_argument, NULL, OPT_NO_DELTA },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "count", no_argument, NULL, OPT_COUNT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct view w = {
		.names_payload = true, .names_context = true,
		.f_host = true, .f_procname = true, .f_vpid = true,
		.delta = true,
	};
	struct ltt_reader *r = NULL;
	const struct ltt_event *ev;
	const char *path;
	char *errmsg = NULL;
	uint64_t count = 0;
	int c, ret, status = 1;
	bool first = true;

	optind = 0;
	while ((c = getopt_long(argc, argv, "e:n:f:h", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
		case 'n':
			if (c == 'e') {
				/* event-name globs only */
				char *copy = strdup(optarg), *save = NULL, *tok;

				for (tok = copy ? strtok_r(copy, ",", &save) : NULL; tok;
				     tok = strtok_r(NULL, ",", &save)) {
					char **g = realloc(w.globs, (w.nglobs + 1) * sizeof(*g));

					if (!g || !(g[w.nglobs] = strdup(tok)))
						goto nomem;
					w.globs = g;
					w.nglobs++;
				}
				free(copy);
			} else if (!set_names(&w, optarg, &w.globs, &w.nglobs)) {
				goto nomem;
			}
			break;
		case 'f':
			if (!set_fields(&w, optarg))
				goto out;
			break;
		case OPT_BEGIN:
		case OPT_END:
			if (!parse_time(optarg, c == OPT_BEGIN ? &w.begin : &w.end)) {
				cli_error("view: bad time '%s' (expected [YYYY-MM-DD] HH:MM[:SS[.NNNNNNNNN]] or [-]SECONDS[.NNNNNNNNN])",
					  optarg);
				goto out;
			}
			break;
		case OPT_SECONDS: w.clock_seconds = true; break;
		case OPT_DATE: w.clock_date = true; break;
		case OPT_GMT: w.clock_gmt = true; break;
		case OPT_CYCLES: w.clock_cycles = true; break;
		case OPT_NO_DELTA: w.delta = false; break;
		case OPT_JSON: w.json = true; break;
		case OPT_COUNT: w.count = true; break;
		case 'h':
			help_view(stdout);
			status = 0;
			goto out;
		default:
			fprintf(stderr, "Try 'ltt view --help'.\n");
			status = 2;
			goto out;
		}
	}
	if (optind < argc - 1) {
		cli_error("view: expected one TRACE_DIR or SESSION (try 'ltt view --help')");
		status = 2;
		goto out;
	}
	w.format_flags = (w.names_payload ? LTT_FORMAT_PAYLOAD_NAMES : 0) |
		(w.names_context ? LTT_FORMAT_CONTEXT_NAMES : 0) |
		(w.names_scope ? LTT_FORMAT_SCOPE_NAMES : 0);
	path = resolve_trace_path(optind < argc ? argv[optind] : NULL);
	if (!path)
		goto out;
	ret = ltt_reader_open(path, &r, &errmsg);
	if (ret < 0) {
		cli_error("view: %s", errmsg ? errmsg : strerror(-ret));
		goto out;
	}
	if (out_init(&w.o, STDOUT_FILENO, 1 << 20) < 0 || out_init(&w.hdr, -1, 4096) < 0)
		goto nomem;
	while ((ret = ltt_reader_next(r, &ev)) > 0) {
		if ((w.begin.set || w.end.set) && ltt_event_has_time(ev)) {
			if (first) {
				resolve_bound(&w, &w.begin, ltt_event_ns(ev));
				resolve_bound(&w, &w.end, ltt_event_ns(ev));
				first = false;
			}
			if (w.begin.set && ltt_event_ns(ev) < w.begin.ns)
				continue;
			if (w.end.set && ltt_event_ns(ev) > w.end.ns)
				break;
		}
		if (ret != LTT_RECORD_EVENT) {
			if (w.count)
				continue;
			if (w.json)
				put_discarded_json(&w, ev, ret == LTT_RECORD_DISCARDED_PACKETS);
			else
				put_discarded(&w, ev, ret == LTT_RECORD_DISCARDED_PACKETS);
			continue;
		}
		if (w.nglobs && !name_selected(&w, ltt_event_name(ev)))
			continue;
		count++;
		if (w.count)
			continue;
		if (w.json)
			put_event_json(&w, ev);
		else
			put_event(&w, ev);
	}
	if (w.count)
		out_printf(&w.o, "%" PRIu64 "\n", count);
	if (out_flush(&w.o) < 0) {
		if (w.o.error != -EPIPE)
			cli_error("view: cannot write the output: %s", strerror(-w.o.error));
		goto out_free;
	}
	if (ret < 0) {
		cli_error("view: %s", ltt_reader_errmsg(r));
		goto out_free;
	}
	status = 0;
out_free:
	out_free(&w.o);
	out_free(&w.hdr);
	goto out;
nomem:
	cli_error("view: out of memory");
out:
	ltt_reader_free(r);
	free(errmsg);
	for (size_t i = 0; i < w.nglobs; i++)
		free(w.globs[i]);
	free(w.globs);
	return status;
}
