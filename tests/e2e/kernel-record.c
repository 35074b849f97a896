/*
 * kernel-record - records kernel events with the tracefs backend into a CTF
 * trace, for N seconds or until a child program exits. The e2e tests drive
 * it; it is also a small demo of the library's API in the order a session
 * and consumer daemon call it.
 *
 *   kernel-record -o DIR [-s SESSION] [-e EVENT]... [-S SYSCALL]...
 *                 [-F FILTER] [-u ELF:SYMBOL [-U FETCHARGS]]... [--function FN]
 *                 [-b SUBBUF_SIZE] [-n NUM_SUBBUF] [--overwrite]
 *                 [-m auto|mmap|read] [-d SECONDS] [--no-statedump]
 *                 [--clock monotonic|tsc] [-- PROGRAM ARGS...]
 *   kernel-record --list | --list-syscalls | --cleanup-stale
 *
 * -F applies to the -e patterns given before it; "$CHILD" in a filter is
 * replaced by the child's pid (the child is forked first and waits until
 * tracing is on). --clock tsc records with the "x86-tsc" trace clock and
 * declares the "tsc" clock, as a session on the TSC clock does (default:
 * monotonic). Prints a JSON summary on stdout; errors on stderr, once.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "ringbuf/ringbuf.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct cpu_ctx {
	struct kt_converter *conv;
	unsigned cpu;
	uint64_t bad;
	struct kt_error err;
};

static int on_record(const struct kt_record *rec, uint64_t lost, void *arg)
{
	struct cpu_ctx *cc = arg;
	int r;

	if (lost)
		kt_converter_lost(cc->conv, cc->cpu, lost);
	r = kt_converter_record(cc->conv, cc->cpu, rec, &cc->err);
	if (r == -ENOENT || r == -EBADMSG) {
		cc->bad++;
		return 0;
	}
	return r;
}

struct declare_ctx {
	struct kt_converter *conv;
	struct kt_error *err;
};

/* Each enabled event is in the metadata, fired or not (as LTTng's). */
static int declare_enabled(const char *system, const char *name, void *arg)
{
	struct declare_ctx *dc = arg;
	struct kt_event_format *fmt = NULL;
	int r;

	r = kt_event_format_load(system, name, &fmt);
	if (r < 0)
		return kt_error_set(dc->err, r, "cannot read the format of %s:%s: %s", system,
				    name, strerror(-r));
	r = kt_converter_declare(dc->conv, fmt, NULL, dc->err);
	kt_event_format_free(fmt);
	return r;
}

static int print_name(const char *name, void *arg)
{
	(void)arg;
	puts(name);
	return 0;
}

static void die(const char *what, int r, const struct kt_error *err)
{
	fprintf(stderr, "kernel-record: %s: %s\n", what,
		err && err->msg[0] ? err->msg : strerror(-r));
}

static char *subst_child(const char *expr, pid_t child)
{
	const char *p = strstr(expr, "$CHILD");
	char *out;

	if (!p)
		return strdup(expr);
	if (asprintf(&out, "%.*s%d%s", (int)(p - expr), expr, (int)child, p + 6) < 0)
		return NULL;
	return out;
}

static double now_s(void)
{
	return (double)kt_clock_mono_ns() / 1e9;
}

