/* ltt snapshot - record snapshots of a flight-recorder session, manage its output. */
#include "cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: ltt snapshot record [-s SESSION] [-n NAME] [-m SIZE] [URL | PATH]\n"
	"       ltt snapshot add-output [-s SESSION] [-n NAME] [-m SIZE] URL | PATH\n"
	"       ltt snapshot del-output [-s SESSION] ID | NAME\n"
	"       ltt snapshot list-output [-s SESSION]\n"
	"\n"
	"record writes what the buffers of a snapshot session (ltt create --snapshot)\n"
	"hold now, without stopping the applications, as a complete trace in\n"
	"DIR/NAME-YYYYMMDD-HHMMSS-N (N counts the session's snapshots), DIR being\n"
	"the session's snapshot output or PATH. What the buffers lost before\n"
	"(overwritten, or left out by --max-size) shows to readers as discarded\n"
	"packets. A session has one snapshot output (snapshot-1, its output, when\n"
	"created with one): add-output sets it, del-output removes it, list-output\n"
	"shows it.\n"
	"\n"
	"  -s, --session NAME    the session (default: the current one)\n"
	"  -n, --name NAME       the snapshot's (or the output's) name\n"
	"  -m, --max-size SIZE   write at most SIZE bytes of stream data: each stream\n"
	"                        keeps its newest sub-buffers, the same number each\n"
	"  -h, --help            show this help\n"
	"URL: a path, or file://PATH. Sizes take k, M, G.\n";

struct snapshot_opts {
	const char *session, *name, *max_size;
	char url[PATH_MAX];
	bool has_url;
	uint64_t size;
};

/*
 * Parses the options and at most one positional argument (the URL, or the
 * output to delete); an exit status (0: go on).
 */
static int parse(int argc, char **argv, struct snapshot_opts *o, bool url_is_path)
{
	static const struct option opts[] = {
		{ "session", required_argument, NULL, 's' },
		{ "name", required_argument, NULL, 'n' },
		{ "max-size", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "s:n:m:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': o->session = optarg; break;
		case 'n': o->name = optarg; break;
		case 'm': o->max_size = optarg; break;
		default:
			fputs(help, stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		cli_error("snapshot %s takes one argument at most", argv[0]);
		return 2;
	}
	if (o->max_size && (cli_parse_size(o->max_size, &o->size) < 0 || o->size == 0)) {
		cli_error("invalid maximum size '%s' (a size in bytes: 512k, 4M, ...)", o->max_size);
		return 2;
	}
	o->has_url = optind < argc;
	if (o->has_url && url_is_path)
		return cli_output_path(argv[optind], o->url, sizeof(o->url));
	if (o->has_url)
		snprintf(o->url, sizeof(o->url), "%s", argv[optind]);
	return 0;
}

static int record(struct ltt_ctl *ctl, const struct snapshot_opts *o)
{
	struct ltt_snapshot_attr attr;
	char *path = NULL;
	int r;

	ltt_snapshot_attr_init(&attr);
	attr.name = o->name;
	attr.path = o->has_url ? o->url : NULL;
	attr.max_size = o->size;
	r = ltt_snapshot_record(ctl, o->session, &attr, &path);
	if (r < 0)
		return cli_fail(ctl, r, "cannot record a snapshot of session '%s'", o->session);
	cli_say("Snapshot recorded successfully for session %s\n", o->session);
	cli_say("Written in %s\n", path);
	free(path);
	return 0;
}

static void print_output(uint32_t id, const char *name, const char *path, uint64_t max_size)
{
	cli_say("    [%" PRIu32 "] %s: %s", id, name, path);
	if (max_size)
		cli_say(" (max size: %" PRIu64 " bytes)", max_size);
	cli_say("\n");
}

/*
 * Prints the header (if any), then the session's outputs (all, or the one
 * of id); "None" if there is none.
 */
static int print_outputs(struct ltt_ctl *ctl, const char *session, uint32_t only_id,
			 const char *header)
{
	struct ltt_snapshot_output_list *l;
	bool any = false;
	int r = ltt_snapshot_output_list_get(ctl, session, &l);

	if (r < 0)
		return cli_fail(ctl, r, "cannot list the snapshot outputs of session '%s'", session);
	if (header)
		cli_say("%s %s\n", header, session);
	for (size_t i = 0; i < ltt_snapshot_output_list_count(l); i++) {
		const char *name, *path;
		uint64_t max_size;
		uint32_t id;

		ltt_snapshot_output_list_entry(l, i, &id, &name, &path, &max_size);
		if (!only_id || id == only_id) {
			print_output(id, name, path, max_size);
			any = true;
		}
	}
	if (!any)
		cli_say("    None\n");
	ltt_snapshot_output_list_free(l);
	return 0;
}

static int add_output(struct ltt_ctl *ctl, const struct snapshot_opts *o)
{
	uint32_t id;
	int r;

	if (!o->has_url) {
		cli_error("snapshot add-output: give the output's URL or path");
		return 2;
	}
	r = ltt_snapshot_output_add(ctl, o->session, o->name, o->url, o->size, &id);
	if (r < 0)
		return cli_fail(ctl, r, "cannot add a snapshot output to session '%s'", o->session);
	return print_outputs(ctl, o->session, id, "Snapshot output successfully added for session");
}

static int del_output(struct ltt_ctl *ctl, const struct snapshot_opts *o)
{
	const char *arg = o->url;
	char *end;
	unsigned long id = 0;
	int r;

	if (!o->has_url || o->name || o->max_size) {
		cli_error("snapshot del-output: give the output's id or name, and no option but -s");
		return 2;
	}
	if (arg[0] >= '0' && arg[0] <= '9') {
		id = strtoul(arg, &end, 10);
		if (*end || id == 0 || id > UINT32_MAX) {
			cli_error("invalid snapshot output id '%s'", arg);
			return 2;
		}
	}
	r = ltt_snapshot_output_del(ctl, o->session, (uint32_t)id, id ? NULL : arg);
	if (r < 0)
		return cli_fail(ctl, r, "cannot delete snapshot output %s of session '%s'", arg,
				o->session);
	cli_say("Snapshot output %s%s successfully deleted for session %s\n", id ? "id " : "", arg,
		o->session);
	return 0;
}

static int list_output(struct ltt_ctl *ctl, const struct snapshot_opts *o)
{
	if (o->has_url || o->name || o->max_size) {
		cli_error("snapshot list-output takes no argument and no option but -s");
		return 2;
	}
	return print_outputs(ctl, o->session, 0, "Snapshot output list for session");
}

int cmd_snapshot(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(struct ltt_ctl *ctl, const struct snapshot_opts *o);
		bool url_is_path;
	} actions[] = {
		{ "record", record, true },
		{ "add-output", add_output, true },
		{ "del-output", del_output, false },
		{ "list-output", list_output, false },
	};
	struct snapshot_opts o = { 0 };
	struct ltt_ctl *ctl;
	int r;

	if (cli_wants_help(argc, argv, help))
		return 0;
	for (size_t i = 0; argc >= 2 && i < sizeof(actions) / sizeof(actions[0]); i++) {
		if (strcmp(argv[1], actions[i].name) != 0)
			continue;
		if ((r = parse(argc - 1, argv + 1, &o, actions[i].url_is_path)))
			return r;
		if (!(o.session = cli_session_or_current(o.session)) || cli_connect(false, &ctl))
			return 1;
		r = actions[i].run(ctl, &o);
		ltt_ctl_close(ctl);
		return r;
	}
	cli_error("snapshot: give an action: record, add-output, del-output or list-output "
		  "(see `ltt snapshot --help`)");
	return 2;
}
