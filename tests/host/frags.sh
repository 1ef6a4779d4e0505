#!/bin/sh
# Config fragments: merged in order, the last setting winning (as
# merge_config.sh); FRAG= and BASECONFIG= refuse what they cannot use.
set -u
. tests/host/lib.inc

printf 'CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\n' > "$TMP/1.frag"
printf '# CONFIG_A is not set\nCONFIG_C=y\n' > "$TMP/2.frag"
tools/merge-frags "$TMP/1.frag" "$TMP/2.frag" > "$TMP/m" 2>&1
check last_setting_wins "$([ "$(grep -c . "$TMP/m")" = 3 ] && grep -qx '# CONFIG_A is not set' "$TMP/m" &&
	grep -qx 'CONFIG_B=y' "$TMP/m" && grep -qx 'CONFIG_C=y' "$TMP/m"; echo $?)" "$(tr '\n' ' ' < "$TMP/m")"
tools/merge-frags "$TMP/1.frag" "$TMP/none.frag" > "$TMP/m" 2>&1
check missing_fragment_is_error "$([ $? != 0 ] && grep -q 'no fragment' "$TMP/m"; echo $?)" "$(cat "$TMP/m")"
$MAKE -s vmlinux FRAG="$TMP/none.frag" > "$TMP/m" 2>&1
check make_frag_missing_is_error "$([ $? != 0 ] && grep -q 'no such file' "$TMP/m"; echo $?)" "$(cat "$TMP/m")"
$MAKE -s vmlinux BASECONFIG=fedora > "$TMP/m" 2>&1
check make_unknown_baseconfig_is_error "$([ $? != 0 ] && grep -q 'BASECONFIG must be' "$TMP/m"; echo $?)" "$(cat "$TMP/m")"
for v in debug.frag debian.frag; do
	bad=$(grep -v '^#' "tools/$v" | grep -v '^CONFIG_[A-Z0-9_]*=' | grep -c . || true)
	check "${v%.frag}_fragment_well_formed" "$([ "$bad" = 0 ]; echo $?)" "$bad malformed lines"
done
