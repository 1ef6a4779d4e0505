#!/bin/sh
# tests/kunit/suites.c reads the KUnit suites' debugfs results: built for
# the host and pointed at results files as 6.1's KUnit writes them, each
# case has its own result under its own name, and a case KUnit's 512-byte
# per-case log cut short is named as far as the log kept it, fails when
# it failed, and leaves the next case its own result.
set -u
. tests/host/lib.inc
k=$TMP/kunit
${CC:-cc} -O2 -Wall -Werror -I tests/lib -DKUNIT_DIR="\"$k\"" -o "$TMP/suites" tests/kunit/suites.c \
	> "$TMP/cc" 2>&1
check builds_for_the_host "$?" "$(head -n 3 "$TMP/cc" | tr '\n' ' ')"

# suite: header as debugfs_print_results() writes it, then each case's log
suite() {
	mkdir -p "$k/$1"
	{ printf 'KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: %s\n    1..%s\n' "$1" "$2"
	  cat; printf 'ok 1 %s\n' "$1"; } > "$k/$1/results"
}
# a whole log, a parameterised case, a skip
suite whole 3 <<'EOF'
    # a: EXPECTATION FAILED at lib.c:10
    Expected x == 1, but
        x == 2
    not ok 1 a
        KTAP version 1
        # Subtest: b
        ok 1 b one
        not ok 2 b two
    not ok 2 b
    ok 3 c # SKIP no frame here
EOF
# case 1's log filled up right after its number; case 2 follows on its line
printf '    # x: EXPECTATION FAILED\n    not ok 1     ok 2 y\n    ok 3 z\n' | suite cutnum 3
# case 1's log filled up inside its name
printf '    # x: long diagnostics\n    not ok 1 agt_te    ok 2 y\n    ok 3 z\n' | suite cutname 3
# case 1's log filled up before its result line
printf '    # x: EXPECTATION FAILED at lib.c:10, more than fits    ok 2 y\n    ok 3 z\n' | suite noline 3

"$TMP/suites" > "$TMP/out" 2>&1
o=$TMP/out
res() { grep -E "^(not ok|ok) [0-9]+ $1( |$)" "$o" | cut -d' ' -f1-2 | sed 's/ [0-9]*$//; s/^ok.*/ok/'; }
got="$(res whole.a)/$(res whole.b)/$(grep -c '^ok [0-9]* whole.c # SKIP no frame here' "$o")/$(grep -c 'whole.b.one\|whole.one' "$o")"
check whole_log_each_case "$([ "$got" = "not ok/not ok/1/0" ]; echo $?)" "got $got: $(tr '\n' ' ' < "$o")"
got="$(res 'cutnum.case_1\(cut\)')/$(res cutnum.y)/$(res cutnum.z)/$(grep -c '^[a-z ]* [0-9]* cutnum\.ok' "$o")"
check cut_after_number_named_by_it "$([ "$got" = "not ok/ok/ok/0" ]; echo $?)" "got $got: $(tr '\n' ' ' < "$o")"
got="$(res 'cutname.agt_te\(cut\)')/$(res cutname.y)/$(res cutname.z)"
check cut_in_name_keeps_what_is_left "$([ "$got" = "not ok/ok/ok" ]; echo $?)" "got $got: $(tr '\n' ' ' < "$o")"
got="$(res noline.case_1)/$(res noline.y)/$(res noline.z)"
check no_result_line_fails_by_number "$([ "$got" = "not ok/ok/ok" ]; echo $?)" "got $got: $(tr '\n' ' ' < "$o")"
check plan_matches_cases "$(n=$(grep -c '^\(not \)\{0,1\}ok [0-9]' "$o"); [ "$(sed -n 's/^1\.\.//p' "$o")" = "$n" ]; echo $?)" \
	"$(head -n 3 "$o" | tr '\n' ' ')"
