#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Cross-check the AArch32 syscall table our build uses against the
# 32-bit ARM kernel's own table in the pristine tree.  On 6.1 that is the
# table tools/kernel/hunks/compat-syscall-table.gen generates (ARM's
# numbers and names, tools/kernel/compat-entries' entry points); on 6.12,
# stock's own arch/arm64/tools/syscall_32.tbl, which the generator must
# find equal to ours.  Checked: the same EABI numbers with the same names,
# nothing else, in the order syscalltbl.sh needs; on 6.1 its size matches
# __NR_compat_syscalls and the numbers asm/unistd.h names; the calls that
# take 64-bit arguments in register pairs use the arm64 wrappers; only
# ARM's placeholders and calls this tree does not implement lack an entry.
#
# usage: KSRC=<pristine tree> tests/host/compat-syscall-table.sh
# (run from the top of the project).  Prints TAP, fails on a mismatch.
set -eu

: "${KSRC:?KSRC must name the pristine kernel tree}"
gen=tools/kernel/hunks/compat-syscall-table.gen
arm=$KSRC/arch/arm/tools/syscall.tbl
unistd=$KSRC/arch/arm64/include/asm/unistd.h
stock=$KSRC/arch/arm64/tools/syscall_32.tbl
for f in "$gen" "$arm" "$unistd"; do
	[ -r "$f" ] || { echo "compat-syscall-table: cannot read $f" >&2; exit 2; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# the table: the generator's diff (6.1), or stock's once it agrees (6.12)
genst=0
KSRC=$KSRC sh "$gen" > "$tmp/gen.diff" 2> "$tmp/gen.err" || genst=1
if [ -s "$tmp/gen.diff" ]; then
	sed '1,3d; s/^+//' "$tmp/gen.diff" > "$tmp/table"
elif [ -f "$stock" ]; then
	# stock's columns: native, then compat when it differs: keep the one used
	awk '$1 ~ /^[0-9]+$/ { e = ($5 != "") ? $5 : $4
		if (e == "sys_ni_syscall") e = ""
		print $1 "\t" $2 "\t" $3 (e != "" ? "\t" e : "") }' "$stock" > "$tmp/table"
fi
ours=$tmp/table
abis="common"

# "number name" of every EABI call (abi common or eabi), sorted for comm.
eabi_calls() {
	awk '$1 ~ /^[0-9]+$/ && ($2 == "common" || $2 == "eabi") { print $1, $3 }' "$1" |
		LC_ALL=C sort
}
eabi_calls "$arm" > "$tmp/arm"
awk -v abis=" $abis " '$1 ~ /^[0-9]+$/ && index(abis, " " $2 " ") { print $1, $3 }' "$ours" |
	LC_ALL=C sort > "$tmp/ours"

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

echo "1..8"

st=0; [ $genst -eq 0 ] && [ -s "$ours" ] || st=1
check $st "the generator makes the table, or finds the tree's equal to ours$( [ $st -eq 0 ] || printf " (%s)" "$(head -c 300 "$tmp/gen.err")")"

# 1, 2: the same calls under the same numbers, both ways.
missing=$(LC_ALL=C comm -23 "$tmp/arm" "$tmp/ours" | sort -n | tr '\n' ' ')
st=0; [ -z "$missing" ] || st=1
check $st "every ARM EABI call is in our table${missing:+ (missing: $missing)}"
extra=$(LC_ALL=C comm -13 "$tmp/arm" "$tmp/ours" | sort -n | tr '\n' ' ')
st=0; [ -z "$extra" ] || st=1
check $st "our table has no call ARM lacks${extra:+ (extra: $extra)}"

# 3: only numbered lines, no other ABI, strictly increasing numbers.
bad=$(awk '!/^#/ && NF && ($1 !~ /^[0-9]+$/ || ($2 != "common" && $2 != "32") || NF > 4)' "$ours")
order=$(awk '$1 ~ /^[0-9]+$/ { if (seen && $1 <= last) print $1; last = $1; seen = 1 }' "$ours")
st=0; [ -z "$bad" ] && [ -z "$order" ] || st=1
check $st "well formed and sorted for syscalltbl.sh${order:+ (out of order: $order)}"

# 4, 5 on 6.1: the table's size is what asm/unistd.h sizes the compat
# table with, and each __NR_compat_<name> there has our number for <name>.
# On 6.12 asm/unistd.h has none (the names are generated from this table,
# whose agreement with ours check 1 saw): its size is stock's table's.
highest=$(cut -d' ' -f1 "$tmp/ours" | sort -n | tail -n 1)
if grep -q '__NR_compat_syscalls' "$unistd"; then
	declared=$(awk '$1 == "#define" && $2 == "__NR_compat_syscalls" { print $3 }' "$unistd")
	st=0; [ "$((highest + 1))" = "$declared" ] || st=1
	check $st "highest number + 1 = __NR_compat_syscalls ($((highest + 1)) vs $declared)"

	wrong=$(awk '$1 == "#define" && $2 ~ /^__NR_compat_/ && $2 != "__NR_compat_syscalls" {
			name = substr($2, 13); print name, $3 }' "$unistd" |
		while read -r name nr; do
			grep -qx "$nr $name" "$tmp/ours" || printf '%s ' "$name"
		done)
	st=0; [ -z "$wrong" ] || st=1
	check $st "asm/unistd.h __NR_compat_* agree with the table${wrong:+ (differ: $wrong)}"
else
	declared=$(awk '$1 ~ /^[0-9]+$/ { n = $1 } END { print n + 1 }' "$stock")
	st=0; [ "$((highest + 1))" = "$declared" ] || st=1
	check $st "highest number + 1 = stock's table's ($((highest + 1)) vs $declared)"
	hand=$(grep -c '__NR_compat_[a-z]' "$unistd" || true)
	st=0; [ "$hand" -eq 0 ] || st=1
	check $st "asm/unistd.h writes no compat number by hand ($hand)"
fi

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

# 7: only ARM's placeholders are left without an entry point, and the
# calls this tree does not implement at all (no SYSCALL_DEFINE anywhere:
# 6.1 keeps lookup_dcookie in ARM's table, with only a stub behind it).
implemented() {
	grep -rqsE "SYSCALL_DEFINE[0-9]\($1," "$KSRC/fs" "$KSRC/kernel" "$KSRC/mm" \
		"$KSRC/ipc" "$KSRC/net" "$KSRC/security" "$KSRC/arch/arm64/kernel"
}
empty=$(awk -v abis=" $abis " '$1 ~ /^[0-9]+$/ && index(abis, " " $2 " ") && NF == 3 { printf "%s ", $3 }' "$ours")
# ARM's placeholders must have none; a call ours has none for must be
# ARM's placeholder or unimplemented here.
ni=$(awk '$1 ~ /^[0-9]+$/ && ($2 == "common" || $2 == "eabi") && (NF == 3 || $4 == "sys_ni_syscall") {
		printf "%s ", $3 }' "$arm")
bad=
for name in $ni; do
	case " $empty " in *" $name "*) ;; *) bad="$bad +$name" ;; esac
done
for name in $empty; do
	case " $ni " in *" $name "*) continue ;; esac
	implemented "$name" && bad="$bad -$name"
done
st=0; [ -z "$bad" ] || st=1
check $st "calls without an entry point are ARM's placeholders or unimplemented here ($empty)${bad:+ (wrong:$bad)}"

[ "$failed" -eq 0 ]
