/* session-file.c - the session file format; see session-file.h. */
#include "session-file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sf_fail(struct sf_error *err, unsigned line, unsigned column, const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	err->column = column;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void sf_file_free(struct sf_file *f)
{
	for (size_t i = 0; i < f->n_sections; i++) {
		struct sf_section *s = &f->sections[i];

		for (size_t k = 0; k < s->n_pairs; k++) {
			free(s->pairs[k].key);
			free(s->pairs[k].value);
		}
		free(s->pairs);
		free(s->name);
	}
	free(f->sections);
	*f = (struct sf_file){ 0 };
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* Length of the name ([a-z][a-z0-9-]*) at s (n bytes available); 0: none. */
static size_t name_len(const char *s, size_t n)
{
	size_t i = 0;

	if (n == 0 || s[0] < 'a' || s[0] > 'z')
		return 0;
	while (i < n && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
			 s[i] == '-'))
		i++;
	return i;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One line being parsed: its text (without the end of line) and position. */
struct line {
	const char *text;
	size_t len;
	unsigned number;
};

static unsigned col(size_t i)
{
	return (unsigned)i + 1;
}

/*
 * Reads the quoted string that starts at l->text[*i] into *ret (malloc'd),
 * leaving *i after the closing quote.
 */
static int quoted(const struct line *l, size_t *i, char **ret, struct sf_error *err)
{
	size_t start = *i, o = 0;
	char *out = malloc(l->len - start);

	if (!out)
		return -ENOMEM;
	for (size_t p = start + 1; p < l->len; p++) {
		unsigned char c = (unsigned char)l->text[p];
		int hi, lo;

		if (c == '"') {
			out[o] = '\0';
			*i = p + 1;
			*ret = out;
			return 0;
		}
		if (control(c)) {
			free(out);
			return sf_fail(err, l->number, col(p), "a control character in a string "
				       "(write it as an escape: \\t, \\xHH)");
		}
		if (c != '\\') {
			out[o++] = (char)c;
			continue;
		}
		if (++p == l->len)
			break;
		switch (l->text[p]) {
		case '\\': out[o++] = '\\'; break;
		case '"': out[o++] = '"'; break;
		case 'n': out[o++] = '\n'; break;
		case 't': out[o++] = '\t'; break;
		case 'r': out[o++] = '\r'; break;
		case 'x':
			hi = p + 2 < l->len ? hex_digit(l->text[p + 1]) : -1;
			lo = hi >= 0 ? hex_digit(l->text[p + 2]) : -1;
			if (lo < 0 || (hi | lo) == 0) {
				free(out);
				return sf_fail(err, l->number, col(p - 1), "\\x takes two hexadecimal "
					       "digits, not 00");
			}
			out[o++] = (char)(hi << 4 | lo);
			p += 2;
			break;
		default:
			free(out);
			return sf_fail(err, l->number, col(p - 1), "unknown escape '\\%c' (known: "
				       "\\\\ \\\" \\n \\t \\r \\xHH)", l->text[p]);
		}
	}
	free(out);
	return sf_fail(err, l->number, col(start), "the string is not closed (no '\"' before "
		       "the end of the line)");
}

/* The value at l->text[i]: quoted or bare, then nothing but blanks. */
static int value(const struct line *l, size_t i, char **ret, struct sf_error *err)
{
	size_t end = l->len;
	int r;

	if (i == l->len)
		return sf_fail(err, l->number, col(i), "the value is missing (an empty one is "
			       "written \"\")");
	if (l->text[i] == '"') {
		if ((r = quoted(l, &i, ret, err)) < 0)
			return r;
		while (i < l->len && blank(l->text[i]))
			i++;
		if (i < l->len) {
			free(*ret);
			return sf_fail(err, l->number, col(i), "text after the closing '\"'");
		}
		return 0;
	}
	while (blank(l->text[end - 1]))
		end--;
	for (size_t p = i; p < end; p++)
		if (control((unsigned char)l->text[p]))
			return sf_fail(err, l->number, col(p), "a control character in a value "
				       "(quote the value and write it as an escape)");
	*ret = strndup(l->text + i, end - i);
	return *ret ? 0 : -ENOMEM;
}

static int add_section(struct sf_file *f, const struct line *l, size_t at, size_t n)
{
	struct sf_section *grown = realloc(f->sections, (f->n_sections + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	f->sections = grown;
	grown[f->n_sections] = (struct sf_section){ .line = l->number, .column = col(at) };
	if (!(grown[f->n_sections].name = strndup(l->text + at + 1, n)))
		return -ENOMEM;
	f->n_sections++;
	return 0;
}

static int add_pair(struct sf_section *s, const struct line *l, size_t key_at, size_t key_len,
		    size_t value_at, char *v)
{
	struct sf_pair *grown = realloc(s->pairs, (s->n_pairs + 1) * sizeof(*grown));
	char *key = strndup(l->text + key_at, key_len);

	if (!grown || !key) {
		if (grown)
			s->pairs = grown;
		free(key);
		free(v);
		return -ENOMEM;
	}
	s->pairs = grown;
	grown[s->n_pairs++] = (struct sf_pair){ .key = key, .value = v, .line = l->number,
						.column = col(key_at),
						.value_column = col(value_at) };
	return 0;
}

/* The first line of a file: `version = 1` (the key at key_at, the value v at value_at). */
static int version(const struct line *l, size_t key_at, size_t key_len, size_t value_at,
		   char *v, struct sf_error *err)
{
	int r = 0;

	if (key_len != 7 || memcmp(l->text + key_at, "version", 7) != 0)
		r = sf_fail(err, l->number, col(key_at), "a session file starts with "
			    "`version = %d`", SF_VERSION);
	else if (strcmp(v, "1") != 0)
		r = sf_fail(err, l->number, col(value_at), "format version '%s' is not supported "
			    "(this ltt reads version %d)", v, SF_VERSION);
	free(v);
	return r;
}

static int parse_line(struct sf_file *f, const struct line *l, bool *have_version,
		      struct sf_error *err)
{
	size_t i = 0, n, key_at;
	char *v = NULL;
	int r;

	while (i < l->len && blank(l->text[i]))
		i++;
	if (i == l->len || l->text[i] == '#')
		return 0;
	if (l->text[i] == '[') {
		size_t at = i;

		if (!*have_version)
			return sf_fail(err, l->number, col(i), "a session file starts with "
				       "`version = %d`", SF_VERSION);
		n = name_len(l->text + i + 1, l->len - i - 1);
		if (n == 0)
			return sf_fail(err, l->number, col(i + 1), "a section name is made of a-z "
				       "0-9 -, starting with a letter");
		i += 1 + n;
		if (i == l->len || l->text[i] != ']')
			return sf_fail(err, l->number, col(i), "expected ']' after the section name");
		for (i++; i < l->len; i++)
			if (!blank(l->text[i]))
				return sf_fail(err, l->number, col(i), "text after the section name");
		return add_section(f, l, at, n);
	}
	key_at = i;
	n = name_len(l->text + i, l->len - i);
	if (n == 0)
		return sf_fail(err, l->number, col(i), "expected `key = value`, `[section]`, a "
			       "comment or a blank line");
	for (i += n; i < l->len && blank(l->text[i]); i++)
		;
	if (i == l->len || l->text[i] != '=')
		return sf_fail(err, l->number, col(i), "expected '=' after the key");
	for (i++; i < l->len && blank(l->text[i]); i++)
		;
	if ((r = value(l, i, &v, err)) < 0)
		return r;
	if (!*have_version) {
		*have_version = true;
		return version(l, key_at, n, i, v, err);
	}
	if (f->n_sections == 0) {
		free(v);
		return sf_fail(err, l->number, col(key_at), "a key before the first [section]");
	}
	return add_pair(&f->sections[f->n_sections - 1], l, key_at, n, i, v);
}

int sf_parse(const char *text, size_t len, struct sf_file *ret, struct sf_error *err)
{
	struct sf_file f = { 0 };
	bool have_version = false;
	unsigned number = 0;
	size_t pos = 0;
	int r = 0;

	if (len > SF_MAX_SIZE)
		return sf_fail(err, 0, 0, "larger than %u bytes: not a session file", SF_MAX_SIZE);
	while (pos < len && r == 0) {
		const char *eol = memchr(text + pos, '\n', len - pos);
		size_t next = eol ? (size_t)(eol - text) + 1 : len;
		struct line l = { text + pos, next - pos - (eol != NULL), ++number };
		const char *nul = memchr(l.text, '\0', l.len);

		if (nul) {
			r = sf_fail(err, number, col((size_t)(nul - l.text)), "a NUL byte");
		} else {
			if (l.len && l.text[l.len - 1] == '\r')
				l.len--;	/* a CR LF end of line */
			r = parse_line(&f, &l, &have_version, err);
		}
		pos = next;
	}
	if (r == 0 && !have_version)
		r = sf_fail(err, number ? number : 1, 1, "empty: a session file starts with "
			    "`version = %d`", SF_VERSION);
	if (r < 0) {
		sf_file_free(&f);
		return r;
	}
	*ret = f;
	return 0;
}

void sf_write_header(struct strbuf *sb, const char *comment)
{
	strbuf_appendf(sb, "# %s\nversion = %d\n", comment, SF_VERSION);
}

void sf_write_section(struct strbuf *sb, const char *name)
{
	strbuf_appendf(sb, "\n[%s]\n", name);
}

/* Whether value must be quoted to read back the same. */
static bool needs_quotes(const char *v)
{
	size_t n = strlen(v);

	if (n == 0 || v[0] == '"' || blank(v[0]) || blank(v[n - 1]))
		return true;
	for (size_t i = 0; i < n; i++)
		if (control((unsigned char)v[i]))
			return true;
	return false;
}

void sf_write_str(struct strbuf *sb, const char *key, const char *v)
{
	strbuf_appendf(sb, "%s = ", key);
	if (!needs_quotes(v)) {
		strbuf_append(sb, v);
		strbuf_putc(sb, '\n');
		return;
	}
	strbuf_putc(sb, '"');
	for (const char *p = v; *p; p++) {
		switch (*p) {
		case '"': strbuf_append(sb, "\\\""); break;
		case '\\': strbuf_append(sb, "\\\\"); break;
		case '\n': strbuf_append(sb, "\\n"); break;
		case '\t': strbuf_append(sb, "\\t"); break;
		case '\r': strbuf_append(sb, "\\r"); break;
		default:
			if (control((unsigned char)*p))
				strbuf_appendf(sb, "\\x%02x", (unsigned char)*p);
			else
				strbuf_putc(sb, *p);
		}
	}
	strbuf_append(sb, "\"\n");
}

void sf_write_u64(struct strbuf *sb, const char *key, uint64_t value)
{
	strbuf_appendf(sb, "%s = %" PRIu64 "\n", key, value);
}

void sf_write_bool(struct strbuf *sb, const char *key, bool value)
{
	strbuf_appendf(sb, "%s = %s\n", key, value ? "yes" : "no");
}
