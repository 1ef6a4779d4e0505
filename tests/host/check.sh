#!/bin/sh
# make check fails with one line naming the file, the check and the
# config: a little-endian assumption in a scratch copy of sigreturn32.S
# (.word for .inst), assembled big-endian with kbuild's own command for
# it, fails the A32 comparison; the unchanged copy, assembled the same
# way, passes it.  tools/check/ours tells our lines of a shared file
# from stock's.  (The compilers', sparse's and coccicheck's failures on
# scratch changes were shown by hand: docs/checks.md.)
set -u
. tests/host/lib.inc
export ARCH=arm64 CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}

# the gcc objects, ours and big-endian (nothing to do after make check)
$MAKE -s check CHECKS="gcc-ours gcc-be" > "$TMP/out" 2>&1
check check_passes_gcc_ours_be "$?" "$(tail -n 2 "$TMP/out" | tr '\n' ' ')"

tools/check/check "$B/linux" "$KSRC" overlay Kbuild.frag "$B/sync/staged.list" "$TMP/bad" gcc-ours gcc-4k \
	> "$TMP/bad.out" 2>&1
check unknown_check_is_error "$([ $? = 2 ] && grep -q "no check 'gcc-4k'" "$TMP/bad.out" &&
	[ ! -d "$TMP/bad/gcc-ours" ]; echo $?)" "$(cat "$TMP/bad.out")"

k=arch/arm64/kernel
for cfg in ours be; do
	mkdir -p "$TMP/check/gcc-$cfg/$k"
	cp "$B/check/gcc-$cfg/$k/sigreturn32.o" "$B/check/gcc-$cfg/$k/kuser32.o" "$TMP/check/gcc-$cfg/$k/"
done
mkdir -p "$TMP/src"
cp "$B/linux/$k/sigreturn32.S" "$B/linux/$k/sigreturn32.h" "$TMP/src/"
# kbuild's command for the big-endian object, on the copy, into TMP
cmd=$(sed -n 's/^cmd_[^ ]* := //p; s/^savedcmd_[^ ]* := //p' "$B/check/gcc-be/$k/.sigreturn32.o.cmd")
assemble() {
	c=$(printf '%s\n' "$cmd" | sed "s|-Wp,-MMD,[^ ]*|-Wp,-MMD,$TMP/dep|;
		s| -o $k/sigreturn32\.o | -o $TMP/check/gcc-be/$k/sigreturn32.o |; s| [^ ]*/$k/sigreturn32\.S| $TMP/src/sigreturn32.S|")
	# never the object directory's own files
	case $c in *"-MMD,$TMP/dep "*" -o $TMP/check/"*" $TMP/src/sigreturn32.S"*) ;;
	*) echo "kbuild's command not understood: $cmd"; return 1 ;; esac
	(cd "$B/check/gcc-be" && sh -c "$c")
}
a32() {
	tools/check/check "$B/linux" "$KSRC" overlay Kbuild.frag "$B/sync/staged.list" "$TMP/check" a32 \
		> "$TMP/a32.out" 2> "$TMP/a32.err"
}

assemble > "$TMP/as.out" 2>&1
as=$?
a32
st=$?
check a32_passes_on_copy_as_kbuild_assembles_it "$([ $as = 0 ] && [ $st = 0 ] && grep -q 'a32 gcc: .* same' "$TMP/a32.out"; echo $?)" \
	"as: $as $(head -n 2 "$TMP/as.out"); check: $st $(cat "$TMP/a32.err" "$TMP/a32.out" | tr '\n' ' ')"

sed -i 's/^\t\.inst\tA32_SVC_0$/\t.word\tA32_SVC_0/' "$TMP/src/sigreturn32.S"
grep -q '\.word	A32_SVC_0' "$TMP/src/sigreturn32.S"
check scratch_word_for_inst "$?" "sigreturn32.S has no '.inst A32_SVC_0' line to change"
assemble > "$TMP/as.out" 2>&1
a32
st=$?
check a32_fails_on_little_endian_assumption \
	"$([ $st = 1 ] && [ "$(wc -l < "$TMP/a32.err")" = 1 ] &&
	grep -q "^check: FAIL $k/sigreturn32.S (a32 gcc, be): .* little-endian" "$TMP/a32.err"; echo $?)" \
	"exit $st: $(cat "$TMP/a32.err" | tr '\n' ' ')"

# our lines: all of an overlay file, the hunks' lines of a shared one
printf '%s\n' "$k/traps.c:242" "$k/signal.c:*" > "$TMP/lines"
cat > "$TMP/diag" <<EOF
/T/$k/traps.c:242:15: warning: on our hunk's line
/T/$k/traps.c:787:43: warning: on stock's line
/T/$k/signal.c:5:1: warning: in an overlay file
/T/$k/signal.c:5:1: note: a note
/T/$k/signal.c:6:1:    expected int (sparse, continued)
/T/include/linux/list.h:1:1: warning: in another file
EOF
ours=$(tools/check/ours "$TMP/lines" /T < "$TMP/diag" | sed 's/.*: //' | tr '\n' ',')
stock=$(tools/check/ours -v "$TMP/lines" /T < "$TMP/diag" | sed 's/.*: //' | tr '\n' ',')
check check_ours_tells_our_lines "$([ "$ours" = "on our hunk's line,in an overlay file," ] &&
	[ "$stock" = "on stock's line," ]; echo $?)" "ours: $ours stock's: $stock"

# ccache gives back a compile's warnings under the paths of the checkout
# that filled it: those lines are still told apart, by the file they name
cat > "$TMP/diag" <<EOF2
/elsewhere/build/6.1/linux/$k/traps.c:242:15: warning: on our hunk's line
/elsewhere/build/6.1/linux/$k/traps.c:787:43: warning: on stock's line
/elsewhere/build/6.1/linux/$k/signal.c:5:1: warning: in an overlay file
/elsewhere/build/6.1/linux/$k/xtraps.c:242:15: warning: in a file not listed
EOF2
ours=$(tools/check/ours "$TMP/lines" /T < "$TMP/diag" | sed 's/.*: //' | tr '\n' ',')
stock=$(tools/check/ours -v "$TMP/lines" /T < "$TMP/diag" | sed 's/.*: //' | tr '\n' ',')
check check_ours_reads_paths_ccache_gives_back "$([ "$ours" = "on our hunk's line,in an overlay file," ] &&
	[ "$stock" = "on stock's line," ]; echo $?)" "ours: $ours stock's: $stock"
