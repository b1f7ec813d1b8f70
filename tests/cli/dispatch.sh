# dispatch.sh — the multi-call binary: help, version, list, unknown names, symlinks.
. tests/lib.sh
check dispatch/help "$PLUMB" --help
check dispatch/version sh -c "'$PLUMB' --version | grep -q '^plumb [0-9]'"
check dispatch/list sh -c "'$PLUMB' list | grep -q '^lat_syscall '"
check dispatch/tool-help sh -c "'$PLUMB' lat_syscall --help | grep -q usage"
check dispatch/help-tool sh -c "'$PLUMB' help lat_syscall | grep -q usage"
check dispatch/sysinfo sh -c "'$PLUMB' sysinfo | grep -q '^kernel '"
expect_usage dispatch/unknown "$PLUMB" no-such-thing
"$PLUMB" >/dev/null 2>&1; rc=$?
if [ $rc -eq 2 ]; then pass dispatch/no-args; else fail dispatch/no-args "rc=$rc"; fi
# every tool in `plumb list` has its symlink, and every symlink answers --help
for t in $("$PLUMB" list --names); do
	if [ -L "$BIN/$t" ] && "$BIN/$t" --help >/dev/null 2>&1; then pass "dispatch/symlink-$t"
	else fail "dispatch/symlink-$t" "missing or broken"; fi
done
