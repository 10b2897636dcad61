/*
 * io.c: input with transparent gzip and peeking; output through a
 * temporary file renamed on success (see io.h).
 */
/* realpath() is XSI, beside the POSIX 2008 base the build asks for. */
#if !defined(_XOPEN_SOURCE) || _XOPEN_SOURCE < 700
#undef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* syncfs(), which glibc declares only here */
#endif
#include "io.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define RAW_CHUNK 65536
/* The buffer of an output file. */
#define OUT_BUFFER 65536
/* How often a read that waits for a pipe looks at the cancel flag. */
#define CANCEL_POLL_MS 100

struct xqi_input {
	char *name;
	int fd;          /* -1 for memory input */
	int own_fd;
	const unsigned char *mem;
	size_t mem_len, mem_pos;
	int64_t size;
	int regular;     /* a regular file: reading it never waits for a writer */
	const atomic_int *cancel; /* stop reading when it becomes non-zero */
	uint64_t stored; /* raw bytes consumed */
	int eof_raw;
	/* raw buffer (file bytes as stored) */
	unsigned char *raw;
	size_t raw_len, raw_pos;
	/* gzip */
	int gzip;        /* 1 when inflating */
	int detected;
	z_stream z;
	int z_end;       /* the current member ended */
	/* peeked content bytes, handed out before anything else */
	unsigned char peek[XQI_PEEK_SIZE];
	size_t peek_len, peek_pos;
	int peeked;
};

static int io_error(struct xq_diagnostic *d, int rc, const char *name, const char *what)
{
	return xqi_diagnostic_set(d, rc, XQI_D_IO, XQ_SEVERITY_ERROR, "%s '%s': %s", what, name,
			   strerror(errno));
}

int xqi_input_open(struct xqi_input **out, const char *path, struct xq_diagnostic *d)
{
	struct xqi_input *in = calloc(1, sizeof(*in));
	struct stat st;

	if (!in)
		return XQ_ENOMEM;
	in->size = -1;
	if (!strcmp(path, "-")) {
		in->fd = 0;
		in->name = strdup("<stdin>");
	} else {
		/* Never waits here: a FIFO with no writer would block open()
		 * for ever, where no cancel flag can stop it; reading waits
		 * for the writer instead (wait_readable). */
		in->fd = open(path, O_RDONLY | O_NONBLOCK);
		if (in->fd >= 0) {
			int fl = fcntl(in->fd, F_GETFL);
			if (fl >= 0)
				fcntl(in->fd, F_SETFL, fl & ~O_NONBLOCK);
		}
		if (in->fd < 0) {
			int rc = io_error(d, XQ_EIO, path, "cannot open");
			free(in);
			return rc;
		}
		in->own_fd = 1;
		in->name = strdup(path);
		if (fstat(in->fd, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				close(in->fd);
				free(in->name);
				free(in);
				return xqi_diagnostic_set(d, XQ_EIO, XQI_D_IO, XQ_SEVERITY_ERROR,
						   "'%s' is a directory", path);
			}
			if (S_ISREG(st.st_mode)) {
				in->size = (int64_t)st.st_size;
				in->regular = 1;
			}
		}
	}
	in->raw = malloc(RAW_CHUNK);
	if (!in->name || !in->raw) {
		xqi_input_close(in);
		return XQ_ENOMEM;
	}
	*out = in;
	return 0;
}

int xqi_input_open_mem(struct xqi_input **out, const char *name, const void *data, size_t len)
{
	struct xqi_input *in = calloc(1, sizeof(*in));

	if (!in)
		return XQ_ENOMEM;
	in->fd = -1;
	in->mem = data;
	in->mem_len = len;
	in->size = (int64_t)len;
	in->name = strdup(name);
	in->raw = malloc(RAW_CHUNK);
	if (!in->name || !in->raw) {
		xqi_input_close(in);
		return XQ_ENOMEM;
	}
	*out = in;
	return 0;
}

void xqi_input_close(struct xqi_input *in)
{
	if (!in)
		return;
	if (in->gzip)
		inflateEnd(&in->z);
	if (in->own_fd)
		close(in->fd);
	free(in->raw);
	free(in->name);
	free(in);
}

const char *xqi_input_name(const struct xqi_input *in)
{
	return in->name;
}

int xqi_input_is_gzip(const struct xqi_input *in)
{
	return in->gzip;
}

int64_t xqi_input_size(const struct xqi_input *in)
{
	return in->size;
}

uint64_t xqi_input_stored_offset(const struct xqi_input *in)
{
	return in->stored;
}

