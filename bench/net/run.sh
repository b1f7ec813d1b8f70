#!/bin/sh
# bench/net/run.sh — measure plumb's network benchmarks on this machine and compare bw_tcp at
# 10 MiB messages with iperf3 on loopback in the same run, with the same CPU placement.
#   sh bench/net/run.sh            (from the top of the tree, after make)
# Needs iperf3 (Debian: apt-get install iperf3) for the comparison; the rest runs without it.
# Results: bench/net/README.md records the latest figures by hand.
cd "$(dirname "$0")/../.." || exit 2
P=bin/plumb
[ -x $P ] || { echo "build first: make" >&2; exit 2; }
ncpu=$(nproc)
last=$((ncpu - 1))

echo "## latency (default placement: client and server on CPU $last)"
for t in lat_tcp lat_udp lat_connect lat_unix_connect "lat_rpc" lat_http; do $P $t; done
echo "## bandwidth"
echo "bw_tcp by message size (suite sizes):"
for m in 1 64 128 256 512 1024 1437 64k 10m; do $P bw_tcp -m $m; done
$P bw_unix
$P bw_pipe
$P bw_udp

mbs_iperf() { # iperf3 -J output on stdin -> received MB/s (10^6 bytes)
	python3 -c 'import json,sys; print("%.2f" % (json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]/8e6))'
}
if command -v iperf3 >/dev/null 2>&1; then
	port=$((45000 + $$ % 1000))
	for place in spread one; do
		if [ $place = one ]; then
			pre="taskset -c $last"; popt="--cpu $last"
		else
			pre=""; popt="--cpu none"
		fi
		# iperf3's default 128 KiB writes, then its largest, 1 MiB
		for len in 128K 1M; do
			$pre iperf3 -s -1 -p $port >/dev/null 2>&1 &
			sp=$!
			sleep 0.5
			ip=$($pre iperf3 -c 127.0.0.1 -p $port -t 5 -l $len -J | mbs_iperf)
			kill $sp 2>/dev/null; wait $sp 2>/dev/null
			pb=$($P bw_tcp -m 10m $popt | awk '{ print $2 }')
			echo "placement=$place: iperf3 -l $len $ip MB/s, bw_tcp -m 10m $pb MB/s," \
				"ratio $(awk -v a="$pb" -v b="$ip" 'BEGIN { printf "%.2f", a / b }')"
		done
	done
else
	echo "iperf3 not installed: no comparison (apt-get install iperf3)"
fi
