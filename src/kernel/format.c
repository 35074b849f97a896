/*
 * format.c - the kernel's event `format` files, parsed into field layouts.
 *
 * Why our own parser rather than libtraceevent: the converter needs only
 * the layout (name, offset, size, signedness, arrays, __data_loc), which
 * is the stable part of the file; the print fmt (which libtraceevent
 * exists to evaluate) is ignored. A small parser that never allocates more
 * than the file says can be fuzzed with the page decoder, and keeps the
 * consumer free of a dependency whose parse errors print to stderr.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel-internal.h"

#define MAX_EVENT_SIZE 65536u
#define MAX_FIELDS 512

void kt_event_format_free(struct kt_event_format *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nfields; i++) {
		free(f->fields[i].name);
		free(f->fields[i].type);
	}
	free(f->fields);
	free(f->system);
	free(f->name);
	free(f);
}

int kt_event_format_field(const struct kt_event_format *f, const char *name)
{
	for (size_t i = 0; i < f->nfields; i++)
		if (strcmp(f->fields[i].name, name) == 0)
			return (int)i;
	return -ENOENT;
}

static char *dup_trim(const char *s, size_t n)
{
	char *d;

	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* "key:NUMBER;" inside line: the number, or -1. */
static long long key_number(const char *line, size_t len, const char *key)
{
	size_t klen = strlen(key);
	long long v = 0;
	bool any = false;

	for (size_t i = 0; i + klen <= len; i++) {
		if (memcmp(line + i, key, klen) != 0 || (i && isalnum((unsigned char)line[i - 1])))
			continue;
		i += klen;
		while (i < len && line[i] == ' ')
			i++;
		for (; i < len && isdigit((unsigned char)line[i]); i++) {
			v = v * 10 + (line[i] - '0');
			any = true;
			if (v > (1LL << 40))
				return -1;
		}
		return any ? v : -1;
	}
	return -1;
}

