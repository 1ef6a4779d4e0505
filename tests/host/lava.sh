#!/bin/sh
# Our guests as LAVA jobs (tools/lava): the same kernel and initramfs,
# booted once by tools/guest/launch and once by LAVA's own dispatcher
# (lava-run, as make lava-run does), give the same results case for case,
# passing, failing and skipped; guests made to fail (a failing program, a
# runner that dies, a kernel warning, a forged result) fail under LAVA as
# they do under our launcher; LAVA's schema takes our jobs and refuses a
# broken one.
set -u
. tests/host/lib.inc

need_guest
command -v lava-run > /dev/null || { echo "not ok setup # no lava-run: make deps installs lava-dispatcher"; exit 1; }

# ours NAME / lava NAME: boot it with our launcher / through lava-run; the
# output in $TMP/NAME.ours / $TMP/NAME.lava, the status in .rc beside it
ours() {
	VMLINUX=$vmlinux KTREE= TIMEOUT=180 tools/guest/launch test "$TMP/ours-$1" "$image" "$TMP/$1.cpio" \
		> "$TMP/$1.ours" 2>&1
	echo $? > "$TMP/$1.ours.rc"
}
lava() {
	{ tools/guest/launch args "$TMP/lava-$1" "$image" "$TMP/$1.cpio" > "$TMP/$1.args" &&
		TIMEOUT=180 tools/lava/job "$1" "$TMP/$1.args" "$TMP/art" "$TMP/$1.yaml" &&
		VMLINUX=$vmlinux KTREE= tools/lava/run "$TMP/$1.yaml" "$TMP/lava-$1"; } > "$TMP/$1.lava" 2>&1
	echo $? > "$TMP/$1.lava.rc"
}
red() { [ "$(cat "$TMP/$1.rc")" != 0 ]; }
# lava_says NAME RESULT CASE: LAVA's own record has that case with that result
lava_says() { grep -qxF "$2 $3" "$TMP/lava-$1/lava.cases"; }
tail3() { tail -n 3 "$1" | tr '\n' ' '; }

mkdir -p "$TMP/t"
printf '#!/bin/sh\necho "KTAP version 1"\necho "1..4"\necho "ok 1 first"\necho "not ok 2 Second Case"
echo "ok 3 third # SKIP not on this machine"\necho "ok 4 name.with#hash"\nexit 1\n' > "$TMP/t/mixed.sh"
printf '#!/bin/sh\necho "no such device"\nexit 4\n' > "$TMP/t/kskip.sh"
printf '#!/bin/sh\necho "<4>WARNING: CPU: 0 PID: 1 at injected/by/lava.sh:1 fake" > /dev/kmsg\necho "1..1"\necho "ok 1 warned"\n' \
	> "$TMP/t/warn.sh"
printf '#!/bin/sh\necho "ok 999 forged forged forged" > /dev/console\necho "1..1"\necho "ok 1 forger"\n' > "$TMP/t/forge.sh"
chmod +x "$TMP/t"/*

# 1. passing, failing and skipped cases: the same under LAVA, and red
mkroot mixed "ktap t aarch64 30 /t/mixed.sh
exit t aarch64 30 /bin/false
exit t/kselftest aarch64 30 /t/kskip.sh
exit t aarch64 30 /bin/true"
ours mixed
lava mixed
check job_valid "$(/usr/bin/python3 /usr/share/lava-common/lava-schema.py job --strict "$TMP/mixed.yaml" > "$TMP/schema" 2>&1; echo $?)" \
	"$(tr '\n' ' ' < "$TMP/schema")"
check lava_agrees_case_for_case "$(tools/lava/compare "$TMP/ours-mixed/results.json" "$TMP/lava-mixed/results.json" > "$TMP/cmp" 2>&1; echo $?)" \
	"$(tr '\n' ' ' < "$TMP/cmp" | cut -c1-400)"
check lava_has_every_result "$(jq -r '.tests[].result' "$TMP/lava-mixed/results.json" | sort | uniq -c | awk '{ printf "%s%s ", $1, $2 }' |
	grep -qx '2fail 3pass 2skip '; echo $?)" "$(jq -c '[.tests[].result]' "$TMP/lava-mixed/results.json")"
check lava_records_the_failures "$(lava_says mixed fail 't aarch64 mixed.sh.Second_Case' && lava_says mixed fail 't aarch64 false' &&
	lava_says mixed skip 't aarch64 mixed.sh.third' && lava_says mixed skip 't/kselftest aarch64 kskip.sh' &&
	lava_says mixed pass 't aarch64 mixed.sh.name.with#hash'; echo $?)" "$(tr '\n' ';' < "$TMP/lava-mixed/lava.cases")"
check failing_guest_red_both "$(red mixed.ours && red mixed.lava; echo $?)" \
	"ours rc $(cat "$TMP/mixed.ours.rc"), lava rc $(cat "$TMP/mixed.lava.rc")"

# 2. the runner dies half way: LAVA's own job fails (the end never came)
mkroot dies "exit t aarch64 30 /bin/true
exit t aarch64 30 /bin/busybox killall -9 runner
exit t aarch64 30 /bin/true"
ours dies
lava dies
check dead_runner_red_both "$(red dies.ours && red dies.lava && grep -q 'did not finish' "$TMP/dies.lava" &&
	grep -q '"case": "job", "definition": "lava", .*"result": "fail"' "$TMP/lava-dies/lava.log"; echo $?)" \
	"ours rc $(cat "$TMP/dies.ours.rc"): $(tail3 "$TMP/dies.lava")"

# 3. a kernel warning: on the console LAVA recorded, and judged as ours
mkroot warn "ktap t aarch64 30 /t/warn.sh"
ours warn
lava warn
check kernel_warning_red_both "$(red warn.ours && red warn.lava && grep -q 'the kernel reported a problem' "$TMP/warn.lava" &&
	grep -q 'injected/by/lava.sh' "$TMP/warn.lava"; echo $?)" "ours rc $(cat "$TMP/warn.ours.rc"): $(tail3 "$TMP/warn.lava")"

# 4. a result forged on the serial console: LAVA takes it as a case (a
# lab would show it), but the count no longer meets the runner's plan
mkroot forge "ktap t aarch64 30 /t/forge.sh"
lava forge
check forged_case_caught "$(red forge.lava && lava_says forge pass 'forged forged forged' &&
	grep -Eq 'planned 1\.\.1 but 2 results|out of sequence' "$TMP/forge.lava"; echo $?)" "$(tail3 "$TMP/forge.lava")"

# 5. LAVA's schema refuses a job that lost its test's pattern
grep -v '^      pattern: ' "$TMP/mixed.yaml" > "$TMP/broken.yaml"
check broken_job_refused "$(! /usr/bin/python3 /usr/share/lava-common/lava-schema.py job --strict "$TMP/broken.yaml" > "$TMP/schema2" 2>&1 &&
	grep -q 'pattern' "$TMP/schema2"; echo $?)" "$(tr '\n' ' ' < "$TMP/schema2")"
