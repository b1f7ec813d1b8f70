#!/bin/sh
# lane: parallel (times nothing: packs and unpacks, one lat_syscall for a line's shape)
# bundle.sh — the board bundle's packing (mk/bundle.sh, which `make bundle` runs on a static
# build): from the tree's own build, a tarball holding bin/plumb, its helpers, a symlink per
# lmbench tool name, the man page and the READMEs; unpacked anywhere, the tools run from it.
. tests/lib.sh

tree=$(cd "$(dirname "$PLUMB")/.." && pwd)
if ! sh mk/bundle.sh "$tree" "$T/plumb-test.tar.gz" >"$T/out" 2>&1; then
	fail "bundle: packs" "$(tail -n 2 "$T/out")"
	exit 0
fi
pass "bundle: packs"
mkdir "$T/u" && tar xzf "$T/plumb-test.tar.gz" -C "$T/u"
d="$T/u/plumb-test"
check "bundle: plumb and its helpers" test -x "$d/bin/plumb" -a -x "$d/bin/plumb-hello" -a -x "$d/bin/plumb-spawn"
check "bundle: README and man page" test -s "$d/README.txt" -a -s "$d/README.md" -a -s "$d/plumb.1"
want=$("$PLUMB" list --names | wc -l)
have=$(find "$d/bin" -type l | wc -l)
check "bundle: a symlink per tool ($have of $want)" test "$have" -eq "$want"
# run from the unpacked directory, by the lmbench name, as a board user would
line=$(cd "$d" && bin/lat_syscall null 2>&1 >/dev/null)
if echo "$line" | grep -Eq '^Simple syscall: [0-9.]+ microseconds$'; then
	pass "bundle: lat_syscall null runs from it"
else
	fail "bundle: lat_syscall null runs from it" "$line"
fi
# lat_proc finds the helpers beside the unpacked plumb
line=$(cd "$d" && bin/plumb lat_proc exec -N 1 2>&1)
if echo "$line" | grep -Eq 'Process fork\+execve: [0-9.]+ microseconds'; then
	pass "bundle: helpers found beside plumb"
else
	fail "bundle: helpers found beside plumb" "$line"
fi
