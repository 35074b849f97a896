/*
 * ctf-internal.h - what the files of src/common/ctf share among themselves.
 */
#ifndef LTT_CTF_INTERNAL_H
#define LTT_CTF_INTERNAL_H

#include <stdbool.h>

#include "ctf/ctf-error.h"
#include "ctf/ctf-types.h"
#include "util/strbuf.h"

/*
 * Checks a field type tree (in place: sets effective alignments and
 * resolves sequence lengths). `where` names it in messages ("event
 * 'app:tick' payload"); has_clock(ctx, name) says whether a clock exists
 * (for map = clock.NAME.value). Returns 0 or -EINVAL with *err set.
 */
int ctf_type_validate(struct ctf_type *t, const char *where,
		      bool (*has_clock)(const void *ctx, const char *name),
		      const void *ctx, struct ctf_error *err);

/*
 * Appends the TSDL declaration of a field: `TYPE _name` (with array or
 * sequence declarators), no trailing ';'. indent = tabs of the current line.
 */
void ctf_tsdl_field(struct strbuf *sb, const struct ctf_type *t, const char *name,
		    int indent);
/* Appends the TSDL type specifier of t (no declarator). */
void ctf_tsdl_type(struct strbuf *sb, const struct ctf_type *t, int indent);
/* Appends s as a TSDL string literal, with quotes and escapes. */
void ctf_tsdl_string(struct strbuf *sb, const char *s);

#endif /* LTT_CTF_INTERNAL_H */
