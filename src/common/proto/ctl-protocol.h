/*
 * ctl-protocol.h - the messages between libltt-ctl and ltt-sessiond.
 *
 * Each request is one message of a CTL_* type; the daemon answers each with
 * one CTL_REPLY carrying the request's seq, CTL_A_STATUS (0 or a negative
 * errno / -LTT_ERR_*), optionally CTL_A_DETAIL (a human-readable precision
 * naming the object at fault), and the request's results.
 *
 *   request               attributes                          reply adds
 *   SESSION_CREATE        [SESSION] [OUTPUT | NO_OUTPUT] [SNAPSHOT]  SESSION, OUTPUT
 *   SESSION_DESTROY       SESSION
 *   SESSION_START/STOP    SESSION
 *   SESSION_LIST          -                                   SESSION_DESC*
 *   SESSION_GET           SESSION                             SESSION_DESC (with channels)
 *   CHANNEL_ENABLE        SESSION DOMAIN CHANNEL <channel attributes>
 *   EVENT_ENABLE          SESSION DOMAIN [CHANNEL] <rule attributes>
 *   EVENT_DISABLE         SESSION DOMAIN [CHANNEL] PATTERN [ALL]  COUNT
 *   LIST_TRACEPOINTS      DOMAIN                              APP_DESC*
 *   SNAPSHOT_RECORD       SESSION [NAME]                      OUTPUT (the snapshot's directory)
 *
 *   APP_DESC      nest: PID PROCNAME TRACEPOINT_DESC*
 *   TRACEPOINT_DESC nest: PATTERN (the name) LOGLEVEL
 *
 *   SESSION_DESC  nest: SESSION OUTPUT ACTIVE [SNAPSHOT] CHANNEL_DESC*
 *   CHANNEL_DESC  nest: CHANNEL DOMAIN <channel attributes> [RECORDED DISCARDED]
 *                 RULE_DESC*
 *   RULE_DESC     nest: <rule attributes> ENABLED
 */
#ifndef LTT_CTL_PROTOCOL_H
#define LTT_CTL_PROTOCOL_H

#include <ltt/ctl.h>

#include "proto.h"

enum ctl_msg_type {
	CTL_REPLY = 1,
	CTL_SESSION_CREATE,
	CTL_SESSION_DESTROY,
	CTL_SESSION_START,
	CTL_SESSION_STOP,
	CTL_SESSION_LIST,
	CTL_SESSION_GET,
	CTL_CHANNEL_ENABLE,
	CTL_EVENT_ENABLE,
	CTL_EVENT_DISABLE,
	CTL_LIST_TRACEPOINTS,
	CTL_SNAPSHOT_RECORD,
	CTL_MSG_TYPE_END,
};

enum ctl_attr_id {
	CTL_A_STATUS = 1,	/* i64 */
	CTL_A_DETAIL,		/* str */
	CTL_A_SESSION,		/* str */
	CTL_A_OUTPUT,		/* str */
	CTL_A_NO_OUTPUT,	/* u64 0/1 */
	CTL_A_ACTIVE,		/* u64 0/1 */
	CTL_A_DOMAIN,		/* u64 enum ltt_domain */
	CTL_A_CHANNEL,		/* str */
	CTL_A_SUBBUF_SIZE,	/* u64 */
	CTL_A_NUM_SUBBUF,	/* u64 */
	CTL_A_OVERWRITE,	/* u64 0/1 */
	CTL_A_SWITCH_TIMER,	/* u64 µs */
	CTL_A_READ_TIMER,	/* u64 µs */
	CTL_A_BLOCKING_TIMEOUT,	/* i64 µs */
	CTL_A_BUFFERS,		/* u64 enum ltt_buffers */
	CTL_A_EVENT_TYPE,	/* u64 enum ltt_event_type */
	CTL_A_PATTERN,		/* str */
	CTL_A_LOGLEVEL_MATCH,	/* u64 enum ltt_loglevel_match */
	CTL_A_LOGLEVEL,		/* i64 */
	CTL_A_EXCLUSION,	/* str, repeated */
	CTL_A_FILTER,		/* str */
	CTL_A_ALL,		/* u64 0/1 */
	CTL_A_ENABLED,		/* u64 0/1 */
	CTL_A_COUNT,		/* u64 */
	CTL_A_SESSION_DESC,	/* nest */
	CTL_A_CHANNEL_DESC,	/* nest */
	CTL_A_RULE_DESC,	/* nest */
	CTL_A_PID,		/* u64 */
	CTL_A_PROCNAME,		/* str */
	CTL_A_APP_DESC,		/* nest */
	CTL_A_TRACEPOINT_DESC,	/* nest */
	CTL_A_SNAPSHOT,		/* u64 0/1 */
	CTL_A_NAME,		/* str */
	CTL_A_LOCATION,		/* str: a rule's function or probe location */
	CTL_A_RECORDED,		/* u64: events a channel wrote */
	CTL_A_DISCARDED,	/* u64: events it lost */
};

/* Appends the attributes of a channel's settings. */
void ctl_put_channel_attr(struct proto_builder *b, const struct ltt_channel_attr *attr);
/*
 * Reads them back into *attr (initialized by the caller with the domain's
 * defaults: absent attributes keep them). 0 or -EBADMSG.
 */
int ctl_get_channel_attr(const struct proto_attrs *a, struct ltt_channel_attr *attr);

/* Appends the attributes of an event rule. */
void ctl_put_event_rule(struct proto_builder *b, const struct ltt_event_rule *rule);
/*
 * Reads them back; the strings point into the message, and the exclusions
 * into *ret_exclusions (free() it). 0, -EBADMSG, or -ENOMEM.
 */
int ctl_get_event_rule(const struct proto_attrs *a, struct ltt_event_rule *rule,
		       const char ***ret_exclusions);

#endif /* LTT_CTL_PROTOCOL_H */
