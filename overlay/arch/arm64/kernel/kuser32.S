/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel-provided user helpers for 32-bit tasks (the "kuser helpers").
 *
 * 32-bit ARM binaries call these at fixed addresses at the top of the
 * vectors page: Documentation/arm/kernel_user_helpers.rst is their ABI.
 * vdso.c copies __kuser_helper_start..__kuser_helper_end to the end of
 * that page, so the block must end exactly at 0xffff1000 and each
 * helper sits at its address minus KUSER_BASE from the start.
 *
 * The body is AArch32 (A32) code, which this assembler cannot produce:
 * it is kept as encoded words, each followed by its A32 mnemonic.
 * .inst emits them little-endian, as the instruction stream needs.
 */

#define KUSER_BASE	0xffff0f60	/* lowest helper: __kuser_cmpxchg64 */

	/* Start the helper for address \addr; unused space is zero. */
	.macro	kuser_at, addr
	.org	__kuser_helper_start + (\addr - KUSER_BASE), 0
	.endm

	.section .rodata
	.balign	32
	.globl	__kuser_helper_start
__kuser_helper_start:

	/*
	 * int __kuser_cmpxchg64(const s64 *oldp, const s64 *newp, s64 *ptr)
	 * Store *newp at ptr if *ptr equals *oldp.  r0 = 0 and C set when
	 * stored, r0 != 0 and C clear otherwise.  r4-r7 are callee-saved.
	 */
	kuser_at 0xffff0f60
	.inst	0xe92d00f0	/* push	{r4, r5, r6, r7}	*/
	.inst	0xe1c040d0	/* ldrd	r4, r5, [r0]		expected */
	.inst	0xe1c160d0	/* ldrd	r6, r7, [r1]		new value */
	.inst	0xe1b20f9f	/* 1: ldrexd r0, r1, [r2]	*/
	.inst	0xe1500004	/* cmp	r0, r4			*/
	.inst	0x01510005	/* cmpeq r1, r5			*/
	.inst	0x13a03001	/* movne r3, #1			mismatch */
	.inst	0x1a000002	/* bne	2f			*/
	.inst	0xe1a23e96	/* stlexd r3, r6, r7, [r2]	*/
	.inst	0xe3530000	/* cmp	r3, #0			*/
	.inst	0x1afffff7	/* bne	1b			lost the line */
	.inst	0xf57ff05b	/* 2: dmb ish			*/
	.inst	0xe2730000	/* rsbs	r0, r3, #0		*/
	.inst	0xe8bd00f0	/* pop	{r4, r5, r6, r7}	*/
	.inst	0xe12fff1e	/* bx	lr			*/

	/* void __kuser_memory_barrier(void) */
	kuser_at 0xffff0fa0
	.inst	0xf57ff05b	/* dmb	ish			*/
	.inst	0xe12fff1e	/* bx	lr			*/

	/*
	 * int __kuser_cmpxchg(s32 oldval, s32 newval, s32 *ptr)
	 * Same result convention as __kuser_cmpxchg64.  A failed
	 * store-exclusive leaves r3 = 1 with Z set: go round again.
	 */
	kuser_at 0xffff0fc0
	.inst	0xe1923f9f	/* 1: ldrex r3, [r2]		*/
	.inst	0xe0533000	/* subs	r3, r3, r0		*/
	.inst	0x01823e91	/* stlexeq r3, r1, [r2]		*/
	.inst	0x03530001	/* cmpeq r3, #1			*/
	.inst	0x0afffffa	/* beq	1b			*/
	.inst	0xf57ff05b	/* dmb	ish			*/
	.inst	0xe2730000	/* rsbs	r0, r3, #0		*/
	.inst	0xe12fff1e	/* bx	lr			*/

	/* void *__kuser_get_tls(void): TPIDRURO, set by ARM set_tls */
	kuser_at 0xffff0fe0
	.inst	0xee1d0f70	/* mrc	p15, 0, r0, c13, c0, 3	*/
	.inst	0xe12fff1e	/* bx	lr			*/

	/* int __kuser_helper_version: one per 32-byte slot in use */
	kuser_at 0xffff0ffc
	.word	(__kuser_helper_end - __kuser_helper_start) >> 5

	.globl	__kuser_helper_end
__kuser_helper_end:
