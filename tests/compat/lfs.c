// SPDX-License-Identifier: GPL-2.0-only
/*
 * Large files and the O_LARGEFILE flag, as a 32-bit ARM kernel sees them.
 * Built without _FILE_OFFSET_BITS=64 and calling the kernel directly, so
 * that every call and every open flag is the one the test names: the
 * same file is used through a descriptor opened without O_LARGEFILE (as
 * a program built for 32-bit offsets has it) and through one opened with
 * it.  64-bit arguments go in register pairs by hand, the even register
 * first, low word first.  The files live on tmpfs and stay sparse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ktap.h"

#define ARM_O_LARGEFILE	0400000		/* ARM's value, not the generic one */
#define GIB		(1LL << 30)
#define MAX_NON_LFS	((1LL << 31) - 1)
/* Over 4 GiB, with halves that differ: a swapped pair is far off. */
#define BIG_LEN		(5 * GIB + 0x123)

static const char path[] = "/tmp/compat-lfs";

#define LO(v)	((long)(uint32_t)(uint64_t)(v))
#define HI(v)	((long)(uint32_t)((uint64_t)(v) >> 32))

/* The result of a raw call, or -errno. */
static long raw(long ret)
{
	return ret == -1 ? -errno : ret;
}

static int open_file(int flags)
{
	return raw(syscall(SYS_open, path, O_RDWR | flags, 0600));
}

static int fresh_file(int flags)
{
	unlink(path);
	return open_file(O_CREAT | O_TRUNC | flags);
}

/* st_size of fstat64: 64 bits at offset 48 of ARM's struct stat64. */
static long long size_of(int fd)
{
	unsigned char st[144];
	long long size;

	if (raw(syscall(SYS_fstat64, fd, st)))
		return -1;
	memcpy(&size, st + 48, sizeof(size));
	return size;
}

static int is_lfs(int fd)
{
	long fl = raw(syscall(SYS_fcntl64, fd, F_GETFL));

	return fl < 0 ? -1 : !!(fl & ARM_O_LARGEFILE);
}

static long ftruncate64_raw(int fd, long long len)
{
	return raw(syscall(SYS_ftruncate64, fd, 0, LO(len), HI(len)));
}

static long pwrite64_raw(int fd, const void *buf, size_t n, long long pos)
{
	return raw(syscall(SYS_pwrite64, fd, buf, n, 0, LO(pos), HI(pos)));
}

static long pread64_raw(int fd, void *buf, size_t n, long long pos)
{
	return raw(syscall(SYS_pread64, fd, buf, n, 0, LO(pos), HI(pos)));
}

static void test_open_flags(void)
{
	int plain = fresh_file(0), lfs = open_file(ARM_O_LARGEFILE);
	int at = raw(syscall(SYS_openat, AT_FDCWD, path, O_RDONLY, 0));

	/* Nothing adds O_LARGEFILE behind the program's back. */
	ktap_result(is_lfs(plain) == 0 && is_lfs(at) == 0 && is_lfs(lfs) == 1,
		    "open_flags_kept", "open %d, openat %d, open LFS %d",
		    is_lfs(plain), is_lfs(at), is_lfs(lfs));
	close(plain);
	close(lfs);
	close(at);
}

static void test_ftruncate64(const char *name, int flags)
{
	int fd = fresh_file(flags);
	long ret = ftruncate64_raw(fd, BIG_LEN);
	long long size = size_of(fd);

	/* The 64-bit call is the LFS one, whatever the open flags. */
	ktap_result(ret == 0 && size == BIG_LEN, name,
		    "ftruncate64 to %lld: %ld, size %lld", BIG_LEN, ret, size);
	close(fd);
}

static void test_ftruncate64_bad(void)
{
	int fd = fresh_file(0);
	long neg = ftruncate64_raw(fd, -1);
	long long size = size_of(fd);

	ktap_result(neg == -EINVAL && size == 0, "ftruncate64_negative",
		    "length -1: %ld, size %lld", neg, size);
	close(fd);
}

