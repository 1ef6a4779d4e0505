#!/bin/sh
# The host side's false-green paths, each provoked and seen caught:
# ktap_skip() without a reason, a program that misses its own plan, unknown
# SUITES/KSELFTESTS names, a T= that matches nothing (KVM selftests
# included), a host binary passed
# off as the guest's busybox, a strace of the wrong architecture or without
# its loader, a failed .deb download, binaries of deleted
# tests, stale or incomplete results in make compare, and a missing run in
# make test's count.
set -u
. tests/host/lib.inc

# 1. tests/lib/ktap.h, compiled for the host
cat > "$TMP/skip.c" <<'C'
#include "ktap.h"
int main(int argc, char **argv)
{
	ktap_plan(2);
	ktap_skip("no_reason", "");
	if (argc < 2)
		ktap_result(1, "second", "");
	(void)argv;
	return ktap_finish();
}
C
gcc -I tests/lib -o "$TMP/skip" "$TMP/skip.c"
"$TMP/skip" > "$TMP/skip.out"; rc=$?
check ktap_skip_without_reason_not_a_pass "$(grep -q '^not ok 1 no_reason' "$TMP/skip.out" && [ $rc != 0 ]; echo $?)" \
	"rc=$rc: $(head -n 3 "$TMP/skip.out" | tr '\n' ' ')"
"$TMP/skip" short > "$TMP/skip.out"; rc=$?
check ktap_short_of_plan_fails "$([ $rc != 0 ] && grep -q 'planned 2 cases, reported 1' "$TMP/skip.out"; echo $?)" "rc=$rc"

# 2. tools/guest/guest-root: names that select nothing are errors
mkdir -p "$TMP/bin/sig/aarch64" "$TMP/ksft"
cp /bin/true "$TMP/bin/sig/aarch64/t"
aarch64-linux-gnu-gcc -static -o "$TMP/a64" "$TMP/skip.c" -I tests/lib
arm-linux-gnueabihf-gcc -static -o "$TMP/a32" "$TMP/skip.c" -I tests/lib
root() { tools/guest/guest-root "$TMP/root" "$TMP/a64" "$TMP/a64" "$1" "$TMP/a32" "$TMP/bin" "$TMP/ksft" tests/kselftests.list; }
SUITES=nosuch KSELFTESTS=none root "$TMP/a64" > "$TMP/gr" 2>&1
check unknown_suite_is_error "$([ $? != 0 ] && grep -q "no suite 'nosuch'" "$TMP/gr"; echo $?)" "$(cat "$TMP/gr")"
SUITES=none KSELFTESTS="timers nosuch" root "$TMP/a64" > "$TMP/gr" 2>&1
check unknown_kselftest_is_error "$([ $? != 0 ] && grep -q "no kselftest target 'nosuch'" "$TMP/gr"; echo $?)" "$(cat "$TMP/gr")"
SUITES=sig KSELFTESTS=none T=nomatch root "$TMP/a64" > "$TMP/gr" 2>&1
check unmatched_T_is_error "$([ $? != 0 ] && grep -q "matches no test" "$TMP/gr"; echo $?)" "$(cat "$TMP/gr")"
SUITES=sig KSELFTESTS=none T='^sig aarch64 t$' root "$TMP/a64" > "$TMP/gr" 2>&1
check matching_T_selects "$([ $? = 0 ] && [ "$(wc -l < "$TMP/root/tests/manifest")" = 1 ]; echo $?)" "$(cat "$TMP/gr")"
SUITES=none KSELFTESTS=none root /bin/true > "$TMP/gr" 2>&1
check host_binary_as_busybox_refused "$([ $? != 0 ] && grep -q 'not an aarch64 program' "$TMP/gr"; echo $?)" "$(cat "$TMP/gr")"
SUITES=none KSELFTESTS=none STRACE32=$TMP/a64 root "$TMP/a64" > "$TMP/gr" 2>&1
check wrong_strace_refused "$([ $? != 0 ] && grep -q 'not the strace wanted' "$TMP/gr"; echo $?)" "$(cat "$TMP/gr")"
SUITES=none KSELFTESTS=none STRACE32=$TMP/a32 root "$TMP/a64" > "$TMP/gr" 2>&1
check strace_without_loader_refused "$([ $? != 0 ] && grep -q 'needs /lib/ld-linux-armhf.so.3' "$TMP/gr"; echo $?)" "$(cat "$TMP/gr")"
# T= reaches the KVM selftests too (the list's target "kvm", binaries
# under KVMSFT), and a T that matches nothing is an error
mkdir -p "$TMP/kvm/aarch64"
cp /bin/true "$TMP/kvm/aarch64/arch_timer"; cp /bin/true "$TMP/kvm/aarch64/vgic_init"
printf 'kvm aarch64/arch_timer aarch64 all fast 60 -n 2\nkvm aarch64/vgic_init aarch64 all fast 60\nkvm aarch64/nope aarch64 6.99 fast 60\n' > "$TMP/kvm.list"
kvm() { SUITES=none KSELFTESTS=kvm KVMSFT=$TMP/kvm T=$1 tools/guest/guest-root "$TMP/root" "$TMP/a64" \
	"$TMP/a64" "$TMP/a64" "$TMP/a32" "$TMP/bin" "$TMP/ksft" "$TMP/kvm.list" > "$TMP/gr" 2>&1; }
