/*
 * cut_proxy - a loopback TCP proxy in front of a PostgreSQL server that
 * cuts connections at a chosen moment, for the commit-cut tests.
 *
 *   cut_proxy --to HOST --to-port PORT
 *             [--cut before-commit|after-commit|stall-commit|stall-connect|none]
 *             [--nth N] [--then pass|down] [--events FILE] [--daemon]
 *
 * Listens on 127.0.0.1 on an ephemeral port and relays every connection to
 * the server (HOST a name or address, or a directory holding the server's
 * Unix socket).  It reads the PostgreSQL wire protocol just far enough to
 * find message boundaries:
 *
 *   before-commit  the Nth COMMIT the client sends (a simple Query, or a
 *                  Parse of the extended protocol, whose text starts with
 *                  COMMIT or END) is never forwarded: both sides of that
 *                  connection are cut instead.  The transaction did not
 *                  commit, and the client cannot know.
 *   after-commit   the Nth CommandComplete "COMMIT" the server sends is
 *                  swallowed and both sides are cut: the transaction did
 *                  commit, and the client never hears it.
 *   stall-commit   the Nth COMMIT the client sends, and everything it sends
 *                  after it on that connection, is swallowed, the
 *                  connection left open: a hung pooler.  Only the client's
 *                  own timeout ends the wait; when it closes its side, the
 *                  server's side is closed and the transaction rolls back.
 *   stall-connect  the Nth connection is accepted and never answered (not
 *                  relayed: what the client sends is read and dropped), a
 *                  pooler with no server connection to give: only the
 *                  client's own timeout ends its connection attempt.
 *
 * After the cut, --then pass (default) keeps relaying new connections
 * unharmed (a client that reconnects can find out what happened); --then
 * down closes the listening socket and exits, so the server stays
 * unreachable through the proxy.  SIGUSR1 cuts every open connection at
 * once; SIGTERM ends the proxy.
 *
 * SSLRequest and GSSENCRequest are answered 'N' by the proxy itself, so
 * the stream stays readable.  Each cut appends one line to --events
 * ("cut before-commit conn 2"), so a test can assert that the cut happened.
 * --daemon: bind, then print "PORT PID" on stdout and go to the background.
 *
 * Loopback only; a test tool, not part of clearing-load.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_CONNS 256
#define PEEK_MAX 64

enum cut_mode { CUT_NONE, CUT_BEFORE_COMMIT, CUT_AFTER_COMMIT, CUT_STALL_COMMIT, CUT_STALL_CONNECT };

static const char *opt_to_host;
static const char *opt_to_port;
static enum cut_mode opt_cut = CUT_NONE;
static int opt_nth = 1;
static bool opt_then_down;
static const char *opt_events;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int commits_seen;   /* COMMITs counted toward --nth */
static bool cut_done;      /* the one planned cut has happened */
static int listen_fd = -1;
static int wake_pipe[2] = { -1, -1 };

