/*
 * tracepoints.c - the tracepoints of running applications (ltt list -u),
 * the kernel's tracepoints and syscalls (ltt list -k).
 */
#include "ctl-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/macros.h"

struct entry {
	int pid, loglevel;
	const char *procname, *name;	/* inside msg */
};

struct ltt_tracepoint_list {
	struct proto_msg msg;		/* the reply: the strings live here */
	struct entry *entries;
	size_t n;
};

LTT_EXPORT void ltt_tracepoint_list_free(struct ltt_tracepoint_list *l)
{
	if (!l)
		return;
	proto_msg_free(&l->msg);
	free(l->entries);
	free(l);
}

/* Adds the TRACEPOINT_DESC at (of application pid, procname: 0, "kernel" for the kernel). */
static int add_tracepoint(struct ltt_tracepoint_list *l, const struct proto_attr *at, int pid,
			  const char *procname)
{
	struct proto_attrs tp = { at->value, at->len };
	struct entry *grown, *e;
	int64_t level;

	grown = realloc(l->entries, (l->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	l->entries = grown;
	e = &grown[l->n];
	if (at->kind != PROTO_NEST || proto_get_str(&tp, CTL_A_PATTERN, &e->name) < 0 ||
	    proto_get_i64(&tp, CTL_A_LOGLEVEL, &level) < 0)
		return -LTT_ERR_PROTOCOL;
	e->pid = pid;
	e->procname = procname;
	e->loglevel = (int)level;
	l->n++;
	return 0;
}

/* Adds every TRACEPOINT_DESC of one APP_DESC. */
static int add_app(struct ltt_tracepoint_list *l, const struct proto_attrs *app)
{
	struct proto_attr at;
	const char *procname;
	uint64_t pid;
	size_t cur = 0;
	int r = 0;

	if (proto_get_u64(app, CTL_A_PID, &pid) < 0 || pid > INT32_MAX ||
	    proto_get_str(app, CTL_A_PROCNAME, &procname) < 0)
		return -LTT_ERR_PROTOCOL;
	while (r == 0 && proto_attrs_next(app, &cur, &at))
		if (at.id == CTL_A_TRACEPOINT_DESC)
			r = add_tracepoint(l, &at, (int)pid, procname);
	return r;
}

/* Asks for a listing and reads every entry of the reply. */
static int list_get(struct ltt_ctl *ctl, enum ltt_domain domain, enum ltt_event_type type,
		    struct ltt_tracepoint_list **ret)
{
	struct ltt_tracepoint_list *l = calloc(1, sizeof(*l));
	struct proto_builder b;
	struct proto_attr at;
	size_t cur = 0;
	int r;

	if (!l)
		return -ENOMEM;
	ctl_begin(ctl, &b, CTL_LIST_TRACEPOINTS);
	proto_put_u64(&b, CTL_A_DOMAIN, (uint64_t)domain);
	proto_put_u64(&b, CTL_A_EVENT_TYPE, (uint64_t)type);
	r = ctl_request(ctl, &b, &l->msg);
	if (r < 0) {
		free(l);
		return r;
	}
	while (r == 0 && proto_attrs_next(&l->msg.attrs, &cur, &at)) {
		if (at.id == CTL_A_APP_DESC)
			r = at.kind == PROTO_NEST
				    ? add_app(l, &(struct proto_attrs){ at.value, at.len })
				    : -LTT_ERR_PROTOCOL;
		else if (at.id == CTL_A_TRACEPOINT_DESC)
			r = add_tracepoint(l, &at, 0, "kernel");
	}
	if (r < 0) {
		ltt_tracepoint_list_free(l);
		return r;
	}
	*ret = l;
	return 0;
}

LTT_EXPORT int ltt_tracepoint_list_get(struct ltt_ctl *ctl, enum ltt_domain domain,
				       struct ltt_tracepoint_list **ret)
{
	return list_get(ctl, domain, LTT_EVENT_TRACEPOINT, ret);
}

LTT_EXPORT int ltt_syscall_list_get(struct ltt_ctl *ctl, struct ltt_tracepoint_list **ret)
{
	return list_get(ctl, LTT_DOMAIN_KERNEL, LTT_EVENT_SYSCALL, ret);
}

LTT_EXPORT size_t ltt_tracepoint_list_count(const struct ltt_tracepoint_list *l)
{
	return l->n;
}

LTT_EXPORT void ltt_tracepoint_list_entry(const struct ltt_tracepoint_list *l, size_t i,
					  int *ret_pid, const char **ret_procname,
					  const char **ret_name, int *ret_loglevel)
{
	const struct entry *e = &l->entries[i];

	*ret_pid = e->pid;
	*ret_procname = e->procname;
	*ret_name = e->name;
	*ret_loglevel = e->loglevel;
}
