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
