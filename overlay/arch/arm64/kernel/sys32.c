// SPDX-License-Identifier: GPL-2.0-only
/*
 * The system call table of 32-bit (AArch32 EABI) tasks, and the few
 * calls whose 32-bit ARM calling convention the generic compat code
 * cannot take as it is.
 *
 * The table (asm/syscall_table_32.h) and its numbers (__NR_compat32_<name>
 * in asm/unistd_compat_32.h) are generated from arch/arm64/tools/syscall_32.tbl
 * by the tree's syscalltbl.sh and syscallhdr.sh: 6.12's own asm-headers
 * rules do it, on 6.1 our rules in arch/arm64/tools/Makefile.  6.1 also
 * writes a few numbers down by hand in asm/unistd.h for the rest of the
 * kernel; they are checked against the table below.
 */

#include <linux/compat.h>
#include <linux/syscalls.h>

#include <asm/syscall.h>
#include <asm/unistd.h>
#include <asm/unistd_compat_32.h>

/*
 * The EABI passes a 64-bit argument in an even/odd register pair, in
 * memory order: low word first on a little-endian task.  A call whose
 * 64-bit argument would start in an odd register skips one.
 */
#ifdef CONFIG_CPU_BIG_ENDIAN
#define AA32_U64(name)	u32, name##_hi, u32, name##_lo
#else
#define AA32_U64(name)	u32, name##_lo, u32, name##_hi
#endif
#define AA32_VAL(name)	aa32_u64(name##_lo, name##_hi)

static inline u64 aa32_u64(u32 lo, u32 hi)
{
	return (u64)hi << 32 | lo;
}

COMPAT_SYSCALL_DEFINE6(aarch32_pread64,
		       unsigned int, fd, char __user *, ubuf, size_t, count,
		       u32, unused, AA32_U64(pos))
{
	return ksys_pread64(fd, ubuf, count, AA32_VAL(pos));
}

COMPAT_SYSCALL_DEFINE6(aarch32_pwrite64,
		       unsigned int, fd, const char __user *, ubuf, size_t, count,
		       u32, unused, AA32_U64(pos))
{
	return ksys_pwrite64(fd, ubuf, count, AA32_VAL(pos));
}

COMPAT_SYSCALL_DEFINE4(aarch32_truncate64, const char __user *, path,
		       u32, unused, AA32_U64(len))
{
	return ksys_truncate(path, AA32_VAL(len));
}

/*
 * The 64-bit length makes this the large-file call: a 32-bit ARM kernel
 * lets it grow a file past 2 GiB whether or not the file was opened with
 * O_LARGEFILE.  ksys_ftruncate() would apply the non-LFS limit.
 */
COMPAT_SYSCALL_DEFINE4(aarch32_ftruncate64, unsigned int, fd, u32, unused,
		       AA32_U64(len))
{
	return do_sys_ftruncate(fd, AA32_VAL(len), 0);
}

COMPAT_SYSCALL_DEFINE5(aarch32_readahead, int, fd, u32, unused,
		       AA32_U64(pos), size_t, count)
{
	return ksys_readahead(fd, AA32_VAL(pos), count);
}

/* ARM moved advice ahead of the offsets so that both pairs line up. */
COMPAT_SYSCALL_DEFINE6(aarch32_fadvise64_64,
		       int, fd, int, advice, AA32_U64(pos), AA32_U64(len))
{
	return ksys_fadvise64_64(fd, AA32_VAL(pos), AA32_VAL(len), advice);
}

/* sync_file_range2: the same reordering, flags second. */
COMPAT_SYSCALL_DEFINE6(aarch32_sync_file_range2,
		       int, fd, unsigned int, flags, AA32_U64(pos), AA32_U64(len))
{
	return ksys_sync_file_range(fd, AA32_VAL(pos), AA32_VAL(len), flags);
}

COMPAT_SYSCALL_DEFINE6(aarch32_fallocate,
		       int, fd, int, mode, AA32_U64(pos), AA32_U64(len))
{
	return ksys_fallocate(fd, mode, AA32_VAL(pos), AA32_VAL(len));
}

