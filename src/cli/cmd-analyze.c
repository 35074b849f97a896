/*
 * cmd-analyze.c - `ltt analyze ANALYSIS [OPTIONS] TRACE_DIR`: analyses of a
 * trace (src/analysis), printed as text tables or one JSON object.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/reader.h>

#include "analysis.h"
#include "cli.h"

static const char help[] =
"Usage: ltt analyze ANALYSIS [OPTIONS] TRACE_DIR\n"
"\n"
"Analyses of the traces under TRACE_DIR:\n"
"  events    counts and rates per event name, counts per CPU, events per\n"
"            second, discarded events per stream\n"
"  period    durations between a begin and an end event: count, min, mean,\n"
"            p50, p90, p99, max\n"
"  syscalls  system calls of kernel traces (syscall_entry_X/syscall_exit_X):\n"
"            count, errors, min, mean, max, total time per call\n"
"  irq       interrupt handlers (irq_handler_entry/exit, irq_softirq_entry/exit):\n"
"            count, min, mean, max, total time per irq\n"
"  sched-latency  time from sched_wakeup to running (sched_switch), per comm\n"
"  process   CPU time per thread between its sched_switch in and out\n"
"\n"
"Options:\n"
"      --json               one JSON object instead of text tables\n"
"      --begin-event NAME   period: the event that opens a period\n"
"      --end-event NAME     period: the event that closes it\n"
"      --key FIELD          period: pair begin and end events with the same\n"
"                           value of FIELD (else: an end closes the most\n"
"                           recent open begin)\n"
"  -h, --help               this help\n"
"\n"
"See ltt-analyze(1).\n";

enum { OPT_JSON = 256, OPT_BEGIN, OPT_END, OPT_KEY };

int cmd_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "begin-event", required_argument, NULL, OPT_BEGIN },
		{ "end-event", required_argument, NULL, OPT_END },
		{ "key", required_argument, NULL, OPT_KEY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *begin = NULL, *end = NULL, *key = NULL, *what, *path;
	struct ltt_reader *r = NULL;
	char *errmsg = NULL;
	bool json = false;
	int c, ret, status = 1;

	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON: json = true; break;
		case OPT_BEGIN: begin = optarg; break;
		case OPT_END: end = optarg; break;
		case OPT_KEY: key = optarg; break;
		case 'h':
			fputs(help, stdout);
			return 0;
		default:
			fputs(help, stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		fputs(help, stderr);
		return 2;
	}
	what = argv[optind];
	path = argv[optind + 1];
	if (strcmp(what, "events") && strcmp(what, "period") && strcmp(what, "syscalls") &&
	    strcmp(what, "irq") && strcmp(what, "sched-latency") && strcmp(what, "process")) {
		cli_error("analyze: unknown analysis '%s' (events, period, syscalls, irq, sched-latency, process)",
			  what);
		return 2;
	}
	if (!strcmp(what, "period") && (!begin || !end)) {
		cli_error("analyze: period needs --begin-event and --end-event");
		return 2;
	}
	ret = ltt_reader_open(path, &r, &errmsg);
	if (ret < 0) {
		cli_error("analyze: %s", errmsg ? errmsg : "cannot open the trace");
		free(errmsg);
		return 1;
	}
	if (!strcmp(what, "events")) {
		struct an_events res;

		ret = an_events_run(r, &res);
		if (ret == 0) {
			an_events_print(&res, json, stdout);
			an_events_free(&res);
		}
	} else if (strcmp(what, "period")) {
		struct an_kernel res;

		ret = !strcmp(what, "syscalls") ? an_syscalls_run(r, &res) :
		      !strcmp(what, "irq") ? an_irq_run(r, &res) :
		      !strcmp(what, "process") ? an_process_run(r, &res) :
		      an_sched_latency_run(r, &res);
		if (ret == 0) {
			an_kernel_print(&res, what, json, stdout);
			an_kernel_free(&res);
		}
	} else {
		struct an_period res;

		ret = an_period_run(r, begin, end, key, &res);
		if (ret == 0) {
			an_period_print(&res, begin, end, key, json, stdout);
			an_period_free(&res);
		}
	}
	if (ret < 0)
		cli_error("analyze: %s", ret == -EBADMSG ? ltt_reader_errmsg(r) : "out of memory");
	else
		status = 0;
	ltt_reader_free(r);
	return status;
}
