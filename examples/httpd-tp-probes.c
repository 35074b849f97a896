/*
 * httpd-tp-probes.c - the probes of httpd-tp.h alone, built as a shared
 * object that httpd-sim-dyn loads with dlopen (--dlopen): its call sites are
 * compiled with TRACEPOINT_PROBE_DYNAMIC_LINKAGE and find the probes when
 * the object registers them.
 */
#define TRACEPOINT_CREATE_PROBES
#include "httpd-tp.h"