static unsigned type_elem_size(const char *type)
{
	static const struct { const char *word; unsigned size; } words[] = {
		{ "u8", 1 }, { "s8", 1 }, { "char", 1 }, { "u16", 2 }, { "s16", 2 },
		{ "short", 2 }, { "u32", 4 }, { "s32", 4 }, { "int", 4 }, { "u64", 8 },
		{ "s64", 8 }, { "long", 8 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (strstr(type, words[i].word))
			return words[i].size;
	return 1;
}

static bool is_char_type(const char *type)
{
	return strcmp(type, "char") == 0 || strcmp(type, "const char") == 0 ||
	       strcmp(type, "signed char") == 0;
}

/* Parses the declaration "TYPE NAME[N]" of a field line into f. */
static int parse_decl(const char *decl, size_t len, struct kt_field *f)
{
	size_t end = len, name_end, name_start;
	long long arrlen = -1;
	bool array = false;

	while (end && isspace((unsigned char)decl[end - 1]))
		end--;
	if (end && decl[end - 1] == ']') {
		size_t lb = end - 1;

		while (lb && decl[lb] != '[')
			lb--;
		if (decl[lb] != '[')
			return -EBADMSG;
		array = true;
		if (lb + 1 < end - 1 && isdigit((unsigned char)decl[lb + 1]))
			arrlen = strtoll(decl + lb + 1, NULL, 10);
		end = lb;
	}
	name_end = end;
	name_start = name_end;
	while (name_start && (isalnum((unsigned char)decl[name_start - 1]) ||
			      decl[name_start - 1] == '_'))
		name_start--;
	if (name_start == name_end)
		return -EBADMSG;
	f->name = dup_trim(decl + name_start, name_end - name_start);
	f->type = dup_trim(decl, name_start);
	if (!f->name || !f->type)
		return -ENOMEM;
	if (!f->type[0])
		return -EBADMSG;	/* a name without a type */
	f->common = strncmp(f->name, "common_", 7) == 0;

	if (strncmp(f->type, "__data_loc", 10) == 0 || strncmp(f->type, "__rel_loc", 9) == 0) {
		f->kind = f->type[2] == 'd' ? KT_FIELD_DATA_LOC : KT_FIELD_REL_LOC;
		f->is_string = strstr(f->type, "char") != NULL;
		f->elem_size = f->is_string ? 1 : type_elem_size(f->type + 9);
		if (f->size != 4)
			return -EBADMSG;
		return 0;
	}
	if (array) {
		if (is_char_type(f->type)) {
			f->kind = KT_FIELD_STRING;
			f->elem_size = 1;
			return 0;
		}
		f->kind = KT_FIELD_ARRAY;
		if (arrlen > 0 && f->size % arrlen == 0)
			f->elem_size = f->size / (uint32_t)arrlen;
		else
			f->elem_size = type_elem_size(f->type);
		if (f->elem_size != 1 && f->elem_size != 2 && f->elem_size != 4 && f->elem_size != 8)
			f->elem_size = 1;
		if (f->size % f->elem_size)
			f->elem_size = 1;
		return 0;
	}
	if (strchr(f->type, '*')) {
		f->kind = KT_FIELD_POINTER;
		f->is_signed = false;
		if (f->size != 4 && f->size != 8)
			f->kind = KT_FIELD_ARRAY, f->elem_size = 1;
		return 0;
	}
	if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
		f->kind = KT_FIELD_INT;
		return 0;
	}
	f->kind = KT_FIELD_ARRAY;	/* odd sizes: bytes */
	f->elem_size = 1;
	return 0;
}

int kt_event_format_parse(const char *text, size_t len, const char *system,
			  struct kt_event_format **ret)
{
	struct kt_event_format *f;
	size_t pos = 0, cap = 0;
	bool have_id = false, in_format = false;
	int r = -EBADMSG;

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	if (system && !(f->system = strdup(system))) {
		r = -ENOMEM;
		goto err;
	}
	while (pos < len) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - line) : len - pos;
		const char *fp;

		pos += llen + (nl ? 1 : 0);
		if (llen >= 5 && memcmp(line, "name:", 5) == 0 && !f->name) {
			f->name = dup_trim(line + 5, llen - 5);
			if (!f->name) {
				r = -ENOMEM;
				goto err;
			}
		} else if (llen >= 3 && memcmp(line, "ID:", 3) == 0) {
			long long id = key_number(line, llen, "ID:");

			if (id < 0 || id > 65535)
				goto err;
			f->id = (uint32_t)id;
			have_id = true;
		} else if (llen >= 7 && memcmp(line, "format:", 7) == 0) {
			in_format = true;
		} else if (llen >= 10 && memcmp(line, "print fmt:", 10) == 0) {
			break;
		} else if (in_format && (fp = memmem(line, llen, "field:", 6))) {
			const char *decl = fp + 6, *semi;
			struct kt_field *nf;
			long long off, size, sgn;
			size_t rest = llen - (size_t)(decl - line);

			semi = memchr(decl, ';', rest);
			if (!semi)
				goto err;
			off = key_number(semi, rest - (size_t)(semi - decl), "offset:");
			size = key_number(semi, rest - (size_t)(semi - decl), "size:");
			sgn = key_number(semi, rest - (size_t)(semi - decl), "signed:");
			if (off < 0 || size <= 0 || off + size > MAX_EVENT_SIZE)
				goto err;
			if (f->nfields == cap) {
				if (cap >= MAX_FIELDS)
					goto err;
				cap = cap ? cap * 2 : 16;
				nf = realloc(f->fields, cap * sizeof(*nf));
				if (!nf) {
					r = -ENOMEM;
					goto err;
				}
				f->fields = nf;
			}
			nf = &f->fields[f->nfields];
			memset(nf, 0, sizeof(*nf));
			nf->offset = (uint32_t)off;
			nf->size = (uint32_t)size;
			nf->is_signed = sgn == 1;
			f->nfields++;
			r = parse_decl(decl, (size_t)(semi - decl), nf);
			if (r < 0)
				goto err;
			r = -EBADMSG;
		}
	}
	if (!f->name || !*f->name || !have_id)
		goto err;
	*ret = f;
	return 0;
err:
	kt_event_format_free(f);
	return r;
}

int kt_event_format_load(const char *system, const char *name, struct kt_event_format **ret)
{
	char path[PATH_MAX], *text = NULL;
	size_t len;
	int r;

	kt_fmt(path, sizeof(path), "%s/events/%s/%s/format", kt_tracefs_root(), system, name);
	r = kt_file_read_all(path, &text, &len);
	if (r < 0)
		return r;
	r = kt_event_format_parse(text, len, system, ret);
	free(text);
	return r;
}
