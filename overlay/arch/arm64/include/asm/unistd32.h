/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The AArch32 system call numbers under the names a 32-bit ARM kernel
 * gives them (__NR_<name>), for code that sorts compat calls by name:
 * lib/compat_audit.c and the audit class lists it includes.  They clash
 * with the native numbers, so nothing else includes this file; the
 * kernel proper uses __NR_compat32_<name> (asm/unistd_compat_32.h).
 *
 * unistd_32.h is generated from arch/arm64/tools/syscall_32.tbl, as
 * the compat syscall table is: the two cannot disagree.
 */
#ifndef __ASM_UNISTD32_H
#define __ASM_UNISTD32_H

#include <asm/unistd_32.h>

/* ARM's header gives call 341 this name too. */
#define __NR_sync_file_range2	__NR_arm_sync_file_range

#endif /* __ASM_UNISTD32_H */
