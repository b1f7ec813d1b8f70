# netns.sh — remote mode across a real (virtual) link: two network namespaces joined by a veth
# pair, `plumb serve --bind` in one, lat_tcp, lat_udp, lat_connect, bw_tcp (and lat_rpc) from the
# other. The namespaces, the link and the 10.x addresses exist only for this test and are
# deleted at the end, also when the test is interrupted. Skips when namespaces cannot be made
# (no `ip`, not root, no permission).
. tests/lib.sh
if ! command -v ip >/dev/null 2>&1; then
	skip net/netns "the ip command (iproute2) is not installed"
	exit 0
fi
A=plumbA$$ B=plumbB$$ VA=plva$$ VB=plvb$$
NET=10.231.$(($$ % 250 + 1))
SA=$NET.1 CA=$NET.2
SP=
teardown() {
	[ -n "$SP" ] && kill "$SP" 2>/dev/null && wait "$SP" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	rm -rf "$T"
}
trap teardown EXIT
trap 'exit 1' INT TERM HUP
if ! ip netns add "$A" 2>"$T/err"; then
	skip net/netns "cannot create a network namespace ($(head -c 120 "$T/err")); needs root"
	exit 0
fi
if ! ip netns add "$B" 2>"$T/err" ||
   ! ip link add "$VA" netns "$A" type veth peer name "$VB" netns "$B" 2>"$T/err" ||
   ! ip -n "$A" addr add "$SA/24" dev "$VA" || ! ip -n "$B" addr add "$CA/24" dev "$VB" ||
   ! ip -n "$A" link set "$VA" up || ! ip -n "$B" link set "$VB" up ||
   ! ip -n "$A" link set lo up || ! ip -n "$B" link set lo up; then
	skip net/netns "cannot set up the veth pair ($(head -c 120 "$T/err"))"
	exit 0
fi
BASE=41000
ip netns exec "$A" "$PLUMB" serve --bind "$SA" --port $BASE >"$T/serve" 2>&1 &
SP=$!
sleep 0.5
check net/netns-serve-up grep -q "tcp $SA port $BASE" "$T/serve"
run_b() { ip netns exec "$B" "$PLUMB" "$@"; }
run_b lat_tcp -b $BASE "$SA" >"$T/tcp" 2>&1
check net/netns-tcp grep -Eq "^TCP latency using $SA: [0-9]+\.[0-9]{4} microseconds$" "$T/tcp"
v=$(field "$T/tcp" '^TCP latency' 5)
if between "$v" 1 10000; then pass net/netns-tcp-plausible; else fail net/netns-tcp-plausible "$v"; fi
run_b lat_udp -b $BASE "$SA" >"$T/udp" 2>&1
check net/netns-udp grep -Eq "^UDP latency using $SA: [0-9]+\.[0-9]{4} microseconds$" "$T/udp"
run_b lat_connect -b $BASE "$SA" >"$T/con" 2>&1
check net/netns-connect grep -Eq "^TCP/IP connection cost to $SA: [0-9]+\.[0-9]{4} microseconds$" "$T/con"
run_b bw_tcp -m 64k -b $BASE "$SA" >"$T/bw" 2>&1
check net/netns-bw_tcp grep -Eq '^0\.065536 [0-9]+\.[0-9]{2} MB/sec$' "$T/bw"
if grep -q 'rpc ' "$T/serve"; then
	run_b lat_rpc -b $BASE "$SA" >"$T/rpc" 2>&1
	check net/netns-rpc grep -Eq "^RPC/udp latency using $SA: " "$T/rpc"
fi
# A port nobody serves across the link: the measurement cannot be made (exit 3), no hang.
run_b lat_tcp -N 1 -b $((BASE + 100)) "$SA" >"$T/refused" 2>&1
rc=$?
if [ $rc -eq 3 ]; then pass net/netns-unserved-port-exit3; else fail net/netns-unserved-port-exit3 "rc=$rc"; fi
kill "$SP"
wait "$SP" 2>/dev/null
SP=
pass net/netns-teardown
