#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Cross-check our AArch32 syscall table (overlay/arch/arm64/tools/
# syscall_32.tbl) against the 32-bit ARM kernel's own table in the
# pristine tree: the same EABI numbers with the same names, nothing
# else, in the order syscalltbl.sh needs; its size matches
# __NR_compat_syscalls and the numbers asm/unistd.h names; the calls
# that take 64-bit arguments in register pairs use the arm64 wrappers.
#
# usage: KSRC=<pristine tree> tests/host/compat-syscall-table.sh
# (run from the top of the project).  Prints TAP, fails on a mismatch.
set -eu

: "${KSRC:?KSRC must name the pristine kernel tree}"
ours=overlay/arch/arm64/tools/syscall_32.tbl
arm=$KSRC/arch/arm/tools/syscall.tbl
unistd=$KSRC/arch/arm64/include/asm/unistd.h
for f in "$ours" "$arm" "$unistd"; do
	[ -r "$f" ] || { echo "compat-syscall-table: cannot read $f" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# "number name" of every EABI call (abi common or eabi), sorted for comm.
eabi_calls() {
	awk '$1 ~ /^[0-9]+$/ && ($2 == "common" || $2 == "eabi") { print $1, $3 }' "$1" |
		LC_ALL=C sort
}
eabi_calls "$arm" > "$tmp/arm"
eabi_calls "$ours" > "$tmp/ours"

n=0
failed=0
check() {	# check STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

echo "1..7"

# 1, 2: the same calls under the same numbers, both ways.
missing=$(LC_ALL=C comm -23 "$tmp/arm" "$tmp/ours" | sort -n | tr '\n' ' ')
st=0; [ -z "$missing" ] || st=1
check $st "every ARM EABI call is in our table${missing:+ (missing: $missing)}"
extra=$(LC_ALL=C comm -13 "$tmp/arm" "$tmp/ours" | sort -n | tr '\n' ' ')
st=0; [ -z "$extra" ] || st=1
check $st "our table has no call ARM lacks${extra:+ (extra: $extra)}"

# 3: only numbered lines, no other ABI, strictly increasing numbers.
bad=$(awk '!/^#/ && NF && ($1 !~ /^[0-9]+$/ || ($2 != "common" && $2 != "eabi") || NF > 4)' "$ours")
order=$(awk '$1 ~ /^[0-9]+$/ { if (seen && $1 <= last) print $1; last = $1; seen = 1 }' "$ours")
st=0; [ -z "$bad" ] && [ -z "$order" ] || st=1
check $st "well formed and sorted for syscalltbl.sh${order:+ (out of order: $order)}"

# 4: the table's size is what asm/unistd.h sizes the compat table with.
highest=$(cut -d' ' -f1 "$tmp/ours" | sort -n | tail -n 1)
declared=$(awk '$1 == "#define" && $2 == "__NR_compat_syscalls" { print $3 }' "$unistd")
st=0; [ "$((highest + 1))" = "$declared" ] || st=1
check $st "highest number + 1 = __NR_compat_syscalls ($((highest + 1)) vs $declared)"

# 5: each __NR_compat_<name> of asm/unistd.h has our number for <name>.
wrong=$(awk '$1 == "#define" && $2 ~ /^__NR_compat_/ && $2 != "__NR_compat_syscalls" {
		name = substr($2, 13); print name, $3 }' "$unistd" |
	while read -r name nr; do
		grep -qx "$nr $name" "$tmp/ours" || printf '%s ' "$name"
	done)
st=0; [ -z "$wrong" ] || st=1
check $st "asm/unistd.h __NR_compat_* agree with the table${wrong:+ (differ: $wrong)}"

# 6: calls with 64-bit arguments in register pairs use the arm64 wrappers.
pairs="pread64 pwrite64 truncate64 ftruncate64 readahead arm_fadvise64_64
	arm_sync_file_range fallocate"
unwrapped=
for name in $pairs; do
	awk -v n="$name" '$3 == n && $4 ~ /^compat_sys_aarch32_/ { found = 1 }
		END { exit !found }' "$ours" || unwrapped="$unwrapped $name"
done
st=0; [ -z "$unwrapped" ] || st=1
check $st "register-pair calls use compat_sys_aarch32_ wrappers${unwrapped:+ (not:$unwrapped)}"

# 7: only ARM's placeholders are left without an entry point.
empty=$(awk '$1 ~ /^[0-9]+$/ && NF == 3 { printf "%s ", $3 }' "$ours")
placeholders=$(awk '$1 ~ /^[0-9]+$/ && ($2 == "common" || $2 == "eabi") &&
		(NF == 3 || $4 == "sys_ni_syscall") { printf "%s ", $3 }' "$arm")
st=0; [ "$empty" = "$placeholders" ] || st=1
check $st "calls without an entry point are ARM's placeholders ($empty)"

[ "$failed" -eq 0 ]
