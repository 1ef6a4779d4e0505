/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Return trampolines of 32-bit signal handlers.
 *
 * vdso.c copies __aarch32_sigret_code_start..__aarch32_sigret_code_end
 * to the start of the [sigpage]; a handler installed without
 * SA_RESTORER returns into it (signal32.c sets lr).  Each trampoline
 * loads the syscall number into r7 and enters the kernel with svc #0,
 * the EABI convention (the immediate is ignored).  sigreturn32.h says
 * where each one goes: .org places it there, and fails the build if the
 * one before ran into its slot.
 *
 * These are AArch32 encodings: .inst keeps them little-endian, which
 * the instruction stream needs whatever the data endianness.
 */

#include <linux/linkage.h>
#include <asm/unistd_compat_32.h>

#include "sigreturn32.h"

#define A32_MOV_R7(imm)		(0xe3a07000 | (imm))	/* mov r7, #imm */
#define A32_SVC_0		0xef000000		/* svc #0 */
#define T32_MOVS_R7(imm)	(0x2700 | (imm))	/* movs r7, #imm */
#define T32_SVC_0		0xdf00			/* svc #0 */
#define A32_T32_UNDEF		0xe7fddef1		/* udf in both states */

	.macro	slot, offset
	.org	__aarch32_sigret_code_start + \offset
	.endm

	.macro	a32_sigreturn, offset, nr
	slot	\offset
	.inst	A32_MOV_R7(\nr)
	.inst	A32_SVC_0
	.endm

	/* Two halfwords in one word: the first one at the lower address. */
	.macro	t32_sigreturn, offset, nr
	slot	\offset
	.inst	(T32_SVC_0 << 16) | T32_MOVS_R7(\nr)
	.inst	A32_T32_UNDEF
	.endm

	.pushsection .rodata, "a"
	.balign	8
SYM_DATA_START(__aarch32_sigret_code_start)
	a32_sigreturn	AA32_SIGRET_ARM, __NR_compat32_sigreturn
	a32_sigreturn	AA32_SIGRET_ARM_RT, __NR_compat32_rt_sigreturn
	t32_sigreturn	AA32_SIGRET_THUMB, __NR_compat32_sigreturn
	t32_sigreturn	AA32_SIGRET_THUMB_RT, __NR_compat32_rt_sigreturn
	slot		AA32_SIGRET_END
SYM_DATA_END(__aarch32_sigret_code_start)

	.globl	__aarch32_sigret_code_end
__aarch32_sigret_code_end:
	.popsection
