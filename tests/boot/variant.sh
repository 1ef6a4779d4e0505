#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest is the machine its variant asks for, so that the other suites
# test what they claim to: the kernel booted from ACPI with no device tree
# under VARIANT=acpi (and from our device tree otherwise), was entered at
# EL2 under the el2 variants, and runs KVM there in the mode asked for.
# Without this, a KVM selftest would skip and an ACPI run would test the
# device tree path, and both would still be green.
#
# The Makefile puts variant=NAME on the kernel command line; the kernel
# hands it to init.  KVM's mode comes from kvm-arm.mode, as the kernel
# reads it.  Prints KTAP.
set -u

n=0
failed=0
result() {	# result STATUS NAME [WHAT-WAS-SEEN]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		failed=$((failed + 1))
		echo "not ok $n $2 # ${3:-}"
	fi
}

cmdline=$(cat /proc/cmdline)
variant=dt kvm_mode=
for word in $cmdline; do
	case $word in
	variant=*) variant=${word#variant=} ;;
	kvm-arm.mode=*) kvm_mode=${word#kvm-arm.mode=} ;;
	esac
done
klog=$(dmesg)
# absent, or a directory with nothing in it
empty() { [ ! -e "$1" ] || [ -z "$(ls -A "$1" 2>/dev/null)" ]; }

echo "KTAP version 1"
echo "1..3"
echo "# variant $variant, kvm-arm.mode ${kvm_mode:-default}"

# Firmware: ACPI tables and no device tree, or the reverse.
tables=$(ls /sys/firmware/acpi/tables 2>/dev/null | tr '\n' ' ')
if [ "$variant" = acpi ]; then
	[ -e /sys/firmware/acpi/tables/GTDT ] && [ -e /sys/firmware/acpi/tables/APIC ] &&
		[ -d /sys/firmware/efi ] && empty /sys/firmware/devicetree && empty /proc/device-tree
	result $? firmware_acpi_no_dt "ACPI tables: ${tables:-none}; efi: $(ls -d /sys/firmware/efi 2>/dev/null || echo none); devicetree: $(ls /sys/firmware/devicetree/base 2>/dev/null | head -n 3 | tr '\n' ' ')"
else
	[ -e /sys/firmware/devicetree/base/compatible ] && [ ! -e /sys/firmware/acpi/tables/GTDT ]
	result $? firmware_dt "compatible: $(tr '\0' ' ' < /sys/firmware/devicetree/base/compatible 2>/dev/null); ACPI tables: ${tables:-none}"
fi

# Exception level the CPUs were entered at, as the kernel reports it.
case $variant in el2*) el=EL2 ;; *) el=EL1 ;; esac
seen=$(echo "$klog" | grep -o 'All CPU(s) started at EL[0-9]' | head -n 1)
[ "$seen" = "All CPU(s) started at $el" ]
result $? "entered_at_$el" "kernel log: ${seen:-no 'started at' line}"

# KVM: /dev/kvm and the mode KVM reports at EL2; no /dev/kvm at EL1.
if [ "$el" = EL2 ]; then
	case $kvm_mode in
	nvhe) want='Hyp mode initialized successfully' ;;
	protected) want='Protected nVHE mode initialized successfully' ;;
	*) want='VHE mode initialized successfully' ;;
	esac
	seen=$(echo "$klog" | grep -o 'kvm \[[0-9]*\]: .*' | head -n 3 | tr '\n' ';')
	[ -c /dev/kvm ] && echo "$klog" | grep -q "kvm \[[0-9]*\]: $want"
	result $? "kvm_${kvm_mode:-vhe}" "/dev/kvm: $(ls -l /dev/kvm 2>&1); kernel log: ${seen:-no kvm lines}"
else
	[ ! -e /dev/kvm ]
	result $? kvm_absent_at_el1 "$(ls -l /dev/kvm 2>&1)"
fi

[ "$failed" -eq 0 ]
