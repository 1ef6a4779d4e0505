#!/bin/sh
# The VARIANT words: each one, and the combinations the README shows, make
# the QEMU command line tools/guest/variants describes and reach the guest
# whole; an unknown word or a contradiction stops make in under a second;
# tests/boot fails a guest that is not what its words say; a run's
# qemu.cmd replays it.
set -u
. tests/host/lib.inc

# 1. make refuses an unknown word and a contradiction before anything else
for v in el2-vhee "acpi timer-dt" "el2 el2-vhe"; do
	t0=$(date +%s%N)
	$MAKE -s selftest VARIANT="$v" B="$TMP/nob" > "$TMP/m" 2>&1
	rc=$? ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	name=$(echo "$v" | tr ' ' '_')
	check "refused_$name" "$([ $rc != 0 ] && grep -q '^error: VARIANT: ' "$TMP/m" && [ $ms -lt 1000 ] &&
		[ ! -e "$TMP/nob" ]; echo $?)" "rc=$rc in $ms ms: $(head -n 2 "$TMP/m" | tr '\n' ' ')"
done

# 2. every word, alone, and the README's combinations: the command line
# has what the table says, and every word on the kernel command line
: > "$TMP/Image"; : > "$TMP/root.cpio"
dry() {	# dry WORDS: RUNDIR is $TMP/dry; prints nothing, returns launch's status
	rm -rf "$TMP/dry"
	VARIANT="$1" EFI_FIRMWARE=/usr/share/qemu-efi-aarch64/QEMU_EFI.fd \
		tools/guest/launch dry-run "$TMP/dry" "$TMP/Image" "$TMP/root.cpio" > /dev/null 2> "$TMP/dry.err"
}
has() { grep -qF -- "$1" "$TMP/dry/qemu.cmd"; }
for w in $(tools/guest/variant list) "debug el2-nvhe" "debug acpi" "el2 timer-dt timer-erratum-fsl"; do
	dry "$w"
	ok=$?
	eval "$(tools/guest/variant resolve $w)"
	[ $ok = 0 ] && has "variant=$(echo "$words" | tr ' ' ',')" || ok=1
	[ -z "$icount" ] || has "'-icount' '$icount'" || ok=1
	[ -z "$append" ] || has "$append" || ok=1
	case $machine in
	'') ;;
	*gic-version=2*) has "virt$machine" && grep -q 'arm,cortex-a15-gic' "$TMP/dry/virt.dtb.dts" || ok=1 ;;
	*) has "virt,gic-version=3$machine" || ok=1 ;;
	esac
	[ -z "$cpu_opts" ] || has "max$cpu_opts" || ok=1
	[ -z "$smp" ] || has "'-smp' '$smp'" || ok=1
	if [ -n "$firmware" ]; then
		has "'-bios'" && ! has "'-dtb'" || ok=1
	else
		has "'-dtb'" && ! has "'-bios'" || ok=1
		for d in $dts; do	# each define is in the device tree
			case $d in
			TIMER_FREQUENCY=*) grep -q 'clock-frequency = <0x3b9aca0>' "$TMP/dry/virt.dtb.dts" ||
				grep -q "clock-frequency = <${d#*=}>" "$TMP/dry/virt.dtb.dts" || ok=1 ;;
			TIMER_ERRATUM_fsl) grep -q 'fsl,erratum-a008585' "$TMP/dry/virt.dtb.dts" || ok=1 ;;
			esac
		done
		case $machine in *virtualization=on*) grep -q 'method = "smc"' "$TMP/dry/virt.dtb.dts" || ok=1 ;; esac
	fi
	check "command_line_$(echo "$w" | tr ' ' '_')" "$ok" "$(cat "$TMP/dry.err" "$TMP/dry/qemu.cmd" 2>/dev/null | tail -n 3)"
done
dry "acpi timer-dt"
check launch_refuses_contradiction "$([ $? != 0 ] && grep -q 'error: VARIANT' "$TMP/dry.err"; echo $?)" "$(cat "$TMP/dry.err")"

# 3. real guests, with only tests/boot: a combination passes it, and so
# does its replay; a guest told it is something it is not fails it
need_guest "$B/tests/boot"
SUITES=boot KSELFTESTS=none T= tools/guest/guest-root "$TMP/root" "$B/guest/init" "$B/guest/runner" \
	"$bb" "$bb32" "$B/tests" "$TMP/none" tests/kselftests.list &&
	tools/guest/mkcpio "$B/host/gen_init_cpio" "$TMP/root" "$TMP/boot.cpio"
boot() {	# boot NAME WORDS [APPEND]
	VARIANT=$2 APPEND=${3:-} VMLINUX=$vmlinux TIMEOUT=300 \
		tools/guest/launch test "$TMP/run-$1" "$image" "$TMP/boot.cpio" > "$TMP/$1.out" 2>&1
}
boot combo "el2-nvhe timer-dt"
rc=$?
check combination_reaches_guest "$([ $rc = 0 ] && grep -q '^ok .* boot aarch64 variant.sh.kvm_nvhe$' "$TMP/combo.out" &&
	grep -q '^ok .* variant.sh.timer_clock_frequency$' "$TMP/combo.out" &&
	grep -q '# variant el2-nvhe,timer-dt, kvm-arm.mode nvhe' "$TMP/run-combo/results.ktap"; echo $?)" \
	"rc=$rc: $(grep -E '^(not )?ok|variant ' "$TMP/combo.out" "$TMP/run-combo/results.ktap" | head -n 12 | tr '\n' ' ')"
# the replay: the same boot, the same results
grep -E '^(not )?ok ' "$TMP/run-combo/results.ktap" | sed 's/ # .*//' > "$TMP/first"
rm -f "$TMP/run-combo/results-1.ktap"
timeout 300 "$TMP/run-combo/qemu.cmd" < /dev/null > "$TMP/replay.out" 2>&1
grep -E '^(not )?ok ' "$TMP/run-combo/results-1.ktap" | tr -d '\r' | sed 's/ # .*//' > "$TMP/again"
check qemu_cmd_replays_run "$([ -s "$TMP/first" ] && cmp -s "$TMP/first" "$TMP/again"; echo $?)" \
	"$(diff "$TMP/first" "$TMP/again" | head -n 5 | tr '\n' ' ')"
# the command line says acpi (and a word nobody knows), the machine is not that
boot liar "" "variant=acpi,bogus"
rc=$?
check lying_guest_fails_boot "$([ $rc != 0 ] && grep -q '^not ok .* variant.sh.firmware_acpi_no_dt' "$TMP/liar.out" &&
	grep -q '^not ok .* variant.sh.word_bogus' "$TMP/liar.out"; echo $?)" \
	"rc=$rc: $(grep -E '^(not )?ok' "$TMP/liar.out" | tr '\n' ' ')"

# 4. make list: what a selection would run, as the guest's manifest has it
$MAKE -s list SUITES=boot KSELFTESTS=kvm T='^(boot|kselftest/kvm [a-z0-9]+ vgic_init)' > "$TMP/list" 2>&1
check make_list "$([ "$(cat "$TMP/list")" = "boot aarch64 variant.sh
kselftest/kvm aarch64 vgic_init" ]; echo $?)" "$(tr '\n' ';' < "$TMP/list")"
