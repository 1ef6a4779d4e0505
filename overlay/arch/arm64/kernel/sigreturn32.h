/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the AArch32 return trampolines sit in the [sigpage], in bytes
 * from its start: sigreturn32.S places the code at these offsets and
 * signal32.c points a handler's lr at them, both from this one list.
 * The assembler refuses a trampoline that outgrows its slot.
 */
#ifndef __ARM64_KERNEL_SIGRETURN32_H
#define __ARM64_KERNEL_SIGRETURN32_H

#define AA32_SIGRET_ARM		0	/* A32, sigreturn */
#define AA32_SIGRET_ARM_RT	8	/* A32, rt_sigreturn */
#define AA32_SIGRET_THUMB	16	/* T32, sigreturn */
#define AA32_SIGRET_THUMB_RT	24	/* T32, rt_sigreturn */
#define AA32_SIGRET_END		32

#endif /* __ARM64_KERNEL_SIGRETURN32_H */
