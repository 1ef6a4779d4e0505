#!/bin/sh
# make test's plan (tests/plan, run by tools/test/plan): every step runs
# whatever the ones before did; a red step is followed by the make command
# that reruns it alone; a "run" step that left no results counts as a
# failure; the last line counts every step's results.  make is a stand-in
# here; the plan itself must be well formed.
set -u
. tests/host/lib.inc

# the stand-in: fails when its arguments contain "fail"; a RESULTS_TO=
# gets one passing result unless the arguments contain "noresults"
cat > "$TMP/make" <<'SH'
#!/bin/sh
out=
for a in "$@"; do case $a in RESULTS_TO=*) out=${a#RESULTS_TO=} ;; esac; done
echo "$*" >> "${0%/make}/calls"
case "$*" in *noresults*) exit 0 ;; esac
# "burn": a second or so of CPU, for the steps' CPU column; "mark" leaves
# a file that "seemark" waits up to 30 s for (a lane's step and a main
# line's that can only pass if the lane runs beside the main line)
case "$*" in *mark*) touch "${0%/make}/mark" ;; esac
case "$*" in *seemark*) i=0; while [ ! -e "${0%/make}/mark" ] && [ $i -lt 300 ]; do
	sleep 0.1; i=$((i + 1)); done; [ -e "${0%/make}/mark" ] || exit 3 ;; esac
case "$*" in *nice*) nice > "${0%/make}/nice.$$" ;; esac
case "$*" in *burn*) i=0; while [ $i -lt 2000000 ]; do i=$((i + 1)); done ;; esac
[ -z "$out" ] || printf '{"tests": [\n  {"suite": "s", "test": "t", "abi": "a", "result": "pass"}\n]}\n' > "$out"
case "$*" in *fail*) exit 2 ;; esac
exit 0
SH
chmod +x "$TMP/make"
cat > "$TMP/plan" <<'P'
# a comment
one      do    sync-stale
bgstep   bg    vmlinux VARIANT=debug burn
two      run   selftest SUITES="boot signal" T="^boot fail"
three    run   selftest noresults
waitbg   wait  bgstep
four     run   selftest VARIANT=acpi burn
P
MAKE=$TMP/make tools/test/plan "$TMP/plan" "$TMP/b" > "$TMP/out" 2>&1
rc=$?
check red_plan_fails "$([ $rc != 0 ]; echo $?)" "rc=$rc"
check every_step_ran "$([ "$(grep -c . "$TMP/calls")" = 5 ] && grep -q 'VARIANT=acpi' "$TMP/calls"; echo $?)" \
	"$(tr '\n' ';' < "$TMP/calls")"
check rerun_line_printed "$(grep -qxF '  RERUN   two failed; alone: make selftest SUITES="boot signal" T="^boot fail"' "$TMP/out"; echo $?)" \
	"$(grep RERUN "$TMP/out")"
check quoted_arguments_kept "$(grep -qxF -- '--no-print-directory selftest SUITES=boot signal T=^boot fail RESULTS_TO='"$TMP/b/test/two.json" "$TMP/calls"; echo $?)" \
	"$(sed -n 2p "$TMP/calls")"
check missing_results_count "$(tail -n 1 "$TMP/out" | grep -qx '2 passed, 1 failed, 0 skipped' &&
	grep -q 'no .*three.json: that run did not finish' "$TMP/out"; echo $?)" \
	"$(tail -n 3 "$TMP/out" | tr '\n' ' ')"
# a line per step, and the bg step's own once waited for: NAME SECONDS
# STATUS CPU; the CPU a step burnt is counted, in the foreground and in
# the background alike, and the run's CPU line sums them
check times_recorded "$([ "$(wc -l < "$TMP/b/test-times")" = 6 ] &&
	awk 'NF != 4 || $2 !~ /^[0-9]+$/ || $4 !~ /^[0-9]+$/ { exit 1 }' "$TMP/b/test-times" &&
	[ "$(awk '$1 == "bgstep" { print $3 }' "$TMP/b/test-times")" = 0 ]; echo $?)" "$(cat "$TMP/b/test-times")"
