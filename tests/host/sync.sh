#!/bin/sh
# make sync: idempotent, overlay files land byte for byte, untouched files
# keep their mtimes.
set -u
. tests/host/lib.inc

$MAKE -s sync > "$TMP/out1" 2>&1
check sync_runs $? "$(tail -n 3 "$TMP/out1")"

tree_marker
$MAKE -s sync > "$TMP/out2" 2>&1
rc=$?
changed=$(tree_changes)
check second_sync_changes_nothing "$([ $rc = 0 ] && [ -z "$changed" ]; echo $?)" "rc=$rc, rewritten: $changed"

bad=
for f in $(cd overlay && find . -type f | sed 's|^\./||'); do
	cmp -s "overlay/$f" "$B/linux/$f" || bad="$bad $f"
done
check overlay_files_in_tree "$([ -z "$bad" ]; echo $?)" "differ:$bad"

# a file neither in the overlay nor hunked is pristine, mtime included
f=init/main.c
check untouched_file_keeps_mtime "$([ "$(stat -c %Y "$KSRC/$f")" = "$(stat -c %Y "$B/linux/$f")" ] &&
	cmp -s "$KSRC/$f" "$B/linux/$f"; echo $?)" "$f differs from pristine"