struct conn {
	int id;
	int cfd;               /* client side */
	int sfd;               /* server side */
	bool used;
};
static struct conn conns[MAX_CONNS];

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("cut_proxy: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void event(const char *what, int id)
{
	if (opt_events == NULL)
		return;
	FILE *f = fopen(opt_events, "a");
	if (f == NULL)
		return;
	fprintf(f, "%s conn %d\n", what, id);
	fclose(f);
}

static bool write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

static bool read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	while (n > 0) {
		ssize_t r = recv(fd, p, n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p += r;
		n -= (size_t)r;
	}
	return true;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Cut both sides of one connection: shutdown wakes both relay threads. */
static void cut_conn(struct conn *c)
{
	struct linger lg = { 1, 0 };
	/* An abortive close (RST) on the client side, as a dead network path
	 * would look to the client after its timeouts. */
	setsockopt(c->cfd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
	shutdown(c->cfd, SHUT_RDWR);
	shutdown(c->sfd, SHUT_RDWR);
}

static void cut_all(void)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < MAX_CONNS; i++)
		if (conns[i].used)
			cut_conn(&conns[i]);
	pthread_mutex_unlock(&lock);
}

/* Does a statement text start with COMMIT or END (a whole word)? */
static bool is_commit_text(const unsigned char *s, size_t n)
{
	size_t i = 0;
	while (i < n && isspace(s[i]))
		i++;
	static const char *const words[] = { "commit", "end" };
	for (size_t w = 0; w < 2; w++) {
		size_t len = strlen(words[w]);
		if (n - i < len)
			continue;
		bool eq = true;
		for (size_t k = 0; k < len && eq; k++)
			eq = tolower(s[i + k]) == words[w][k];
		if (eq && (i + len == n || !isalnum(s[i + len])))
			return true;
	}
	return false;
}

/* Decide whether one message is the planned cut point.  `peek` holds the
 * first bytes of its body. */
static bool is_cut_point(bool from_client, unsigned char type, const unsigned char *peek,
			 size_t n)
{
	bool commit = false;
	if (from_client && (opt_cut == CUT_BEFORE_COMMIT || opt_cut == CUT_STALL_COMMIT)) {
		if (type == 'Q') {
			commit = is_commit_text(peek, n);
		} else if (type == 'P') {
			const unsigned char *z = memchr(peek, 0, n); /* statement name */
			if (z != NULL)
				commit = is_commit_text(z + 1, n - (size_t)(z + 1 - peek));
		}
	} else if (!from_client && opt_cut == CUT_AFTER_COMMIT && type == 'C') {
		commit = n >= 7 && memcmp(peek, "COMMIT", 7) == 0;
	}
	if (!commit)
		return false;
	pthread_mutex_lock(&lock);
	bool cut = !cut_done && ++commits_seen == opt_nth;
	if (cut)
		cut_done = true;
	pthread_mutex_unlock(&lock);
	return cut;
}

struct relay {
	struct conn *c;
	bool from_client;
};

/*
 * Relay one direction, message by message: a header (type byte + length)
 * and the first bytes of the body are held back until the message is known
 * not to be the cut point, then the rest of the body streams through.
 */
static void *relay_run(void *arg)
{
	struct relay *r = arg;
	int in = r->from_client ? r->c->cfd : r->c->sfd;
	int out = r->from_client ? r->c->sfd : r->c->cfd;
	unsigned char buf[65536];
	unsigned char held[5 + PEEK_MAX];
	size_t held_n = 0;   /* bytes of the current header + peek held */
	size_t peek_want = 0;
	uint64_t body_left = 0; /* body bytes still to stream, after the peek */
	bool in_body = false;
	bool stalled = false; /* stall-commit: nothing more is forwarded */

	for (;;) {
		ssize_t got = recv(in, buf, sizeof buf, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		if (stalled)
			continue;
		size_t i = 0, n = (size_t)got;
		while (i < n) {
			if (in_body) {
				size_t k = n - i < body_left ? n - i : (size_t)body_left;
				if (!write_all(out, buf + i, k))
					goto done;
				i += k;
				body_left -= k;
				if (body_left == 0)
					in_body = false;
				continue;
			}
			held[held_n++] = buf[i++];
			if (held_n == 5) {
				uint32_t len = be32(held + 1);
				if (len < 4)
					goto done; /* not the protocol we know */
				body_left = len - 4;
				peek_want = body_left < PEEK_MAX ? (size_t)body_left : PEEK_MAX;
			}
			if (held_n >= 5 && held_n == 5 + peek_want) {
				if (is_cut_point(r->from_client, held[0], held + 5, peek_want)) {
					if (opt_cut == CUT_STALL_COMMIT) {
						event("stall before-commit", r->c->id);
						fprintf(stderr, "cut_proxy: stall before-commit on "
								"connection %d\n", r->c->id);
						stalled = true;
						break;
					}
					const char *what = r->from_client ? "cut before-commit"
									  : "cut after-commit";
					event(what, r->c->id);
					fprintf(stderr, "cut_proxy: %s on connection %d\n", what,
						r->c->id);
					/* --then down: stop listening before the client
					 * can notice the cut and reconnect. */
					if (opt_then_down)
						shutdown(listen_fd, SHUT_RDWR);
					pthread_mutex_lock(&lock);
					cut_conn(r->c);
					pthread_mutex_unlock(&lock);
					if (opt_then_down && write(wake_pipe[1], "d", 1) < 0) {
						/* the main loop exits on its own next accept */
					}
					goto done;
				}
				if (!write_all(out, held, held_n))
					goto done;
				body_left -= peek_want;
				in_body = body_left > 0;
				held_n = 0;
			}
		}
	}
done:
	shutdown(out, SHUT_WR);
	shutdown(in, SHUT_RD);
	return NULL;
}

static int connect_server(void)
{
	int fd;
	if (opt_to_host[0] == '/') {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int w = snprintf(sa.sun_path, sizeof sa.sun_path, "%s/.s.PGSQL.%s", opt_to_host,
				 opt_to_port);
		if (w < 0 || (size_t)w >= sizeof sa.sun_path)
			return -1;
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
			close(fd);
			return -1;
		}
		return fd;
	}
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	if (getaddrinfo(opt_to_host, opt_to_port, &hints, &res) != 0)
		return -1;
	fd = -1;
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd >= 0) {
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	}
	return fd;
}

