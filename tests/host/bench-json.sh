#!/bin/sh
# make bench's outputs: build/bench.json is JSON a real parser reads,
# whatever the figures (a wall time under one second, a byte count in the
# millions), with the medians and ratios the samples give.  (That the
# "rebuild" row compiles again rather than asking ccache is
# tools/bench/build's CCACHE_DISABLE; running it here would relink the
# kernel the guest steps then boot.)
set -u
. tests/host/lib.inc

mkdir -p "$TMP/b"
cat > "$TMP/b/samples" <<'S'
ours 1 signal_nofp aarch64 37013 ns
ours 2 signal_nofp aarch64 37015 ns
ours 3 signal_nofp aarch64 37011 ns
stock 1 signal_nofp aarch64 45784 ns
stock 2 signal_nofp aarch64 45784 ns
stock 3 signal_nofp aarch64 45786 ns
S
cat > "$TMP/b/host" <<'S'
ours 1 rebuild_one_c host .184460373 s
stock 1 rebuild_one_c host 0.65 s
ours 1 image_size host 10523136 bytes
stock 1 image_size host 10523136 bytes
S
tools/bench/report "$TMP/b" "$TMP/bench.json" "$TMP/bench.md" "$TMP/bench.svg" \
	> "$TMP/out" 2>&1
check report_runs "$?" "$(tail -n 3 "$TMP/out")"
jq -e . "$TMP/bench.json" > /dev/null 2> "$TMP/jq"
check json_parses "$?" "$(cat "$TMP/jq")"
q() { jq -r "$1" "$TMP/bench.json" 2>/dev/null; }
check sub_second_value_kept "$([ "$(q '.metrics[] | select(.metric == "rebuild_one_c") | .ours.median')" = 0.18446 ]; echo $?)" \
	"$(q '.metrics[] | select(.metric == "rebuild_one_c")')"
check median_and_ratio "$([ "$(q '.metrics[] | select(.metric == "signal_nofp") | .ours.median')" = 37013 ] &&
	[ "$(q '.metrics[] | select(.metric == "signal_nofp") | .ratio')" = 0.8084 ]; echo $?)" \
	"$(q '.metrics[] | select(.metric == "signal_nofp")')"
check large_integer_exact "$([ "$(q '.metrics[] | select(.metric == "image_size") | .ours.median')" = 10523136 ]; echo $?)" \
	"$(q '.metrics[] | select(.metric == "image_size")')"

