/* app.c - traced applications: registration, state pushes, event ids; see app.h. */
#include "app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app-fields.h"
#include "proto/ctl-protocol.h"
#include "commands.h"
#include "tracker.h"
#include "ust-session.h"

#define MAX_APPS 1024
#define PUSH_TIMEOUT_MS 3000

struct app {
	pid_t pid;		/* also its vpid: the hello's PID is checked against SO_PEERCRED */
	uid_t uid;		/* SO_PEERCRED */
	int64_t vuid, vgid;	/* as the application sees them (trackers) */
	char procname[17];
	int cmd_fd, notify_fd;	/* -1 until that connection said hello */
	uint32_t seq;
};

static struct app *apps[MAX_APPS];
static unsigned n_apps;

/* Forgets application i; its per-PID buffers are written out and released. */
static void app_drop(struct registry *reg, unsigned i)
{
	struct app *a = apps[i];
	const char *detail;
	struct consumer *c = commands_consumer(&detail);

	for (size_t k = 0; k < reg->n_sessions; k++)
		ust_session_remove_app(reg->sessions[k], c, a->pid);
	if (a->cmd_fd >= 0)
		close(a->cmd_fd);
	if (a->notify_fd >= 0)
		close(a->notify_fd);
	free(a);
	apps[i] = apps[--n_apps];
}

static int find_by_pid(pid_t pid)
{
	for (unsigned i = 0; i < n_apps; i++)
		if (apps[i]->pid == pid)
			return (int)i;
	return -1;
}

static int find_by_fd(int fd)
{
	for (unsigned i = 0; i < n_apps; i++)
		if (apps[i]->cmd_fd == fd || apps[i]->notify_fd == fd)
			return (int)i;
	return -1;
}

/* Builds the state of what app must record: the channels of started
 * sessions (with their descriptors) and their enabled rules. */
static int build_state(const struct registry *reg, const struct app *app, uint32_t seq,
		       struct proto_builder *b, int *fds, unsigned *n_fds)
{
	proto_builder_init(b, APP_STATE, seq);
	*n_fds = 0;
	if (app->uid != geteuid())
		return 0;	/* per-UID buffers: only the daemon's own user's, so far */
	for (size_t i = 0; i < reg->n_sessions; i++) {
		const struct reg_session *s = reg->sessions[i];

		if (!s->active || !tracker_tracks_app(s, app->pid, app->vuid, app->vgid))
			continue;	/* an untracked application gets none of its channels */
		for (size_t k = 0; k < ust_session_channel_count(s); k++) {
			struct ust_channel_info ci;

			ust_session_channel(s, k, &ci);
			if (ci.pid && ci.pid != app->pid)
				continue;	/* another application's per-PID buffers */
			if (*n_fds + 2 > PROTO_MAX_FDS)
				return -E2BIG;	/* PROTO_MAX_FDS / 2 channels at most */
			proto_nest_begin(b, APP_A_CHANNEL);
			proto_put_u64(b, APP_A_SLOT, ci.slot);
			proto_put_u64(b, APP_A_KEY, ci.key);
			proto_put_u64(b, APP_A_FD_INDEX, *n_fds);
			for (size_t c = 0; c < ci.channel->n_contexts; c++)
				proto_put_u64(b, APP_A_CONTEXT, ci.channel->contexts[c]);
			if (ci.channel->attr.blocking_timeout_us)
				proto_put_i64(b, APP_A_BLOCKING_TIMEOUT,
					      ci.channel->attr.blocking_timeout_us);
			proto_nest_end(b);
			fds[(*n_fds)++] = ci.shm_fd;
			fds[(*n_fds)++] = ci.wakeup_fd;
			for (size_t r = 0; r < ci.channel->n_rules; r++) {
				const struct reg_rule *rule = &ci.channel->rules[r];

				if (!rule->enabled)
					continue;
				proto_nest_begin(b, APP_A_RULE);
				proto_put_u64(b, APP_A_SLOT, ci.slot);
				proto_put_str(b, APP_A_PATTERN, rule->pattern);
				proto_put_u64(b, APP_A_LOGLEVEL_MATCH, (uint64_t)rule->loglevel_match);
				proto_put_i64(b, APP_A_LOGLEVEL, rule->loglevel);
				for (size_t x = 0; x < rule->n_exclusions; x++)
					proto_put_str(b, APP_A_EXCLUSION, rule->exclusions[x]);
				if (rule->bytecode)
					proto_put_bytes(b, APP_A_FILTER, rule->bytecode,
							rule->bytecode_len);
				proto_nest_end(b);
			}
		}
	}
	return proto_builder_error(b);
}

