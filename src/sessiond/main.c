/*
 * ltt-sessiond - the session daemon: owns this user's tracing sessions and
 * answers libltt-ctl's requests on $RUNTIME/sessiond.sock.
 *
 * One thread, one poll loop: a request is read whole (bounded by a timeout,
 * so a stalled client cannot hold the daemon), executed against the
 * registry, and answered. Only peers of the same user (or root) are served.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ltt-config.h"
#include "app.h"
#include "clock.h"
#include "commands.h"
#include "kernel-session.h"
#include "registry.h"
#include "util/fs.h"

#define MAX_CLIENTS 256
#define REQUEST_TIMEOUT_MS 2000

static FILE *log_file;

static void log_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ltt-sessiond: ", log_file);
	vfprintf(log_file, fmt, ap);
	fputc('\n', log_file);
	fflush(log_file);
	va_end(ap);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ltt-sessiond [--daemonize] [--load PATH]\n"
		"\n"
		"The ltt session daemon: keeps this user's tracing sessions and serves\n"
		"the ltt command on a Unix socket in the runtime directory ($LTT_HOME,\n"
		"else /run/ltt for root, else $XDG_RUNTIME_DIR/ltt, else $HOME/.ltt).\n"
		"`ltt create` starts it when none runs. At start it loads the sessions\n"
		"saved in $HOME/.ltt/sessions/auto and /etc/ltt/sessions/auto (files of\n"
		"its user only), or those of PATH; those saved while tracing start.\n"
		"\n"
		"  -d, --daemonize   detach and run in the background (log: RUNTIME/sessiond.log)\n"
		"  -l, --load PATH   load the session files of PATH (a file or a directory)\n"
		"                    instead of the auto directories\n"
		"  -h, --help        show this help\n"
		"  -V, --version     show the version\n"
		"\n"
		"Environment:\n"
		"  LTT_CLOCK=tsc|monotonic   the sessions' clock (default: tsc where the\n"
		"                            time-stamp counter is constant and nonstop)\n");
}

#define MAX_APP_FDS 2048

struct daemon_state {
	struct registry reg;
	/* [0] listener, [1] signals, control clients, then the applications' */
	struct pollfd fds[2 + MAX_CLIENTS + MAX_APP_FDS];
	unsigned n_clients;
};

/* Forgets client i (closing its connection unless it was handed over). */
static void drop_client(struct daemon_state *d, unsigned i, bool close_it)
{
	if (close_it)
		close(d->fds[2 + i].fd);
	d->fds[2 + i] = d->fds[2 + d->n_clients - 1];
	d->n_clients--;
}

static void accept_client(struct daemon_state *d, int listener)
{
	uid_t uid;
	int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	if (proto_peer_cred(fd, NULL, &uid, NULL) < 0 || (uid != geteuid() && uid != 0)) {
		log_msg("refused a connection from uid %u", (unsigned)uid);
		close(fd);
		return;
	}
	if (d->n_clients == MAX_CLIENTS) {
		log_msg("refused a connection: %d clients already", MAX_CLIENTS);
		close(fd);
		return;
	}
	d->fds[2 + d->n_clients++] = (struct pollfd){ .fd = fd, .events = POLLIN };
}

/*
 * Serves one request of client i; drops it (closing it) on error, or when
 * it turns out to be an application, whose connection app.c takes over.
 */
static void serve(struct daemon_state *d, unsigned i)
{
	struct proto_builder reply;
	struct proto_msg msg;
	int fd = d->fds[2 + i].fd, r;

	r = proto_recv(fd, &msg, REQUEST_TIMEOUT_MS);
	if (r < 0) {
		if (r != -ECONNRESET)
			log_msg("dropping a client: %s", strerror(-r));
		drop_client(d, i, true);
		return;
	}
	if (msg.hdr.type == APP_HELLO) {
		drop_client(d, i, false);
		apps_adopt(&d->reg, fd, &msg);
		proto_msg_free(&msg);
		return;
	}
	commands_handle(&d->reg, &msg, &reply);
	proto_msg_free(&msg);
	r = proto_send(fd, &reply, NULL, 0, REQUEST_TIMEOUT_MS);
	proto_builder_free(&reply);
	if (r < 0)
		drop_client(d, i, true);
}

/*
 * Loads the sessions saved for boot-time tracing: those of load_path, or
 * of the auto directories (files of this user only). Problems are logged.
 */
static void load_saved_sessions(struct registry *reg, const char *load_path)
{
	struct commands_load_request lr = { .owner_only = !load_path };
	char user[4096], system[4096];
	const char *paths[2];
	const char *detail = NULL;
	size_t n = 0, count = 0;
	int r;

	if (load_path) {
		paths[n++] = load_path;
	} else {
		if (session_files_user_dir(user, sizeof(user) - 5) == 0) {
			strcat(user, "/auto");
			paths[n++] = user;
		}
		snprintf(system, sizeof(system), "%s/auto", session_files_system_dir());
		paths[n++] = system;
	}
	r = commands_load(reg, paths, n, &lr, &count, &detail);
	if (r == 0)
		log_msg("loaded %zu saved session%s", count, count == 1 ? "" : "s");
	else if (load_path || r != -LTT_ERR_SESSION_FILE_NOT_FOUND)
		log_msg("cannot load the saved sessions: %s%s%s", ltt_strerror(r),
			detail ? ": " : "", detail ? detail : "");
}

