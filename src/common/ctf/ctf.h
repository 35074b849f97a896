/*
 * ctf.h - the CTF 1.8 writer: every trace ltt writes goes through it.
 *
 *   ctf-types.h   field type model (integers, floats, strings, arrays,
 *                 sequences, enums, structs)
 *   ctf-trace.h   trace class: env, clocks, stream/event classes, TSDL
 *                 metadata (plain and packetized)
 *   ctf-encode.h  inline bit writers, packet header layout, event header
 *                 rules (for the tracer's fast path)
 *   ctf-event.h   value serializer and in-memory packet builder
 *   ctf-fs.h      trace directory writer with LTTng's index files
 *   ctf-clock.h   the trace clocks (monotonic, TSC) and their descriptions
 *
 * Layout and rules: doc/design/ctf-writer.md.
 */
#ifndef LTT_CTF_H
#define LTT_CTF_H

#include "ctf/ctf-clock.h"
#include "ctf/ctf-encode.h"
#include "ctf/ctf-error.h"
#include "ctf/ctf-event.h"
#include "ctf/ctf-fs.h"
#include "ctf/ctf-trace.h"
#include "ctf/ctf-types.h"

#endif /* LTT_CTF_H */