/* Answers an APP_EVENT_REGISTER on the notification connection. */
static int event_register(struct registry *reg, struct app *app, const struct proto_msg *m)
{
	struct ust_event_desc ev = { 0 };
	struct proto_builder reply;
	struct reg_session *s;
	const char *detail = NULL;
	uint64_t slot;
	int64_t level = 0;
	size_t index;
	uint32_t id = 0;
	int r;

	proto_builder_init(&reply, APP_EVENT_ID, m->hdr.seq);
	if (proto_get_u64(&m->attrs, APP_A_SLOT, &slot) < 0 ||
	    proto_get_str(&m->attrs, APP_A_NAME, &ev.name) < 0 ||
	    proto_get_i64(&m->attrs, APP_A_LOGLEVEL, &level) < 0 || level < 0 || level > 14 ||
	    proto_get_str(&m->attrs, APP_A_EMF_URI, &ev.emf_uri) == -EBADMSG) {
		r = -EBADMSG;
	} else if (!(s = ust_session_by_slot(reg, (unsigned)slot, &index))) {
		r = -ENOENT;	/* the channel went away meanwhile */
	} else {
		struct consumer *c = commands_consumer(&detail);

		ev.loglevel = (int)level;
		ev.sig = m->attrs.p;
		ev.sig_len = m->attrs.len;
		r = c ? app_fields_to_ctf(&m->attrs, &ev.payload, &detail) : -ECHILD;
		if (r == 0)
			r = ust_session_event_id(s, index, &ev, c, &id, &detail);
	}
	if (r < 0 && r != -ENOENT)
		fprintf(stderr, "ltt-sessiond: application %d (%s): cannot register event '%s': %s\n",
			(int)app->pid, app->procname, ev.name ? ev.name : "?",
			detail ? detail : strerror(-r));
	proto_put_i64(&reply, APP_A_STATUS, r);
	if (r == 0)
		proto_put_u64(&reply, APP_A_ID, id);
	r = proto_send(app->notify_fd, &reply, NULL, 0, PUSH_TIMEOUT_MS);
	proto_builder_free(&reply);
	return r;
}

/* Serves one message on the notification connection; <0: drop the app. */
static int serve_notify(struct registry *reg, struct app *app)
{
	struct proto_msg m;
	int r = proto_recv(app->notify_fd, &m, PUSH_TIMEOUT_MS);

	if (r < 0)
		return r;
	r = m.hdr.type == APP_EVENT_REGISTER ? event_register(reg, app, &m) : -EBADMSG;
	proto_msg_free(&m);
	return r;
}

/*
 * Sends the request built in b (seq: ++app->seq) on app's command
 * connection and waits, at most PUSH_TIMEOUT_MS, for its reply of type
 * `reply_type`, serving meanwhile the app's notification connection (the
 * request may make it register events). Returns 0 with *reply to free, or
 * a negative errno (the app must then be dropped).
 */
static int roundtrip(struct registry *reg, struct app *app, struct proto_builder *b,
		     const int *fds, unsigned n_fds, uint16_t reply_type, struct proto_msg *reply)
{
	struct timespec start, now;
	int r = proto_send(app->cmd_fd, b, fds, n_fds, PUSH_TIMEOUT_MS);

	if (r < 0)
		return r;
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = app->cmd_fd, .events = POLLIN },
			{ .fd = app->notify_fd, .events = POLLIN },
		};
		long elapsed;

		clock_gettime(CLOCK_MONOTONIC, &now);
		elapsed = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
		if (elapsed >= PUSH_TIMEOUT_MS)
			return -ETIMEDOUT;
		if (poll(pfd, app->notify_fd >= 0 ? 2 : 1, (int)(PUSH_TIMEOUT_MS - elapsed)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (app->notify_fd >= 0 && pfd[1].revents && (r = serve_notify(reg, app)) < 0)
			return r;
		if (pfd[0].revents) {
			if ((r = proto_recv(app->cmd_fd, reply, PUSH_TIMEOUT_MS)) < 0)
				return r;
			if (reply->hdr.type != reply_type || reply->hdr.seq != app->seq) {
				proto_msg_free(reply);
				return -EBADMSG;
			}
			return 0;
		}
	}
}

