#!/bin/sh
# The debug kernel's tree (tools/build/debug-tree): the base tree hard-linked
# plus tools/kernel/debug-backports/KVER; the base is never written, a patch that does
# not apply leaves the debug tree as it was, and one the base already
# carries is named as such.
set -u
. tests/host/lib.inc

P=tools/kernel/debug-backports/$(. tools/lib.sh && kver_of "$KSRC")
# a small base tree: the files the backports touch, from the pristine tree
mkdir -p "$TMP/base"
for f in $(. tools/lib.sh && patch_files "$P"/*.patch); do
	mkdir -p "$TMP/base/$(dirname "$f")" && cp "$KSRC/$f" "$TMP/base/$f"
done
echo keep > "$TMP/base/README"
touch "$TMP/base.stamp"
(cd "$TMP/base" && find . -type f -exec md5sum {} + | sort) > "$TMP/base.sums"

for p in "$P"/*.patch; do
	patch -d "$KSRC" -p1 --dry-run --forward --batch --fuzz=0 < "$p" > "$TMP/m" 2>&1
	check "backport_applies_to_pristine_$(basename "$p" .patch | cut -c1-4)" "$?" "$(tr '\n' ' ' < "$TMP/m")"
done

tools/build/debug-tree "$TMP/base" "$TMP/base.stamp" "$P" "$TMP/dbg" > "$TMP/m" 2>&1
st=$?
(cd "$TMP/base" && find . -type f -exec md5sum {} + | sort) > "$TMP/base.sums2"
check debug_tree_made "$([ $st = 0 ] && [ -f "$TMP/dbg/.debug-tree" ] &&
	grep -q 'mutex_unlock(&rtp->tasks_gp_mutex);' "$TMP/dbg/kernel/rcu/tasks.h" &&
	[ "$(grep -c 'mutex_unlock(&rtp->tasks_gp_mutex);' "$TMP/dbg/kernel/rcu/tasks.h")" = 2 ]; echo $?)" "$(cat "$TMP/m")"
check debug_tree_base_untouched "$(cmp -s "$TMP/base.sums" "$TMP/base.sums2"; echo $?)" "the base tree was written"
check debug_tree_links_unpatched "$([ "$(stat -c %i "$TMP/base/README")" = "$(stat -c %i "$TMP/dbg/README")" ]; echo $?)" \
	"an unpatched file was copied, not linked"

# nothing newer: not made again
touch -d '-1 minute' "$TMP/base.stamp"
before=$(stat -c %Y.%i "$TMP/dbg/.debug-tree")
tools/build/debug-tree "$TMP/base" "$TMP/base.stamp" "$P" "$TMP/dbg" > "$TMP/m" 2>&1
check debug_tree_kept_when_unchanged "$([ $? = 0 ] && [ "$(stat -c %Y.%i "$TMP/dbg/.debug-tree")" = "$before" ] &&
	[ ! -s "$TMP/m" ]; echo $?)" "$(cat "$TMP/m")"

# a patch that does not apply: error naming it, the debug tree as it was
mkdir -p "$TMP/bad"
cp "$P"/*.patch "$TMP/bad/"
printf -- '--- a/README\n+++ b/README\n@@ -1 +1 @@\n-other\n+new\n' > "$TMP/bad/0099-bad.patch"
(cd "$TMP/dbg" && find . -type f -exec md5sum {} + | sort) > "$TMP/dbg.sums"
tools/build/debug-tree "$TMP/base" "$TMP/base.stamp" "$TMP/bad" "$TMP/dbg" > "$TMP/m" 2>&1
st=$?
(cd "$TMP/dbg" && find . -type f -exec md5sum {} + | sort) > "$TMP/dbg.sums2"
check debug_tree_bad_patch_is_error "$([ $st != 0 ] && grep -q '0099-bad.patch does not apply' "$TMP/m" &&
	cmp -s "$TMP/dbg.sums" "$TMP/dbg.sums2" && [ ! -e "$TMP/dbg.tmp" ] &&
	cmp -s "$TMP/base.sums" "$TMP/base.sums2"; echo $?)" "$(tr '\n' ' ' < "$TMP/m")"

# a base that already has the fix: told to drop the backport
cp -r "$TMP/dbg" "$TMP/fixed"
rm -f "$TMP/fixed/.debug-tree"
tools/build/debug-tree "$TMP/fixed" "$TMP/base.stamp" "$P" "$TMP/dbg2" > "$TMP/m" 2>&1
check debug_tree_backport_already_in_base "$([ $? != 0 ] && grep -q 'already in' "$TMP/m" && [ ! -e "$TMP/dbg2" ]; echo $?)" \
	"$(tr '\n' ' ' < "$TMP/m")"

# no backports at all (the day the package tree has them all): the tree as
# it is, every file a link
mkdir -p "$TMP/none"
tools/build/debug-tree "$TMP/base" "$TMP/base.stamp" "$TMP/none" "$TMP/dbg3" > "$TMP/m" 2>&1
check debug_tree_without_backports "$([ $? = 0 ] && [ -f "$TMP/dbg3/.debug-tree" ] &&
	[ "$(stat -c %i "$TMP/base/kernel/rcu/tasks.h")" = "$(stat -c %i "$TMP/dbg3/kernel/rcu/tasks.h")" ]; echo $?)" \
	"$(tr '\n' ' ' < "$TMP/m")"
