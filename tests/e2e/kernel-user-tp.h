/* Tracepoint provider of kernel-user-app.c. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ktest

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "kernel-user-tp.h"

#if !defined(KERNEL_USER_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define KERNEL_USER_TP_H

#include <ltt/tracepoint.h>

/* Emitted while thread `writer` is blocked in write(fd). */
TRACEPOINT_EVENT(ktest, during_write,
	TP_ARGS(int, writer, int, fd),
	TP_FIELDS(
		ctf_integer(int, writer, writer)
		ctf_integer(int, fd, fd)
	)
)

#endif /* KERNEL_USER_TP_H */

#include <ltt/tracepoint-event.h>
