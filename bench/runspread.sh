#!/bin/sh
# bench/runspread.sh [RUNS] [CONFIG...] — run-to-run against within-run spread of a few metrics
# (lat_syscall null, lat_pipe, bw_mem rd and lat_mem_rd at 8 MiB): RUNS (default 8) separate short
# runs of this build per configuration, the configurations interleaved run by run so that the
# machine's load hits them alike, then bench/runspread.py. A configuration is a quoted list of
# run options added to every run of it: the default compares plumb's placement (one fixed CPU)
# with `--cpu none` (the scheduler places each round's process anew); a later --repeat in a
# configuration overrides the 3 rounds. ONLY=STEPS changes the steps. Not part of CI; prints
# the machine's load before and after, since other work on the machine moves every figure.
set -u
cd "$(dirname "$0")/.."
runs=${1:-8}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "" "--cpu none"
ONLY=${ONLY:-lat_syscall.null,lat_pipe,bw_mem.8m,lat_mem_rd.8}
BASE="--only $ONLY --mem 8m --repeat 3 --no-store"
dir=$(mktemp -d "${TMPDIR:-/tmp}/runspread.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
	c=0
	for cfg in "$@"; do
		c=$((c + 1))
		# shellcheck disable=SC2086
		bin/plumb run $BASE $cfg -o "$dir/c$c-$i.json" >/dev/null 2>&1 ||
			echo "run $i of config $c failed" >&2
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
c=0
args=""
for cfg in "$@"; do
	c=$((c + 1))
	files=$(ls "$dir"/c$c-*.json 2>/dev/null | tr '\n' ',')
	name=$(echo "${cfg:-pinned}" | tr -d ' -')
	args="$args $name=$files"
done
# shellcheck disable=SC2086
python3 bench/runspread.py $args
