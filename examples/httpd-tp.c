/* httpd-tp.c - the probes of httpd-tp.h (built once, linked with -lltt-ust). */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "httpd-tp.h"