/*
 * mmap2 counts its offset in 4 KiB units whatever the page size; an
 * offset that is not a whole number of pages cannot be mapped.
 */
COMPAT_SYSCALL_DEFINE6(aarch32_mmap2,
		       unsigned long, addr, unsigned long, len,
		       unsigned long, prot, unsigned long, mflags,
		       unsigned long, fd, unsigned long, pgoff_4k)
{
	const unsigned int shift = PAGE_SHIFT - 12;

	if (pgoff_4k & ((1UL << shift) - 1))
		return -EINVAL;
	return ksys_mmap_pgoff(addr, len, prot, mflags, fd, pgoff_4k >> shift);
}

/*
 * 32-bit ARM takes 88, the padded OABI size of struct statfs64, for the
 * EABI size 84 whichever ABI the caller uses; binaries came to rely on
 * it.
 */
static compat_size_t aa32_statfs64_size(compat_size_t size)
{
	return size == 88 ? 84 : size;
}

COMPAT_SYSCALL_DEFINE3(aarch32_statfs64, const char __user *, path,
		       compat_size_t, size, struct compat_statfs64 __user *, buf)
{
	return kcompat_sys_statfs64(path, aa32_statfs64_size(size), buf);
}

COMPAT_SYSCALL_DEFINE3(aarch32_fstatfs64, unsigned int, fd,
		       compat_size_t, size, struct compat_statfs64 __user *, buf)
{
	return kcompat_sys_fstatfs64(fd, aa32_statfs64_size(size), buf);
}

/*
 * 6.1's kernel uses a few hand-written numbers from asm/unistd.h (syscall
 * restart, the sigreturn trampolines, the vDSO fallbacks) and sizes the
 * table with __NR_compat_syscalls: they must agree with the table.
 * 6.12 has only the generated names.
 */
#ifdef __NR_compat_syscalls
#define AA32_SAME_NR(name)	static_assert(__NR_compat32_##name == __NR_compat_##name)
static_assert(__NR_compat32_syscalls == __NR_compat_syscalls);
AA32_SAME_NR(restart_syscall);
AA32_SAME_NR(exit);
AA32_SAME_NR(read);
AA32_SAME_NR(write);
AA32_SAME_NR(gettimeofday);
AA32_SAME_NR(sigreturn);
AA32_SAME_NR(rt_sigreturn);
AA32_SAME_NR(clock_gettime);
AA32_SAME_NR(clock_getres);
AA32_SAME_NR(clock_gettime64);
AA32_SAME_NR(clock_getres_time64);
#endif

/*
 * Declare every entry point of the table, in the arm64 pt_regs calling
 * form, as one declaration list.  asm-generic/unistd.h left its own
 * __SYSCALL behind: replace it.
 */
#undef __SYSCALL
#define __SYSCALL(nr, entry)	__arm64_##entry(const struct pt_regs *regs),
/*
 * 6.12's stock table gives some calls a native and a compat entry point
 * (syscalltbl.sh emits these for them): a 32-bit task gets the compat one.
 */
#define __SYSCALL_WITH_COMPAT(nr, native, compat)	__SYSCALL(nr, compat)
asmlinkage long
#include <asm/syscall_table_32.h>
	__arm64_sys_ni_syscall(const struct pt_regs *regs);
#undef __SYSCALL

/*
 * syscalltbl.sh emits one line per number, in order from 0 to the
 * highest, holes as sys_ni_syscall: the table can be filled by
 * position, and its length must be __NR_compat32_syscalls.  Numbers past
 * the end go to do_ni_syscall() and the ARM private calls.
 */
#define __SYSCALL(nr, entry)	__arm64_##entry,
const syscall_fn_t compat_sys_call_table[] = {
#include <asm/syscall_table_32.h>
};

#undef __SYSCALL

static_assert(ARRAY_SIZE(compat_sys_call_table) == __NR_compat32_syscalls);
