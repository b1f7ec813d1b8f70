#!/bin/sh
# refactor-diff.sh — prove that a refactor changed nothing a user sees except --help.
# usage: bench/refactor-diff.sh BEFORE_PLUMB AFTER_PLUMB [OUTDIR]
# Runs both binaries on deterministic inputs — summary (tables and --cells) and export (json,
# lmbench, csv) of every tests/data file, `--help` of every tool and command, bad-option errors
# of every tool and command and bad values of many (missing, out of range) with their exit
# status, and a few fast tools' --json documents with every number masked — and
# diffs the two transcripts. Sections whose name starts with "help:" are expected to differ after
# an options refactor; the script prints the diff of everything else and exits 1 if that differs.
set -u
before=$1 after=$2
out=${3:-$(mktemp -d "${TMPDIR:-/tmp}/refactor-diff.XXXXXX")}
here=$(cd "$(dirname "$0")/.." && pwd)
data=$here/tests/data/lmbench
mkdir -p "$out"

mask() { sed -E 's/-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/N/g'; }

transcript() {
	p=$1
	db=$(mktemp -d "${TMPDIR:-/tmp}/refactor-db.XXXXXX")
	for f in "$data"/*.txt "$here"/tests/data/*.json; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		echo "== summary $b"; "$p" summary "$f" 2>&1; echo "rc=$?"
		echo "== summary --cells $b"; "$p" summary --cells "$f" 2>&1; echo "rc=$?"
	done
	for f in "$data"/*.txt; do
		b=$(basename "$f")
		case $b in *.getsummary.txt) continue ;; esac
		for fmt in json lmbench csv; do
			echo "== export $fmt $b"
			"$p" export "$f" --format $fmt 2>&1 | grep -v '"\(imported\|created\|run_id\|id\)"' ; echo "rc=$?"
		done
	done
	tools=$("$p" --help | sed -n '/^Tools/,/^$/p' | tail -n +2)
	cmds="list run sysinfo serve summary import export runs compare report plot"
	for t in $tools $cmds; do
		echo "== help: $t"; "$p" "$t" --help 2>&1; echo "rc=$?"
	done
	for t in $tools; do
		echo "== bad option $t"; "$p" "$t" --no-such-option 2>&1; echo "rc=$?"
		echo "== bad letter $t"; "$p" "$t" -Z 2>&1; echo "rc=$?"
		echo "== bad -N $t"; "$p" "$t" -N 0 2>&1; echo "rc=$?"
		echo "== missing value $t"; "$p" "$t" -P 2>&1; echo "rc=$?"
	done
	# every command's refusals: an unknown option, a missing value, an out-of-range one
	for c in $cmds ab push; do
		echo "== bad option $c"; "$p" "$c" --no-such-option 2>&1; echo "rc=$?"
	done
	for args in "compare --alpha" "compare --alpha 7 a b" "compare --correction x a b" \
		    "compare --format x a b" "compare -x" "compare a" "report --min-effect" "report -o" \
		    "report --alpha 0 x" "plot --dir" "plot -o x" "serve --port 0" "serve --idle" "serve x" \
		    "run --only" "run -o" "run --copies 0" "run --mem 1k" "run --subset x" "run --remote -x" \
		    "run --time-limit 0" "run --samples 0" "run --timeout 0" "run --quick --full" \
		    "run --format x" "run extra" "run -Z" "ab --alpha" "ab --alpha 9 --b x" "ab --db" \
		    "ab --correction q --b x" "ab -o x --b y" "summary --db" "summary --bogus x" \
		    "export --format" "export" "export a b" "export --format x a" "import --db" "import" \
		    "runs --host" "runs --relabel x" "runs --delete 1 --relabel 1 x" "runs --since x" \
		    "push --to" "push x" "list --bogus" "list --names --json" "sysinfo --bogus" \
		    "bw_mem --pages x 1m rd" "bw_mem --pages" "lat_mem_rd --mem 1" "lat_mem_rd --pages" \
		    "lat_mem_rd --pages x" "lat_mem_rd -t 0" "par_mem -L 7" "par_mem -L 24" "tlb -M 1k" \
		    "tlb -L" "stream --threads x" "stream -v 3" "stream x" "cache -M 1" "line -M 1" "line x"; do
		echo "== errors: $args"
		# shellcheck disable=SC2086
		"$p" $args 2>&1; echo "rc=$?"
	done
	for args in "lat_syscall -N 2 --json null" "lat_sig -N 2 --json install" \
		    "lat_select -N 2 -n 10 --json file" "lat_pipe -N 2 --json" "mhz --json" \
		    "lat_syscall -N 1 -n 3" "lat_ctx -N 1 -s 0 -s" "select -n x" \
		    "lat_select -n 0 file" "lmdd -N 2" "bw_pipe -m 0" "lat_tcp -s -S" \
		    "lat_rpc -p udp -p" "lat_http -b 0" "lat_fs -s 1x"; do
		echo "== json/errors: $args"
		# shellcheck disable=SC2086
		"$p" $args >"$db/o" 2>&1; rc=$?
		mask <"$db/o"; echo "rc=$rc"
	done
	rm -rf "$db"
}

transcript "$before" >"$out/before.txt"
transcript "$after" >"$out/after.txt"
# Drop the help sections (expected to change) and diff the rest.
strip() { awk '/^== /{skip = ($0 ~ /^== help: /)} !skip' "$1"; }
strip "$out/before.txt" >"$out/before.nohelp"
strip "$out/after.txt" >"$out/after.nohelp"
diff -u "$out/before.txt" "$out/after.txt" >"$out/full.diff"
if diff -u "$out/before.nohelp" "$out/after.nohelp" >"$out/user.diff"; then
	echo "refactor-diff: identical apart from --help ($(wc -l <"$out/full.diff") diff lines in help; see $out/full.diff)"
	exit 0
fi
cat "$out/user.diff"
echo "refactor-diff: outputs differ (see $out)"
exit 1