/* Read the startup packet, answering SSL/GSS encryption requests 'N'
 * until the real startup (or a cancel request) arrives; forward it. */
static bool startup(struct conn *c)
{
	for (;;) {
		unsigned char hdr[8];
		if (!read_all(c->cfd, hdr, 8))
			return false;
		uint32_t len = be32(hdr), code = be32(hdr + 4);
		if (len < 8 || len > 10000)
			return false;
		if (code == 80877103u || code == 80877104u) { /* SSL, GSSENC */
			if (len != 8 || !write_all(c->cfd, "N", 1))
				return false;
			continue;
		}
		unsigned char *msg = malloc(len);
		if (msg == NULL)
			return false;
		memcpy(msg, hdr, 8);
		bool ok = read_all(c->cfd, msg + 8, len - 8) && write_all(c->sfd, msg, len);
		free(msg);
		return ok;
	}
}

static void *conn_run(void *arg)
{
	struct conn *c = arg;
	pthread_t back;
	struct relay up = { c, true }, down = { c, false };
	bool started = false;

	if (opt_cut == CUT_STALL_CONNECT && c->id == opt_nth) {
		char buf[4096];

		event("stall connect", c->id);
		fprintf(stderr, "cut_proxy: stall connect on connection %d\n", c->id);
		for (;;) {
			ssize_t got = recv(c->cfd, buf, sizeof buf, 0);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				break;
		}
	} else {
		c->sfd = connect_server();
	}

	if (c->sfd >= 0 && startup(c)) {
		if (pthread_create(&back, NULL, relay_run, &down) == 0) {
			started = true;
			relay_run(&up);
			pthread_join(back, NULL);
		}
	}
	(void)started;
	pthread_mutex_lock(&lock);
	if (c->sfd >= 0)
		close(c->sfd);
	close(c->cfd);
	c->used = false;
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void on_signal(int sig)
{
	char ch = sig == SIGUSR1 ? 'c' : 'q';
	int saved = errno;
	if (write(wake_pipe[1], &ch, 1) < 0) {
		/* nothing to do in a handler */
	}
	errno = saved;
}

static void usage(void)
{
	fputs("usage: cut_proxy --to HOST --to-port PORT\n"
	      "                 [--cut before-commit|after-commit|stall-commit|stall-connect|none]\n"
	      "                 [--nth N] [--then pass|down] [--events FILE] [--daemon]\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	bool daemonize = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--daemon") == 0) {
			daemonize = true;
			continue;
		}
		if (v == NULL)
			usage();
		i++;
		if (strcmp(a, "--to") == 0)
			opt_to_host = v;
		else if (strcmp(a, "--to-port") == 0)
			opt_to_port = v;
		else if (strcmp(a, "--nth") == 0)
			opt_nth = atoi(v);
		else if (strcmp(a, "--events") == 0)
			opt_events = v;
		else if (strcmp(a, "--then") == 0 && strcmp(v, "pass") == 0)
			opt_then_down = false;
		else if (strcmp(a, "--then") == 0 && strcmp(v, "down") == 0)
			opt_then_down = true;
		else if (strcmp(a, "--cut") == 0 && strcmp(v, "before-commit") == 0)
			opt_cut = CUT_BEFORE_COMMIT;
		else if (strcmp(a, "--cut") == 0 && strcmp(v, "stall-commit") == 0)
			opt_cut = CUT_STALL_COMMIT;
		else if (strcmp(a, "--cut") == 0 && strcmp(v, "stall-connect") == 0)
			opt_cut = CUT_STALL_CONNECT;
		else if (strcmp(a, "--cut") == 0 && strcmp(v, "after-commit") == 0)
			opt_cut = CUT_AFTER_COMMIT;
		else if (strcmp(a, "--cut") == 0 && strcmp(v, "none") == 0)
			opt_cut = CUT_NONE;
		else
			usage();
	}
	if (opt_to_host == NULL || opt_to_port == NULL || opt_nth < 1)
		usage();

	listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	if (listen_fd < 0)
		die("socket: %s", strerror(errno));
	struct sockaddr_in sa = { .sin_family = AF_INET };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = 0;
	if (bind(listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(listen_fd, 64) != 0)
		die("bind/listen: %s", strerror(errno));
	socklen_t sl = sizeof sa;
	if (getsockname(listen_fd, (struct sockaddr *)&sa, &sl) != 0)
		die("getsockname: %s", strerror(errno));
	if (pipe(wake_pipe) != 0)
		die("pipe: %s", strerror(errno));

	if (daemonize) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (pid > 0) {
			printf("%d %d\n", ntohs(sa.sin_port), (int)pid);
			return 0;
		}
		int nul = open("/dev/null", O_RDWR);
		if (nul >= 0) {
			dup2(nul, STDIN_FILENO);
			dup2(nul, STDOUT_FILENO);
			close(nul);
		}
	} else {
		printf("%d %d\n", ntohs(sa.sin_port), (int)getpid());
		fflush(stdout);
	}

	struct sigaction act = { .sa_handler = on_signal };
	sigemptyset(&act.sa_mask);
	sigaction(SIGUSR1, &act, NULL);
	sigaction(SIGTERM, &act, NULL);
	sigaction(SIGINT, &act, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* Relay threads must not take the signals: block them there. */
	sigset_t sigs, old;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGUSR1);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);

	int next_id = 1;
	for (;;) {
		struct pollfd pf[2] = { { listen_fd, POLLIN, 0 }, { wake_pipe[0], POLLIN, 0 } };
		if (poll(pf, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		if (pf[1].revents & POLLIN) {
			char ch;
			if (read(wake_pipe[0], &ch, 1) == 1) {
				if (ch == 'c') {
					event("cut all", 0);
					cut_all();
				} else { /* 'q' (SIGTERM) or 'd' (--then down) */
					close(listen_fd);
					cut_all();
					return 0;
				}
			}
		}
		if (!(pf[0].revents & POLLIN))
			continue;
		int cfd = accept(listen_fd, NULL, NULL);
		if (cfd < 0)
			continue;
		int one = 1;
		setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		pthread_mutex_lock(&lock);
		struct conn *c = NULL;
		for (int i = 0; i < MAX_CONNS && c == NULL; i++)
			if (!conns[i].used)
				c = &conns[i];
		if (c != NULL) {
			c->used = true;
			c->id = next_id++;
			c->cfd = cfd;
			c->sfd = -1;
		}
		pthread_mutex_unlock(&lock);
		if (c == NULL) {
			close(cfd);
			continue;
		}
		pthread_t t;
		pthread_sigmask(SIG_BLOCK, &sigs, &old);
		int rc = pthread_create(&t, NULL, conn_run, c);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (rc != 0) {
			pthread_mutex_lock(&lock);
			close(cfd);
			c->used = false;
			pthread_mutex_unlock(&lock);
			continue;
		}
		pthread_detach(t);
	}
}
