#!/bin/sh
# make drift and make sync's warning: a stable update to a stock file our
# overlay replaces is shown, never silently lost.
set -u
. tests/host/lib.inc

base=tools/kernel/drift-$(. tools/lib.sh && kver_of "$KSRC").base
# a tree holding the base's files, one of them changed by "upstream"
grep -v '^#' "$base" | awk '$1 != "base" { print $2 }' | while read -r f; do
	mkdir -p "$TMP/new/$(dirname "$f")" && cp "$KSRC/$f" "$TMP/new/$f"
done
cp "$KSRC/Makefile" "$TMP/new/Makefile"
tools/maint/drift "$KSRC" overlay "$base" "$TMP/w0" > "$TMP/same" 2>&1
check unchanged_tree_no_drift "$([ $? = 0 ] && grep -q '^drift: 0 of' "$TMP/same"; echo $?)" "$(tail -n 1 "$TMP/same")"
echo '/* a stable fix */' >> "$TMP/new/arch/arm64/kernel/signal.c"
DRIFT_BASE_SRC=$KSRC tools/maint/drift "$TMP/new" overlay "$base" "$TMP/w1" > "$TMP/drift" 2>&1
check changed_file_shown "$(grep -q 'CHANGED arch/arm64/kernel/signal.c' "$TMP/drift" &&
	grep -q '^+/\* a stable fix \*/' "$TMP/drift"; echo $?)" "$(head -n 5 "$TMP/drift" | tr '\n' ' ')"
tools/maint/drift-check "$TMP/new" "$base" > "$TMP/warn" 2>&1
check sync_warns "$(grep -q 'warning: .*arch/arm64/kernel/signal.c.*see make drift' "$TMP/warn"; echo $?)" "$(cat "$TMP/warn")"
tools/maint/drift-check "$KSRC" "$base" > "$TMP/warn" 2>&1
check sync_silent_on_base "$([ ! -s "$TMP/warn" ]; echo $?)" "$(cat "$TMP/warn")"
