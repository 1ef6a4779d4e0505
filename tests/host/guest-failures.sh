#!/bin/sh
# A guest test that hangs, a guest that hangs as a whole and a guest that
# panics are failed runs with the evidence printed, never a hung make.
set -u
. tests/host/lib.inc

image=$B/out/arch/arm64/boot/Image
for f in "$image" "$B/guest/init" "$B/guest/runner" "$B/host/gen_init_cpio"; do
	[ -f "$f" ] || { echo "not ok setup # $f missing: run make vmlinux rootfs first"; exit 1; }
done
bb=$(tools/build/fetch-deb busybox-static:arm64 "$B/debs")/bin/busybox
bb32=$(tools/build/fetch-deb busybox-static:armhf "$B/debs")/bin/busybox

# mkroot NAME MANIFEST-LINES: a guest with just these tests
mkroot() {
	SUITES=none KSELFTESTS=none EXTRA=$2 tools/guest/guest-root "$TMP/root" "$B/guest/init" \
		"$B/guest/runner" "$bb" "$bb32" "$TMP/none" "$TMP/none" tests/kselftests.list &&
	tools/guest/mkcpio "$B/host/gen_init_cpio" "$TMP/root" "$TMP/$1.cpio"
}

# 1. one test hangs: killed at its own timeout, the run goes on and fails
mkroot hang "exit hang aarch64 3 /bin/sleep 1000
exit after aarch64 10 /bin/true"
start=$(date +%s)
TIMEOUT=120 tools/guest/launch test "$TMP/run1" "$image" "$TMP/hang.cpio" > "$TMP/out1" 2>&1
rc=$? took=$(( $(date +%s) - start ))
check test_timeout_fails "$([ $rc != 0 ] && grep -q '^not ok .* sleep # timeout after 3 s' "$TMP/out1"; echo $?)" \
	"rc=$rc: $(tail -n 3 "$TMP/out1" | tr '\n' ' ')"
check run_goes_on_after_timeout "$(grep -q '^ok .* true$' "$TMP/out1"; echo $?)" "the next test did not run"
echo "# hanging test: $took s"

# 2. the whole guest hangs: killed at the run's timeout, last lines printed
mkroot stuck "exit stuck aarch64 1000 /bin/busybox sleep 1000"
start=$(date +%s)
TIMEOUT=20 tools/guest/launch test "$TMP/run2" "$image" "$TMP/stuck.cpio" > "$TMP/out2" 2>&1
rc=$? took=$(( $(date +%s) - start ))
check guest_timeout_fails "$([ $rc != 0 ] && grep -q 'TIMEOUT' "$TMP/out2" && [ $took -lt 60 ]; echo $?)" \
	"rc=$rc after $took s: $(tail -n 3 "$TMP/out2" | tr '\n' ' ')"

# 3. the kernel panics (no init): reported with the panic printed
TIMEOUT=60 APPEND="rdinit=/nonexistent init=/nonexistent" \
	tools/guest/launch test "$TMP/run3" "$image" "$TMP/hang.cpio" > "$TMP/out3" 2>&1
rc=$?
check panic_fails "$([ $rc != 0 ] && grep -q 'kernel reported a problem' "$TMP/out3" &&
	grep -q 'Kernel panic' "$TMP/out3"; echo $?)" "rc=$rc: $(tail -n 3 "$TMP/out3" | tr '\n' ' ')"

# 4. the boot hangs before the runner starts (init is a long sleep, as a
# kernel deadlocked in early boot would be): killed at BOOT_TIMEOUT, not
# at the run's TIMEOUT, with the console's last lines
start=$(date +%s)
BOOT_TIMEOUT=15 TIMEOUT=300 APPEND="rdinit=/bin/sleep -- 1000" \
	tools/guest/launch test "$TMP/run4" "$image" "$TMP/hang.cpio" > "$TMP/out4" 2>&1
rc=$? took=$(( $(date +%s) - start ))
check boot_timeout_fails "$([ $rc != 0 ] && grep -q 'BOOT TIMEOUT: nothing on the results channel after 15 s' "$TMP/out4" &&
	[ $took -lt 60 ] && [ "$(grep -c 'nothing on the results channel' "$TMP/out4")" = 1 ]; echo $?)" \
	"rc=$rc after $took s: $(tail -n 3 "$TMP/out4" | tr '\n' ' ')"

# 5. a program wedges the guest (here it stops the runner, as a kernel
# deadlock would silence it): after HANG_TIMEOUT without a line, that
# program fails with the console's last lines, and a fresh boot resumes
# with the next program, whose result still arrives; the run is red, its
# plan covers both boots, and each boot has its replay script
SUITES=none KSELFTESTS=none T= EXTRA="exit wedge aarch64 30 /t/wedge.sh
exit after aarch64 10 /bin/true" tools/guest/guest-root "$TMP/root" "$B/guest/init" \
	"$B/guest/runner" "$bb" "$bb32" "$TMP/none" "$TMP/none" tests/kselftests.list
mkdir -p "$TMP/root/t"
printf '#!/bin/sh\nkill -STOP $PPID\n' > "$TMP/root/t/wedge.sh"
chmod +x "$TMP/root/t/wedge.sh"
tools/guest/mkcpio "$B/host/gen_init_cpio" "$TMP/root" "$TMP/wedge.cpio"
start=$(date +%s)
HANG_TIMEOUT=8 TIMEOUT=200 tools/guest/launch test "$TMP/run5" "$image" "$TMP/wedge.cpio" > "$TMP/out5" 2>&1
rc=$? took=$(( $(date +%s) - start ))
check wedged_program_fails "$([ $rc != 0 ] &&
	grep -q '^not ok 1 wedge aarch64 wedge.sh # wedged: no sign of life for 8 s' "$TMP/out5" &&
	grep -q 'wedge.sh (wedge aarch64) wedged the guest' "$TMP/out5"; echo $?)" \
	"rc=$rc: $(tail -n 5 "$TMP/out5" | tr '\n' ' ')"
check run_resumes_after_wedge "$(grep -q '^ok 2 after aarch64 true$' "$TMP/out5" &&
	grep -q '"complete": true' "$TMP/run5/results.json" && [ -x "$TMP/run5/qemu-2.cmd" ] &&
	grep -q 'resume=1,1' "$TMP/run5/qemu-2.cmd"; echo $?)" "$(tail -n 5 "$TMP/out5" | tr '\n' ' ')"
echo "# wedged program: $took s"