kvm 'kvm aarch64 vgic'
check kvm_T_selects "$([ $? = 0 ] && [ "$(grep -c kvm "$TMP/root/tests/manifest")" = 1 ] &&
	grep -q vgic_init "$TMP/root/tests/manifest"; echo $?)" "$(cat "$TMP/gr")"
kvm 'kvm aarch64 arch'
check kvm_arguments_kept "$([ $? = 0 ] && grep -q 'arch_timer -n 2$' "$TMP/root/tests/manifest"; echo $?)" \
	"$(cat "$TMP/root/tests/manifest")"
kvm nomatch
check kvm_unmatched_T_is_error "$([ $? != 0 ] && grep -q "T='nomatch' matches no test" "$TMP/gr"; echo $?)" \
	"$(cat "$TMP/gr")"
# a "plain" kselftest: run on a plain kernel, a skip with its reason on a
# debug kernel, and run there with FULL=1 given three times its timeout
mkdir -p "$TMP/ksft/out-aarch64/kselftest/arm64/mte"
cp /bin/true "$TMP/ksft/out-aarch64/kselftest/arm64/mte/slow"
printf 'arm64/mte slow aarch64 all plain 300\n' > "$TMP/plain.list"
plain() { SUITES=none KSELFTESTS=all tools/guest/guest-root "$TMP/root" "$TMP/a64" \
	"$TMP/a64" "$TMP/a64" "$TMP/a32" "$TMP/bin" "$TMP/ksft" "$TMP/plain.list" > "$TMP/gr" 2>&1; }
KVARIANT= plain
check plain_runs_on_plain_kernel "$([ $? = 0 ] && grep -qx 'exit kselftest/arm64/mte aarch64 300 /tests/kselftest/aarch64/arm64/mte/slow' \
	"$TMP/root/tests/manifest"; echo $?)" "$(cat "$TMP/gr" "$TMP/root/tests/manifest")"
KVARIANT=debug plain
check plain_skips_on_debug_kernel "$([ $? = 0 ] && grep -q '^skip kselftest/arm64/mte aarch64 0 /tests/kselftest/aarch64/arm64/mte/slow too slow on a debug kernel' \
	"$TMP/root/tests/manifest" && [ ! -e "$TMP/root/tests/kselftest/aarch64/arm64/mte/slow" ]; echo $?)" \
	"$(cat "$TMP/gr" "$TMP/root/tests/manifest")"
KVARIANT=debug FULL=1 plain
check plain_full_on_debug_kernel "$([ $? = 0 ] && grep -qx 'exit kselftest/arm64/mte aarch64 900 /tests/kselftest/aarch64/arm64/mte/slow' \
	"$TMP/root/tests/manifest"; echo $?)" "$(cat "$TMP/gr" "$TMP/root/tests/manifest")"

# 3. a failed .deb download stops the build: no stand-in from the host
mkdir -p "$TMP/fake"
printf '#!/bin/sh\necho "E: fake apt-get: network down" >&2\nexit 100\n' > "$TMP/fake/apt-get"
chmod +x "$TMP/fake/apt-get"
PATH="$TMP/fake:$PATH" $MAKE -s B="$TMP/b" "$TMP/b/${KVER:-6.1}/debs/busybox-static_arm64/.extracted" > "$TMP/deb" 2>&1
rc=$?
check failed_deb_fetch_stops_build "$([ $rc != 0 ] && grep -q 'cannot download busybox-static:arm64' "$TMP/deb" &&
	[ ! -e "$TMP/b/${KVER:-6.1}/debs/busybox-static_arm64/.extracted" ]; echo $?)" "rc=$rc: $(tail -n 2 "$TMP/deb" | tr '\n' ' ')"

