# families.sh — family ids and aliases for run --only/--skip (docs/suite.md): every family id
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# plumb had before src/bench had folders still selects exactly the tools it did, and each
# family id (a folder of src/bench/) selects every tool in its folder; plumb list agrees with
# the source tree; the registry is generated from the descriptors, and the report's chart kinds
# from their declaring lines (mk/charts.sh).
. tests/lib.sh

# The tools of the --full plan that --only/--skip ARG keeps, once each, in plan order.
plan_tools() {
	"$PLUMB" run --dry-run --full --disk /dev/null "$@" 2>/dev/null |
		awk 'NF >= 3 && $2 ~ /^[0-9]+\.[0-9]$/ && !seen[$3]++ { printf "%s ", $3 }'
}

# Each old id and the plan's tools for it, taken from the binary before the folders (commit
# cf51939: `plumb run --dry-run --full --disk /dev/null --only ID`, tools once each in plan
# order).
while read -r id want; do
	got=$(plan_tools --only "$id" | sed 's/ $//')
	if [ "$got" = "$want" ]; then pass "families/alias-$id"
	else fail "families/alias-$id" "got '$got', want '$want'"; fi
done <<'LISTS'
syscall lat_syscall
select lat_select
signal lat_sig
proc lat_proc
ipc lat_pipe lat_unix lat_fifo lat_fcntl lat_sem
ops lat_ops par_ops
mhz mhz
memsize memsize
ctx lat_ctx
files lat_pagefault lat_mmap lat_fs bw_file_rd bw_mmap_rd
lmdd lmdd
disk disk
netlat lat_unix_connect lat_udp lat_tcp lat_connect
netbw bw_tcp bw_udp bw_unix bw_pipe
http lat_http
rpc lat_rpc
memory bw_mem
memlat lat_mem_rd
stream stream
caches line tlb par_mem cache
LISTS

# Each old id and every tool it names (plumb list's ALIAS column; before the folders, its
# FAMILY column).
while read -r id want; do
	got=$("$PLUMB" list | awk -v a="$id" 'NR > 1 && $3 == a { printf "%s ", $1 }' | sed 's/ $//')
	if [ "$got" = "$want" ]; then pass "families/list-alias-$id"
	else fail "families/list-alias-$id" "got '$got', want '$want'"; fi
done <<'LISTS'
syscall lat_syscall
select lat_select
signal lat_sig
proc lat_proc
ipc lat_pipe lat_unix lat_fifo lat_fcntl lat_sem
ops lat_ops par_ops
mhz mhz
memsize memsize
ctx lat_ctx
files lat_fs bw_file_rd bw_mmap_rd lat_mmap lat_pagefault
lmdd lmdd
disk disk
netlat lat_tcp lat_udp lat_connect lat_unix_connect
netbw bw_tcp bw_udp bw_unix bw_pipe
http lat_http
rpc lat_rpc
memory bw_mem
memlat lat_mem_rd
stream stream
caches tlb par_mem line cache
LISTS

# Each folder of src/bench/ is a family: plumb list names it for every tool whose TOOL row is
# in it, and --only FOLDER keeps exactly the plan's steps of those tools.
all=$(plan_tools)
for dir in src/bench/*/; do
	fam=$(basename "$dir")
	tools=$(sed -n 's/^[[:space:]]*TOOL("\([a-z0-9_]*\)".*/\1/p' "$dir"*.c)
	bad=""
	for t in $tools; do
		f=$("$PLUMB" list | awk -v t="$t" '$1 == t { print $2 }')
		[ "$f" = "$fam" ] || bad="$bad $t:$f"
	done
	if [ -z "$bad" ]; then pass "families/list-$fam"; else fail "families/list-$fam" "$bad"; fi
	want=""
	for t in $all; do
		for u in $tools; do [ "$t" = "$u" ] && want="$want$t "; done
	done
	got=$(plan_tools --only "$fam")
	if [ -n "$want" ] && [ "$got" = "$want" ]; then pass "families/only-$fam"
	else fail "families/only-$fam" "got '$got', want '$want'"; fi
	# --skip FAMILY leaves none of them
	left=$(plan_tools --skip "$fam")
	hit=""
	for t in $tools; do case " $left" in *" $t "*) hit="$hit $t" ;; esac; done
	if [ -z "$hit" ]; then pass "families/skip-$fam"; else fail "families/skip-$fam" "kept:$hit"; fi
done

# A tool in no profile (STEP_ASKED) runs when its alias names it; its family alone does not
# (the family's lists above leave it out).
while read -r id want; do
	got=$(plan_tools --only "$id" | sed 's/ $//')
	if [ "$got" = "$want" ]; then pass "families/asked-alias-$id"
	else fail "families/asked-alias-$id" "got '$got', want '$want'"; fi
done <<'LISTS'
epoll lat_epoll
tails lat_tail
c2c lat_c2c
dram lat_dram_page
LISTS

