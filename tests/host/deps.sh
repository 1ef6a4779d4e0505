#!/bin/sh
# tools/build/deps against an archive that fails apt-get update (a mirror caught
# mid-sync): the install is still tried, after three updates, and only an
# install that fails stops it, with one error.  apt-get, dpkg and
# dpkg-query are stand-ins on PATH; nothing is installed.
set -u
. tests/host/lib.inc

mkdir -p "$TMP/fake"
cat > "$TMP/fake/apt-get" <<'FAKE'
#!/bin/sh
echo "$*" >> "$FAKE_LOG"
case " $* " in
*" update "*) echo "E: Failed to fetch http://mirror/Packages.xz  File has unexpected size"; exit 100 ;;
*" install "*) [ -z "${FAKE_INSTALL_FAILS:-}" ] || { echo "E: Unable to locate package $FAKE_INSTALL_FAILS"; exit 100; } ;;
esac
exit 0
FAKE
printf '#!/bin/sh\necho arm64; echo armhf\n' > "$TMP/fake/dpkg"
printf '#!/bin/sh\nexit 1\n' > "$TMP/fake/dpkg-query"
printf '#!/bin/sh\necho 0\n' > "$TMP/fake/id"
chmod +x "$TMP/fake"/*

run_deps() {
	: > "$TMP/calls"
	env PATH="$TMP/fake:$PATH" FAKE_LOG="$TMP/calls" DEPS_RETRY_DELAY=0 "$@" \
		tools/build/deps nosuchpkg:/nonexistent/probe > "$TMP/out" 2>&1
}

run_deps
rc=$?
updates=$(grep -c '^update' "$TMP/calls")
check update_failure_still_installs "$([ $rc = 0 ] && [ "$updates" = 3 ] &&
	grep -q '^install .*nosuchpkg' "$TMP/calls" && grep -q 'warning: apt-get update failed 3 times' "$TMP/out" &&
	grep -q 'unexpected size' "$TMP/out"; echo $?)" \
	"rc=$rc, $updates updates, calls: $(tr '\n' ';' < "$TMP/calls") out: $(tr '\n' ' ' < "$TMP/out")"

run_deps FAKE_INSTALL_FAILS=nosuchpkg
rc=$?
check install_failure_is_one_error "$([ $rc != 0 ] && [ "$(grep -c '^error:' "$TMP/out")" = 1 ] &&
	grep -q 'Unable to locate package nosuchpkg' "$TMP/out"; echo $?)" \
	"rc=$rc, out: $(tr '\n' ' ' < "$TMP/out")"
