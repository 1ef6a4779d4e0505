// SPDX-License-Identifier: GPL-2.0-only
/*
 * The AArch32 calls numbered above 450 (cachestat .. mseal), which only
 * 6.12's compat table has: each is reached through our table with an
 * outcome that names the call, a result a neighbour's entry point would
 * not give.  On 6.1 every one of them must fail with ENOSYS, as on stock
 * 6.1, whose table ends at 450.
 *
 * lsm_*: no LSM is built into the test kernel (CONFIG_SECURITY off, as on
 * stock): the three are then ENOSYS on either kernel.  With an LSM
 * (/sys/kernel/security present) invalid flags give EINVAL.
 * map_shadow_stack: arm64 has no user shadow stack in 6.12: ENOSYS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "kernel_version.h"
#include "ktap.h"

#define NR_cachestat		451
#define NR_fchmodat2		452
#define NR_map_shadow_stack	453
#define NR_futex_wake		454
#define NR_futex_wait		455
#define NR_futex_requeue	456
#define NR_statmount		457
#define NR_listmount		458
#define NR_lsm_get_self_attr	459
#define NR_lsm_set_self_attr	460
#define NR_lsm_list_modules	461
#define NR_mseal		462

#define FUTEX2_SIZE_U32		0x02
#define FUTEX2_PRIVATE		128

/* The call's result as -errno, or its return value. */
static long call(long nr, long a, long b, long c, long d, long e, long f)
{
	long r = syscall(nr, a, b, c, d, e, f);

	return r == -1 ? -errno : r;
}

static void expect(const char *name, long got, long want)
{
	ktap_result(got == want, name, "got %ld (%s), want %ld (%s)", got,
		    got < 0 ? strerror(-got) : "ok", want,
		    want < 0 ? strerror(-want) : "ok");
}

int main(void)
{
	static unsigned int futex_word;
	const char *path = "/tmp/calls451.file";
	int has = kernel_at_least(6, 12);
	int lsm = access("/sys/kernel/security", F_OK) == 0;
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	long r;
	void *p;
	int fd;

	ktap_plan(has ? 14 : 12);

	if (!has) {
		static const struct { long nr; const char *name; } calls[] = {
			{ NR_cachestat, "cachestat" },
			{ NR_fchmodat2, "fchmodat2" },
			{ NR_map_shadow_stack, "map_shadow_stack" },
			{ NR_futex_wake, "futex_wake" },
			{ NR_futex_wait, "futex_wait" },
			{ NR_futex_requeue, "futex_requeue" },
			{ NR_statmount, "statmount" },
			{ NR_listmount, "listmount" },
			{ NR_lsm_get_self_attr, "lsm_get_self_attr" },
			{ NR_lsm_set_self_attr, "lsm_set_self_attr" },
			{ NR_lsm_list_modules, "lsm_list_modules" },
			{ NR_mseal, "mseal" },
		};
		char name[64];
		unsigned int i;

		for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
			snprintf(name, sizeof(name), "%s_enosys_before_6_12",
				 calls[i].name);
			expect(name, call(calls[i].nr, 0, 0, 0, 0, 0, 0),
			       -ENOSYS);
		}
		return ktap_finish();
	}

	/* fd -1 is refused before anything is read */
	expect("cachestat_bad_fd", call(NR_cachestat, -1, 0, 0, 0, 0, 0),
	       -EBADF);

	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
	r = fd < 0 ? -errno : call(NR_fchmodat2, AT_FDCWD, (long)path, 0600,
				   0, 0, 0);
	ktap_result(r == 0 && !stat(path, &st) && (st.st_mode & 07777) == 0600,
		    "fchmodat2_sets_mode", "result %ld, mode %o", r,
		    st.st_mode & 07777);
	expect("fchmodat2_bad_flags",
	       call(NR_fchmodat2, AT_FDCWD, (long)path, 0600, 0x40000000, 0, 0),
	       -EINVAL);
	if (fd >= 0)
		close(fd);
	unlink(path);

	expect("map_shadow_stack_none_on_arm64",
	       call(NR_map_shadow_stack, 0, page, 0, 0, 0, 0), -ENOSYS);

	/* nobody waits: nothing woken */
	expect("futex_wake_none", call(NR_futex_wake, (long)&futex_word, -1L,
				       1, FUTEX2_SIZE_U32 | FUTEX2_PRIVATE,
				       0, 0), 0);
	/* the word is 0, not 1: no wait */
	expect("futex_wait_value_changed",
	       call(NR_futex_wait, (long)&futex_word, 1, -1L,
		    FUTEX2_SIZE_U32 | FUTEX2_PRIVATE, 0, 1 /* CLOCK_MONOTONIC */),
	       -EAGAIN);
	expect("futex_requeue_no_waiters",
	       call(NR_futex_requeue, 0, 0, 1, 0, 0, 0), -EINVAL);

	/* the request is read first: a NULL one faults */
	expect("statmount_null_request", call(NR_statmount, 0, 0, 0, 0, 0, 0),
	       -EFAULT);
	expect("listmount_null_request", call(NR_listmount, 0, 0, 0, 0, 0, 0),
	       -EFAULT);

	expect("lsm_get_self_attr", call(NR_lsm_get_self_attr, 1, 0, 0, -1L, 0, 0),
	       lsm ? -EINVAL : -ENOSYS);
	expect("lsm_set_self_attr", call(NR_lsm_set_self_attr, 1, 0, 0, -1L, 0, 0),
	       lsm ? -EINVAL : -ENOSYS);
	expect("lsm_list_modules", call(NR_lsm_list_modules, 0, 0, -1L, 0, 0, 0),
	       lsm ? -EINVAL : -ENOSYS);

	/* a sealed page cannot be unmapped */
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r = p == MAP_FAILED ? -errno : call(NR_mseal, (long)p, page, 0, 0, 0, 0);
	ktap_result(r == 0 && munmap(p, page) == -1 && errno == EPERM,
		    "mseal_seals", "mseal %ld, then munmap errno %d", r, errno);
	expect("mseal_unaligned", call(NR_mseal, (long)p + 1, page, 0, 0, 0, 0),
	       -EINVAL);

	return ktap_finish();
}