# No family is named as a --subset value; every tool is in a folder.
if [ -e src/bench/os ] || [ -e src/bench/hardware ]; then fail families/no-subset-names "src/bench/os or hardware"
else pass families/no-subset-names; fi
loose=$(grep -l '^[[:space:]]*TOOL("' src/bench/*.c 2>/dev/null | tr '\n' ' ')
if [ -z "$loose" ]; then pass families/every-tool-in-a-folder
else fail families/every-tool-in-a-folder "$loose"; fi

# The generator refuses a folder named os, a file of TOOL rows without a descriptor, a line of
# mk/tools.order naming two files (a tie), a stale line, and a metric declared without its
# noise or its abscissa. No descriptor carries a number: the
# order is the lists'.
n=$(grep -h '^const struct tool_file' src/bench/*/*.c | grep -vc ', tools, metrics };$' || true)
if [ "$n" -eq 0 ]; then pass families/no-hand-order
else fail families/no-hand-order "$n descriptors end otherwise than ', tools, metrics };'"; fi
mkdir -p "$T/src/bench/os" "$T/src/bench/x"
# toolfile FILE NAME [FIELDS]: a minimal tool file, its one metric with noise, sign rule and
# abscissa unless FIELDS says otherwise
toolfile() {
	{ printf 'static const struct metric_def metrics[] = {\n'
	  printf '\t{ .id = "%s.x", .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,\n' "$2"
	  fields='.sign = POSITIVE, .x = { .kind = X_NONE }, .noise = NOISE_UNMEASURED'
	  printf '\t  %s },\n\t{ 0 },\n};\n\n' "${3:-$fields}"
	  printf 'const struct tool_file toolfile_%s = { "%s", SUBSET_OS, "%s", tools, metrics };\n' \
		"$2" "$2" "$2"; } >"$1"
}
# gen FILE...: the generator on FILEs, with order lists naming each on a line of its own
# (TORDER / MORDER, when set, are the lists' lines instead)
gen() {
	for f in "$@"; do echo "$(basename "$(dirname "$f")")/$(basename "$f")"; done >"$T/lines"
	printf '# tools\n%s\n' "${TORDER:-$(cat "$T/lines")}" >"$T/tools.order"
	printf '# metrics\n%s\n' "${MORDER:-$(cat "$T/lines")}" >"$T/metrics.order"
	sh mk/registry.sh -t "$T/tools.order" -m "$T/metrics.order" "$@" >"$T/gen.c" 2>"$T/gen.err"
}
toolfile "$T/src/bench/x/ok.c" ok
if gen "$T/src/bench/x/ok.c"; then pass families/gen-accepts-minimal
else fail families/gen-accepts-minimal "$(cat "$T/gen.err")"; fi
toolfile "$T/src/bench/os/a.c" a
if gen "$T/src/bench/os/a.c"; then fail families/gen-refuses-os "accepted"
else pass families/gen-refuses-os; fi
printf '\tTOOL("b", b, 0, "", "", NULL),\n' >"$T/src/bench/x/b.c"
if gen "$T/src/bench/x/b.c"; then fail families/gen-refuses-no-descriptor "accepted"
else pass families/gen-refuses-no-descriptor; fi
toolfile "$T/src/bench/x/c.c" c
toolfile "$T/src/bench/x/d.c" d
# a file the lists leave out follows the ones they name, on a place of its own
if TORDER='x/d.c' MORDER='x/d.c' gen "$T/src/bench/x/d.c" "$T/src/bench/x/c.c" &&
   [ "$(grep -o '&toolfile_[cd]\(\.metrics, [0-9]*\)\?' "$T/gen.c" | tr '\n' ' ')" = \
     "&toolfile_d &toolfile_c &toolfile_d.metrics, 1 &toolfile_c.metrics, 2 " ]; then
	pass families/gen-unlisted-follows
else fail families/gen-unlisted-follows "$(cat "$T/gen.err"; grep toolfile_ "$T/gen.c" | tr '\n' ' ')"; fi
if TORDER='x/c.c x/d.c' gen "$T/src/bench/x/c.c" "$T/src/bench/x/d.c"; then
	fail families/gen-refuses-same-order "accepted"
elif grep -q 'names two files' "$T/gen.err"; then pass families/gen-refuses-same-order
else fail families/gen-refuses-same-order "$(cat "$T/gen.err")"; fi
if TORDER="$(printf 'x/c.c\nx/gone.c')" gen "$T/src/bench/x/c.c"; then
	fail families/gen-refuses-stale-line "accepted"
elif grep -q 'names x/gone.c, in no descriptor' "$T/gen.err"; then pass families/gen-refuses-stale-line
else fail families/gen-refuses-stale-line "$(cat "$T/gen.err")"; fi
# the order is the lists': d before c in plumb list, c's metrics and d's sharing a rank
if TORDER="$(printf 'x/d.c\nx/c.c')" MORDER='x/c.c x/d.c' gen "$T/src/bench/x/c.c" "$T/src/bench/x/d.c" &&
   [ "$(grep -o '&toolfile_[cd]\(\.metrics, [0-9]*\)\?' "$T/gen.c" | tr '\n' ' ')" = \
     "&toolfile_d &toolfile_c &toolfile_d.metrics, 1 &toolfile_c.metrics, 1 " ]; then
	pass families/gen-order-from-lists
