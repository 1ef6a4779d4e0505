#!/bin/sh
# Bad input: one clear error, a non-zero exit, and the tree as it was.
set -u
. tests/host/lib.inc

# expect NAME PATTERN CMD...: CMD fails, says PATTERN once, writes nothing
expect_error() {
	name=$1 pattern=$2
	shift 2
	tree_marker
	"$@" > "$TMP/out" 2>&1
	rc=$?
	changed=$(tree_changes)
	errors=$(grep -c '^error:' "$TMP/out")
	if [ $rc = 0 ]; then
		check "$name" 1 "exit status 0"
	elif ! grep -q -- "$pattern" "$TMP/out"; then
		check "$name" 1 "no '$pattern' in: $(tail -n 2 "$TMP/out" | tr '\n' ' ')"
	elif [ "$errors" != 1 ]; then
		check "$name" 1 "$errors 'error:' lines, want one"
	elif [ -n "$changed" ]; then
		check "$name" 1 "tree written: $changed"
	else
		check "$name" 0 ""
	fi
	echo "# $name: rc=$rc: $(grep -m1 '^error:' "$TMP/out")"
}

# 1. KSRC that is not a kernel tree
mkdir -p "$TMP/notatree"
echo "hello" > "$TMP/notatree/Makefile"
expect_error ksrc_not_a_tree "is not a Linux kernel source tree" \
	$MAKE -s sync KSRC="$TMP/notatree"

# 2. a package's tool hidden from PATH (dtc): tools/build/deps says which
# (one ln per directory: the first directory that has a name keeps it)
mkdir -p "$TMP/bin"
for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
	[ -d "$d" ] && ln -s "$d"/* "$TMP/bin/" 2>/dev/null
done
rm -f "$TMP/bin/dtc"
[ -e "$TMP/bin/make" ] || echo "not ok missing_tool_setup # no make in $TMP/bin"
expect_error missing_tool "dtc not found" env PATH="$TMP/bin" $MAKE -s sync

# 3. hunks that no longer apply: a copy of the pristine tree (hard links;
# the edited file is replaced, never written through, and linked back
# after its case) with the lines they need changed
cp -al "$KSRC" "$TMP/ksrc"
for hunk in $(. tools/lib.sh && hunk_list tools/kernel/hunks "$(kver_of "$KSRC")"); do
	case $hunk in
	*/trace-sysctl.gen) continue ;;	# tests/host/trace-hunk.sh
	*/maintainers.gen) file=MAINTAINERS; edit='s/^ARM64 PORT (AARCH64 ARCHITECTURE)$/ARM64 PORT/' ;;
	# ARM's table renames a call compat-entries gives an entry point to
	*/compat-syscall-table.gen) file=arch/arm/tools/syscall.tbl
	   edit='s/^\(5[[:space:]]*common[[:space:]]*\)open\([[:space:]]\)/\1opened\2/' ;;
	*) file=$(sed -n 's|^--- a/\([^	 ]*\).*|\1|p' "$hunk" | head -n 1)
	   line=$(grep -m1 '^[-]' "$hunk" | grep -v '^---' | cut -c2- || true)
	   [ -n "$line" ] || line=$(grep -m1 '^ ' "$hunk" | cut -c2-)
	   edit="\\|^$(printf '%s' "$line" | sed 's/[][\\.*^$|]/\\&/g')\$|s|\$| /* edited */|" ;;
	esac
	sum=$(md5sum < "$KSRC/$file")
	sed "$edit" "$KSRC/$file" > "$TMP/edited"
	rm "$TMP/ksrc/$file"
	cp "$TMP/edited" "$TMP/ksrc/$file"
	if cmp -s "$KSRC/$file" "$TMP/ksrc/$file"; then
		check "hunk_mismatch_$(basename "$hunk")" 1 "could not edit $file for the test"
	else
		expect_error "hunk_mismatch_$(basename "$hunk")" "$(basename "$hunk")" \
			$MAKE -s sync KSRC="$TMP/ksrc"
	fi
	[ "$(md5sum < "$KSRC/$file")" = "$sum" ] || echo "not ok pristine_untouched # $file"
	rm "$TMP/ksrc/$file"
	ln "$KSRC/$file" "$TMP/ksrc/$file"
done
rm -rf "$TMP/ksrc"
