/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SVE registers from C, for the aarch64 signal tests.  A register image
 * is laid out as the payload of a signal frame's SVE record (what follows
 * SVE_SIG_REGS_OFFSET) and of NT_ARM_SVE's register block: Z0-Z31, then
 * P0-P15, then FFR, at the current vector length.
 *
 *   sve_regs_load(in)    Z, P and FFR from in[]
 *   sve_regs_store(out)  Z, P and FFR to out[]
 *
 * SVE_REGS_LOAD_ASM and SVE_REGS_STORE_ASM are the bodies, for tests
 * that need them inside a longer sequence: x0 points at the image and
 * x9-x11 are clobbered.  Include this header once per program.
 */
#ifndef TESTS_SVE_REGS_H
#define TESTS_SVE_REGS_H

#include <string.h>
#include <ucontext.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <asm/sigcontext.h>

#ifndef HWCAP_SVE
#define HWCAP_SVE		(1UL << 22)
#endif
#ifndef PR_SVE_SET_VL
#define PR_SVE_SET_VL		50
#define PR_SVE_GET_VL		51
#endif
#ifndef PR_SVE_VL_LEN_MASK
#define PR_SVE_VL_LEN_MASK	0xffff
#endif

/* The largest vector length the architecture allows, in bytes. */
#define SVE_VL_ARCH_MAX		256
#define SVE_REGS_MAX		SVE_SIG_REGS_SIZE(SVE_VL_ARCH_MAX / 16)

#define SVE_LDZ(n)	"ldr z" #n ", [x0, #" #n ", mul vl]\n"
#define SVE_STZ(n)	"str z" #n ", [x0, #" #n ", mul vl]\n"
#define SVE_LDP(n)	"ldr p" #n ", [x10, #" #n ", mul vl]\n"
#define SVE_STP(n)	"str p" #n ", [x10, #" #n ", mul vl]\n"
#define SVE_X8(m, a)	m(a##0) m(a##1) m(a##2) m(a##3) m(a##4) m(a##5) \
			m(a##6) m(a##7)
#define SVE_ALL_Z(m)	SVE_X8(m, ) m(8) m(9) SVE_X8(m, 1) m(18) m(19) \
			SVE_X8(m, 2) m(28) m(29) m(30) m(31)
#define SVE_ALL_P(m)	SVE_X8(m, ) m(8) m(9) m(10) m(11) m(12) m(13) \
			m(14) m(15)

/* x10: P0 (after Z0-Z31), x11: FFR (after P0-P15) */
#define SVE_REGS_ADDR_ASM						\
	"	rdvl	x9, #1\n"					\
	"	add	x10, x0, x9, lsl #5\n"				\
	"	add	x11, x10, x9, lsl #1\n"

/* FFR goes through P0 first, so P0 is loaded after it. */
#define SVE_REGS_LOAD_ASM						\
	SVE_REGS_ADDR_ASM						\
	"	ldr	p0, [x11]\n"					\
	"	wrffr	p0.b\n"						\
	SVE_ALL_P(SVE_LDP) SVE_ALL_Z(SVE_LDZ)

/* P0 is stored before it carries FFR out. */
#define SVE_REGS_STORE_ASM						\
	SVE_REGS_ADDR_ASM						\
	SVE_ALL_Z(SVE_STZ) SVE_ALL_P(SVE_STP)				\
	"	rdffr	p0.b\n"						\
	"	str	p0, [x11]\n"

void sve_regs_load(const void *in);
void sve_regs_store(void *out);

asm(".text\n"
    ".arch_extension sve\n"
    ".globl sve_regs_load\n"
    ".type sve_regs_load, %function\n"
    "sve_regs_load:\n"
    SVE_REGS_LOAD_ASM
    "	ret\n"
    ".size sve_regs_load, . - sve_regs_load\n"
    ".globl sve_regs_store\n"
    ".type sve_regs_store, %function\n"
    "sve_regs_store:\n"
    SVE_REGS_STORE_ASM
    "	ret\n"
    ".size sve_regs_store, . - sve_regs_store\n");

static inline int sve_present(void)
{
	return !!(getauxval(AT_HWCAP) & HWCAP_SVE);
}

/* Set this thread's vector length (bytes); 0 when the CPU cannot. */
static inline int sve_set_vl(unsigned int vl)
{
	int r = prctl(PR_SVE_SET_VL, vl);

	return r >= 0 && (unsigned int)(r & PR_SVE_VL_LEN_MASK) == vl;
}

static inline unsigned long sve_regs_size(unsigned int vl)
{
	return SVE_SIG_REGS_SIZE(vl / 16);
}

/* Offsets in an image: Zn, Pn (n = 16 is FFR). */
static inline unsigned long sve_zoff(unsigned int vl, int n)
{
	return (unsigned long)n * vl;
}

static inline unsigned long sve_poff(unsigned int vl, int n)
{
	return 32UL * vl + (unsigned long)n * (vl / 8);
}

/* FFR must hold a monotonic predicate: @ones bits from bit 0, then zeroes. */
static inline void sve_set_ffr(unsigned char *regs, unsigned int vl,
			       unsigned int ones)
{
	unsigned char *ffr = regs + sve_poff(vl, 16);
	unsigned int i;

	memset(ffr, 0, vl / 8);
	for (i = 0; i < ones; i++)
		ffr[i / 8] |= 1 << (i % 8);
}

/* A pattern from @seed in every byte, FFR monotonic and not all ones. */
static inline void sve_regs_fill(unsigned char *regs, unsigned int vl,
				 unsigned int seed)
{
	unsigned long i, n = sve_regs_size(vl);
	unsigned int x = seed;

	for (i = 0; i < n; i++) {
		x = x * 1103515245 + 12345;
		regs[i] = x >> 16;
	}
	sve_set_ffr(regs, vl, vl - 3);
}

/*
 * What an image reads as once only V0-V31 of @from survive: the low 128
 * bits of each Z, everything else zero.
 */
static inline void sve_regs_fpsimd_view(unsigned char *regs,
					const unsigned char *from,
					unsigned int vl)
{
	int z;

	memset(regs, 0, sve_regs_size(vl));
	for (z = 0; z < 32; z++)
		memcpy(regs + sve_zoff(vl, z), from + sve_zoff(vl, z), 16);
}

/*
 * The record with @magic among those of a signal frame, following an
 * extra_context; NULL when it is not there.
 */
static inline void *frame_record(ucontext_t *uc, unsigned int magic)
{
	unsigned char *p = (unsigned char *)uc->uc_mcontext.__reserved;
	unsigned char *stop = p + sizeof(uc->uc_mcontext.__reserved);

	while (p + sizeof(struct _aarch64_ctx) <= stop) {
		struct _aarch64_ctx *h = (void *)p;

		if (!h->magic || h->size < sizeof(*h))
			return NULL;
		if (h->magic == magic)
			return h;
		if (h->magic == EXTRA_MAGIC) {
			struct extra_context *x = (void *)h;

			p = (unsigned char *)(unsigned long)x->datap;
			stop = p + x->size;
			continue;
		}
		p += h->size;
	}
	return NULL;
}

#endif
