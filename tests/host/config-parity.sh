#!/bin/sh
# Config parity: ours and stock, configured from the same base, must come
# out the same but for the symbols of the allow-list below.  Anything else
# means a hunk or an option of ours took from stock, or added to it,
# something nobody chose (as ARM_SBSA_WATCHDOG once vanished with
# ARM_ARCH_TIMER).  Config only, no build: Kbuild.frag over allnoconfig,
# then over Debian's arm64 config (BASECONFIG=debian), as make does.
set -u
. tests/host/lib.inc

# May differ, and why:
#   ARM_ARCH_TIMER                 stock's timer driver, which ours replaces
#   CLKSRC_ARM_GENERIC             our timer driver
#   CLKSRC_ARM_GENERIC_KUNIT_TEST  its KUnit suites
#   ARM64_EXCEPTION_TRACE_DEFAULT  exception-trace on at boot (ours)
ALLOW="ARM_ARCH_TIMER CLKSRC_ARM_GENERIC CLKSRC_ARM_GENERIC_KUNIT_TEST ARM64_EXCEPTION_TRACE_DEFAULT"

grep -v '^# @ours-' Kbuild.frag > "$TMP/ours.frag"
sed '/^# @ours-begin/,/^# @ours-end/d' Kbuild.frag > "$TMP/stock.frag"

# config TREE NAME BASE FRAG...: $TMP/NAME/.config
config() {
	t=$1 n=$2 b=$3
	shift 3
	ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- \
		BASE=$b tools/build/kconfig "$t" "$TMP/$n" "$@" > "$TMP/$n.log" 2>&1
}

# Every symbol as SYM=value, "is not set" as =n
symbols() {
	sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=\(.*\)/\1=\2/p;s/^# CONFIG_\([A-Za-z0-9_]*\) is not set/\1=n/p' "$1" |
		LC_ALL=C sort
}

# differences A B: "SYM stock=.. ours=.." for each symbol that differs
# outside the allow-list (absent counts as n)
differences() {
	symbols "$1" > "$TMP/a"
	symbols "$2" > "$TMP/b"
	awk -F= -v allow="$ALLOW" '
		BEGIN { n = split(allow, w, " "); for (i = 1; i <= n; i++) ok[w[i]] = 1 }
		FNR == NR { a[$1] = substr($0, length($1) + 2); next }
		{ b[$1] = substr($0, length($1) + 2) }
		END {
			for (s in a) if (!(s in b)) b[s] = "n"
			for (s in b) if (!(s in a)) a[s] = "n"
			for (s in a) if (a[s] != b[s] && !(s in ok))
				printf "%s stock=%s ours=%s\n", s, a[s], b[s]
		}' "$TMP/a" "$TMP/b" | LC_ALL=C sort
}

[ -f "$B/sync/synced" ] || $MAKE -s sync-stale > "$TMP/sync.log" 2>&1

# parity SUFFIX NAME: compare $TMP/stockSUFFIX and $TMP/oursSUFFIX
parity() {
	differences "$TMP/stock$1/.config" "$TMP/ours$1/.config" > "$TMP/diff$1"
	check "$2" "$([ ! -s "$TMP/diff$1" ]; echo $?)" \
		"$(wc -l < "$TMP/diff$1") symbols differ outside the allow-list: $(head -n 8 "$TMP/diff$1" | tr '\n' ' ')"
}

config "$KSRC" stock "" "$TMP/stock.frag" & s=$!
config "$B/linux" ours "" "$TMP/ours.frag"; o=$?
wait $s; st=$?
if [ $o != 0 ] || [ $st != 0 ]; then
	check parity_kbuild_frag 1 "making the .config failed: $(tail -n 3 "$TMP/stock.log" "$TMP/ours.log" | tr '\n' ' ')"
else
	parity "" parity_kbuild_frag
	# the check itself: a symbol only one side has is caught
	cp "$TMP/ours/.config" "$TMP/doctored"
	echo 'CONFIG_PARITY_SELF_TEST=y' >> "$TMP/doctored"
	check catches_a_difference "$(differences "$TMP/stock/.config" "$TMP/doctored" |
		grep -qx 'PARITY_SELF_TEST stock=n ours=y'; echo $?)" "an extra symbol went unseen"
fi

kver=${KVER:-6.1}
debs=$B/debs/linux-config-${kver}_arm64
base=$debs/usr/src/linux-config-$kver/config.arm64_none_arm64.xz
$MAKE -s "$debs/.extracted" > "$TMP/fetch.log" 2>&1
if [ ! -f "$base" ]; then
	echo "ok parity_debian # SKIP Debian's arm64 config not to be had: $(tail -n 1 "$TMP/fetch.log")"
	exit 0
fi
config "$KSRC" stock-debian "$base" "$TMP/stock.frag" tools/kernel/config/debian.frag & s=$!
config "$B/linux" ours-debian "$base" "$TMP/ours.frag" tools/kernel/config/debian.frag; o=$?
wait $s; st=$?
if [ $o != 0 ] || [ $st != 0 ]; then
	check parity_debian 1 "making the .config failed: $(tail -n 3 "$TMP/stock-debian.log" "$TMP/ours-debian.log" | tr '\n' ' ')"
	exit 0
fi
parity -debian parity_debian
# the symbol that once went missing, kept as Debian has it
w=$(sed -n 's/^CONFIG_ARM_SBSA_WATCHDOG=//p' "$TMP/ours-debian/.config")
check debian_keeps_sbsa_watchdog "$([ "$w" = m ] || [ "$w" = y ]; echo $?)" \
	"ARM_SBSA_WATCHDOG is '${w:-unset}' with our driver"