void xqi_input_set_cancel(struct xqi_input *in, const atomic_int *cancel)
{
	in->cancel = cancel;
}

static int canceled(struct xqi_input *in, struct xq_diagnostic *d)
{
	return xqi_diagnostic_set(d, XQ_ECANCELED, XQI_D_IO, XQ_SEVERITY_ERROR, "'%s': reading interrupted",
			   in->name);
}

/*
 * Wait until `in` has bytes to read, looking at the cancel flag (when
 * there is one) every CANCEL_POLL_MS: a pipe or a terminal may stay
 * silent for ever, and a FIFO opened before its writer has none yet (its
 * read() would say end of input at once).  Returns 0, or XQ_ECANCELED.
 */
static int wait_readable(struct xqi_input *in, struct xq_diagnostic *d)
{
	struct pollfd p;

	p.fd = in->fd;
	p.events = POLLIN;
	for (;;) {
		int n;
		if (in->cancel && atomic_load(in->cancel))
			return canceled(in, d);
		p.revents = 0;
		n = poll(&p, 1, in->cancel ? CANCEL_POLL_MS : -1);
		if (n != 0 && !(n < 0 && errno == EINTR))
			return 0; /* readable, at its end, or an error read() will tell */
	}
}

/* Refill the raw buffer when it is empty; returns bytes available, 0 at end, <0 error. */
static long raw_fill(struct xqi_input *in, struct xq_diagnostic *d)
{
	ssize_t n;

	if (in->raw_pos < in->raw_len)
		return (long)(in->raw_len - in->raw_pos);
	in->raw_pos = in->raw_len = 0;
	if (in->eof_raw)
		return 0;
	if (in->fd < 0) {
		size_t left = in->mem_len - in->mem_pos, take = left < RAW_CHUNK ? left : RAW_CHUNK;
		memcpy(in->raw, in->mem + in->mem_pos, take);
		in->mem_pos += take;
		n = (ssize_t)take;
	} else {
		for (;;) {
			if (in->cancel && atomic_load(in->cancel))
				return canceled(in, d);
			if (!in->regular) {
				int rc = wait_readable(in, d);
				if (rc)
					return rc;
			}
			n = read(in->fd, in->raw, RAW_CHUNK);
			if (n >= 0 || errno != EINTR)
				break;
		}
		if (n < 0)
			return io_error(d, XQ_EIO, in->name, "cannot read");
	}
	if (n == 0) {
		in->eof_raw = 1;
		return 0;
	}
	in->raw_len = (size_t)n;
	in->stored += (uint64_t)n;
	return n;
}

static int detect(struct xqi_input *in, struct xq_diagnostic *d)
{
	long n;

	in->detected = 1;
	n = raw_fill(in, d);
	if (n < 0)
		return (int)n;
	/* Make sure two bytes are there when the file has them. */
	if (n == 1 && !in->eof_raw) {
		unsigned char first = in->raw[0];
		long m;
		in->raw_pos = in->raw_len = 0;
		m = raw_fill(in, d);
		if (m < 0)
			return (int)m;
		memmove(in->raw + 1, in->raw, (size_t)m);
		in->raw[0] = first;
		in->raw_len = (size_t)m + 1;
	}
	if (in->raw_len - in->raw_pos >= 2 && in->raw[in->raw_pos] == 0x1f &&
	    in->raw[in->raw_pos + 1] == 0x8b) {
		memset(&in->z, 0, sizeof(in->z));
		if (inflateInit2(&in->z, 15 + 16) != Z_OK)
			return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_IO, XQ_SEVERITY_ERROR, "cannot start gzip");
		in->gzip = 1;
	}
	return 0;
}