else fail families/gen-order-from-lists "$(cat "$T/gen.err"; grep toolfile_ "$T/gen.c" | tr '\n' ' ')"; fi
toolfile "$T/src/bench/x/e.c" e '.sign = POSITIVE, .x = { .kind = X_NONE }, .work = "x"'
if gen "$T/src/bench/x/e.c"; then fail families/gen-refuses-metric-without-noise "accepted"
elif grep -q "1 metrics and 0 '.noise = '" "$T/gen.err"; then pass families/gen-refuses-metric-without-noise
else fail families/gen-refuses-metric-without-noise "$(cat "$T/gen.err")"; fi
toolfile "$T/src/bench/x/g.c" g '.sign = POSITIVE, .noise = NOISE_UNMEASURED'
if gen "$T/src/bench/x/g.c"; then fail families/gen-refuses-metric-without-abscissa "accepted"
elif grep -q "1 metrics and 0 '.x = { .kind = '" "$T/gen.err"; then pass families/gen-refuses-metric-without-abscissa
else fail families/gen-refuses-metric-without-abscissa "$(cat "$T/gen.err")"; fi

# mk/charts.sh, the chart kinds' table made the same way: a kind per declaring line, in the
# order list's order with its `*` standing for the kinds it does not name; a row naming a kind
# no file declares, a kind declared twice and a stale line of the list are refused
kind() { printf 'const struct chart_kind chart_kind_%s = { .kind = "%s", .fn = f };\n' "$2" "$2" >"$1"; }
mkdir -p "$T/src/analysis"
kind "$T/src/analysis/k1.c" alpha
kind "$T/src/analysis/k2.c" beta
kind "$T/src/analysis/k3.c" gamma
printf 'gamma\n*\nalpha\n' >"$T/charts.order"
printf '\t  .chart = "beta",\n' >"$T/src/bench/x/row.c"
charts() { sh mk/charts.sh -o "$T/charts.order" "$@" >"$T/charts.c" 2>"$T/charts.err"; }
if charts "$T/src/analysis/k1.c" "$T/src/analysis/k2.c" "$T/src/analysis/k3.c" "$T/src/bench/x/row.c" &&
   [ "$(grep -o '&chart_kind_[a-z]*' "$T/charts.c" | tr '\n' ' ')" = \
     "&chart_kind_gamma &chart_kind_beta &chart_kind_alpha " ]; then
	pass families/charts-collected-in-order
else fail families/charts-collected-in-order "$(cat "$T/charts.err"; grep chart_kind_ "$T/charts.c" | tr '\n' ' ')"; fi
printf '\t  .chart = "delta",\n' >"$T/src/bench/x/row2.c"
if charts "$T/src/analysis/k1.c" "$T/src/analysis/k2.c" "$T/src/analysis/k3.c" "$T/src/bench/x/row2.c"; then
	fail families/charts-refuse-undrawn-row "accepted"
elif grep -q '.chart = "delta" names no chart kind' "$T/charts.err"; then pass families/charts-refuse-undrawn-row
else fail families/charts-refuse-undrawn-row "$(cat "$T/charts.err")"; fi
kind "$T/src/analysis/k4.c" beta
if charts "$T/src/analysis/k1.c" "$T/src/analysis/k2.c" "$T/src/analysis/k3.c" "$T/src/analysis/k4.c"; then
	fail families/charts-refuse-twice "accepted"
elif grep -q 'beta declared twice' "$T/charts.err"; then pass families/charts-refuse-twice
else fail families/charts-refuse-twice "$(cat "$T/charts.err")"; fi
if charts "$T/src/analysis/k1.c" "$T/src/analysis/k2.c"; then fail families/charts-refuse-stale-line "accepted"
elif grep -q 'names gamma, which no file declares' "$T/charts.err"; then pass families/charts-refuse-stale-line
else fail families/charts-refuse-stale-line "$(cat "$T/charts.err")"; fi

# run --help names the families and the aliases; an unknown id lists both.
"$PLUMB" run --help >"$T/help" 2>&1
if grep -q 'sys, proc, ipc' "$T/help" && grep -q 'memory (bw_mem)' "$T/help" &&
   grep -q 'caches (tlb par_mem line cache)' "$T/help"; then pass families/run-help
else fail families/run-help "$(grep -i -A3 famil "$T/help" | head -5)"; fi
"$PLUMB" run --only nosuch 2>"$T/uf" >/dev/null
if grep -q 'valid: sys, .*memory' "$T/uf"; then pass families/unknown-lists-both
else fail families/unknown-lists-both "$(cat "$T/uf")"; fi
