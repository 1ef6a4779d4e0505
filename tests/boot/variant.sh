#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest is the machine its VARIANT words ask for, so that the other
# suites test what they claim to.  tools/guest/launch puts every word on
# the kernel command line (variant=a,b,...), the kernel hands it to init,
# and this checks each one against what the kernel reports: a word it does
# not know fails, so a new word cannot go unchecked.  Without this, an ACPI
# run could test the device tree path and a KVM selftest could skip, and
# both would still be green.  Prints KTAP.
set -u

n=0
failed=0
out=
result() {	# result STATUS NAME [WHAT-WAS-SEEN]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		out="$out
ok $n $2"
	else
		failed=$((failed + 1))
		out="$out
not ok $n $2 # ${3:-}"
	fi
}

variant= kvm_mode=
for word in $(cat /proc/cmdline); do
	case $word in
	variant=*) variant=${word#variant=} ;;
	kvm-arm.mode=*) kvm_mode=${word#kvm-arm.mode=} ;;
	esac
done
words=$(echo "$variant" | tr ',' ' ')
has() { case " $words " in *" $1 "*) return 0 ;; esac; return 1; }
klog=$(dmesg)
dt=/proc/device-tree
# absent, or a directory with nothing in it
empty() { [ ! -e "$1" ] || [ -z "$(ls -A "$1" 2>/dev/null)" ]; }
# the timer node of our device tree
timer=$(ls -d $dt/timer* 2>/dev/null | head -n 1)

# Every word must be one this script checks.
for w in $words; do
	case $w in
	debug|el2|el2-vhe|el2-nvhe|acpi|timer-dt|timer-erratum-fsl|timer-erratum-hisi|timer-erratum-a64|stress|cortex-a57|timer-idle|timer-edge) ;;
	*) result 1 "word_$w" "tests/boot/variant.sh does not know the VARIANT word '$w'" ;;
	esac
done

# Firmware: ACPI tables and no device tree, or the reverse.
tables=$(ls /sys/firmware/acpi/tables 2>/dev/null | tr '\n' ' ')
if has acpi; then
	[ -e /sys/firmware/acpi/tables/GTDT ] && [ -e /sys/firmware/acpi/tables/APIC ] &&
		[ -d /sys/firmware/efi ] && empty /sys/firmware/devicetree && empty $dt
	result $? firmware_acpi_no_dt "ACPI tables: ${tables:-none}; efi: $(ls -d /sys/firmware/efi 2>/dev/null || echo none); devicetree: $(ls $dt 2>/dev/null | head -n 3 | tr '\n' ' ')"
else
	[ -e $dt/compatible ] && [ ! -e /sys/firmware/acpi/tables/GTDT ]
	result $? firmware_dt "compatible: $(tr '\0' ' ' < $dt/compatible 2>/dev/null); ACPI tables: ${tables:-none}"
fi

# Exception level the CPUs were entered at, as the kernel reports it.
el=EL1
for w in el2 el2-vhe el2-nvhe; do has $w && el=EL2; done
seen=$(echo "$klog" | grep -o 'All CPU(s) started at EL[0-9]' | head -n 1)
[ "$seen" = "All CPU(s) started at $el" ]
result $? "entered_at_$el" "kernel log: ${seen:-no 'started at' line}"

# KVM: /dev/kvm and the mode KVM reports at EL2 (nVHE exactly when the
# word asks for it); no /dev/kvm at EL1.
if [ "$el" = EL2 ]; then
	if has el2-nvhe; then
		# 6.1: "Hyp mode ...", 6.12: "Hyp nVHE mode ..."
		want='Hyp \(nVHE \)\{0,1\}mode initialized successfully' mode=nvhe
		[ "$kvm_mode" = nvhe ] || want="kvm-arm.mode=nvhe missing from the command line"
	else
		want='VHE mode initialized successfully' mode=vhe
	fi
	seen=$(echo "$klog" | grep -o 'kvm \[[0-9]*\]: .*' | head -n 3 | tr '\n' ';')
	[ -c /dev/kvm ] && echo "$klog" | grep -q "kvm \[[0-9]*\]: $want"
	result $? "kvm_$mode" "want '$want'; /dev/kvm: $(ls -l /dev/kvm 2>&1); kernel log: ${seen:-no kvm lines}"