enum { OPT_FUNCTION = 256, OPT_OVERWRITE, OPT_NO_STATEDUMP, OPT_LIST, OPT_LIST_SYSCALLS,
       OPT_CLEANUP, OPT_CLOCK };

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "function", required_argument, NULL, OPT_FUNCTION },
		{ "overwrite", no_argument, NULL, OPT_OVERWRITE },
		{ "no-statedump", no_argument, NULL, OPT_NO_STATEDUMP },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "list-syscalls", no_argument, NULL, OPT_LIST_SYSCALLS },
		{ "cleanup-stale", no_argument, NULL, OPT_CLEANUP },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ NULL, 0, NULL, 0 },
	};
	const char *outdir = NULL, *session = "rec", *function = NULL;
	const char *events[64], *syscalls[64], *uprobes[16], *ufetch[16];
	struct { const char *expr; int upto; } filters[16];
	size_t nev = 0, nsys = 0, nup = 0, nfilt = 0;
	struct kt_instance_config icfg = { 0 };
	struct kt_converter_config ccfg = { 0 };
	enum kt_reader_mode mode = KT_READER_AUTO;
	struct kt_instance *inst = NULL;
	struct kt_converter *conv = NULL;
	struct kt_cpu_reader **readers = NULL;
	struct cpu_ctx *ctx = NULL;
	struct kt_error err = { { 0 } };
	bool statedump = true;
	double duration = 0, t0, t_busy = 0;
	int sync_pipe[2] = { -1, -1 }, opt, r = 0, status = 0, rc = 1;
	pid_t child = -1, child_pid = -1;
	unsigned ncpus = 0, nevents = 0;
	char kdir[4096];
	uint64_t start_ts;
	enum ctf_clock_kind clock_kind = CTF_CLOCK_MONOTONIC;
	struct ctf_clock_info clock;

	while ((opt = getopt_long(argc, argv, "+o:s:e:S:F:u:U:b:n:m:d:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': outdir = optarg; break;
		case 's': session = optarg; break;
		case 'e':
			if (nev < 64)
				events[nev++] = optarg;
			break;
		case 'S':
			if (nsys < 64)
				syscalls[nsys++] = optarg;
			break;
		case 'F':
			if (nfilt < 16) {
				filters[nfilt].expr = optarg;
				filters[nfilt++].upto = (int)nev;
			}
			break;
		case 'u':
			if (nup < 16) {
				ufetch[nup] = NULL;
				uprobes[nup++] = optarg;
			}
			break;
		case 'U':
			if (nup)
				ufetch[nup - 1] = optarg;
			break;
		case 'b': icfg.subbuf_size = strtoull(optarg, NULL, 0); break;
		case 'n': icfg.num_subbuf = strtoull(optarg, NULL, 0); break;
		case 'm':
			mode = strcmp(optarg, "mmap") == 0 ? KT_READER_MMAP :
			       strcmp(optarg, "read") == 0 ? KT_READER_READ : KT_READER_AUTO;
			break;
		case 'd': duration = strtod(optarg, NULL); break;
		case OPT_FUNCTION: function = optarg; break;
		case OPT_OVERWRITE: icfg.overwrite = true; break;
		case OPT_CLOCK:
			if (ctf_clock_kind_parse(optarg, &clock_kind) < 0) {
				fprintf(stderr, "kernel-record: --clock monotonic|tsc\n");
				return 2;
			}
			break;
		case OPT_NO_STATEDUMP: statedump = false; break;
		case OPT_LIST:
		case OPT_LIST_SYSCALLS:
			r = kt_list_events(opt == OPT_LIST_SYSCALLS, print_name, NULL, &err);
			if (r < 0)
				die("list", r, &err);
			return r < 0;
		case OPT_CLEANUP: {
			unsigned removed = 0;

			r = kt_instance_cleanup_stale(&removed, &err);
			if (r < 0)
				die("cleanup", r, &err);
			printf("{\"removed\": %u}\n", removed);
			return r < 0;
		}
		default:
			fprintf(stderr, "usage: kernel-record -o DIR [options] [-- PROGRAM ARGS]\n");
			return 2;
		}
	}
	if (!outdir) {
		fprintf(stderr, "kernel-record: -o DIR is required\n");
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);

	/* stale instances of dead recorders first */
	r = kt_instance_cleanup_stale(NULL, &err);
	if (r < 0) {
		die("tracefs", r, &err);
		return 1;
	}
	if (optind < argc) {
		if (pipe2(sync_pipe, O_CLOEXEC) < 0)
			return 1;
		child = fork();
		if (child < 0)
			return 1;
		if (child == 0) {
			char c;

			close(sync_pipe[1]);
			if (read(sync_pipe[0], &c, 1) != 1)
				_exit(126);
			execvp(argv[optind], argv + optind);
			_exit(127);
		}
		close(sync_pipe[0]);
		sync_pipe[0] = -1;
		child_pid = child;
	}

	icfg.session = session;
	icfg.clock = kt_trace_clock(clock_kind);
	r = ctf_clock_describe(clock_kind, &clock);
	if (r < 0) {
		die("clock", r, NULL);
		goto out;
	}
	r = kt_instance_create(&icfg, &inst, &err);
	if (r < 0) {
		die("instance", r, &err);
		goto out;
	}
	r = kt_instance_exclude_pid(inst, getpid(), &err);	/* not our own syscalls */
	if (r < 0) {
		die("instance", r, &err);
		goto out;
	}
	for (size_t i = 0; i < nev; i++) {
		r = kt_instance_enable_events(inst, events[i], &err);
		if (r < 0) {
			die("enable-event", r, &err);
			goto out;
		}
		nevents += (unsigned)r;
	}
	for (size_t i = 0; i < nsys; i++) {
		r = kt_instance_enable_syscalls(inst, syscalls[i], &err);
		if (r < 0) {
			die("syscall", r, &err);
			goto out;
		}
		nevents += (unsigned)r;
	}
	for (size_t f = 0; f < nfilt; f++) {
		char *expr = subst_child(filters[f].expr, child);

		for (int i = 0; expr && i < filters[f].upto; i++) {
			r = kt_instance_set_filter(inst, events[i], expr, &err);
			if (r < 0)
				break;
		}
		free(expr);
		if (r < 0) {
			die("filter", r, &err);
			goto out;
		}
	}
	for (size_t i = 0; i < nup; i++) {
		r = kt_instance_add_uprobe(inst, uprobes[i], NULL, ufetch[i], NULL, 0, &err);
		if (r < 0) {
			die("userspace-probe", r, &err);
			goto out;
		}
		nevents++;
	}
	if (function) {
		r = kt_instance_enable_function(inst, function, &err);
		if (r < 0) {
			die("function", r, &err);
			goto out;
		}
		nevents++;
	}

	ncpus = kt_instance_ncpus(inst);
	if (snprintf(kdir, sizeof(kdir), "%s/kernel", outdir) >= (int)sizeof(kdir)) {
		r = -ENAMETOOLONG;
		die("output", r, NULL);
		goto out;
	}
	start_ts = ctf_clock_now(clock_kind);
	ccfg.clock = &clock;
	ccfg.dir = kdir;
	ccfg.channel = "channel0";
	ccfg.ncpus = ncpus;
	ccfg.trace_name = session;
	ccfg.start_ts = start_ts;
	ccfg.nevents_hint = nevents + (statedump ? 4 : 0);
	r = kt_converter_create(&ccfg, &conv, &err);
	if (r < 0) {
		die("trace", r, &err);
		goto out;
	}
	{
		struct declare_ctx dc = { conv, &err };

		r = kt_instance_for_each_enabled(inst, declare_enabled, &dc);
		if (r < 0) {
			die("metadata", r, &err);
			goto out;
		}
	}
	readers = calloc(ncpus, sizeof(*readers));
	ctx = calloc(ncpus, sizeof(*ctx));
	if (!readers || !ctx) {
		r = -ENOMEM;
		goto out;
	}
	for (unsigned c = 0; c < ncpus; c++) {
		r = kt_cpu_reader_create(inst, c, mode, &readers[c], &err);
		if (r < 0) {
			die("reader", r, &err);
			goto out;
		}
		ctx[c].conv = conv;
		ctx[c].cpu = c;
	}
	if (statedump) {
		r = kt_converter_statedump(conv, 0, start_ts, &err);
		if (r < 0) {
			die("statedump", r, &err);
			goto out;
		}
	}
	r = kt_instance_start(inst, &err);
	if (r < 0) {
		die("start", r, &err);
		goto out;
	}
	if (child > 0) {
		if (write(sync_pipe[1], "x", 1) != 1) {
			r = -errno;
			goto out;
		}
		close(sync_pipe[1]);
		sync_pipe[1] = -1;
	}
	t0 = now_s();
	for (;;) {
		struct timespec tick = { 0, 20 * 1000 * 1000 };	/* the read timer */
		double b = now_s();
		bool done = stop_requested;

		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child = -1;
			done = true;
		}
		if (duration > 0 && b - t0 >= duration)
			done = true;
		if (done)
			break;
		for (unsigned c = 0; c < ncpus; c++) {
			long n = kt_cpu_reader_drain(readers[c], on_record, &ctx[c]);

			if (n < 0) {
				r = (int)n;
				die("read", r, &ctx[c].err);
				goto out;
			}
		}
		t_busy += now_s() - b;
		nanosleep(&tick, NULL);
	}
	r = kt_instance_stop(inst, &err);
	if (r < 0) {
		die("stop", r, &err);
		goto out;
	}
	{
		double b = now_s();
		uint64_t records = 0, lost = 0, bytes = 0, bad = 0;
		struct kt_converter_stats cs;
		struct stat st;

		for (unsigned c = 0; c < ncpus; c++) {
			long n = kt_cpu_reader_drain(readers[c], on_record, &ctx[c]);
			long long l;

			if (n < 0) {
				r = (int)n;
				die("read", r, &ctx[c].err);
				goto out;
			}
			l = kt_cpu_reader_lost_pending(readers[c]);
			if (l > 0)
				kt_converter_lost(conv, c, (uint64_t)l);
		}
		t_busy += now_s() - b;
		r = kt_converter_close(conv, &err);
		if (r < 0) {
			die("close", r, &err);
			goto out;
		}
		kt_converter_stats(conv, &cs);
		printf("{\"instance\": \"%s\", \"child_pid\": %d, \"reader\": \"%s\", \"lost_per_cpu\": [",
		       kt_instance_name(inst), (int)child_pid,
		       kt_cpu_reader_mode(readers[0]) == KT_READER_MMAP ? "mmap" : "read");
		for (unsigned c = 0; c < ncpus; c++) {
			struct kt_reader_stats rs;
			char path[4200];

			kt_cpu_reader_stats(readers[c], &rs);
			records += rs.records;
			lost += rs.lost;
			bad += ctx[c].bad;
			if (snprintf(path, sizeof(path), "%s/channel0_%u", kdir, c) <
			    (int)sizeof(path) && stat(path, &st) == 0)
				bytes += (uint64_t)st.st_size;
			printf("%s%llu", c ? ", " : "", (unsigned long long)rs.lost);
		}
		printf("], \"records\": %llu, \"events_written\": %llu, \"lost\": %llu, "
		       "\"unconverted\": %llu, \"clamped\": %llu, \"stream_bytes\": %llu, "
		       "\"busy_seconds\": %.6f, \"exit_status\": %d}\n",
		       (unsigned long long)records, (unsigned long long)cs.events,
		       (unsigned long long)lost, (unsigned long long)bad,
		       (unsigned long long)cs.clamped, (unsigned long long)bytes, t_busy,
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	rc = 0;
out:
	if (sync_pipe[1] >= 0)
		close(sync_pipe[1]);	/* the child's read fails: it exits 126 */
	if (child > 0) {
		if (rc != 0)
			kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	for (unsigned c = 0; readers && c < ncpus; c++)
		kt_cpu_reader_free(readers[c]);
	free(readers);
	free(ctx);
	kt_converter_free(conv);
	if (kt_instance_destroy(inst) < 0 && rc == 0) {
		fprintf(stderr, "kernel-record: could not remove every trace of the instance\n");
		rc = 1;
	}
	return rc;
}
