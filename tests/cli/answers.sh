#!/bin/sh
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# answers.sh — what compare and trend print first and how wide (compare_answer.c,
# compare_fmt.c's narrow table, trend_fmt.c): the first line says what changed in words a person
# acts on, and every line of the default text table fits 120 columns, for two sides, four
# sides and a four-version series, also with long side names; --wide keeps every column. The
# runs are synthetic (tests/gen_run.sh): B doubles the null and read calls.
. tests/lib.sh
. tests/gen_run.sh

# widest FILE [FROM]: the most characters (not bytes) on a line, from the first line matching
# FROM (default: the first line)
widest() {
	sed -n "/${2:-.}/,\$p" "$1" | LC_ALL=C sed 's/[\x80-\xbf]//g' |
		awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'
}

d="$T/a-rather-long-directory-name-for-the-builds"
mkdir -p "$d"
gen_run "$d/base-gcc-12.2.0-O2.json" vm base 1 4
gen_run "$d/slow-gcc-12.2.0-O2-patched.json" vm slow 2 4
gen_run "$d/same-gcc-12.2.0-O2-again.json" vm same 1 4
gen_run "$d/slow-gcc-12.2.0-O2-patched-2.json" vm slow2 2 4
A="$d/base-gcc-12.2.0-O2.json" B="$d/slow-gcc-12.2.0-O2-patched.json"
C="$d/same-gcc-12.2.0-O2-again.json" D="$d/slow-gcc-12.2.0-O2-patched-2.json"

"$PLUMB" compare "$A" "$B" >"$T/two.out" 2>/dev/null
first=$(head -n 1 "$T/two.out")
case "$first" in
*"slow-gcc-12.2.0-O2-patched.json is slower: 2 points worse, +100.0 % (lat_syscall x2); nothing else changed significantly (2 points)")
	pass "answers: compare's first line says what changed" ;;
*) fail "answers: compare's first line says what changed" "$first" ;;
esac
w=$(widest "$T/two.out" '^metric')
if [ "$w" -le 120 ] && grep -q '^lat_syscall.null .* worse$' "$T/two.out"
then pass "answers: compare's default table fits 120 columns (two sides)"
else fail "answers: compare's default table fits 120 columns (two sides)" "$w columns: $(sed -n '/^metric/,$p' "$T/two.out" | head -n 3)"; fi
"$PLUMB" compare "$A" "$B" "$C" "$D" >"$T/four.out" 2>/dev/null
w=$(widest "$T/four.out" '^metric')
if [ "$w" -le 120 ] && [ "$(grep -c ' is slower: ' "$T/four.out")" -eq 2 ] &&
	grep -q '^lat_syscall.null .*worse.*undecided.*worse' "$T/four.out"
then pass "answers: compare's default table fits 120 columns (four sides)"
else fail "answers: compare's default table fits 120 columns (four sides)" "$w columns: $(cat "$T/four.out")"; fi
"$PLUMB" compare --wide "$A" "$B" >"$T/wide.out" 2>/dev/null
if grep -q '^lat_syscall.null .* worse (p=.*default ±' "$T/wide.out"
then pass "answers: compare --wide keeps every column"
else fail "answers: compare --wide keeps every column" "$(sed -n '/^metric/,$p' "$T/wide.out" | head -n 3)"; fi
"$PLUMB" compare "$A" "$C" >"$T/none.out" 2>/dev/null
check "answers: no change is said in words" \
	grep -Eq '^.*same-gcc-12.2.0-O2-again.json: no significant change in 4 points \(' "$T/none.out"

"$PLUMB" trend "$A" "$C" "$B" "$D" >"$T/trend.out" 2>/dev/null
first=$(head -n 1 "$T/trend.out")
w=$(widest "$T/trend.out")
case "$first" in
"Changed at "*"2 worse +100.0 % (lat_syscall ...); nothing else changed (2 of 4 metrics steady)")
	pass "answers: trend's first line says what changed" ;;
*) fail "answers: trend's first line says what changed" "$first" ;;
esac
if [ "$w" -le 120 ]; then pass "answers: trend's default output fits 120 columns"
else fail "answers: trend's default output fits 120 columns" "$w columns"; fi

# summary's K and M cells read as the numbers they are: lmbench cut 21234 MB/s in a 4-wide
# column to "21.K"; plumb drops the decimal ("21K") or takes the next suffix ("1.2M")
gen_run "$T/bw.json" vm bw 1 4
sed -i 's/"lat_syscall.write", "params": {}, "x": null, "value": [0-9.]*, "unit": "us"/"bw_pipe.bandwidth", "params": {}, "x": null, "value": 21234, "unit": "MB\/s"/' "$T/bw.json"
"$PLUMB" summary "$T/bw.json" >"$T/bw.txt" 2>&1
row=$(grep -A 3 '^Host  *OS  Pipe AF' "$T/bw.txt" | grep '^vm ')
if echo "$row" | grep -q ' 21K ' && ! grep -q '[0-9]\.[KM]' "$T/bw.txt"
then pass "answers: summary's K cells are whole numbers"
else fail "answers: summary's K cells are whole numbers" "$row"; fi

# the noisy cells under the tables: a count and the worst five, every one with --noisy
awk 'BEGIN {
	printf "{\"schema\": \"plumb/1\", \"kind\": \"run\", \"run\": {\"label\": \"n\", \"host\": \"vm\", \"profile\": \"default\", \"source\": \"plumb\", \"started\": \"2026-11-01T10:00:00Z\", \"ended\": \"2026-11-01T10:02:00Z\", \"incomplete\": false, \"rounds\": 1, \"options\": {}},\n\"system\": {\"hostname\": \"vm\", \"os\": \"Linux\"},\n\"results\": [\n"
	split("lat_syscall.null lat_syscall.stat lat_syscall.open lat_sig.install lat_sig.catch lat_proc.fork lat_proc.exec lat_proc.shell lat_pipe.latency", m, " ")
	for (i = 0; i < 9; i++) {
		printf "%s{\"metric\": \"%s\", \"params\": {}, \"x\": null, \"value\": 2, \"unit\": \"us\", \"method_version\": 1, \"samples\": [", i ? ",\n" : "", m[i + 1]
		for (s = 0; s < 6; s++)
			printf "%s{\"value\": %g, \"iters\": 1000, \"elapsed_ns\": 1000000, \"round\": 0}", s ? ", " : "", s % 2 ? 1 + i : 2
		printf "]}"
	}
	printf "\n]}\n"
}' >"$T/noisy.json"
"$PLUMB" summary "$T/noisy.json" >"$T/noisy.txt" 2>&1
"$PLUMB" summary --noisy "$T/noisy.json" >"$T/noisyall.txt" 2>&1
if grep -q '^8 noisy cells (.*; the worst:$' "$T/noisy.txt" && [ "$(grep -c 'samples)$' "$T/noisy.txt")" -eq 5 ] &&
	grep -q '^  \.\.\. 3 more: plumb summary --noisy RUN lists them all$' "$T/noisy.txt" &&
	[ "$(grep -c 'samples)$' "$T/noisyall.txt")" -eq 8 ]
then pass "answers: the noisy cells: a count, the worst five, all with --noisy"
else fail "answers: the noisy cells: a count, the worst five, all with --noisy" "$(sed -n '/noisy cell/,$p' "$T/noisy.txt")"; fi