/* The 32-bit calls keep the non-LFS limit: off_t is 32 bits. */
static void test_ftruncate32(void)
{
	int fd = fresh_file(0), lfs = open_file(ARM_O_LARGEFILE);
	long at_max = raw(syscall(SYS_ftruncate, fd, (long)MAX_NON_LFS));
	long past = raw(syscall(SYS_ftruncate, lfs, (long)(MAX_NON_LFS + 1)));
	long long size = size_of(fd);

	ktap_result(at_max == 0 && past == -EINVAL && size == MAX_NON_LFS,
		    "ftruncate_32bit_limit", "to 2G-1: %ld, to 2G: %ld, size %lld",
		    at_max, past, size);
	close(fd);
	close(lfs);
}

static void test_truncate64(void)
{
	long ret;
	int fd;

	close(fresh_file(0));
	ret = raw(syscall(SYS_truncate64, path, 0, LO(BIG_LEN), HI(BIG_LEN)));
	fd = open_file(ARM_O_LARGEFILE);
	ktap_result(ret == 0 && size_of(fd) == BIG_LEN, "truncate64",
		    "truncate64: %ld, size %lld", ret, size_of(fd));
	close(fd);
}

/*
 * Past 2 GiB a write needs O_LARGEFILE (EFBIG without), a read does
 * not, and the 32-bit fstat cannot describe the file (EOVERFLOW).
 * Whether open() without O_LARGEFILE refuses such a file is up to the
 * file system (tmpfs, here, does not check), so it is not asserted.
 */
static void test_big_file(void)
{
	static const char msg[] = "far";
	const long long far = 4 * GIB + 0x10;
	int lfs = fresh_file(ARM_O_LARGEFILE), plain = open_file(0);
	long w_plain, w_lfs, r_plain, reopen_lfs, st32;
	long long st64;
	char buf[sizeof(msg)] = "", st[128];

	w_plain = pwrite64_raw(plain, msg, sizeof(msg), far);
	w_lfs = pwrite64_raw(lfs, msg, sizeof(msg), far);
	r_plain = pread64_raw(plain, buf, sizeof(buf), far);
	ktap_result(w_plain == -EFBIG && w_lfs == sizeof(msg) &&
		    r_plain == sizeof(msg) && !memcmp(buf, msg, sizeof(msg)),
		    "pwrite_pread_past_2g", "write %ld / LFS %ld, read %ld",
		    w_plain, w_lfs, r_plain);

	reopen_lfs = open_file(ARM_O_LARGEFILE);
	st32 = raw(syscall(SYS_fstat, lfs, st));
	st64 = reopen_lfs < 0 ? reopen_lfs : size_of(reopen_lfs);
	ktap_result(st64 == far + (long long)sizeof(msg) && st32 == -EOVERFLOW,
		    "stat_big_file", "fstat64 size %lld, fstat %ld", st64, st32);
	if (reopen_lfs >= 0)
		close(reopen_lfs);
	close(plain);
	close(lfs);
}

static void test_fallocate(void)
{
	int fd = fresh_file(0);
	const long long pos = 3 * GIB;
	long ret;

	ret = raw(syscall(SYS_fallocate, fd, 0, LO(pos), HI(pos), 4096L, 0L));
	ktap_result(ret == 0 && size_of(fd) == pos + 4096, "fallocate_past_2g",
		    "fallocate: %ld, size %lld", ret, size_of(fd));
	close(fd);
}

/* _llseek takes and returns 64 bits: fine without O_LARGEFILE. */
static void test_llseek(void)
{
	int fd = fresh_file(0);
	long long pos = -1;
	long ret;

	ftruncate64_raw(fd, BIG_LEN);
	ret = raw(syscall(SYS__llseek, fd, HI(4 * GIB), LO(4 * GIB), &pos,
			  SEEK_SET));
	ktap_result(ret == 0 && pos == 4 * GIB, "llseek_past_4g",
		    "_llseek: %ld, position %lld", ret, pos);
	close(fd);
}

int main(void)
{
	ktap_plan(10);
	test_open_flags();
	test_ftruncate64("ftruncate64_non_lfs", 0);
	test_ftruncate64("ftruncate64_lfs", ARM_O_LARGEFILE);
	test_ftruncate64_bad();
	test_ftruncate32();
	test_truncate64();
	test_big_file();
	test_fallocate();
	test_llseek();
	unlink(path);
	return ktap_finish();
}
