// SPDX-License-Identifier: GPL-2.0-only
/*
 * 32-bit system calls with 64-bit arguments, which the EABI passes in
 * register pairs: each call is checked against the state it changed.
 * Offsets above 4 GiB make a lost or swapped high word visible; the
 * files live on tmpfs, so they stay sparse.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "ktap.h"

#define GIB		(1ULL << 30)
#define FAR_OFF		(4 * GIB + 0x3000)	/* beyond 32 bits, page aligned */
#define NEG_IF_SWAPPED	0x0000000180000000ULL	/* swapped halves: negative */

static const char path[] = "/tmp/compat-syscall64";

static int fresh_file(void)
{
	unlink(path);
	return open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
}

static off_t file_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? -1 : st.st_size;
}

static void test_pwrite_pread(void)
{
	static const char msg[] = "far away";
	char buf[sizeof(msg)] = "";
	int fd = fresh_file();
	ssize_t w, r;
	off_t pos;

	w = pwrite64(fd, msg, sizeof(msg), FAR_OFF);
	ktap_result(w == sizeof(msg) && file_size(fd) == FAR_OFF + sizeof(msg),
		    "pwrite64", "wrote %zd, size %lld", w,
		    (long long)file_size(fd));

	r = pread64(fd, buf, sizeof(buf), FAR_OFF);
	pos = lseek(fd, 0, SEEK_CUR);
	ktap_result(r == sizeof(msg) && !memcmp(buf, msg, sizeof(msg)) && pos == 0,
		    "pread64", "read %zd '%.8s', offset now %lld", r, buf,
		    (long long)pos);
	close(fd);
}

static void test_truncate(void)
{
	const off64_t len1 = 5 * GIB + 123, len2 = 6 * GIB + 7;
	int fd = fresh_file();
	off_t size;

	truncate64(path, len1);
	size = file_size(fd);
	ktap_result(size == len1, "truncate64", "size %lld", (long long)size);

	ftruncate64(fd, len2);
	size = file_size(fd);
	ktap_result(size == len2, "ftruncate64", "size %lld", (long long)size);
	close(fd);
}

static void test_fallocate(void)
{
	int fd = fresh_file();
	struct stat st;
	int ret;

	/* mode (r1) keeps the size: only blocks appear. */
	ret = fallocate64(fd, FALLOC_FL_KEEP_SIZE, FAR_OFF, 8192);
	fstat(fd, &st);
	ktap_result(ret == 0 && st.st_size == 0 && st.st_blocks == 16,
		    "fallocate_keep_size", "ret %d size %lld blocks %lld", ret,
		    (long long)st.st_size, (long long)st.st_blocks);

	ret = fallocate64(fd, 0, FAR_OFF + 8192, 4096);
	fstat(fd, &st);
	ktap_result(ret == 0 && st.st_size == FAR_OFF + 12288 && st.st_blocks == 24,
		    "fallocate", "ret %d size %lld blocks %lld", ret,
		    (long long)st.st_size, (long long)st.st_blocks);
	close(fd);
}

static void test_llseek(void)
{
	int fd = fresh_file();
	off64_t pos;
	long ret;

	ftruncate64(fd, FAR_OFF + 100);
	pos = lseek64(fd, FAR_OFF + 10, SEEK_SET);
	ktap_result(pos == FAR_OFF + 10 && lseek64(fd, 0, SEEK_CUR) == pos,
		    "llseek", "position %lld", (long long)pos);

	/* compat lseek: a 32-bit offset of -2 is negative, not 4 GiB - 2. */
	ftruncate64(fd, 1000);
	ret = syscall(SYS_lseek, fd, -2L, SEEK_END);
	ktap_result(ret == 998, "lseek_negative", "lseek returned %ld", ret);
	close(fd);
}

static void test_readahead(void)
{
	int fd = fresh_file(), pipefd[2];
	ssize_t r_file, r_pipe;

	ftruncate64(fd, FAR_OFF + 4096);
	r_file = readahead(fd, FAR_OFF, 4096);
	if (pipe(pipefd))
		pipefd[0] = -1;
	r_pipe = readahead(pipefd[0], FAR_OFF, 4096);
	ktap_result(r_file == 0 && r_pipe == -1 && errno == EINVAL &&
		    lseek(fd, 0, SEEK_CUR) == 0, "readahead",
		    "file %zd, pipe %zd (errno %d)", r_file, r_pipe, errno);
	close(pipefd[0]);
	close(pipefd[1]);
	close(fd);
}