/* Read decompressed (or plain) content, bypassing the peek buffer. */
static long content_read(struct xqi_input *in, unsigned char *buf, size_t n, struct xq_diagnostic *d)
{
	if (!in->detected) {
		int rc = detect(in, d);
		if (rc)
			return rc;
	}
	if (!in->gzip) {
		long avail = raw_fill(in, d);
		size_t take;
		if (avail <= 0)
			return avail;
		take = (size_t)avail < n ? (size_t)avail : n;
		memcpy(buf, in->raw + in->raw_pos, take);
		in->raw_pos += take;
		return (long)take;
	}
	for (;;) {
		long avail;
		int zr;
		if (in->z_end) {
			/* Another gzip member may follow. */
			avail = raw_fill(in, d);
			if (avail < 0)
				return avail;
			if (avail == 0)
				return 0;
			if (inflateReset(&in->z) != Z_OK)
				return xqi_diagnostic_set(d, XQ_EIO, XQI_D_IO, XQ_SEVERITY_ERROR,
						   "'%s': gzip reset failed", in->name);
			in->z_end = 0;
		}
		avail = raw_fill(in, d);
		if (avail < 0)
			return avail;
		if (avail == 0)
			return xqi_diagnostic_set(d, XQ_ETRUNCATED, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
					   "'%s': the gzip data ends early", in->name);
		in->z.next_in = in->raw + in->raw_pos;
		in->z.avail_in = (uInt)avail;
		in->z.next_out = buf;
		in->z.avail_out = (uInt)(n > 1u << 30 ? 1u << 30 : n);
		zr = inflate(&in->z, Z_NO_FLUSH);
		in->raw_pos = (size_t)(in->z.next_in - in->raw);
		if (zr == Z_STREAM_END)
			in->z_end = 1;
		else if (zr != Z_OK && zr != Z_BUF_ERROR)
			return xqi_diagnostic_set(d, XQ_EPARSE, XQI_D_CORRUPT, XQ_SEVERITY_ERROR,
					   "'%s': gzip data is corrupt (%s)", in->name,
					   in->z.msg ? in->z.msg : "inflate failed");
		if (in->z.next_out != buf)
			return (long)(in->z.next_out - buf);
	}
}

int xqi_input_peek(struct xqi_input *in, const unsigned char **data, size_t *len, struct xq_diagnostic *d)
{
	if (!in->peeked) {
		in->peeked = 1;
		while (in->peek_len < XQI_PEEK_SIZE) {
			long n = content_read(in, in->peek + in->peek_len, XQI_PEEK_SIZE - in->peek_len, d);
			if (n < 0)
				return (int)n;
			if (n == 0)
				break;
			in->peek_len += (size_t)n;
		}
	}
	*data = in->peek + in->peek_pos;
	*len = in->peek_len - in->peek_pos;
	return 0;
}

long xqi_input_read(struct xqi_input *in, void *buf, size_t n, struct xq_diagnostic *d)
{
	if (in->peek_pos < in->peek_len) {
		size_t take = in->peek_len - in->peek_pos;
		if (take > n)
			take = n;
		memcpy(buf, in->peek + in->peek_pos, take);
		in->peek_pos += take;
		return (long)take;
	}
	return content_read(in, buf, n, d);
}

int xqi_input_read_all(struct xqi_input *in, struct xq_buf *out, size_t limit, struct xq_diagnostic *d)
{
	size_t start = out->len;

	for (;;) {
		long n;
		if (xq_buf_grow(out, RAW_CHUNK))
			return XQ_ENOMEM;
		n = xqi_input_read(in, out->ptr + out->len, RAW_CHUNK, d);
		if (n < 0)
			return (int)n;
		if (n == 0)
			return 0;
		out->len += (size_t)n;
		out->ptr[out->len] = '\0';
		if (out->len - start > limit)
			return xqi_diagnostic_set(d, XQ_ERANGE, XQI_D_RESOURCE, XQ_SEVERITY_ERROR,
					   "'%s' is larger than %zu bytes", in->name, limit);
	}
}

/* ---- output ------------------------------------------------------------- */

struct xq_file {
	char *name;     /* what the user asked for */
	char *target;   /* the name renamed over on commit (through a symbolic link) */
	char *tmp;      /* the temporary file's name; NULL when written directly
			 * or when the temporary file has none (unnamed) */
	int unnamed;    /* the temporary file has no name (O_TMPFILE) until commit links it */
	int link_fd;    /* unnamed: its descriptor, open until commit (owned when gz) */
	int replace;    /* commit may replace an existing file (XQ_WRITE_FORCE) */
	unsigned sync;  /* XQ_WRITE_SYNC_REPLACED, XQ_WRITE_NO_SYNC or 0 */
	FILE *f;
	char *fbuf;     /* f's buffer (so that stdio need not fstat() to size one) */
	gzFile gz;
	struct xq_buf *mem;
	struct xq_file *pass; /* mem: where its bytes go on (xqi_file_pass_to) */
	int error;      /* a write failed: errno value, or -1 */
};

/* An I/O error on an output: a full disk or quota is XQI_D_RESOURCE, so
 * that a caller writing many files can stop at the first. */