static int attach_sessions(struct registry *reg, struct app *app);

/* Pushes app's state and waits for its ACK. */
static int push_one(struct registry *reg, struct app *app)
{
	struct proto_builder b = { 0 };
	struct proto_msg reply;
	int fds[PROTO_MAX_FDS];
	unsigned n_fds;
	int64_t status;
	/* a session may track the application since the last push */
	int r = attach_sessions(reg, app);

	if (r == 0)
		r = build_state(reg, app, ++app->seq, &b, fds, &n_fds);
	if (r == 0)
		r = roundtrip(reg, app, &b, fds, n_fds, APP_ACK, &reply);
	proto_builder_free(&b);
	if (r < 0)
		return r;
	r = proto_get_i64(&reply.attrs, APP_A_STATUS, &status) == 0 ? 0 : -EBADMSG;
	proto_msg_free(&reply);
	return r;
}

/* Asks app its events and appends them to out as one APP_DESC. */
static int list_one(struct registry *reg, struct app *app, struct proto_builder *out)
{
	struct proto_builder b;
	struct proto_msg reply;
	struct proto_attr at;
	size_t cur = 0;
	int r;

	proto_builder_init(&b, APP_LIST_EVENTS, ++app->seq);
	r = roundtrip(reg, app, &b, NULL, 0, APP_EVENTS, &reply);
	proto_builder_free(&b);
	if (r < 0)
		return r;
	proto_nest_begin(out, CTL_A_APP_DESC);
	proto_put_u64(out, CTL_A_PID, (uint64_t)app->pid);
	proto_put_str(out, CTL_A_PROCNAME, app->procname);
	while (proto_attrs_next(&reply.attrs, &cur, &at)) {
		struct proto_attrs ev = { at.value, at.len };
		const char *name;
		int64_t level;

		if (at.id != APP_A_EVENT || at.kind != PROTO_NEST ||
		    proto_get_str(&ev, APP_A_NAME, &name) < 0 ||
		    proto_get_i64(&ev, APP_A_LOGLEVEL, &level) < 0)
			continue;
		proto_nest_begin(out, CTL_A_TRACEPOINT_DESC);
		proto_put_str(out, CTL_A_PATTERN, name);
		proto_put_i64(out, CTL_A_LOGLEVEL, level);
		proto_nest_end(out);
	}
	proto_nest_end(out);
	proto_msg_free(&reply);
	return 0;
}

void apps_list(struct registry *reg, struct proto_builder *out)
{
	for (unsigned i = n_apps; i-- > 0;) {
		if (apps[i]->cmd_fd < 0 || apps[i]->notify_fd < 0)
			continue;
		int r = list_one(reg, apps[i], out);

		if (r < 0) {
			fprintf(stderr, "ltt-sessiond: application %d (%s) dropped: %s\n",
				(int)apps[i]->pid, apps[i]->procname, strerror(-r));
			app_drop(reg, i);
		}
	}
}

void apps_push(struct registry *reg)
{
	for (unsigned i = n_apps; i-- > 0;) {
		if (apps[i]->cmd_fd < 0)
			continue;
		int r = push_one(reg, apps[i]);

		if (r < 0) {
			fprintf(stderr, "ltt-sessiond: application %d (%s) dropped: %s\n",
				(int)apps[i]->pid, apps[i]->procname, strerror(-r));
			app_drop(reg, i);
		}
	}
}

/* Whether session s records application a (same user, tracked). */
static bool records(const struct reg_session *s, const struct app *a)
{
	return a->uid == geteuid() && tracker_tracks_app(s, a->pid, a->vuid, a->vgid);
}

/*
 * Creates app's per-PID buffers in the started sessions that have such
 * channels and record it.
 */
static int attach_sessions(struct registry *reg, struct app *app)
{
	const char *detail = NULL;

	for (size_t i = 0; i < reg->n_sessions; i++) {
		struct reg_session *s = reg->sessions[i];
		struct consumer *c;
		int r;

		if (!s->active || !records(s, app))
			continue;
		if (!(c = commands_consumer(&detail)))
			return -ECHILD;
		r = ust_session_add_app(s, c, app->pid, app->procname, &detail);
		if (r < 0) {
			fprintf(stderr, "ltt-sessiond: session %s: no per-PID buffers for %d (%s): %s\n",
				s->name, (int)app->pid, app->procname, detail ? detail : strerror(-r));
			return r;
		}
	}
	return 0;
}

