#!/bin/sh
# Config fragments: merged in order, the last setting winning (as
# merge_config.sh); FRAG= and BASECONFIG= refuse what they cannot use.
set -u
. tests/host/lib.inc

printf 'CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\n' > "$TMP/1.frag"
printf '# CONFIG_A is not set\nCONFIG_C=y\n' > "$TMP/2.frag"
# tools/build/kconfig merges with the tree's merge_config.sh; what it
# checks the .config against is that merge of the fragments alone
mkdir -p "$TMP/obj/frags"
merge=$(readlink -f "$KSRC")/scripts/kconfig/merge_config.sh
(cd "$TMP/obj/frags" && "$merge" -m -O "$TMP/obj/frags" "$TMP/1.frag" "$TMP/2.frag") > /dev/null 2>&1
m=$TMP/obj/frags/.config
check last_setting_wins "$([ "$(grep -c '^[#C]' "$m")" = 3 ] && grep -qx '# CONFIG_A is not set' "$m" &&
	grep -qx 'CONFIG_B=y' "$m" && grep -qx 'CONFIG_C=y' "$m"; echo $?)" "$(tr '\n' ' ' < "$m")"
tools/build/kconfig "$KSRC" "$TMP/obj" "$TMP/1.frag" "$TMP/none.frag" > "$TMP/m" 2>&1
check missing_fragment_is_error "$([ $? != 0 ] && grep -q 'no fragment' "$TMP/m"; echo $?)" "$(cat "$TMP/m")"
$MAKE -s vmlinux FRAG="$TMP/none.frag" > "$TMP/m" 2>&1
check make_frag_missing_is_error "$([ $? != 0 ] && grep -q 'no such file' "$TMP/m"; echo $?)" "$(cat "$TMP/m")"
$MAKE -s vmlinux BASECONFIG=fedora > "$TMP/m" 2>&1
check make_unknown_baseconfig_is_error "$([ $? != 0 ] && grep -q 'BASECONFIG must be' "$TMP/m"; echo $?)" "$(cat "$TMP/m")"
for v in debug.frag debian.frag; do
	bad=$(grep -v '^#' "tools/kernel/config/$v" | grep -v '^CONFIG_[A-Z0-9_]*=' | grep -c . || true)
	check "${v%.frag}_fragment_well_formed" "$([ "$bad" = 0 ]; echo $?)" "$bad malformed lines"
done
# make test builds the debug kernel while the plain one builds: two makes
# writing the fragment at once must both succeed and leave it whole (with
# one shared temporary, 298 of 300 such pairs failed, and the loser's
# .DELETE_ON_ERROR took the fragment from the winner)
kv=${KVER:-6.1} fb=$TMP/race bad=0
want=$(grep -v '^# @ours-' Kbuild.frag | cksum)
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	rm -rf "$fb"
	$MAKE -s B="$fb" KVER="$kv" "$fb/$kv/frag/ours.frag" > "$TMP/r1" 2>&1 & p=$!
	$MAKE -s B="$fb" KVER="$kv" "$fb/$kv/frag/ours.frag" > "$TMP/r2" 2>&1; r2=$?
	wait $p; r1=$?
	if [ $r1 != 0 ] || [ $r2 != 0 ] || [ "$(cksum < "$fb/$kv/frag/ours.frag" 2>/dev/null)" != "$want" ] ||
	   [ -n "$(find "$fb/$kv/frag" -name 'ours.frag.*' 2>/dev/null)" ]; then
		bad=$i
		break
	fi
done
check two_makes_write_the_fragment_at_once "$bad" "pair $bad: rc $r1/$r2: $(cat "$TMP/r1" "$TMP/r2" | head -n 4 | tr "\n" " ")"
