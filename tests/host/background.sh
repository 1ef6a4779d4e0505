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
