// SPDX-License-Identifier: GPL-2.0-only
/*
 * A signal taken on the way out of a syscall, after the task used SVE.
 * The syscall ABI keeps V0-V31 and discards the rest of the SVE state,
 * so the handler's frame may carry no more than V: its SVE record must
 * be header-only, or hold exactly V0-V31 zero-extended with P and FFR
 * zero.  A kernel that decides the record's payload by "the task has SVE
 * state" rather than by what was saved writes the registers from before
 * the syscall there instead, and sigreturn loads them back: upstream did
 * once TIF_SVE stayed set across syscalls (8c845e273104), until
 * 61da7c8e2a60 keyed the payload on fp_type.  No kselftest combines the
 * two.
 *
 * The registers are loaded and the syscall (tgkill to this thread) made
 * in one asm block, so nothing touches them in between.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "ktap.h"
#include "sve_regs.h"

#define NR_tgkill	131

/* sve_load_tgkill(regs, pid, tid, sig): Z, P, FFR from regs, then tgkill */
void sve_load_tgkill(const void *regs, long pid, long tid, long sig);
asm(".text\n"
    ".arch_extension sve\n"
    ".globl sve_load_tgkill\n"
    ".type sve_load_tgkill, %function\n"
    "sve_load_tgkill:\n"
    "	mov	x12, x1\n"
    "	mov	x13, x2\n"
    "	mov	x14, x3\n"
    SVE_REGS_LOAD_ASM
    "	mov	x0, x12\n"
    "	mov	x1, x13\n"
    "	mov	x2, x14\n"
    "	mov	x8, #131\n"
    "	svc	#0\n"
    "	ret\n"
    ".size sve_load_tgkill, . - sve_load_tgkill\n");

static unsigned char loaded[SVE_REGS_MAX], want[SVE_REGS_MAX];

static struct {
	unsigned int vl;
	int calls, v_ok, payload_ok;
	unsigned int sve_vl, sve_size;
	unsigned long first_bad;
} seen;

static void handler(int sig, siginfo_t *si, void *ucv)
{
	struct fpsimd_context *fp = frame_record(ucv, FPSIMD_MAGIC);
	struct sve_context *sve = frame_record(ucv, SVE_MAGIC);
	unsigned int vl = seen.vl;
	const unsigned char *data;
	unsigned long i, n = sve_regs_size(vl);
	int z;

	seen.calls++;
	seen.v_ok = !!fp;
	for (z = 0; fp && z < 32; z++)
		if (memcmp(&fp->vregs[z], loaded + sve_zoff(vl, z), 16))
			seen.v_ok = 0;
	if (!sve)
		return;
	seen.sve_vl = sve->vl;
	seen.sve_size = sve->head.size;
	if (sve->head.size == sizeof(*sve)) {
		seen.payload_ok = 1;
		return;
	}
	if (sve->head.size < SVE_SIG_CONTEXT_SIZE(vl / 16))
		return;
	data = (const unsigned char *)sve + SVE_SIG_REGS_OFFSET;
	seen.payload_ok = 1;
	for (i = 0; i < n; i++)
		if (data[i] != want[i]) {
			seen.payload_ok = 0;
			seen.first_bad = i;
			break;
		}
}

static void check(unsigned int vl, const char *name)
{
	struct sigaction sa = { .sa_sigaction = handler,
				.sa_flags = SA_SIGINFO };

	if (!sve_set_vl(vl)) {
		ktap_skip(name, "vector length %u bits not supported", vl * 8);
		return;
	}
	memset(&seen, 0, sizeof(seen));
	seen.vl = vl;
	sve_regs_fill(loaded, vl, vl + 5);
	sve_regs_fpsimd_view(want, loaded, vl);
	sigaction(SIGUSR1, &sa, NULL);

	sve_load_tgkill(loaded, getpid(), gettid(), SIGUSR1);

	ktap_result(seen.calls == 1 && seen.v_ok && seen.sve_vl == vl &&
		    seen.payload_ok, name,
		    "handler ran %d times, V %s, SVE record vl %u size %u: %s (first wrong byte %lu)",
		    seen.calls, seen.v_ok ? "kept" : "wrong", seen.sve_vl,
		    seen.sve_size, seen.payload_ok ? "ok" :
		    "registers the syscall discarded", seen.first_bad);
	signal(SIGUSR1, SIG_DFL);
}

int main(void)
{
	ktap_plan(2);
	if (!sve_present()) {
		ktap_skip("sve_record_at_syscall_exit_vl256", "no SVE");
		ktap_skip("sve_record_at_syscall_exit_vl2048", "no SVE");
		return ktap_finish();
	}
	check(256 / 8, "sve_record_at_syscall_exit_vl256");
	check(2048 / 8, "sve_record_at_syscall_exit_vl2048");
	return ktap_finish();
}
