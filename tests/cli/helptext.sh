#!/bin/sh
# lane: parallel (times nothing: reads help texts and docs)
# helptext.sh — every help text is whole and readable: no line beyond 100 columns, `plumb
# --help`'s command lines each a whole phrase (no parenthesis left open), plot's help lists
# only what plot takes, and neither help nor README/man page/docs speak of the project's
# history ("as before", "the issue's item 5") instead of what the program does.
. tests/lib.sh

# every help: plumb's, each command's, each tool's
{
	"$PLUMB" --help
	for c in $("$PLUMB" --help | awk '/^Commands:/ { on = 1; next } /^$/ { on = 0 } on && $1 != "help" { print $1 }'); do
		"$PLUMB" "$c" --help
	done
	for t in $("$PLUMB" list --names); do "$PLUMB" "$t" --help; done
} >"$T/help" 2>&1
check "help: texts collected" test "$(wc -l <"$T/help")" -gt 500

# columns, not bytes: UTF-8 continuation bytes take none
long=$(LC_ALL=C sed 's/[\x80-\xbf]//g' "$T/help" | LC_ALL=C awk 'length($0) > 100' | head -n 3)
if [ -z "$long" ]; then pass "help: no line beyond 100 columns"; else fail "help: no line beyond 100 columns" "$long"; fi

open=$("$PLUMB" --help | awk '/^Commands:/ { on = 1; next } /^$/ { on = 0 }
	on { l = $0; o = gsub(/\(/, "", l); c = gsub(/\)/, "", l); if (o != c) print }')
if [ -z "$open" ]; then pass "help: command lines whole"; else fail "help: command lines whole" "$open"; fi

if "$PLUMB" plot --help | grep -q -- '-o,\|--output'; then
	fail "help: plot lists only its options" "$("$PLUMB" plot --help | grep -- '-o,\|--output')"
else
	pass "help: plot lists only its options"
fi

# the project's history is no user's business: a small list of the phrases it crept in by
history='before the folders|the issue|issue [0-9]+|issue #|item [0-9]+ (asks|says)|as before|no longer|the old (build|way|id)|old ids?\b'
found=$(grep -n -i -E "$history" "$T/help" | head -n 3)
if [ -z "$found" ]; then pass "help: no project history"; else fail "help: no project history" "$found"; fi
found=$(grep -n -i -E "$history" README.md docs/*.md docs/plumb.1 2>/dev/null | head -n 3)
if [ -z "$found" ]; then pass "docs: no project history"; else fail "docs: no project history" "$found"; fi
