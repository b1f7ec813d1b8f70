#!/bin/sh
# registry.sh [-t TOOLS_ORDER] [-m METRICS_ORDER] FILE... — write the registry of tools and
# metrics (C, on stdout) from the descriptors at the end of src/bench/FAMILY/*.c, as the
# Makefile makes the symlinks from their TOOL(" lines: nobody keeps a list of families, tools
# or metrics by hand. A descriptor is one line (bench/tool.h),
#   const struct tool_file toolfile_NAME = { "ALIAS", SUBSET, "what", tools, metrics };
# and its family id is its folder's name. The order is by construction, no number in a file:
# entries follow the line each file is on in TOOLS_ORDER (default mk/tools.order: the order of
# `plumb list` and `plumb --help`), and each file's metrics get the rank of its line in
# METRICS_ORDER (default mk/metrics.order: docs/metrics.md's order); a file a list does not name
# follows the ones it names, in path order, on a place of its own. Besides registry[], it
# writes metric_sets[] (every file's declared metrics and their rank) and metric_owners[] (each
# tool with its file's metrics: what it may record). Exits 1 with one line on stderr when a file
# with TOOL rows has no descriptor or a descriptor no metrics, when a file's metrics[] table
# declares no metric or one without .noise, .sign or .x (its noise, sign rule and abscissa), when
# an order list names a file twice or a file no descriptor is in, when a line of TOOLS_ORDER
# names two files, or when a folder is named os or hardware (those are --subset values).
set -eu
mk=$(dirname "$0")
tools_order=$mk/tools.order metrics_order=$mk/metrics.order
while getopts t:m: o; do
	case $o in
	t) tools_order=$OPTARG ;;
	m) metrics_order=$OPTARG ;;
	*) echo "usage: registry.sh [-t TOOLS_ORDER] [-m METRICS_ORDER] FILE..." >&2; exit 1 ;;
	esac
done
shift $((OPTIND - 1))
# entries LIST: "RANK PATH" for every path LIST names, RANK its line among the lines naming files
entries() { awk '/^[[:space:]]*(#|$)/ { next } { n++; for (i = 1; i <= NF; i++) print n, $i }' "$1"; }
for list in "$tools_order" "$metrics_order"; do
	[ -r "$list" ] || { echo "registry.sh: cannot read $list" >&2; exit 1; }
	twice=$(entries "$list" | awk '{ print $2 }' | sort | uniq -d)
	if [ -n "$twice" ]; then
		echo "registry.sh: $list names $(echo $twice) twice" >&2
		exit 1
	fi
done
two=$(entries "$tools_order" | awk '{ print $1 }' | uniq -d | head -1)
if [ -n "$two" ]; then
	echo "registry.sh: $tools_order: line $two of its file lines names two files (tools never share a place)" >&2
	exit 1
fi
unsorted=$(for f in "$@"; do
	line=$(grep -E '^const struct tool_file toolfile_[a-z0-9_]+ = \{' "$f" || true)
	if [ -z "$line" ]; then
		if grep -q '^[[:space:]]*TOOL("' "$f"; then
			echo "registry.sh: $f has TOOL rows but no 'const struct tool_file toolfile_' line" >&2
			exit 1
		fi
		continue
	fi
	sym=$(printf '%s\n' "$line" | sed -E 's/^const struct tool_file (toolfile_[a-z0-9_]+) = .*/\1/')
	dir=$(dirname "$f")
	fam=$(basename "$dir")
	key=$fam/$(basename "$f")
	if [ "$fam" = bench ]; then
		echo "registry.sh: $f: a tool file belongs in a family folder, src/bench/FAMILY/" >&2
		exit 1
	fi
	if ! printf '%s\n' "$line" | grep -qE ', tools, metrics \};$'; then
		echo "registry.sh: $f: the descriptor must end '..., tools, metrics };'" >&2
		exit 1
	fi
	order=$(entries "$tools_order" | awk -v k="$key" '$2 == k { print $1 }')
	morder=$(entries "$metrics_order" | awk -v k="$key" '$2 == k { print $1 }')
	# every declared metric has its noise, sign rule and abscissa (core/metrics.h): counted in
	# the file's metrics[] table
	table=$(sed -n '/^static const struct metric_def metrics\[[A-Z_ +0-9]*\] = {/,/^};/p' "$f")
	nm=$(printf '%s\n' "$table" | grep -c '[{(,][[:space:]]*\.id = ' || true)
	if [ "$nm" -eq 0 ]; then
		echo "registry.sh: $f: its metrics[] table declares no metric (rows start '{ .id = ')" >&2
		exit 1
	fi
	for field in '.noise = ' '.sign = ' '.x = { .kind = '; do
		n=$(printf '%s\n' "$table" | grep -cF "$field" || true)
		if [ "$n" -ne "$nm" ]; then
			echo "registry.sh: $f: its metrics[] table declares $nm metrics and $n '$field' (each row needs .noise, .sign and .x = { .kind = ... })" >&2
			exit 1
		fi
	done
	case $fam in os|hardware)
		echo "registry.sh: $dir: a family may not be named $fam (a --subset value)" >&2
		exit 1 ;;
	esac
	printf '%s %s %s %s %s %s\n' "${order:--}" "${morder:--}" "$fam" "$sym" "$f" "$key"
done) || exit 1
# a file a list does not name follows the files it names, in path order, each on a place of its own
nt=$(entries "$tools_order" | tail -n 1 | awk '{ print $1 }')
nm=$(entries "$metrics_order" | tail -n 1 | awk '{ print $1 }')
rows=$(printf '%s\n' "$unsorted" | sort -k6,6 |
	awk -v nt="${nt:-0}" -v nm="${nm:-0}" '$1 == "-" { $1 = nt + (++t) } $2 == "-" { $2 = nm + (++m) } { print }' |
	sort -k1,1n)
# a file an order list names that no descriptor is in: a stale line
for list in "$tools_order" "$metrics_order"; do
	stale=$(entries "$list" | awk '{ print $2 }' | while read -r k; do
		printf '%s\n' "$rows" | awk -v k="$k" '$6 == k { f = 1 } END { exit !f }' || printf '%s ' "$k"
	done)
	if [ -n "$stale" ]; then
		echo "registry.sh: $list names ${stale% }, in no descriptor given" >&2
		exit 1
	fi
done
echo "/* Generated by mk/registry.sh from the descriptors in src/bench/, mk/tools.order and mk/metrics.order: do not edit. */"
echo '#include "bench/tool.h"'
echo
printf '%s\n' "$rows" | awk '{ print "extern const struct tool_file " $4 ";" }'
echo
echo "const struct registered registry[] = {"
printf '%s\n' "$rows" | awk '{ printf "\t{ \"%s\", &%s }, /* %s */\n", $3, $4, $5 }'
echo "	{ 0, 0 },"
echo "};"
echo
echo "const struct metric_set metric_sets[] = {"
printf '%s\n' "$rows" | awk '{ printf "\t{ &%s.metrics, %s },\n", $4, $2 }'
echo "	{ 0, 0 },"
echo "};"
echo
echo "const struct metric_owner metric_owners[] = {"
i=0
printf '%s\n' "$rows" | while read -r order morder fam sym f key; do
	sed -n 's/^[[:space:]]*TOOL("\([a-z0-9_]*\)".*/\1/p' "$f" | while read -r tool; do
		printf '\t{ "%s", &metric_sets[%d] },\n' "$tool" "$i"
	done
	i=$((i + 1))
done
echo "	{ 0, 0 },"
echo "};"
