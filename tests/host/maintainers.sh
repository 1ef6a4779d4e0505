#!/bin/sh
# The MAINTAINERS entry is generated from the overlay's file list:
# scripts/get_maintainer.pl names it for every overlay file.
set -u
. tests/host/lib.inc

$MAKE -s sync > "$TMP/sync" 2>&1 || { echo "not ok sync # $(tail -n 2 "$TMP/sync")"; exit 1; }
missing=
n=0
for f in $(cd overlay && find . -type f | sed 's|^\./||' | LC_ALL=C sort); do
	n=$((n + 1))
	(cd "$B/linux" && perl scripts/get_maintainer.pl --nogit --nogit-fallback --norolestats -f "$f") \
		> "$TMP/gm" 2>&1
	grep -q 'arm64-overlay@lists.example.org' "$TMP/gm" || missing="$missing $f"
done
check get_maintainer_names_entry "$([ -z "$missing" ] && [ $n -gt 0 ]; echo $?)" \
	"not named for:$missing ($n files)"

# every F: line of the entry is a file of the overlay, and no more
entry=$(awk '/^ARM64 PORT REWRITE OVERLAY/ { on = 1; next } on && /^$/ { exit } on && /^F:/ { print $2 }' "$B/linux/MAINTAINERS" | LC_ALL=C sort)
files=$(cd overlay && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
check entry_matches_overlay "$([ "$entry" = "$files" ]; echo $?)" "F: lines differ from overlay/"
