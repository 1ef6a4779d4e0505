#!/bin/sh
# tools/test/host-tests itself, on two made-up scripts: a script that exits
# non-zero without a "not ok" is a failure, and the results come out as
# JSON and JUnit with each one's duration (the time since the result
# before it: the first here comes after a 0.2 s setup).
set -u
. tests/host/lib.inc

mkdir -p "$TMP/t"
printf 'echo setup\nsleep 0.2\necho "ok first"\necho "not ok second # broke"\n' > "$TMP/t/a.sh"
printf 'echo "it went wrong"\nexit 3\n' > "$TMP/t/b.sh"
tools/test/host-tests "$TMP/t" "$TMP/r.json" > "$TMP/out" 2>&1
rc=$?
check exit_without_not_ok_fails "$([ $rc != 0 ] && grep -q '^not ok 3 host host b # exit status 3' "$TMP/out" &&
	grep -q 'host: 1 passed, 2 failed, 0 skipped' "$TMP/out"; echo $?)" "rc=$rc: $(tr '\n' ' ' < "$TMP/out")"
first=$(sed -n 's/.*"test": "a.first".*"duration": \([0-9.]*\)}.*/\1/p' "$TMP/r.json")
check json_has_durations "$(awk -v d="${first:-0}" 'BEGIN { exit !(d >= 0.2 && d < 60) }'; echo $?)" \
	"a.first's duration: '${first}'"
check junit_beside_json "$([ -f "$TMP/r.xml" ] && grep -q "name=\"a.first\" time=\"$(printf %.3f "${first:-0}")\"" "$TMP/r.xml" &&
	grep -q '<failure message="exit status 3"/>' "$TMP/r.xml" && grep -q 'b: it went wrong' "$TMP/r.xml"; echo $?)" \
	"$([ -f "$TMP/r.xml" ] && tr -d '\n' < "$TMP/r.xml" | cut -c1-300)"
