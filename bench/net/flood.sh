#!/bin/sh
# flood.sh — plumb serve under a flood of idle connections: `plumb serve --port BASE`, then
# bin/flood opens N loopback connections that never send a byte, then a real lat_tcp and
# lat_connect client measure against the flooded server; prints how long each took to be
# served (or its error). Loopback only. Usage (repository root, after `make bin/flood`):
#   sh bench/net/flood.sh [PLUMB] [N] [BASE]       (default bin/plumb 1000 42000)
P=${1:-bin/plumb}; N=${2:-1000}; B=${3:-42000}
FLOOD=$(dirname "$0")/../../bin/flood
[ -x "$FLOOD" ] || { echo "flood.sh: build bin/flood first (make bin/flood)" >&2; exit 2; }
D=$(mktemp -d)
trap 'kill $fp $sp 2>/dev/null; wait 2>/dev/null; rm -rf "$D"' EXIT
now() { date +%s.%N; }
"$P" serve --port "$B" >"$D/serve" 2>&1 & sp=$!
while ! grep -q http "$D/serve"; do kill -0 $sp 2>/dev/null || { cat "$D/serve"; exit 1; }; sleep 0.05; done
"$FLOOD" "$B" "$N" 120 >"$D/flood" & fp=$!
while [ ! -s "$D/flood" ]; do kill -0 $fp 2>/dev/null || exit 1; sleep 0.05; done
echo "flood: $(cat "$D/flood") idle connections to port $B"
for tool in lat_tcp lat_connect; do
	t0=$(now)
	ENOUGH=${ENOUGH:-2000} timeout 60 "$P" $tool -N 3 -b "$B" 127.0.0.1 >"$D/out" 2>&1; rc=$?
	t1=$(now)
	echo "$tool: exit $rc after $(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.2f", b - a }') s: $(tail -n1 "$D/out")"
done
