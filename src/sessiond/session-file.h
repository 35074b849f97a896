/*
 * session-file.h - the text format of session files (ltt save / ltt load),
 * specified in doc/design/chunks-and-session-files.md: UTF-8 lines; blank
 * lines and lines whose first non-blank character is '#' are ignored; the
 * first other line is `version = 1`; then sections, each a `[name]` line
 * followed by `key = value` lines. A value is bare (the rest of the line,
 * blanks around it dropped, no control character, not starting with '"')
 * or quoted ("...", with the escapes \\ \" \n \t \r \xHH, nothing but blanks
 * after it). Names and keys are [a-z][a-z0-9-]*.
 *
 * The parser is strict and never trusts its input: every error names its
 * line and column (1-based) and nothing is kept. What the sections and keys
 * mean is save.c's business.
 */
#ifndef LTT_SESSIOND_SESSION_FILE_H
#define LTT_SESSIOND_SESSION_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

#define SF_VERSION 1
#define SF_MAX_SIZE (1u << 20)	/* bytes: a session file is small */

struct sf_error {
	unsigned line, column;	/* where, 1-based (0: the file as a whole) */
	char message[200];
};

struct sf_pair {
	char *key;
	char *value;		/* unquoted, NUL-terminated (a NUL escape is refused) */
	unsigned line, column;	/* of the key */
	unsigned value_column;
	bool used;		/* set by the reader of the section (unknown keys are errors) */
};

struct sf_section {
	char *name;
	unsigned line, column;
	struct sf_pair *pairs;
	size_t n_pairs;
};

struct sf_file {
	struct sf_section *sections;
	size_t n_sections;
};

/*
 * Parses len bytes of text. Returns 0 and *ret (free with sf_file_free()),
 * -EINVAL with *err filled, or -ENOMEM.
 */
int sf_parse(const char *text, size_t len, struct sf_file *ret, struct sf_error *err);
void sf_file_free(struct sf_file *f);

/* Fills *err (always returns -EINVAL, for `return sf_fail(...)`). */
int sf_fail(struct sf_error *err, unsigned line, unsigned column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* ---- writing ---- */

/* "version = 1" and a comment saying what wrote the file. */
void sf_write_header(struct strbuf *sb, const char *comment);
/* "\n[name]\n" */
void sf_write_section(struct strbuf *sb, const char *name);
/* "key = value\n", the value quoted when it must be (so that it reads back the same). */
void sf_write_str(struct strbuf *sb, const char *key, const char *value);
void sf_write_u64(struct strbuf *sb, const char *key, uint64_t value);
void sf_write_bool(struct strbuf *sb, const char *key, bool value);

#endif /* LTT_SESSIOND_SESSION_FILE_H */
