/* fs.h - small file-system helpers. */
#ifndef LTT_UTIL_FS_H
#define LTT_UTIL_FS_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Creates directory path and its missing parents with mode (like mkdir -p);
 * existing ones are fine. Returns 0, -ENAMETOOLONG, or the errno of mkdir.
 */
int mkdir_p(const char *path, mode_t mode);

/* write(2) until all len bytes are written (EINTR retried). 0 or -errno. */
int write_all(int fd, const void *buf, size_t len);

/*
 * Finds one of ltt's programs: $env_var if set, else `name` beside the
 * running program (installed side by side), else in the build tree
 * (../build_subdir/name), else just `name` (for execvp and $PATH).
 * Writes the path into buf (size bytes).
 */
void find_program(const char *name, const char *env_var, const char *build_subdir, char *buf,
		  size_t size);

/*
 * Where saved session files are: the user's, $HOME/.ltt/sessions (into buf,
 * size bytes: 0, -ENOENT without $HOME, or -ENAMETOOLONG), and the
 * system-wide one, $LTT_SYSTEM_SESSIONS_DIR or else /etc/ltt/sessions. Their
 * `auto` subdirectories hold the sessions a daemon loads when it starts.
 */
int session_files_user_dir(char *buf, size_t size);
const char *session_files_system_dir(void);

#endif /* LTT_UTIL_FS_H */