static int run(int listener, int sigfd, const char *load_path)
{
	struct daemon_state *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	load_saved_sessions(&d->reg, load_path);
	d->fds[0] = (struct pollfd){ .fd = listener, .events = POLLIN };
	d->fds[1] = (struct pollfd){ .fd = sigfd, .events = POLLIN };
	for (;;) {
		unsigned n_app = apps_pollfds(d->fds + 2 + d->n_clients, MAX_APP_FDS);

		if (poll(d->fds, 2 + d->n_clients + n_app, commands_timeout_ms(&d->reg)) < 0) {
			if (errno == EINTR)
				continue;
			log_msg("poll: %s", strerror(errno));
			break;
		}
		commands_tick(&d->reg);
		if (d->fds[1].revents)
			break;
		/* applications first: serving a client may change their list */
		for (unsigned i = 0; i < n_app; i++) {
			struct pollfd *p = &d->fds[2 + d->n_clients + i];

			if (p->revents)
				apps_ready(&d->reg, p->fd);
		}
		/* backwards: drop_client() moves the last client into the gap */
		for (unsigned i = d->n_clients; i-- > 0;) {
			short ev = d->fds[2 + i].revents;

			if (ev & POLLIN)
				serve(d, i);
			else if (ev & (POLLHUP | POLLERR | POLLNVAL))
				drop_client(d, i, true);
		}
		if (d->fds[0].revents & POLLIN)
			accept_client(d, listener);
	}
	while (d->n_clients)
		drop_client(d, d->n_clients - 1, true);
	commands_shutdown(&d->reg);
	registry_free(&d->reg);
	free(d);
	return 0;
}

/*
 * Closes the descriptors a detached daemon inherited from whoever started
 * it (keep: those it needs): held open, they would keep its starter's pipes
 * and locks (a test harness, `flock`) for as long as the daemon lives.
 */
static void close_inherited(int keep1, int keep2)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name);

		if (de->d_name[0] != '.' && fd > 2 && fd != keep1 && fd != keep2 && fd != dirfd(d))
			close(fd);
	}
	closedir(d);
}

static int detach(const char *runtime, int listener)
{
	char path[4200];
	pid_t pid;
	int null;

	snprintf(path, sizeof(path), "%s/sessiond.log", runtime);
	log_file = fopen(path, "ae");
	if (!log_file)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0)
		_exit(0);	/* the socket already listens: clients can connect */
	setsid();
	close_inherited(listener, fileno(log_file));
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		close(null);
	}
	/* what the daemon and its consumer report goes to the log */
	dup2(fileno(log_file), 2);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "daemonize", no_argument, NULL, 'd' },
		{ "load", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 },
	};
	char runtime[4096], sock[4200], pidpath[4200];
	bool daemonize = false;
	const char *detail = NULL;
	char load_path[4096] = "";
	int c, listener, sigfd, r;
	sigset_t mask;
	FILE *pf;

	log_file = stderr;
	while ((c = getopt_long(argc, argv, "dl:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			daemonize = true;
			break;
		case 'l':
			/* absolute: the daemon may change directory when it detaches */
			if (!realpath(optarg, load_path)) {
				fprintf(stderr, "ltt-sessiond: %s: %s\n", optarg, strerror(errno));
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("ltt-sessiond %s\n", LTT_VERSION);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (session_clock_init(&detail) < 0) {
		log_msg("%s", detail);
		return 2;
	}
	r = proto_runtime_dir(runtime, sizeof(runtime));
	if (r < 0) {
		log_msg("cannot use the runtime directory: %s", strerror(-r));
		return 1;
	}
	snprintf(sock, sizeof(sock), "%s/sessiond.sock", runtime);
	snprintf(pidpath, sizeof(pidpath), "%s/sessiond.pid", runtime);
	r = proto_listen(sock, &listener);
	if (r == -EADDRINUSE) {
		log_msg("a session daemon already serves %s", sock);
		return 1;
	}
	if (r < 0) {
		log_msg("cannot listen on %s: %s", sock, strerror(-r));
		return 1;
	}
	if (daemonize && (r = detach(runtime, listener)) < 0) {
		fprintf(stderr, "ltt-sessiond: cannot detach: %s\n", strerror(-r));
		unlink(sock);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sigfd < 0) {
		log_msg("signalfd: %s", strerror(errno));
		unlink(sock);
		return 1;
	}
	pf = fopen(pidpath, "we");
	if (pf) {
		fprintf(pf, "%d\n", (int)getpid());
		fclose(pf);
	}
	if (geteuid() == 0) {
		const char *why;

		/* what a daemon that died left in tracefs: its instances, its uprobes */
		if (kernel_session_available(&why) == 0)
			kernel_session_cleanup_stale();
	}
	log_msg("serving %s (pid %d)", sock, (int)getpid());
	r = run(listener, sigfd, load_path[0] ? load_path : NULL);
	unlink(sock);
	unlink(pidpath);
	close(listener);
	close(sigfd);
	log_msg("exiting");
	return r < 0 ? 1 : 0;
}
