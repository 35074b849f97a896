/* error.c - ltt_strerror(). */
#include <ltt/ctl.h>

#include <string.h>

#include "util/macros.h"

static const char *const messages[LTT_ERR_LAST - LTT_ERR_FIRST] = {
	[LTT_ERR_NO_SESSIOND - LTT_ERR_FIRST] = "No session daemon is running",
	[LTT_ERR_PROTOCOL - LTT_ERR_FIRST] = "Invalid answer from the session daemon",
	[LTT_ERR_VERSION - LTT_ERR_FIRST] = "Session daemon of another version",
	[LTT_ERR_INVALID_NAME - LTT_ERR_FIRST] = "Invalid name",
	[LTT_ERR_INVALID_PATTERN - LTT_ERR_FIRST] = "Invalid event name or pattern",
	[LTT_ERR_INVALID_ATTR - LTT_ERR_FIRST] = "Invalid attribute",
	[LTT_ERR_SESSION_EXISTS - LTT_ERR_FIRST] = "Session already exists",
	[LTT_ERR_SESSION_NOT_FOUND - LTT_ERR_FIRST] = "Session not found",
	[LTT_ERR_CHANNEL_EXISTS - LTT_ERR_FIRST] = "Channel already exists",
	[LTT_ERR_CHANNEL_NOT_FOUND - LTT_ERR_FIRST] = "Channel not found",
	[LTT_ERR_EVENT_EXISTS - LTT_ERR_FIRST] = "Event rule already enabled",
	[LTT_ERR_EVENT_NOT_FOUND - LTT_ERR_FIRST] = "Event rule not found",
	[LTT_ERR_SESSION_ACTIVE - LTT_ERR_FIRST] = "Not allowed while the session is tracing",
	[LTT_ERR_ALREADY_STARTED - LTT_ERR_FIRST] = "Session already started",
	[LTT_ERR_ALREADY_STOPPED - LTT_ERR_FIRST] = "Session already stopped",
	[LTT_ERR_KERNEL_UNAVAILABLE - LTT_ERR_FIRST] =
		"Kernel tracing needs a session daemon running as root (or in the tracing group)",
	[LTT_ERR_NO_OUTPUT - LTT_ERR_FIRST] = "Cannot create the output directory",
	[LTT_ERR_INVALID_FILTER - LTT_ERR_FIRST] = "Invalid filter expression",
	[LTT_ERR_NOT_SNAPSHOT - LTT_ERR_FIRST] = "The session is not in snapshot mode",
	[LTT_ERR_STARTED_ONCE - LTT_ERR_FIRST] = "The session has been started already",
	[LTT_ERR_CONTEXT_UNKNOWN - LTT_ERR_FIRST] = "Unknown context type",
	[LTT_ERR_CONTEXT_EXISTS - LTT_ERR_FIRST] = "Context already added",
	[LTT_ERR_CONTEXT_UNAVAILABLE - LTT_ERR_FIRST] = "Context unavailable on this machine",
	[LTT_ERR_ID_TRACKED - LTT_ERR_FIRST] = "Already in the inclusion set",
	[LTT_ERR_ID_NOT_TRACKED - LTT_ERR_FIRST] = "Not in the inclusion set",
	[LTT_ERR_SNAPSHOT_OUTPUT_EXISTS - LTT_ERR_FIRST] = "Snapshot output already exists",
	[LTT_ERR_SNAPSHOT_OUTPUT_NOT_FOUND - LTT_ERR_FIRST] = "Snapshot output not found",
	[LTT_ERR_NO_SNAPSHOT_OUTPUT - LTT_ERR_FIRST] = "The session has no snapshot output",
	[LTT_ERR_ROTATION_UNAVAILABLE - LTT_ERR_FIRST] =
		"Rotation is not available for this kind of session",
	[LTT_ERR_NOT_STARTED - LTT_ERR_FIRST] = "Session not started",
	[LTT_ERR_ROTATED_AFTER_STOP - LTT_ERR_FIRST] =
		"Session was already rotated once since it stopped",
	[LTT_ERR_ROTATION_SCHEDULE_SET - LTT_ERR_FIRST] =
		"A rotation schedule of this kind is already set",
	[LTT_ERR_ROTATION_SCHEDULE_NOT_SET - LTT_ERR_FIRST] =
		"No rotation schedule of this kind is set",
	[LTT_ERR_SESSION_FILE - LTT_ERR_FIRST] = "Invalid session file",
	[LTT_ERR_SESSION_FILE_EXISTS - LTT_ERR_FIRST] = "Session file already exists",
	[LTT_ERR_SESSION_FILE_NOT_FOUND - LTT_ERR_FIRST] = "Session file not found",
};

LTT_EXPORT const char *ltt_strerror(int err)
{
	int e = err < 0 ? -err : err;

	if (e >= LTT_ERR_FIRST && e < LTT_ERR_LAST && messages[e - LTT_ERR_FIRST])
		return messages[e - LTT_ERR_FIRST];
	if (e > 0 && e < LTT_ERR_FIRST)
		return strerror(e);
	return "Unknown error";
}
