/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * "No kernel bytes in a signal frame", checked from inside a handler.
 *
 * The frame is built on an alternate stack prefilled with FILL_BYTE.
 * frame_check() marks every byte the kernel has a reason to write (the
 * fields of the ucontext, each record of __reserved[] and of the extra
 * space, siginfo for SA_SIGINFO, the frame record) and then requires
 * every other byte of the frame to be FILL_BYTE (what the stack held) or
 * zero: anything else came from the kernel and should not be there
 * (bad).  Apart from that it counts the reserved fields inside records
 * that are not zero (reserved_bad): our kernel writes them as zero, stock
 * 6.1 leaves stack bytes in extra_context's, so a test can report the two
 * rules as cases of their own.
 *
 * Used by the signal suite's frame and sve tests.
 */
#ifndef TESTS_SIGNAL_FRAMECHECK_H
#define TESTS_SIGNAL_FRAMECHECK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <asm/sigcontext.h>

#define FILL_BYTE	0xa5
#define FRAME_MAX	(128 * 1024)

struct frame_report {
	unsigned long bad;		/* bytes that break the rule */
	unsigned long first;		/* offset of the first, from sp */
	unsigned long reserved_bad;	/* reserved bytes that are not zero */
	unsigned long span;		/* sp to the end of the frame record */
	unsigned int nrec;
	unsigned int magic[16];		/* records in the order found */
	unsigned int size[16];
	int extra;			/* an extra_context was followed */
	char why[128];
	char why_reserved[64];
};

static unsigned char frame_legit[FRAME_MAX];

static void frame_mark(unsigned long from, unsigned long len,
		       unsigned long span)
{
	if (from < span)
		memset(frame_legit + from, 1,
		       len > span - from ? span - from : len);
}

/* Reserved bytes, which our kernel writes as zero. */
static void frame_want_zero(struct frame_report *r, const unsigned char *base,
			    unsigned long from, unsigned long len,
			    const char *what)
{
	unsigned long i;

	for (i = 0; i < len; i++) {
		frame_legit[from + i] = 1;
		if (base[from + i] && !r->reserved_bad++)
			snprintf(r->why_reserved, sizeof(r->why_reserved),
				 "%s not zero", what);
	}
}

/*
 * @sp: the handler's sp on entry (the frame's base); @x29: its x29 (the
 * frame record); @with_info: SA_SIGINFO.
 */
static void frame_check(struct frame_report *r, const void *sp,
			const void *x29, int with_info)
{
	const unsigned char *base = sp;
	const ucontext_t *uc = (const void *)(base + sizeof(siginfo_t));
	const unsigned char *resv = (const void *)uc->uc_mcontext.__reserved;
	unsigned long span = (const unsigned char *)x29 + 16 - base;
	unsigned long off = resv - base, stop = off + 4096, i;
	unsigned long ucoff = sizeof(siginfo_t);
	int extra_seen = 0;

	memset(r, 0, sizeof(*r));
	r->span = span;
	if (span > FRAME_MAX || span < sizeof(siginfo_t) + sizeof(*uc)) {
		r->bad = 1;
		snprintf(r->why, sizeof(r->why), "frame span %lu", span);
		return;
	}
	memset(frame_legit, 0, span);

	if (with_info)
		frame_mark(0, sizeof(siginfo_t), span);
	frame_mark(ucoff + offsetof(ucontext_t, uc_flags), 8, span);
	frame_mark(ucoff + offsetof(ucontext_t, uc_link), 8, span);
	frame_mark(ucoff + offsetof(ucontext_t, uc_stack.ss_sp), 8, span);
	frame_mark(ucoff + offsetof(ucontext_t, uc_stack.ss_flags), 4, span);
	frame_mark(ucoff + offsetof(ucontext_t, uc_stack.ss_size), 8, span);
	frame_mark(ucoff + offsetof(ucontext_t, uc_sigmask), 8, span);
	/* fault_address, x0-x30, sp, pc, pstate */
	frame_mark(ucoff + offsetof(ucontext_t, uc_mcontext.fault_address),
		   offsetof(mcontext_t, pstate) + 8 -
		   offsetof(mcontext_t, fault_address), span);
	frame_mark(span - 16, 16, span);

	for (;;) {
		const struct _aarch64_ctx *h = (const void *)(base + off);

		if (off % 16 || off + 8 > stop || stop > span ||
		    r->nrec >= 16) {
			r->bad++;
			snprintf(r->why, sizeof(r->why),
				 "record walk broke at +%lu (stop %lu)", off,
				 stop);
			return;
		}
		r->magic[r->nrec] = h->magic;
		r->size[r->nrec] = h->size;
		r->nrec++;
		if (!h->magic) {
			frame_mark(off, 8, span);
			break;
		}
		if (h->size < 8 || h->size > stop - off) {
			r->bad++;
			snprintf(r->why, sizeof(r->why),
				 "record %#x of size %u at +%lu", h->magic,
				 h->size, off);
			return;
		}
		switch (h->magic) {
		case SVE_MAGIC: {
			const struct sve_context *s = (const void *)h;
			unsigned long vq = s->vl / 16, len = 16;

			frame_mark(off, 12, span);
			frame_want_zero(r, base, off + 12, 4,
					"sve_context.__reserved");
			if (h->size > 16)
				len = SVE_SIG_CONTEXT_SIZE(vq);
			frame_mark(off, len, span);
			break;
		}
		case EXTRA_MAGIC: {
			const struct extra_context *x = (const void *)h;

			frame_mark(off, 20, span);
			frame_want_zero(r, base, off + 20, 12,
					"extra_context.__reserved");
			frame_mark(off + h->size, 8, span);
			if (extra_seen || (unsigned long)x->datap !=
			    (unsigned long)(base + off + h->size + 16)) {
				r->bad++;
				snprintf(r->why, sizeof(r->why),
					 "extra_context datap %#llx",
					 (unsigned long long)x->datap);
				return;
			}
			extra_seen = 1;
			r->extra = 1;
			off = off + h->size + 16;
			stop = off + x->size;
			continue;
		}
		default:
			frame_mark(off, h->size, span);
			break;
		}
		off += h->size;
	}

	for (i = 0; i < span; i++) {
		if (frame_legit[i] || base[i] == FILL_BYTE || !base[i])
			continue;
		if (!r->bad++) {
			r->first = i;
			snprintf(r->why, sizeof(r->why),
				 "byte %#x at sp+%#lx, outside every field",
				 base[i], i);
		}
	}
}

#endif
