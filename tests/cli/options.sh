#!/bin/sh
# lane: parallel (times nothing: parses command lines)
# options.sh — every tool's and command's options table parses (core/opts.c refuses a field
# too narrow for its kind, or a letter or name declared twice, before anything runs): each one's
# --help exits 0 and lists the options every tool shares, -h is the same as --help, and a bad
# value of an option of each kind is one line and exit 2.
. tests/lib.sh

bad=""
for t in $("$PLUMB" list --names); do
	"$PLUMB" "$t" --help >"$T/help" 2>"$T/err" || bad="$bad $t(--help exit $?)"
	grep -q '^Options of every tool:$' "$T/help" || bad="$bad $t(no shared options)"
	"$PLUMB" "$t" -h >"$T/h" 2>&1 || bad="$bad $t(-h exit $?)"
	cmp -s "$T/help" "$T/h" || bad="$bad $t(-h differs)"
done
if [ -z "$bad" ]; then pass "options: every tool's table parses, -h = --help"; else
	fail "options: every tool's table parses, -h = --help" "$bad"; fi

bad=""
for c in $("$PLUMB" --help | awk '/^Commands:/ { on = 1; next } /^$/ { on = 0 } on && $1 != "help" { print $1 }'); do
	"$PLUMB" "$c" --help >"$T/help" 2>"$T/err" || bad="$bad $c(exit $?)"
	grep -q '^Options:$' "$T/help" || bad="$bad $c(no options)"
done
if [ -z "$bad" ]; then pass "options: every command's help"; else
	fail "options: every command's help" "$bad"; fi

# one bad value per kind, for tools (lmbench's letters) and commands (long names)
expect_usage "options: int out of range" "$PLUMB" lat_ctx -s -1 2
expect_usage "options: int not a number" "$PLUMB" lat_syscall -N x null
expect_usage "options: 64-bit int out of range" "$PLUMB" lat_syscall -W 3600000001 null
expect_usage "options: size with a bad suffix" "$PLUMB" lat_select -n 1x file
expect_usage "options: size out of range" "$PLUMB" bw_tcp -m 0
expect_usage "options: choice not listed" "$PLUMB" lat_rpc -p sctp
expect_usage "options: callback refuses" "$PLUMB" lat_syscall --cpu bogus null
expect_usage "options: missing value" "$PLUMB" lat_fs -s
expect_usage "options: unknown option" "$PLUMB" lat_mmap --bogus
expect_usage "options: command int out of range" "$PLUMB" serve --port 0
expect_usage "options: command callback refuses" "$PLUMB" compare --alpha 2 a b
expect_usage "options: command grouped option" "$PLUMB" report --correction x a b
"$PLUMB" lat_rpc -p sctp 2>"$T/err"
check "options: choice error names the choices" grep -q "'sctp' is not tcp or udp" "$T/err"
