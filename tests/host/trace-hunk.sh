#!/bin/sh
# The kernel/sysctl.c hunk for exception-trace: on 6.1 the entry is there
# and the hunk only verifies it; on a tree without it the hunk adds it; an
# entry wired to something else is an error.
set -u
. tests/host/lib.inc
gen=tools/kernel/hunks/trace-sysctl.gen

KSRC=$KSRC $gen > "$TMP/diff" 2> "$TMP/err"
check present_verifies_only "$([ $? = 0 ] && [ ! -s "$TMP/diff" ]; echo $?)" \
	"printed $(wc -l < "$TMP/diff") diff lines: $(cat "$TMP/err")"

# a tree without the entry
mkdir -p "$TMP/k/kernel"
awk '/^static struct ctl_table debug_table\[\] = \{/ { in_table = 1 }
	in_table && /^#ifdef CONFIG_SYSCTL_EXCEPTION_TRACE/ { skip = 1 }
	skip { if (/^#endif/) { skip = 0; in_table = 0 } next }
	{ print }' "$KSRC/kernel/sysctl.c" > "$TMP/k/kernel/sysctl.c"
KSRC=$TMP/k $gen > "$TMP/diff2" 2> "$TMP/err"
(cd "$TMP/k" && patch -p1 -s --fuzz=0 < "$TMP/diff2") > "$TMP/perr" 2>&1
check absent_is_added "$(grep -q '"exception-trace"' "$TMP/k/kernel/sysctl.c" &&
	KSRC=$TMP/k $gen | wc -c | grep -qx 0; echo $?)" "after the hunk: $(cat "$TMP/perr")"

# wired to the wrong variable
sed 's/&show_unhandled_signals/\&some_other_int/' "$KSRC/kernel/sysctl.c" > "$TMP/k/kernel/sysctl.c"
KSRC=$TMP/k $gen > /dev/null 2> "$TMP/err"
check wrong_entry_is_error "$([ $? != 0 ] && grep -q 'show_unhandled_signals' "$TMP/err"; echo $?)" \
	"no error: $(cat "$TMP/err")"
