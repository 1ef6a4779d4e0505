#!/bin/sh
# Each way a guest run could report green falsely, made to happen in a
# real guest, and seen caught: a KTAP plan the results do not meet, a skip
# without a reason (a program's or the manifest's), programs that cannot
# be executed (no #!, a binary or an interpreter of another architecture),
# a kernel report lost to a wrapped ring buffer or hidden behind binary
# bytes on the console, a forged result on the results channel, a runner
# that dies, and results from a kernel other than the one meant.
set -u
. tests/host/lib.inc

need_guest

run() {	# run NAME [VMLINUX]: boot it, output in $TMP/NAME.out
	VMLINUX=${2:-$vmlinux} KTREE= TIMEOUT=180 APPEND="printk.devkmsg=on" \
		tools/guest/launch test "$TMP/run-$1" "$image" "$TMP/$1.cpio" > "$TMP/$1.out" 2>&1
	echo $? > "$TMP/$1.rc"
}
has() { grep -Eq -- "$2" "$TMP/$1.out"; echo $?; }

mkdir -p "$TMP/t"
printf '#!/bin/sh\necho "1..3"\necho "ok 1 first"\necho "ok 2 second"\n' > "$TMP/t/plan.sh"
printf '#!/bin/sh\necho "1..2"\necho "ok 1 fine"\necho "ok 2 lazy # SKIP"\n' > "$TMP/t/noreason.sh"
printf 'echo "1..1"\necho "ok 1 never"\n' > "$TMP/t/noshebang.sh"
cp /bin/true "$TMP/t/x86bin"
printf '#!/t/x86bin\n' > "$TMP/t/x86interp.sh"
# a kernel warning, then enough messages to wrap the ring buffer many times
printf '#!/bin/sh\necho "<4>WARNING: CPU: 0 PID: 1 at injected/by/false-green.sh:1 fake" > /dev/kmsg
i=0; while [ $i -lt 4000 ]; do echo "<6>filler $i xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" > /dev/kmsg; i=$((i + 1)); done
echo "1..1"; echo "ok 1 flooded"\n' > "$TMP/t/kmsg.sh"
# bytes no text has on the console, then a kernel warning
printf '#!/bin/sh\nprintf "raw \\000\\377\\001 bytes\\n" > /dev/console
echo "<4>WARNING: CPU: 0 PID: 1 at injected/after/binary:1 fake" > /dev/kmsg
echo "1..1"; echo "ok 1 binary"\n' > "$TMP/t/binary.sh"
printf '#!/bin/sh\necho "ok 999 forged forged forged" > /dev/hvc0\necho "1..1"\necho "ok 1 forger"\n' > "$TMP/t/forge.sh"
chmod +x "$TMP/t"/*

# 1. the programs: each caught, and the run red
mkroot bad "ktap t aarch64 30 /t/plan.sh
ktap t aarch64 30 /t/noreason.sh
ktap t aarch64 30 /t/noshebang.sh
exit t aarch64 30 /t/x86bin
exit t aarch64 30 /t/x86interp.sh
exit t aarch64 30 /bin/true
skip t aarch64 0 /t/unrun not run here, and why
skip t aarch64 0 /t/unexplained"
run bad
check run_fails "$([ "$(cat "$TMP/bad.rc")" != 0 ]; echo $?)" "exit status 0"
check plan_mismatch_fails "$(has bad '^not ok [0-9]+ t aarch64 plan.sh # KTAP plan 1..3, 2 results')" "$(grep plan.sh "$TMP/bad.out")"
check skip_without_reason_fails "$(has bad '^not ok [0-9]+ t aarch64 noreason.sh.lazy # SKIP without a reason')" "$(grep noreason "$TMP/bad.out")"
check no_shebang_fails "$(has bad '^not ok [0-9]+ t aarch64 noshebang.sh # cannot execute .*Exec format error')" "$(grep noshebang "$TMP/bad.out")"
check wrong_arch_binary_fails "$(has bad '^not ok [0-9]+ t aarch64 x86bin # cannot execute .*Exec format error')" "$(grep x86bin "$TMP/bad.out")"
check wrong_arch_interpreter_fails "$(has bad '^not ok [0-9]+ t aarch64 x86interp.sh # cannot execute')" "$(grep x86interp "$TMP/bad.out")"
check good_program_still_passes "$(has bad '^ok [0-9]+ t aarch64 true$')" "no pass for /bin/true"
check manifest_skip_keeps_reason "$(has bad '^ok [0-9]+ t aarch64 unrun # SKIP not run here, and why$')" "$(grep unrun "$TMP/bad.out")"
check manifest_skip_without_reason_fails "$(has bad '^not ok [0-9]+ runner aarch64 manifest # bad line')" "$(grep -E 'unexplained|manifest' "$TMP/bad.out")"

# 2. a kernel warning whose ring buffer wrapped long before the end
mkroot kmsg "ktap t aarch64 120 /t/kmsg.sh"
run kmsg
check wrapped_warning_caught "$([ "$(cat "$TMP/kmsg.rc")" != 0 ] && grep -q 'the kernel reported a problem' "$TMP/kmsg.out" &&
	grep -q 'injected/by/false-green.sh' "$TMP/kmsg.out"; echo $?)" "$(tail -n 3 "$TMP/kmsg.out" | tr '\n' ' ')"
check results_intact_under_printk_flood "$(has kmsg '^ok 1 t aarch64 kmsg.sh.flooded$')" "result lost"

mkroot binary "ktap t aarch64 60 /t/binary.sh"
run binary
check warning_after_binary_console_bytes_caught "$([ "$(cat "$TMP/binary.rc")" != 0 ] &&
	grep -q 'injected/after/binary' "$TMP/binary.out" && grep -aq 'injected/after/binary' "$TMP/run-binary/kernel.log"; echo $?)" \
	"$(tail -n 3 "$TMP/binary.out" | tr '\n' ' ')"

# 3. a result forged on the results channel: the plan no longer adds up
mkroot forge "ktap t aarch64 30 /t/forge.sh"
run forge
check forged_result_caught "$([ "$(cat "$TMP/forge.rc")" != 0 ] && grep -Eq 'out of sequence|planned 1\.\.' "$TMP/forge.out"; echo $?)" \
	"$(tail -n 3 "$TMP/forge.out" | tr '\n' ' ')"

# 4. the runner dies half way: no plan, no end, a failed run
mkroot dies "exit t aarch64 30 /bin/true
exit t aarch64 30 /bin/busybox killall -9 runner
exit t aarch64 30 /bin/true"
run dies
check dead_runner_fails "$([ "$(cat "$TMP/dies.rc")" != 0 ] && grep -q 'did not finish' "$TMP/dies.out"; echo $?)" \
	"$(tail -n 3 "$TMP/dies.out" | tr '\n' ' ')"
check dead_runner_incomplete "$(grep -q '"complete": false' "$TMP/run-dies/results.json"; echo $?)" "results.json says complete"

# 5. results from another kernel than the one meant (another build id)
echo 'int main(void) { return 0; }' > "$TMP/other.c"
aarch64-linux-gnu-gcc -Wl,--build-id=sha1 -o "$TMP/other-vmlinux" "$TMP/other.c"
mkroot other "exit t aarch64 30 /bin/true"
run other "$TMP/other-vmlinux"
check other_kernel_refused "$([ "$(cat "$TMP/other.rc")" != 0 ] && grep -q 'build id' "$TMP/other.out"; echo $?)" \
	"$(tail -n 3 "$TMP/other.out" | tr '\n' ' ')"
