#!/bin/sh
# tools/build/background and tools/build/await, as make test starts and awaits the
# debug kernel's build: the status and the log come back, and the command
# runs at the lowest priority within a scheduler group that is itself at
# the lowest priority (with autogroups a session of its own would
# otherwise get as much CPU as make test, whatever the nice value).
set -u
. tests/host/lib.inc

tools/build/background "$TMP/log" "$TMP/st" sh -c 'echo started; nice; cat /proc/self/autogroup 2>/dev/null; exit 3'
tools/build/await "$TMP/st" "$TMP/log" > "$TMP/out" 2>&1
st=$?
check status_and_log_come_back "$([ $st = 3 ] && grep -q '^started$' "$TMP/out" &&
	grep -q 'failed with status 3' "$TMP/out"; echo $?)" "await: status $st, $(tr '\n' ' ' < "$TMP/out")"
check task_at_nice_19 "$(sed -n 2p "$TMP/log" | grep -qx 19; echo $?)" "nice: $(sed -n 2p "$TMP/log")"
if [ -e /proc/self/autogroup ]; then
	check group_at_nice_19 "$(sed -n 3p "$TMP/log" | grep -q 'nice 19$'; echo $?)" \
		"its autogroup: $(sed -n 3p "$TMP/log")"
else
	echo "ok group_at_nice_19 # SKIP no /proc/self/autogroup (kernel without SCHED_AUTOGROUP)"
fi
# STATUS.time: the command's line for make test's times (NAME SECONDS
# STATUS CPU)
check time_recorded "$(grep -Eqx 'st [0-9]+ [0-9]+ [0-9]+' "$TMP/st.time"; echo $?)" "$(cat "$TMP/st.time" 2>&1)"
# BACKGROUND_NICE=0 (a lane of make test's plan): the command and its
# group at the caller's own priority, and a command it starts in the
# background again at the lowest (the variable is not inherited)
BACKGROUND_NICE=0 tools/build/background "$TMP/log0" "$TMP/st0" sh -c 'nice; cat /proc/self/autogroup 2>/dev/null;
	tools/build/background "$0.inner" "$0.innerst" sh -c nice; tools/build/await "$0.innerst" "$0.inner"' "$TMP/x"
tools/build/await "$TMP/st0" "$TMP/log0" > "$TMP/out0" 2>&1
st=$?
check lane_at_own_priority "$([ $st = 0 ] && [ "$(sed -n 1p "$TMP/log0")" = "$(nice)" ] &&
	{ [ ! -e /proc/self/autogroup ] || sed -n 2p "$TMP/log0" | grep -q 'nice 0$'; } &&
	[ "$(sed -n 3p "$TMP/log0")" = 19 ]; echo $?)" "status $st: $(tr '\n' ' ' < "$TMP/log0")"
BACKGROUND_NICE=-5 tools/build/background "$TMP/logn" "$TMP/stn" true > "$TMP/outn" 2>&1
check bad_nice_refused "$([ $? = 2 ] && [ ! -e "$TMP/stn.pid" ] && grep -q 'not 0..19' "$TMP/outn"; echo $?)" "$(cat "$TMP/outn")"
