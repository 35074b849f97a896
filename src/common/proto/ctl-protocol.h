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
 *   CONTEXT_ADD           SESSION DOMAIN [CHANNEL] CONTEXT+ (type names, all or none)
 *   TRACK / UNTRACK       SESSION DOMAIN PROCESS_ATTR VALUE* (none: --all)
 *   SNAPSHOT_RECORD       SESSION [NAME] [OUTPUT] [MAX_SIZE]  OUTPUT (the snapshot's directory)
 *   SNAPSHOT_ADD_OUTPUT   SESSION [NAME] OUTPUT [MAX_SIZE]    ID
 *   SNAPSHOT_DEL_OUTPUT   SESSION (ID | NAME)
 *   SNAPSHOT_LIST_OUTPUTS SESSION                             SNAPSHOT_OUTPUT_DESC*
 *   ROTATE                SESSION                             OUTPUT (the archived chunk)
 *   ROTATION_ENABLE       SESSION [ROTATE_TIMER] [ROTATE_SIZE] (non-zero: set)
 *   ROTATION_DISABLE      SESSION [ROTATE_TIMER] [ROTATE_SIZE] (non-zero: unset)
 *   SESSION_CLEAR         SESSION
 *   REGENERATE_METADATA   SESSION
 *   REGENERATE_STATEDUMP  SESSION
 *   SESSION_SAVE          [SESSION] OUTPUT (directory) [FORCE]  COUNT
 *   SESSION_LOAD          [SESSION] OUTPUT+ (files or directories, in search
 *                         order) [FORCE] [OVERRIDE_URL] [OVERRIDE_NAME]   COUNT
 *   SESSION_DESTROY's reply adds OUTPUT when the last chunk was archived.
 *
 *   APP_DESC      nest: PID PROCNAME TRACEPOINT_DESC*
 *   TRACEPOINT_DESC nest: PATTERN (the name) LOGLEVEL
 *
 *   SNAPSHOT_OUTPUT_DESC nest: ID NAME OUTPUT MAX_SIZE
 *
 *   SESSION_DESC  nest: SESSION OUTPUT ACTIVE [SNAPSHOT] [ROTATE_TIMER]
 *                 [ROTATE_SIZE] CHANNEL_DESC* TRACKER_DESC*
 *   CHANNEL_DESC  nest: CHANNEL DOMAIN <channel attributes> CONTEXT*
 *                 [RECORDED DISCARDED] RULE_DESC*
 *   TRACKER_DESC  nest: DOMAIN PROCESS_ATTR (ALL | VALUE*): only the trackers
 *                 that do not include all values
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
	CTL_CONTEXT_ADD,
	CTL_TRACK,
	CTL_UNTRACK,
	CTL_SNAPSHOT_ADD_OUTPUT,
	CTL_SNAPSHOT_DEL_OUTPUT,
	CTL_SNAPSHOT_LIST_OUTPUTS,
	CTL_ROTATE,
	CTL_ROTATION_ENABLE,
	CTL_ROTATION_DISABLE,
	CTL_SESSION_CLEAR,
	CTL_REGENERATE_METADATA,
	CTL_SESSION_SAVE,
	CTL_SESSION_LOAD,
	CTL_REGENERATE_STATEDUMP,
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
	CTL_A_CONTEXT,		/* str, repeated: a context type's name */
	CTL_A_PROCESS_ATTR,	/* u64 enum ltt_process_attr */
	CTL_A_VALUE,		/* i64, repeated: a tracker value */
	CTL_A_TRACKER_DESC,	/* nest */
	CTL_A_MAX_SIZE,		/* u64 bytes */
	CTL_A_ID,		/* u64 */
	CTL_A_SNAPSHOT_OUTPUT_DESC,	/* nest */
	CTL_A_ROTATE_TIMER,	/* u64 µs */
	CTL_A_ROTATE_SIZE,	/* u64 bytes */
	CTL_A_TRACEFILE_SIZE,	/* u64 bytes */
	CTL_A_TRACEFILE_COUNT,	/* u64 */
	CTL_A_FORCE,		/* u64 0/1 */
	CTL_A_OVERRIDE_URL,	/* str */
	CTL_A_OVERRIDE_NAME,	/* str */
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
