#!/bin/sh
# tools/build/build-kselftests copies the pristine tree before building in it:
# the copy is made again when the tree changed (a test source deleted must
# not stay behind to be built and run) and only then (copying wipes what
# the arm64 kselftests build inside it, 20 s to build again on every make
# selftest).  A hard-linked tree and work directory stand in for make's;
# nothing of either is written.
set -u
. tests/host/lib.inc

if [ ! -f "$B/ksft/src.stamp" ] || [ ! -f "$B/ksft/hdr-aarch64/.done" ]; then
	echo "ok kselftest_copy_kept # SKIP no kselftest build in $B/ksft (make kselftests)"
	echo "ok kselftest_copy_follows_tree # SKIP no kselftest build in $B/ksft"
	exit 0
fi
cp -al "$KSRC" "$TMP/ksrc"
mkdir "$TMP/w"
cp -al "$B/ksft/src" "$B/ksft/hdr-aarch64" "$TMP/w/"
echo "$(readlink -f "$TMP/ksrc") $(stat -c '%d:%i:%Y' "$TMP/ksrc")" > "$TMP/w/src.stamp"
touch "$TMP/w/src/MARKER"
build() {
	tools/build/build-kselftests "$TMP/ksrc" "$TMP/w" aarch64 sigaltstack > "$TMP/out" 2>&1
}

build
rc=$?
check kselftest_copy_kept "$([ $rc = 0 ] && [ -e "$TMP/w/src/MARKER" ]; echo $?)" \
	"rc=$rc, the copy was made again with nothing changed: $(tail -n 2 "$TMP/out" | tr '\n' ' ')"

gone=tools/testing/selftests/timers/posix_timers.c
rm "$TMP/ksrc/$gone"
build
rc=$?
check kselftest_copy_follows_tree "$([ $rc = 0 ] && [ ! -e "$TMP/w/src/$gone" ] &&
	[ -f "$TMP/w/hdr-aarch64/.done" ]; echo $?)" \
	"rc=$rc, after $gone was deleted from the tree: $(ls -d "$TMP/w/src/$gone" "$TMP/w/hdr-aarch64/.done" 2>&1 | tr '\n' ' ')"