# 4. binaries of deleted or renamed tests do not survive a rebuild
mkdir -p "$TMP/src/lib" "$TMP/src/s"
cp tests/lib/*.h "$TMP/src/lib/"
cp tests/Makefile "$TMP/src/"
cp "$TMP/skip.c" "$TMP/src/s/old.c"
make -s -C "$TMP/src" OUT="$TMP/out" > /dev/null 2>&1
mv "$TMP/src/s/old.c" "$TMP/src/s/new.c"
make -s -C "$TMP/src" OUT="$TMP/out" > /dev/null 2>&1
check renamed_test_binary_removed "$([ ! -e "$TMP/out/s/aarch64/old" ] && [ -x "$TMP/out/s/aarch64/new" ]; echo $?)" \
	"$(ls "$TMP/out/s/aarch64" | tr '\n' ' ')"
rm -r "$TMP/src/s"
make -s -C "$TMP/src" OUT="$TMP/out" > /dev/null 2>&1
check deleted_suite_removed "$([ ! -e "$TMP/out/s" ]; echo $?)" "$(find "$TMP/out" | tr '\n' ' ')"

# 5. make compare / tools/test/compare: a side that did not run, did not finish,
# or ran another build is refused
good='{"kernel": "x", "build_id": "IDX", "complete": true, "tests": [
  {"suite": "s", "test": "t", "abi": "aarch64", "result": "pass", "reason": "", "duration": 0.1}
]}'
echo 'int main(void) { return 0; }' > "$TMP/v.c"
aarch64-linux-gnu-gcc -Wl,--build-id=sha1 -o "$TMP/v1" "$TMP/v.c"
aarch64-linux-gnu-gcc -Wl,--build-id=sha1 -DX -o "$TMP/v2" "$TMP/v.c" -Wl,--defsym=other=1
id1=$(tools/guest/build-id "$TMP/v1") id2=$(tools/guest/build-id "$TMP/v2")
echo "$good" | sed "s/IDX/$id1/" > "$TMP/stock.json"
echo "$good" | sed "s/IDX/$id2/" > "$TMP/ours.json"
tools/test/compare "$TMP/stock.json" "$TMP/ours.json" "$TMP/c.json" "$TMP/v1" "$TMP/v2" > "$TMP/cmp" 2>&1
check compare_passes_on_fresh_results "$?" "$(cat "$TMP/cmp")"
tools/test/compare "$TMP/stock.json" "$TMP/none.json" "$TMP/c.json" > "$TMP/cmp" 2>&1
check compare_fails_without_one_side "$([ $? != 0 ] && grep -q 'did not run' "$TMP/cmp"; echo $?)" "$(cat "$TMP/cmp")"
tools/test/compare "$TMP/stock.json" "$TMP/ours.json" "$TMP/c.json" "$TMP/v1" "$TMP/v1" > "$TMP/cmp" 2>&1
check compare_refuses_stale_build "$([ $? != 0 ] && grep -q 'stale results' "$TMP/cmp"; echo $?)" "$(cat "$TMP/cmp")"
sed 's/"complete": true/"complete": false/' "$TMP/ours.json" > "$TMP/part.json"
tools/test/compare "$TMP/stock.json" "$TMP/part.json" "$TMP/c.json" > "$TMP/cmp" 2>&1
check compare_refuses_unfinished_run "$([ $? != 0 ] && grep -q 'did not finish' "$TMP/cmp"; echo $?)" "$(cat "$TMP/cmp")"

# make compare when our kernel cannot even be built: the last run's
# results are gone, and compare fails
mb=$TMP/mb/${KVER:-6.1}
mkdir -p "$mb/run/ours" "$mb/run/stock" "$TMP/notatree"
cp "$TMP/ours.json" "$mb/run/ours/results.json"
cp "$TMP/stock.json" "$mb/run/stock/results.json"
$MAKE -s compare B="$TMP/mb" KSRC="$TMP/notatree" > "$TMP/mc" 2>&1
rc=$?
check make_compare_fails_when_build_fails "$([ $rc != 0 ] && [ ! -e "$mb/run/ours/results.json" ]; echo $?)" \
	"rc=$rc: $(tail -n 2 "$TMP/mc" | tr '\n' ' ')"

# 6. make test's count: a run that left no results is a failure
echo 0 > "$TMP/status"
tools/test/summary "$TMP/status" "$TMP/stock.json" "$TMP/missing.json" > "$TMP/sum" 2>&1
check summary_counts_missing_run "$([ $? != 0 ] && tail -n 1 "$TMP/sum" | grep -q '^1 passed, 1 failed'; echo $?)" "$(cat "$TMP/sum")"
