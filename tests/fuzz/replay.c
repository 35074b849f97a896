/*
 * replay.c - runs a fuzz target over every file of a corpus directory (or
 * over the files named), so that the corpus is a regular test and a crash
 * found by the fuzzer can be replayed under a debugger. Prints TAP.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path, unsigned n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	long size;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		printf("not ok %u - %s # cannot read: %s\n", n, path, strerror(errno));
		if (f)
			fclose(f);
		return 1;
	}
	data = malloc((size_t)size + 1);
	if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
		printf("not ok %u - %s # short read\n", n, path);
		free(data);
		fclose(f);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, (size_t)size);
	free(data);
	printf("ok %u - %s\n", n, path);
	fflush(stdout);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_path(char ***paths, size_t *n, char *p)
{
	char **grown = realloc(*paths, (*n + 1) * sizeof(**paths));

	if (!grown || !p)
		return -1;
	*paths = grown;
	grown[(*n)++] = p;
	return 0;
}

int main(int argc, char **argv)
{
	char **paths = NULL;
	size_t n = 0;
	int failed = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		struct dirent *de;
		DIR *d;

		if (stat(argv[i], &st) == 0 && !S_ISDIR(st.st_mode)) {
			if (add_path(&paths, &n, strdup(argv[i])) < 0)
				return 1;
			continue;
		}
		d = opendir(argv[i]);
		if (!d) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		while ((de = readdir(d))) {
			char *p;

			if (de->d_name[0] == '.')
				continue;
			if (asprintf(&p, "%s/%s", argv[i], de->d_name) < 0 ||
			    add_path(&paths, &n, p) < 0)
				return 1;
		}
		closedir(d);
	}
	if (n)
		qsort(paths, n, sizeof(*paths), by_name);
	printf("1..%zu\n", n);
	for (size_t i = 0; i < n; i++) {
		failed |= replay_file(paths[i], (unsigned)i + 1);
		free(paths[i]);
	}
	free(paths);
	return failed;
}
