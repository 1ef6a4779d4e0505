// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sigaltstack cases of tests/signal, built for AArch32: the compat
 * frame code shares the rule that a frame never runs off the bottom of
 * the alternate stack, so the same checks hold, one source for both.
 */
#include "../signal/altstack.c"
