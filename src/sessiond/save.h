/*
 * save.h - sessions saved to and loaded from session files (ltt save, ltt
 * load, ltt-sessiond --load): NAME.ltt-session, in the format of
 * session-file.h, one session per file, every attribute of the session in
 * its own section kind (doc/design/chunks-and-session-files.md).
 *
 * Each kind of section has one writer and one reader (the table in
 * save.c): a new session attribute is one more row.
 */
#ifndef LTT_SESSIOND_SAVE_H
#define LTT_SESSIOND_SAVE_H

#include <stdbool.h>
#include <stddef.h>

#include "registry.h"
#include "util/strbuf.h"

#define SAVE_SUFFIX ".ltt-session"

/* The session's configuration as session-file text (strbuf_free() it). 0 or -ENOMEM. */
int save_text(const struct reg_session *s, struct strbuf *sb);

/* Whether DIR/NAME.ltt-session exists. */
bool save_exists(const char *dir, const char *name);

/*
 * Writes DIR/NAME.ltt-session (DIR created if missing), replacing a file of
 * that name only with force (else -LTT_ERR_SESSION_FILE_EXISTS). The file
 * appears whole or not at all. 0 or -errno with *detail.
 */
int save_session(const struct reg_session *s, const char *dir, bool force, const char **detail);

/* What a load may change in what the file says. */
struct load_overrides {
	const char *output;	/* another output (absolute), also the snapshot output's */
	const char *name;	/* another name */
};

/*
 * Builds the session that text (len bytes, from `origin`, a file name for
 * errors) describes, detached (registry_session_insert() adds it); *started
 * says whether it was saved while tracing. A malformed or invalid file gives
 * -LTT_ERR_SESSION_FILE with *detail "ORIGIN:LINE:COLUMN: why" and builds
 * nothing.
 */
int load_text(const char *text, size_t len, const char *origin, const struct load_overrides *o,
	      struct reg_session **ret, bool *started, const char **detail);

/* The same from a file (at most SF_MAX_SIZE bytes). */
int load_file(const char *path, const struct load_overrides *o, struct reg_session **ret,
	      bool *started, const char **detail);

/*
 * The session files to load, searching paths (files, or directories of
 * NAME.ltt-session files) in order: name's file in the first directory that
 * has it (or a file given as is), or, name NULL, every file (a name in an
 * earlier directory hides the same one in a later directory; missing
 * directories are skipped). With owner_only, files not owned by this user
 * are skipped. *ret_files (free with load_files_free()). 0 or
 * -LTT_ERR_SESSION_FILE_NOT_FOUND with *detail.
 */
int load_find(const char *const *paths, size_t n_paths, const char *name, bool owner_only,
	      char ***ret_files, size_t *ret_n, const char **detail);
void load_files_free(char **files, size_t n);

#endif /* LTT_SESSIOND_SAVE_H */
