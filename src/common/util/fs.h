/* fs.h - small file-system helpers. */
#ifndef LTT_UTIL_FS_H
#define LTT_UTIL_FS_H

#include <sys/types.h>

/*
 * Creates directory path and its missing parents with mode (like mkdir -p);
 * existing ones are fine. Returns 0, -ENAMETOOLONG, or the errno of mkdir.
 */
int mkdir_p(const char *path, mode_t mode);

#endif /* LTT_UTIL_FS_H */