static int out_error(struct xq_diagnostic *d, int err, const char *name, const char *what)
{
	int full = err == ENOSPC
#ifdef EDQUOT
		   || err == EDQUOT
#endif
		;
	return xqi_diagnostic_set(d, XQ_EIO, full ? XQI_D_RESOURCE : XQI_D_IO, XQ_SEVERITY_ERROR, "%s '%s': %s",
			   what, name, strerror(err));
}

int xqi_file_open_mem(struct xq_file **out, struct xq_buf *target)
{
	struct xq_file *o = calloc(1, sizeof(*o));

	if (!o)
		return XQ_ENOMEM;
	o->mem = target;
	o->name = strdup("<memory>");
	if (!o->name) {
		free(o);
		return XQ_ENOMEM;
	}
	*out = o;
	return 0;
}

/* The descriptor a name such as /dev/stdout or /dev/fd/3 stands for, or -1. */
static int named_fd(const char *path)
{
	static const char *const prefixes[] = {"/dev/fd/", "/proc/self/fd/"};
	long n;
	char *end;

	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t len = strlen(prefixes[i]);
		if (strncmp(path, prefixes[i], len) || path[len] < '0' || path[len] > '9')
			continue;
		errno = 0;
		n = strtol(path + len, &end, 10);
		if (!errno && !*end && n >= 0 && n < 1 << 20)
			return (int)n;
	}
	return -1;
}

/* XQ_WRITE_NO_LINKS: `path` is there and not a regular file. */
static int not_plain(const char *path, const struct stat *st, struct xq_diagnostic *d)
{
	const char *what = S_ISLNK(st->st_mode)    ? "a symbolic link"
			   : S_ISFIFO(st->st_mode) ? "a FIFO"
			   : S_ISSOCK(st->st_mode) ? "a socket"
			   : S_ISDIR(st->st_mode)  ? "a directory"
			   : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device"
									: "not a regular file";

	return xqi_diagnostic_set(d, XQ_EIO, XQI_D_IO, XQ_SEVERITY_ERROR,
			   "'%s' is %s: this output is only ever a new or a replaced regular "
			   "file, never written through a link or into a special file, even with "
			   "--force",
			   path, what);
}

int xqi_file_plan(struct xqi_file_plan *p, const char *path, unsigned flags, struct xq_diagnostic *d)
{
	struct stat st;

	memset(p, 0, sizeof(*p));
	/* "-", /dev/stdout, /dev/fd/3: a descriptor the caller opened, written
	 * as it is (a file the shell opened with > is not replaced). */
	if (!strcmp(path, "-") || (named_fd(path) >= 0 && fcntl(named_fd(path), F_GETFD) >= 0)) {
		p->kind = XQ_FILE_DIRECT;
		return 0;
	}
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT) {
			p->kind = XQ_FILE_NEW;
			return 0;
		}
		return io_error(d, XQ_EIO, path, "cannot write");
	}
	if ((flags & XQ_WRITE_NO_LINKS) && !S_ISREG(st.st_mode))
		return not_plain(path, &st, d);
	if (S_ISLNK(st.st_mode) && stat(path, &st) != 0) {
		if (errno != ENOENT)
			return io_error(d, XQ_EIO, path, "cannot write");
		/* A link to nothing: replacing it takes --force, as cp does. */
		if (!(flags & XQ_WRITE_FORCE))
			return xqi_diagnostic_set(d, XQ_EIO, XQI_D_IO, XQ_SEVERITY_ERROR,
					   "'%s' is a symbolic link to a missing file (use --force to replace the link)",
					   path);
		p->kind = XQ_FILE_NEW;
		p->link = 1;
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		if (!(flags & XQ_WRITE_FORCE))
			return xqi_diagnostic_set(d, XQ_EIO, XQI_D_IO, XQ_SEVERITY_ERROR,
					   "'%s' already exists (use --force to replace it)", path);
		p->kind = XQ_FILE_REPLACE;
		p->dev = st.st_dev;
		p->ino = st.st_ino;
		return 0;
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		p->kind = XQ_FILE_DIRECT;
		return 0;
	}
	return xqi_diagnostic_set(d, XQ_EIO, XQI_D_IO, XQ_SEVERITY_ERROR, "'%s' is %s", path,
			   S_ISDIR(st.st_mode)   ? "a directory"
			   : S_ISBLK(st.st_mode) ? "a block device: xqkit does not write over one"
						 : "not a file xqkit can write");
}

/* Open a descriptor's name (a copy of the descriptor, sharing its file
 * offset, as >&N does), or a character device, FIFO or socket, as it is. */
