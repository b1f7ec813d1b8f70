# dispatch.sh — the multi-call binary: help, version, list, unknown names, symlinks.
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
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
# Options are parsed in one place: getopt_long is called in src/core/opts.c and nowhere else.
calls=$(grep -rl 'getopt_long *(' src | grep -v '^src/core/opts\.c$')
if [ -z "$calls" ] && grep -q 'getopt_long *(' src/core/opts.c; then pass dispatch/getopt-in-one-file
else fail dispatch/getopt-in-one-file "getopt_long called in: $calls"; fi
# A tool reads its operands from what options_parse() returns, never getopt's optind.
readers=$(grep -rlw 'optind' src/bench || true)
if [ -z "$readers" ]; then pass dispatch/operands-from-the-parser
else fail dispatch/operands-from-the-parser "optind read in: $readers"; fi
# Every --help is printed from an options table: each entry of an "Options" section is one
# option ("  -x, --name ARG  what", its text continued on lines indented further), and each option a tool lists is one its parser accepts
# (given with a value when it takes one, then --help: never "unknown option" or "needs a value").
for t in $("$PLUMB" list --names) list run sysinfo serve summary import export runs push compare ab report plot; do
	"$PLUMB" "$t" --help >"$T/help" 2>&1
	awk '/^Options/ { on = 1; next } /^$/ { on = 0 } on && !/^  -/ && !/^      +[^ -]/ { print; bad = 1 } END { exit bad }' \
		"$T/help" >"$T/badlines" || { fail "dispatch/help-lines-$t" "$(head -1 "$T/badlines")"; continue; }
	grep -q '^Options' "$T/help" || { fail "dispatch/help-lines-$t" "no Options section"; continue; }
	pass "dispatch/help-lines-$t"
done
for t in $("$PLUMB" list --names); do
	"$PLUMB" "$t" --help | awk '/^Options:/ { on = 1; next } /^$/ { on = 0 } on' >"$T/opts"
	bad=
	while IFS= read -r line; do
		left=$(printf '%s\n' "$line" | sed 's/^  //; s/  .*//')
		opt=$(printf '%s\n' "$left" | awk '{ print ($1 ~ /,$/) ? $2 : $1 }' | sed 's/,$//')
		arg=$(printf '%s\n' "$left" | awk '{ print ($NF ~ /^-/) ? "" : $NF }')
		if [ -n "$arg" ]; then set -- "$opt" 1 --help; else set -- "$opt" --help; fi
		timeout 20 "$PLUMB" "$t" "$@" >/dev/null 2>"$T/err"
		if grep -q 'unknown option\|needs a value' "$T/err"; then bad="$bad $opt"; fi
	done <"$T/opts"
	if [ -z "$bad" ]; then pass "dispatch/help-options-accepted-$t"
	else fail "dispatch/help-options-accepted-$t" "refused:$bad"; fi
done
# Options live in the descriptors: `plumb list --json` prints every tool's own options from
# them, and each option a tool's --help lists among its own is one of those rows.
"$PLUMB" list --json >"${TMPDIR:-/tmp}/plumb-list.$$.json" 2>/dev/null
check dispatch/options-in-descriptors python3 - "${TMPDIR:-/tmp}/plumb-list.$$.json" "$PLUMB" <<'PY'
import json, subprocess, sys
tools = json.load(open(sys.argv[1]))['tools']
assert len(tools) >= 38 and all(isinstance(t['options'], list) for t in tools)
by = {t['name']: t for t in tools}
assert any(o.get('short') == 'm' for o in by['lat_tcp']['options'])
assert any(o.get('long') == 'pages' for o in by['bw_mem']['options'])
assert by['lat_pipe']['options'] == []
for t in tools:
    help = subprocess.run([sys.argv[2], t['name'], '--help'], capture_output=True, text=True).stdout
    for o in t['options']:
        word = '--' + o['long'] if 'long' in o else '-' + o['short']
        assert word in help, (t['name'], word)
PY
rm -f "${TMPDIR:-/tmp}/plumb-list.$$.json"