static void test_fadvise(void)
{
	int fd = fresh_file(), ok_ret, neg_ret, bad_advice;

	ftruncate64(fd, FAR_OFF);
	/* posix_fadvise returns the error number rather than setting errno. */
	ok_ret = posix_fadvise64(fd, FAR_OFF, NEG_IF_SWAPPED, POSIX_FADV_WILLNEED);
	neg_ret = posix_fadvise64(fd, 0, -4096, POSIX_FADV_NORMAL);
	bad_advice = posix_fadvise64(fd, 0, 4096, 77);
	ktap_result(ok_ret == 0 && neg_ret == EINVAL && bad_advice == EINVAL,
		    "fadvise64_64", "large %d, negative len %d, bad advice %d",
		    ok_ret, neg_ret, bad_advice);
	close(fd);
}

static void test_sync_file_range(void)
{
	int fd = fresh_file(), ok_ret, wrap, bad_flags;

	ftruncate64(fd, FAR_OFF);
	ok_ret = sync_file_range(fd, NEG_IF_SWAPPED, 4096,
				 SYNC_FILE_RANGE_WRITE);
	wrap = sync_file_range(fd, 4096, INT64_MAX, SYNC_FILE_RANGE_WRITE) ?
	       errno : 0;
	bad_flags = sync_file_range(fd, 0, 4096, 0x100) ? errno : 0;
	ktap_result(ok_ret == 0 && wrap == EINVAL && bad_flags == EINVAL,
		    "sync_file_range2", "large %d, wrapping %d, bad flags %d",
		    ok_ret, wrap, bad_flags);
	close(fd);
}

static void test_mmap2(void)
{
	static const char msg[] = "mapped";
	int fd = fresh_file();
	char *p;

	/* Touch the mapping only if the page is there (else SIGBUS). */
	if (pwrite64(fd, msg, sizeof(msg), FAR_OFF + 16) != sizeof(msg)) {
		ktap_result(0, "mmap2", "pwrite64 failed: %s", strerror(errno));
		close(fd);
		return;
	}
	p = mmap64(NULL, 4096, PROT_READ, MAP_SHARED, fd, FAR_OFF);
	ktap_result(p != MAP_FAILED && !memcmp(p + 16, msg, sizeof(msg)),
		    "mmap2", "mmap %p", p);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	close(fd);
}

static void test_statfs64(void)
{
	struct statfs64 st[2];
	long r84, r88;

	memset(st, 0, sizeof(st));
	r84 = syscall(SYS_statfs64, "/tmp", 84, &st[0]);
	/* The OABI size 88 is taken for 84, as on 32-bit ARM. */
	r88 = syscall(SYS_statfs64, "/tmp", 88, &st[1]);
	ktap_result(r84 == 0 && r88 == 0 && st[0].f_type == 0x01021994 &&
		    st[1].f_type == st[0].f_type, "statfs64",
		    "84: %ld, 88: %ld, f_type %#lx", r84, r88,
		    (unsigned long)st[0].f_type);
}

static void test_fanotify_mark(void)
{
	struct fanotify_event_metadata ev;
	int fan, fd, bad, ret;
	ssize_t n;

	fan = fanotify_init(FAN_CLASS_NOTIF | FAN_NONBLOCK, O_RDONLY);
	if (fan < 0) {
		ktap_skip("fanotify_mark", "fanotify_init: %s", strerror(errno));
		return;
	}
	close(fresh_file());
	/* The mask is the register pair r2/r3: a high bit must be refused. */
	bad = fanotify_mark(fan, FAN_MARK_ADD, FAN_CLOSE_WRITE | (1ULL << 40),
			    AT_FDCWD, path) ? errno : 0;
	ret = fanotify_mark(fan, FAN_MARK_ADD, FAN_CLOSE_WRITE, AT_FDCWD, path);
	fd = open(path, O_WRONLY);
	close(fd);
	n = read(fan, &ev, sizeof(ev));
	ktap_result(bad == EINVAL && ret == 0 && n >= (ssize_t)sizeof(ev) &&
		    (ev.mask & FAN_CLOSE_WRITE), "fanotify_mark",
		    "high bit %d, mark %d, read %zd mask %#llx", bad, ret, n,
		    n > 0 ? (unsigned long long)ev.mask : 0ULL);
	if (n > 0 && ev.fd >= 0)
		close(ev.fd);
	close(fan);
}

static void test_at_fdcwd(void)
{
	/* dirfd is an int: AT_FDCWD must arrive sign-extended. */
	long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CREAT, 0600);

	ktap_result(fd >= 0, "openat_at_fdcwd", "openat: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	ktap_plan(15);
	test_pwrite_pread();
	test_truncate();
	test_fallocate();
	test_llseek();
	test_readahead();
	test_fadvise();
	test_sync_file_range();
	test_mmap2();
	test_statfs64();
	test_fanotify_mark();
	test_at_fdcwd();
	unlink(path);
	return ktap_finish();
}