static int open_direct(const char *path, struct xq_diagnostic *d)
{
	int n = named_fd(path);
	int fd = n >= 0 ? dup(n) : open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd >= 0)
		return fd;
	return io_error(d, XQ_EIO, path, "cannot open");
}

/* Sixteen letters that change with every call, for a temporary name. */
static void random_letters(char *out, size_t n, const void *salt, unsigned attempt)
{
	struct timespec ts;
	uint64_t x;

	clock_gettime(CLOCK_REALTIME, &ts);
	x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 12) ^
	    (uint64_t)(uintptr_t)salt ^ ((uint64_t)attempt << 52);
	for (size_t i = 0; i < n; i++) {
		/* splitmix64 */
		uint64_t z = (x += 0x9e3779b97f4a7c15ull);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		out[i] = "abcdefghijklmnopqrstuvwxyz012345"[z & 31];
	}
}

/* o->tmp: a fresh name beside `target` for the temporary file (a short
 * name of its own, so that any name the file system allows can be the
 * target, and a dot first, so that directory walks skip it). */
static int temp_name(struct xq_file *o, const char *target, unsigned attempt)
{
	const char *slash = strrchr(target, '/');
	size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;

	if (!o->tmp && !(o->tmp = malloc(dirlen + sizeof(".xqkit-") + 8)))
		return XQ_ENOMEM;
	memcpy(o->tmp, target, dirlen);
	memcpy(o->tmp + dirlen, ".xqkit-", 7);
	random_letters(o->tmp + dirlen + 7, 8, o, attempt);
	o->tmp[dirlen + 15] = '\0';
	return 0;
}

#if defined(O_TMPFILE) && defined(AT_EMPTY_PATH)
/*
 * How this process can give a name to a file opened with O_TMPFILE:
 * linkat() of the descriptor itself (AT_EMPTY_PATH: needs a privilege on
 * older kernels) or of its /proc/self/fd/N (needs /proc).  Found out once,
 * on the first such file (probe_way), and kept: 0 not yet known, 1 and 2
 * those two ways, -1 neither (every temporary file then has a name from
 * the start).  The one piece of state this file shares between outputs: a
 * property of the system, the same for every thread.
 */
static atomic_int unnamed_way;

/* Give the unnamed file `fd` the name `to`, the way `way` says: 0 or an
 * errno value (EEXIST: something has the name, and it is left alone). */
static int link_way(int fd, const char *to, int way)
{
	char proc[40];

	if (way == 1)
		return linkat(fd, "", AT_FDCWD, to, AT_EMPTY_PATH) == 0 ? 0 : errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, to, AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
}

/* link_way() the way that works, trying the other when it fails. */
static int link_unnamed(int fd, const char *to)
{
	int way = atomic_load(&unnamed_way), err;

	err = link_way(fd, to, way);
	if (err && err != EEXIST && !(err = link_way(fd, to, 3 - way)))
		atomic_store(&unnamed_way, 3 - way);
	return err;
}

/*
 * Which way works (unnamed_way), asked of the unnamed file `fd` in
 * directory `dir` (with its final '/') by linking it to "dir/.": the
 * kernel looks at the file and the permission first and then refuses the
 * name with EEXIST, so nothing is made, and a way it would refuse fails
 * with ENOENT or EPERM before.  Returns the way, or -1.
 */
static int probe_way(int fd, char *dir, size_t dirlen)
{
	int way = -1;

	dir[dirlen] = '.';
	dir[dirlen + 1] = '\0';
	if (link_way(fd, dir, 1) == EEXIST)
		way = 1;
	else if (link_way(fd, dir, 2) == EEXIST)
		way = 2;
	dir[dirlen] = '\0';
	atomic_store(&unnamed_way, way);
	return way;
}

/*
 * An unnamed temporary file in the directory of `target` (O_TMPFILE): it
 * takes a name only when it is complete (xqi_file_commit), so nothing is
 * ever left under a temporary name, not even by a run killed with
 * SIGKILL, and a new file costs one directory entry instead of three
 * changes (create, link, unlink).  The descriptor, or -1 where the file
 * system or the system cannot (the caller then makes a named one).
 */