check cpu_counted "$(awk '$1 == "four" || $1 == "bgstep" { if ($4 < 1) exit 1; n++ } END { exit n != 2 }' "$TMP/b/test-times" &&
	grep -Eq '^  CPU     [1-9][0-9]* s of CPU in [0-9]+ s on [0-9]+ CPUs' "$TMP/out"; echo $?)" \
	"$(cat "$TMP/b/test-times"; grep CPU "$TMP/out")"
printf 'one  maybe  sync-stale\n' > "$TMP/bad"
MAKE=$TMP/make tools/test/plan "$TMP/bad" "$TMP/b2" > "$TMP/out" 2>&1
check bad_plan_refused "$([ $? = 2 ] && grep -q 'bad lines' "$TMP/out"; echo $?)" "$(cat "$TMP/out")"
printf 'w  wait  nobg\n' > "$TMP/bad"
tools/test/plan --check "$TMP/bad" > "$TMP/out" 2>&1
check wait_without_bg_refused "$([ $? = 2 ] && grep -q 'which no bg step starts' "$TMP/out"; echo $?)" "$(cat "$TMP/out")"
# a lane: its steps run in order beside the main line's, from where its
# first one stands; the main line's "wait @L" prints what they printed,
# counts their results, statuses and times, and a lane's bg step is at the
# lowest priority as the main line's are
rm -f "$TMP/calls" "$TMP/mark"
cat > "$TMP/lplan" <<'P'
one      do      sync-stale
bgb      bg      vmlinux VARIANT=debug
bgb-wait wait@L  bgb
chk      bg@L    check nice
l1       run@L   selftest KVER=6.12 mark nice
l2       run@L   selftest KVER=6.12 fail
two      run     selftest seemark
lw       wait    @L
chkw     wait    chk
P
MAKE=$TMP/make tools/test/plan "$TMP/lplan" "$TMP/lb" > "$TMP/out" 2>&1
rc=$?
check lane_runs_beside_main "$(grep -q 'seemark' "$TMP/calls" && [ -e "$TMP/lb/test/two.json" ]; echo $?)" \
	"$(tr '\n' ';' < "$TMP/calls")"
# (l2 leaves a passing result and fails: 3 passed, and its status fails)
check lane_red_step_counts "$([ $rc != 0 ] && tail -n 1 "$TMP/out" | grep -qx '3 passed, 1 failed, 0 skipped' &&
	grep -qxF '  RERUN   l2 failed; alone: make selftest KVER=6.12 fail' "$TMP/out"; echo $?)" \
	"rc=$rc; $(tail -n 3 "$TMP/out" | tr '\n' ' ')"
check lane_times_merged "$(for s in one bgb bgb-wait chk l1 l2 two lw chkw lane-L; do
	grep -q "^$s [0-9]* [0-9]* [0-9]*$" "$TMP/lb/test-times" || exit 1; done
	[ "$(awk '$1 == "lane-L" { print $4 }' "$TMP/lb/test-times")" = 0 ]; echo $?)" "$(cat "$TMP/lb/test-times")"
check lane_priorities "$([ "$(cat "$TMP"/nice.* | sort -n | tr '\n' ' ')" = "$(nice) 19 " ]; echo $?)" \
	"$(cat "$TMP"/nice.* | tr '\n' ' ')"
for bad in 'lw wait @L
l1 run@L selftest' 'l1 run@L selftest' 'l1 run@L selftest
lw wait @L
lw2 wait @L' 'l1 run@L selftest
lw wait@M @L
m1 run@M selftest
mw wait @M' 'l1 run@L@M selftest'; do
	printf '%s\n' "$bad" > "$TMP/bad"
	tools/test/plan --check "$TMP/bad" > "$TMP/out" 2>&1 && { echo "accepted: $bad"; break; }
done > "$TMP/acc"
check bad_lanes_refused "$([ ! -s "$TMP/acc" ]; echo $?)" "$(cat "$TMP/acc")"
# the project's plan is well formed
tools/test/plan --check tests/plan > "$TMP/out" 2>&1
check project_plan_well_formed "$?" "$(cat "$TMP/out")"
