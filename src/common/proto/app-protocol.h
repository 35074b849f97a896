/*
 * app-protocol.h - the messages between libltt-ust (in each traced
 * application) and ltt-sessiond, on two connections the application opens to
 * the daemon's socket, as LTTng's command and notification sockets:
 *
 *   command       first APP_HELLO (role COMMAND); then the daemon pushes
 *                 APP_STATE whenever what the application must record
 *                 changes, and the application answers each with APP_ACK
 *                 once it applied it.
 *   notification  first APP_HELLO (role NOTIFY); then the application asks
 *                 APP_EVENT_REGISTER for each event a channel starts
 *                 recording, and the daemon answers APP_EVENT_ID (after the
 *                 event's class is in the trace's metadata).
 *
 *   APP_HELLO           ROLE PID PROCNAME BITS [UID GID]         (uid: SO_PEERCRED)
 *   APP_STATE           CHANNEL* RULE*    fds: per CHANNEL, its shm then its wake-up eventfd
 *     CHANNEL nest:     SLOT KEY FD_INDEX CONTEXT* [BLOCKING_TIMEOUT]
 *     RULE nest:        SLOT PATTERN LOGLEVEL_MATCH LOGLEVEL EXCLUSION* [FILTER]
 *   APP_ACK             STATUS
 *   APP_EVENT_REGISTER  SLOT NAME LOGLEVEL [EMF_URI] FIELD*
 *     FIELD nest:       NAME KIND ... (see below)
 *   APP_EVENT_ID        STATUS [ID]
 *   APP_LIST_EVENTS     (daemon -> app, command connection)  reply APP_EVENTS: EVENT*
 *     EVENT nest:       NAME LOGLEVEL
 *
 * A slot is the application's channel number (0..63, the bit of the
 * tracepoint registry's channel masks); KEY names the daemon's channel, so
 * that a state push keeps the mappings it already has. PID, UID and GID
 * of the hello are the application's as it sees them (getpid(), getuid(),
 * getgid(): the vpid, vuid and vgid that trackers match). A channel's
 * CONTEXTs are the context fields its records carry after the event header,
 * in order (indexes of proto/context-types.h); BLOCKING_TIMEOUT (µs, -1:
 * for ever) is how long a writer may wait for room, if the application
 * allows it.
 */
#ifndef LTT_APP_PROTOCOL_H
#define LTT_APP_PROTOCOL_H

#include "proto.h"

#define APP_MAX_SLOTS 64

enum app_msg_type {
	/* numbered after the control protocol's, so that one socket serves both */
	APP_HELLO = 64,
	APP_STATE,
	APP_ACK,
	APP_EVENT_REGISTER,
	APP_EVENT_ID,
	APP_LIST_EVENTS,
	APP_EVENTS,
	APP_MSG_TYPE_END,
};

enum app_role {
	APP_ROLE_COMMAND = 1,
	APP_ROLE_NOTIFY = 2,
};

enum app_attr_id {
	APP_A_STATUS = 1,	/* i64 */
	APP_A_ROLE,		/* u64 enum app_role */
	APP_A_PID,		/* u64 */
	APP_A_PROCNAME,		/* str */
	APP_A_BITS,		/* u64: 32 or 64 */
	APP_A_CHANNEL,		/* nest */
	APP_A_SLOT,		/* u64 < APP_MAX_SLOTS */
	APP_A_KEY,		/* u64 */
	APP_A_FD_INDEX,		/* u64: index of the channel's shm fd in the message */
	APP_A_RULE,		/* nest */
	APP_A_PATTERN,		/* str */
	APP_A_LOGLEVEL_MATCH,	/* u64 enum ltt_loglevel_match */
	APP_A_LOGLEVEL,		/* i64 */
	APP_A_EXCLUSION,	/* str, repeated */
	APP_A_FILTER,		/* bytes: bytecode (filter/filter.h) */
	APP_A_NAME,		/* str */
	APP_A_EMF_URI,		/* str */
	APP_A_FIELD,		/* nest, repeated, in record order */
	APP_A_ID,		/* u64 */
	/* field descriptions */
	APP_A_KIND,		/* u64 enum ltt_type_kind */
	APP_A_ENCODING,		/* u64 enum ltt_encoding */
	APP_A_SIZE,		/* u64 bits */
	APP_A_ALIGN,		/* u64 bits */
	APP_A_SIGNED,		/* u64 0/1 */
	APP_A_BASE,		/* u64 */
	APP_A_BYTE_ORDER,	/* u64 enum ltt_byte_order */
	APP_A_EXP_DIG,		/* u64 */
	APP_A_MANT_DIG,		/* u64 */
	APP_A_LENGTH,		/* u64: array element count */
	APP_A_LENGTH_NAME,	/* str: a sequence's length field */
	APP_A_ENUM_ENTRY,	/* nest: LABEL START END SIGNED (values' u64 bits; SIGNED: as int64) */
	APP_A_LABEL,		/* str */
	APP_A_START,		/* u64 */
	APP_A_END,		/* u64 */
	APP_A_EVENT,		/* nest: NAME LOGLEVEL */
	APP_A_UID,		/* u64 */
	APP_A_GID,		/* u64 */
	APP_A_CONTEXT,		/* u64, repeated: a context type's index */
	APP_A_BLOCKING_TIMEOUT,	/* i64 µs */
};

#endif /* LTT_APP_PROTOCOL_H */
