# lib.sh: what several tools need, sourced (`. "$tools/lib.sh"`), never run.

# ksrc_version TREE: the kernel version of a source tree, as its Makefile
# says it (6.1.192)
ksrc_version() {
	sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$1/Makefile" | paste -sd.
}

# patch_files PATCH...: the files the patches change, as their "+++ b/"
# lines name them, one a line
patch_files() {
	sed -n 's|^+++ b/\([^	 ]*\).*|\1|p' "$@"
}

# ktap_count < KTAP: "N passed, N failed, N skipped" over the top-level
# results (a skip is an "ok" with a SKIP directive)
ktap_count() {
	awk '/^ok [0-9]+ / { if ($0 ~ / # SKIP/) s++; else p++ }
		/^not ok [0-9]+ / { f++ }
		END { printf "%d passed, %d failed, %d skipped\n", p, f, s }'
}

# children_cpu < `times`: the CPU seconds, user and system, of the
# shell's children that were waited for (the second line of `times`,
# "1m2.500000s 0m3.000000s" in dash and bash alike), rounded.  `times`
# must write to a file: in a pipe or $(...) it is a subshell's, which has
# no children.
children_cpu() {
	awk 'NR == 2 { t = 0
		for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] }
		printf "%d\n", t + 0.5 }'
}

# kver_of TREE: its major.minor (6.1), which names the per-version data
kver_of() {
	sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p' "$1/Makefile" | paste -sd.
}

# hunk_list HUNKDIR KVER: the hunks for that kernel version, in name
# order: HUNKDIR's own, and HUNKDIR/KVER's, which replace one of the same
# name (a hunk that differs by version) or add to them (one that version
# alone needs).
hunk_list() {
	for h in "$1"/*.patch "$1"/*.gen "$1/$2"/*.patch "$1/$2"/*.gen; do
		[ -e "$h" ] || continue
		n=${h##*/}
		[ "$h" = "$1/$n" ] && [ -e "$1/$2/$n" ] && continue
		printf '%s %s\n' "$n" "$h"
	done | LC_ALL=C sort | cut -d' ' -f2-
}
