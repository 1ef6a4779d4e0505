#!/bin/sh
# The overlay compiles, warnings as errors, in a kernel without SVE, MTE
# and COMPAT (make build-min), and the check reads its config, not ours:
# those three options really are off in it.
set -u
. tests/host/lib.inc

# make's own B (build/, the Makefile ignores B from the environment)
# gives B/KVER, the $B this test reads: passing B=$B would build one
# level deeper, and the config check below would read nothing.
$MAKE -s build-min > "$TMP/out" 2>&1
st=$?
check overlay_builds_without_sve_mte_compat "$st" "$(tail -n 3 "$TMP/out" | tr '\n' ' ')"
on=$(grep -E '^CONFIG_(ARM64_SVE|ARM64_MTE|COMPAT)=' "$B/min/.config" 2>/dev/null)
check config_has_sve_mte_compat_off "$([ $st = 0 ] && [ -f "$B/min/.config" ] && [ -z "$on" ]; echo $?)" \
	"no $B/min/.config, or still on: $on"
check signal_c_among_the_objects "$(grep -q 'arch/arm64/kernel/signal.c' "$TMP/out"; echo $?)" \
	"$(tail -n 1 "$TMP/out")"