static int create_unnamed(struct xq_file *o, const char *target)
{
	const char *slash = strrchr(target, '/');
	char small[256], *dir = small;
	size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0;
	int way = atomic_load(&unnamed_way), fd;

	if (way < 0)
		return -1;
	if (dirlen + 3 > sizeof(small) && !(dir = malloc(dirlen + 3)))
		return -1;
	if (dirlen)
		memcpy(dir, target, dirlen);
	else
		memcpy(dir, "./", 2), dirlen = 2;
	dir[dirlen] = '\0';
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	if (fd >= 0 && way == 0 && probe_way(fd, dir, dirlen) < 0) {
		close(fd);
		fd = -1;
	}
	if (dir != small)
		free(dir);
	if (fd < 0)
		return -1; /* EOPNOTSUPP, EISDIR (a kernel without O_TMPFILE), ... */
	o->unnamed = 1;
	return fd;
}
#else
static int link_unnamed(int fd, const char *to)
{
	(void)fd, (void)to;
	return ENOSYS;
}
static int create_unnamed(struct xq_file *o, const char *target)
{
	(void)o, (void)target;
	return -1;
}
#endif

/*
 * Create the temporary file beside `target`: unnamed where the system
 * allows (create_unnamed), else with a name of its own (temp_name); with
 * mode 0666 and the process's umask applied by the kernel, as any new
 * file is.
 */
static int create_temp(struct xq_file *o, const char *target, unsigned flags, struct xq_diagnostic *d)
{
	int fd;

	if (!(flags & XQ_WRITE_NAMED_TEMP) && (fd = create_unnamed(o, target)) >= 0)
		return fd;
	for (unsigned attempt = 0; attempt < 100; attempt++) {
		if (temp_name(o, target, attempt))
			return XQ_ENOMEM;
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			break;
	}
	free(o->tmp);
	o->tmp = NULL;
	return out_error(d, errno, o->name, "cannot create a temporary file for");
}

/* The replaced file's owner, group and mode go to the temporary file:
 * replacing a file changes its contents, nothing else.  Owner and group
 * are kept where the system allows; set-user and set-group bits only with
 * the owner and group they belong to. */
static void keep_attributes(int fd, const struct stat *st)
{
	mode_t mode = st->st_mode & 07777;

	if (fchown(fd, st->st_uid, st->st_gid) != 0) {
		mode &= ~(mode_t)S_ISUID;
		if (fchown(fd, (uid_t)-1, st->st_gid) != 0)
			mode &= ~(mode_t)S_ISGID;
	}
	fchmod(fd, mode);
}

int xqi_file_open(struct xq_file **out, const char *path, unsigned flags, struct xq_diagnostic *d)
{
	struct xq_file *o = calloc(1, sizeof(*o));
	struct xqi_file_plan plan;
	size_t plen = strlen(path);
	int fd = -1, rc = XQ_ENOMEM;
	int gz = (flags & XQ_WRITE_GZIP) || (plen > 3 && !strcmp(path + plen - 3, ".gz"));

	if (!o)
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_IO, XQ_SEVERITY_ERROR, "out of memory");
	o->name = strdup(!strcmp(path, "-") ? "<stdout>" : path);
	if (!o->name)
		goto fail;
	if ((rc = xqi_file_plan(&plan, path, flags, d)) != 0)
		goto fail;
	rc = XQ_ENOMEM;
	if (!strcmp(path, "-")) {
		fd = dup(1);
		if (fd < 0) {
			rc = io_error(d, XQ_EIO, "<stdout>", "cannot use");
			goto fail;
		}
	} else if (plan.kind == XQ_FILE_DIRECT) {
		if ((fd = open_direct(path, d)) < 0) {
			rc = fd;
			goto fail;
		}
	} else {
		struct stat st;
		/* Through a symbolic link to a file, the file is replaced and
		 * the link kept. */
		o->target = plan.kind == XQ_FILE_REPLACE && !(flags & XQ_WRITE_NO_LINKS)
				    ? realpath(path, NULL)
				    : strdup(path);
		if (!o->target) {
			if (errno != ENOMEM)
				rc = io_error(d, XQ_EIO, path, "cannot write");
			goto fail;
		}
		o->replace = (flags & XQ_WRITE_FORCE) != 0;
		o->sync = flags & (XQ_WRITE_SYNC_REPLACED | XQ_WRITE_NO_SYNC);
		/* A file replaced keeps its attributes: a named temporary file
		 * takes them and then the name (put_in_place). */
		if ((fd = create_temp(o, o->target,
				      flags | (plan.kind == XQ_FILE_REPLACE ? XQ_WRITE_NAMED_TEMP : 0),
				      d)) < 0) {
			rc = fd;
			goto fail;
		}
		/* (With XQ_WRITE_NO_LINKS a link that took the name meanwhile
		 * lends nothing: rename() replaces the link itself.) */
		if (plan.kind == XQ_FILE_REPLACE &&
		    ((flags & XQ_WRITE_NO_LINKS) ? lstat(o->target, &st) : stat(o->target, &st)) == 0 &&
		    S_ISREG(st.st_mode))
			keep_attributes(fd, &st);
	}
	o->link_fd = -1;
	if (o->unnamed && gz) {
		/* gzclose() closes the descriptor it has: the file is named
		 * through another. */
		o->link_fd = fd;
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	} else if (o->unnamed) {
		o->link_fd = fd;
	}
	if (fd < 0)
		o->gz = NULL, o->f = NULL;
	else if (gz)
		o->gz = gzdopen(fd, "wb");
	else if ((o->f = fdopen(fd, "wb")) && (o->tmp || o->unnamed) &&
		 (o->fbuf = malloc(OUT_BUFFER)))
		setvbuf(o->f, o->fbuf, _IOFBF, OUT_BUFFER);
	if (!o->gz && !o->f) {
		if (fd >= 0)
			close(fd);
		if (o->link_fd >= 0 && o->link_fd != fd)
			close(o->link_fd);
		if (o->tmp)
			unlink(o->tmp);
		goto fail;
	}
	*out = o;
	return 0;
