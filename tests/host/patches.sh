#!/bin/sh
# make patches: the series, applied with git am onto a fresh pristine tree,
# gives build/linux exactly; checkpatch --strict is clean.
set -u
. tests/host/lib.inc

$MAKE -s patches > "$TMP/out" 2>&1
rc=$?
check series_made "$rc" "$(tail -n 5 "$TMP/out" | tr '\n' ' ')"
[ $rc = 0 ] || exit 0
n=$(ls "$B/patches"/0*.patch | grep -vc '/0000-')
# (a per-version directory there holds replacements, not patches)
nseries=$(find tools/kernel/series -maxdepth 1 -type f | wc -l)
check one_patch_per_subsystem "$([ "$n" -ge 1 ] && [ "$n" = "$nseries" ]; echo $?)" \
	"$n patches for $nseries subsystems"
check checkpatch_clean "$(grep -q '^patches: 0' "$TMP/out" && ! grep -q ' [1-9][0-9]* errors' "$TMP/out"; echo $?)" \
	"$(grep 'total:' "$TMP/out" | tr '\n' ' ')"

# A fresh pristine tree (hard links; the files the series touches are real
# copies, so git never writes through to the pristine tree), a git index
# of just those files, then git am.
fresh=$TMP/fresh
cp -al "$KSRC" "$fresh"
files=$(cat "$B"/patches/0*.patch | sed -n 's|^+++ b/||p' | sort -u)
git -C "$fresh" init -q
for f in $files; do
	[ -f "$fresh/$f" ] || continue
	cp --remove-destination "$KSRC/$f" "$fresh/$f"
	git -C "$fresh" add -f "$f"
done
git -C "$fresh" -c user.name=t -c user.email=t@t commit -q -m base
series=$(ls "$(readlink -f "$B/patches")"/0*.patch | grep -v '/0000-')
# shellcheck disable=SC2086
git -C "$fresh" -c user.name=t -c user.email=t@t am -q $series > "$TMP/am" 2>&1
check git_am_applies $? "$(head -n 3 "$TMP/am" | tr '\n' ' ')"
rm -rf "$fresh/.git"
diffs=$(rsync -rlcn --delete --itemize-changes "$fresh"/ "$B/linux"/ | head -n 5)
check tree_identical "$([ -z "$diffs" ]; echo $?)" "differs: $diffs"
