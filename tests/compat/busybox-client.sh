#!/opt/armhf/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
#
# A real 32-bit client: Debian's armhf busybox runs its shell and
# applets on the compat layer.  Every applet is called through the armhf
# binary itself, so nothing 64-bit from PATH stands in for it.  Prints
# KTAP; each case checks what the tool did.
set -u

bb=/opt/armhf/busybox
dir=/tmp/bb-client.$$
n=0
failed=0

result() {	# result OK NAME [REASON]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n $2"
	else
		failed=$((failed + 1))
		echo "not ok $n $2 # ${3:-}"
	fi
}

echo "KTAP version 1"
echo "1..7"
$bb mkdir -p "$dir"

# ELF header: class 1 (32-bit) at offset 4, machine 0x28 (ARM) at 18.
hdr=$($bb od -An -tx1 -N20 "$bb" | $bb tr -d ' \n')
case $hdr in
7f454c4601*) class=32 ;;
*) class=other ;;
esac
machine=$(echo "$hdr" | $bb cut -c37-40)
[ "$class" = 32 ] && [ "$machine" = 2800 ]
result $? busybox_is_32bit_arm "header $hdr"

# Files: write, append, copy, rename, compare, remove.
printf 'line one\n' > "$dir/a"
printf 'line two\n' >> "$dir/a"
$bb cp "$dir/a" "$dir/b" && $bb mv "$dir/b" "$dir/c"
lines=$($bb wc -l < "$dir/c")
size=$($bb stat -c %s "$dir/c")
$bb cmp -s "$dir/a" "$dir/c" && [ "$lines" -eq 2 ] && [ "$size" -eq 18 ] &&
	$bb rm "$dir/c" && [ ! -e "$dir/c" ]
result $? files "lines $lines size $size"

# Pipes: a three-stage pipeline and its sum.
sum=$($bb seq 1 1000 | $bb sort -rn | $bb awk '{ s += $1 } END { print s }')
[ "$sum" = 500500 ]
result $? pipes "sum $sum"

# trap and kill: the shell catches a signal sent to itself.
caught=no
trap 'caught=yes' USR1
$bb kill -USR1 $$
trap - USR1
[ "$caught" = yes ]
result $? trap_kill_self "caught $caught"

# kill ends a background sleep; wait reports the signal.
$bb sleep 30 &
pid=$!
$bb kill -TERM "$pid"
wait "$pid" 2>/dev/null
status=$?
[ "$status" -eq 143 ]
result $? kill_background "wait status $status"

# sleep really sleeps, as date sees it.
t0=$($bb date +%s)
$bb sleep 2
t1=$($bb date +%s)
[ $((t1 - t0)) -ge 2 ] && [ $((t1 - t0)) -le 4 ]
result $? sleep_and_date "slept $((t1 - t0)) s"

# date converts a fixed time both ways.
epoch=$($bb date -u -d '2000-01-01 00:00:00' +%s)
back=$($bb date -u -d "@$epoch" '+%Y-%m-%d %H:%M')
[ "$epoch" = 946684800 ] && [ "$back" = '2000-01-01 00:00' ]
result $? date_convert "epoch $epoch back '$back'"

$bb rm -rf "$dir"
[ "$failed" -eq 0 ]