fail:
	if (rc == XQ_ENOMEM)
		xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_IO, XQ_SEVERITY_ERROR, "out of memory");
	free(o->fbuf);
	free(o->tmp);
	free(o->target);
	free(o->name);
	free(o);
	return rc;
}

/* A memory output's bytes, on to the output they pass to. */
static int pass_on(struct xq_file *o)
{
	int rc = xq_buf_error(o->mem) ? XQ_ENOMEM : xqi_file_write(o->pass, o->mem->ptr, o->mem->len);

	xq_buf_reset(o->mem);
	if (rc && !o->error)
		o->error = rc == XQ_ENOMEM ? ENOMEM : EIO;
	return rc;
}

int xqi_file_pass_to(struct xq_file *mem, struct xq_file *to)
{
	if (!mem->mem || !to || to == mem)
		return XQ_EUNSUPPORTED;
	mem->pass = to;
	return pass_on(mem);
}

const char *xqi_file_name(const struct xq_file *o)
{
	return o->name;
}

int xqi_file_write(struct xq_file *o, const void *data, size_t len)
{
	if (o->error)
		return XQ_EIO;
	if (len == 0)
		return 0;
	if (o->mem) {
		if (xq_buf_add(o->mem, data, len)) {
			o->error = ENOMEM;
			return XQ_ENOMEM;
		}
		return o->pass && o->mem->len >= XQI_FILE_PASS_AT ? pass_on(o) : 0;
	}
	if (o->gz) {
		while (len > 0) {
			unsigned chunk = len > 1u << 30 ? 1u << 30 : (unsigned)len;
			if (gzwrite(o->gz, data, chunk) != (int)chunk) {
				o->error = errno ? errno : EIO;
				return XQ_EIO;
			}
			data = (const char *)data + chunk;
			len -= chunk;
		}
		return 0;
	}
	if (fwrite(data, 1, len, o->f) != len) {
		o->error = errno ? errno : EIO;
		return XQ_EIO;
	}
	return 0;
}

static void output_free(struct xq_file *o)
{
	free(o->fbuf);
	free(o->tmp);
	free(o->target);
	free(o->name);
	free(o);
}

/*
 * Put the finished temporary file in place.  With XQ_WRITE_FORCE it
 * replaces whatever has the name; without, a hard link makes it appear
 * only if nothing has the name (a file that appeared during the run is
 * not replaced), falling back to rename on file systems without links.
 * Returns 0 or an errno value.
 */
static int put_in_place(const struct xq_file *o)
{
	struct stat st;

	if (o->replace)
		return rename(o->tmp, o->target) == 0 ? 0 : errno;
	if (link(o->tmp, o->target) == 0) {
		unlink(o->tmp);
		return 0;
	}
	if (errno == EEXIST)
		return EEXIST;
	if (lstat(o->target, &st) == 0)
		return EEXIST;
	return rename(o->tmp, o->target) == 0 ? 0 : errno;
}

/* Must `o` reach the disk before it takes its name?  (io.h) */
static int must_sync(const struct xq_file *o)
{
	struct stat st;

	if (o->sync & XQ_WRITE_NO_SYNC)
		return 0;
	if (o->sync & XQ_WRITE_SYNC_REPLACED)
		return o->replace && lstat(o->target, &st) == 0;
	return 1;
}