else
	[ ! -e /dev/kvm ]
	result $? kvm_absent_at_el1 "$(ls -l /dev/kvm 2>&1)"
fi

# debug: the kernel with KASAN, lockdep and friends, and only then.
kasan=$(echo "$klog" | grep -o 'KernelAddressSanitizer initialized.*' | head -n 1)
if has debug; then
	[ -n "$kasan" ]
	result $? debug_kernel "no 'KernelAddressSanitizer initialized' in the kernel log"
else
	[ -z "$kasan" ]
	result $? plain_kernel "a debug kernel: $kasan"
fi

# The timer node: its rate and look (timer-dt), its counter erratum
# property (timer-erratum-*), each present exactly when asked for.
if ! has acpi; then
	prop() {	# prop WORD FILE-UNDER-THE-NODE NAME
		if has "$1"; then
			[ -e "$timer/$2" ]
			result $? "$3" "no $2 in ${timer:-the device tree's timer node}"
		else
			[ ! -e "$timer/$2" ]
			result $? "no_$3" "$2 in $timer, not asked for"
		fi
	}
	prop timer-dt clock-frequency timer_clock_frequency
	prop timer-erratum-fsl fsl,erratum-a008585 timer_erratum_fsl
	prop timer-erratum-hisi hisilicon,erratum-161010101 timer_erratum_hisi
	prop timer-erratum-a64 allwinner,erratum-unknown1 timer_erratum_a64
fi

# timer-idle: an idle state that stops the CPU timer, on a GICv2
if has timer-idle; then
	gic=$(tr '\0' ' ' < $dt/intc@8000000/compatible 2>/dev/null)
	ls $dt/cpus/idle-states/*/local-timer-stop > /dev/null 2>&1 &&
		[ "$gic" = "arm,cortex-a15-gic " ]
	result $? timer_idle_states "idle states: $(ls $dt/cpus/idle-states 2>/dev/null | tr '\n' ' '); GIC: $gic"
fi
# timer-edge: the driver found the timer interrupts described as edge
if has timer-edge; then
	echo "$klog" | grep -Eq 'timer is not described as level-triggered|Invalid trigger for IRQ'
	result $? timer_edge_seen "no line about an edge-triggered timer interrupt in the kernel log"
fi

# stress: its own boot on 4 CPUs
if has stress; then
	[ "$(grep -c '^processor' /proc/cpuinfo)" = 4 ]
	result $? stress_four_cpus "$(grep -c '^processor' /proc/cpuinfo) CPUs"
fi

# cortex-a57: an ARMv8.0 CPU, so no PAN (the kernel says it emulates
# it: software PAN), no SVE, pointer auth, BTI or MTE
if has cortex-a57; then
	part=$(sed -n 's/^CPU part[[:space:]]*: //p' /proc/cpuinfo | sort -u | tr '\n' ' ')
	feat=$(sed -n 's/^Features[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	[ "$part" = "0xd07 " ] && ! echo " $feat " | grep -Eq ' (sve|paca|pacg|bti|mte) ' &&
		! echo "$klog" | grep -q 'detected: Privileged Access Never' &&
		echo "$klog" | grep -q 'emulated: Privileged Access Never'
	result $? cortex_a57_v8_0 "CPU part $part; features: $feat; PAN: $(echo "$klog" | grep -o '[a-z]*: Privileged Access Never.*' | head -n 1)"
fi

echo "KTAP version 1"
echo "1..$n"
echo "# variant ${variant:-none}, kvm-arm.mode ${kvm_mode:-default}"
echo "$out" | sed '/^$/d'
[ "$failed" -eq 0 ]