int apps_attach_session(struct registry *reg, struct reg_session *s, const char **detail)
{
	struct consumer *c = commands_consumer(detail);

	if (!c)
		return -ECHILD;
	for (unsigned i = 0; i < n_apps; i++) {
		if (apps[i]->cmd_fd < 0 || apps[i]->notify_fd < 0 || !records(s, apps[i]))
			continue;
		int r = ust_session_add_app(s, c, apps[i]->pid, apps[i]->procname, detail);

		if (r < 0)
			return r;
	}
	(void)reg;
	return 0;
}

void apps_adopt(struct registry *reg, int fd, const struct proto_msg *hello)
{
	uint64_t role, pid, vuid = UINT64_MAX, vgid = UINT64_MAX;
	const char *procname = "";
	pid_t peer_pid;
	uid_t uid;
	gid_t gid;
	struct app *a;
	int i;

	if (proto_get_u64(&hello->attrs, APP_A_ROLE, &role) < 0 ||
	    proto_get_u64(&hello->attrs, APP_A_PID, &pid) < 0 ||
	    proto_get_str(&hello->attrs, APP_A_PROCNAME, &procname) == -EBADMSG ||
	    proto_get_u64(&hello->attrs, APP_A_UID, &vuid) == -EBADMSG ||
	    proto_get_u64(&hello->attrs, APP_A_GID, &vgid) == -EBADMSG ||
	    (role != APP_ROLE_COMMAND && role != APP_ROLE_NOTIFY) ||
	    proto_peer_cred(fd, &peer_pid, &uid, &gid) < 0 || (pid_t)pid != peer_pid) {
		close(fd);	/* not who it says it is */
		return;
	}
	i = find_by_pid(peer_pid);
	if (i < 0) {
		if (n_apps == MAX_APPS || !(a = calloc(1, sizeof(*a)))) {
			close(fd);
			return;
		}
		a->pid = peer_pid;
		a->uid = uid;
		/* ids it did not say (an older library): as the kernel reports them */
		a->vuid = vuid <= UINT32_MAX ? (int64_t)vuid : (int64_t)uid;
		a->vgid = vgid <= UINT32_MAX ? (int64_t)vgid : (int64_t)gid;
		a->cmd_fd = a->notify_fd = -1;
		/* it names a directory (per-PID buffers): keep it a plain file name */
		snprintf(a->procname, sizeof(a->procname), "%s", procname);
		for (char *p = a->procname; *p; p++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", *p))
				*p = '_';
		apps[n_apps++] = a;
	} else {
		a = apps[i];
	}
	int *slot = role == APP_ROLE_COMMAND ? &a->cmd_fd : &a->notify_fd;

	if (*slot >= 0)
		close(*slot);	/* a reconnection replaces the old one */
	*slot = fd;
	/* an application with both connections gets its state at once */
	if (a->cmd_fd >= 0 && a->notify_fd >= 0) {
		int r = push_one(reg, a);

		if (r < 0) {
			fprintf(stderr, "ltt-sessiond: application %d (%s) dropped: %s\n",
				(int)a->pid, a->procname, strerror(-r));
			app_drop(reg, (unsigned)find_by_pid(a->pid));
		}
	}
}

unsigned apps_pollfds(struct pollfd *fds, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < n_apps; i++) {
		if (apps[i]->cmd_fd >= 0 && n < max)
			fds[n++] = (struct pollfd){ .fd = apps[i]->cmd_fd, .events = POLLIN };
		if (apps[i]->notify_fd >= 0 && n < max)
			fds[n++] = (struct pollfd){ .fd = apps[i]->notify_fd, .events = POLLIN };
	}
	return n;
}

void apps_ready(struct registry *reg, int fd)
{
	int i = find_by_fd(fd), r;
	struct app *a;

	if (i < 0)
		return;
	a = apps[i];
	if (fd == a->notify_fd) {
		r = serve_notify(reg, a);
	} else {
		/* outside a push the command connection only closes (the app exited) */
		struct proto_msg m;

		r = proto_recv(fd, &m, PUSH_TIMEOUT_MS);
		if (r == 0) {
			proto_msg_free(&m);
			r = -EBADMSG;
		}
	}
	if (r < 0)
		app_drop(reg, (unsigned)i);
}

void apps_free(struct registry *reg)
{
	while (n_apps)
		app_drop(reg, n_apps - 1);
}