FILE *xqi_scratch_open(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	FILE *f;
	int fd = -1, err;

	if (!dir || !*dir)
		dir = "/tmp";
#if defined(O_TMPFILE)
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (fd < 0) {
		if ((size_t)snprintf(path, sizeof(path), "%s/.xqkit-scratch-XXXXXX", dir) >= sizeof(path)) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		if ((fd = mkstemp(path)) < 0)
			return NULL;
		unlink(path);
	}
	if (!(f = fdopen(fd, "w+b"))) {
		err = errno;
		close(fd);
		errno = err;
	}
	return f;
}

int xqi_file_sync(const char *dir, struct xq_diagnostic *d)
{
	int fd = open(dir, O_RDONLY), err = 0;

	if (fd < 0)
		return out_error(d, errno, dir, "cannot open the directory");
#if defined(__linux__)
	if (syncfs(fd) != 0)
		err = errno;
#else
	sync();
#endif
	if (!err && fsync(fd) != 0 && errno != EINVAL && errno != EBADF)
		err = errno;
	close(fd);
	return err ? out_error(d, err, dir, "cannot write") : 0;
}

/*
 * Give the finished unnamed temporary file its name: a link, which
 * refuses a name something has.  With XQ_WRITE_FORCE a file that took
 * the name during the run is replaced all the same: linked under a
 * temporary name (o->tmp), then renamed over it.  0 or an errno value.
 */
static int put_unnamed(struct xq_file *o)
{
	int err = link_unnamed(o->link_fd, o->target);

	if (err != EEXIST || !o->replace)
		return err;
	for (unsigned attempt = 0; attempt < 100; attempt++) {
		if (temp_name(o, o->target, attempt))
			return ENOMEM;
		if ((err = link_unnamed(o->link_fd, o->tmp)) != EEXIST)
			break;
	}
	if (err) {
		free(o->tmp);
		o->tmp = NULL;
		return err;
	}
	return rename(o->tmp, o->target) == 0 ? 0 : errno;
}

int xqi_file_commit(struct xq_file *o, struct xq_diagnostic *d)
{
	int rc = 0, err = o->error, sync_fd, linked = 0;

	if (o->mem) {
		if (!err && o->pass && o->mem->len && pass_on(o))
			err = o->error;
		output_free(o);
		return err ? (err == ENOMEM ? XQ_ENOMEM : XQ_EIO) : 0;
	}
	if (o->gz) {
		if (gzclose(o->gz) != Z_OK && !err)
			err = errno ? errno : EIO;
	} else {
		if (fflush(o->f) != 0 && !err)
			err = errno;
	}
	/* An unnamed file is still open (o->f or o->link_fd): it is synced
	 * if it must be, and takes its name before it is closed. */
	sync_fd = o->unnamed ? o->link_fd : o->f ? fileno(o->f) : -1;
	if (!err && (o->tmp || o->unnamed) && sync_fd >= 0 && must_sync(o) && fsync(sync_fd) != 0 &&
	    errno != EINVAL)
		err = errno;
	if (!err && o->unnamed) {
		if ((err = put_unnamed(o)) == 0)
			linked = 1;
		else
			rc = 1; /* reported below as a failure to name */
	}
	if (o->f && fclose(o->f) != 0 && !err)
		err = errno;
	if (o->unnamed && o->gz)
		close(o->link_fd);
	if (err && linked) {
		/* Written and named, but the last bytes did not reach the
		 * file: the name goes, as it came, a moment ago. */
		unlink(o->target);
		linked = 0;
	}
	if (err && !rc) {
		rc = out_error(d, err, o->name, "cannot write");
		if (o->tmp)
			unlink(o->tmp);
	} else if (!err && o->tmp && !o->unnamed && (err = put_in_place(o)) != 0) {
		rc = 1;
	}
	if (rc == 1) {
		if (err == EEXIST)
			rc = xqi_diagnostic_set(d, XQ_EIO, XQI_D_IO, XQ_SEVERITY_ERROR,
					 "'%s' already exists (use --force to replace it)", o->name);
		else
			rc = out_error(d, err, o->name, "cannot rename the temporary file to");
		if (o->tmp)
			unlink(o->tmp);
	}
	output_free(o);
	return rc;
}

void xqi_file_abort(struct xq_file *o)
{
	if (!o)
		return;
	if (o->gz)
		gzclose(o->gz);
	else if (o->f)
		fclose(o->f);
	if (o->unnamed && o->gz)
		close(o->link_fd);
	/* Only the temporary file: never the target, never a device (an
	 * unnamed one goes with its last descriptor). */
	if (o->tmp)
		unlink(o->tmp);
	output_free(o);
}
