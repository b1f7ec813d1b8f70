# cpuops.sh — lat_ops, par_ops, mhz, memsize: lmbench's lines, physical plausibility, usage errors.
. tests/lib.sh
# Chains need no long samples; short ones dodge the time slices of other processes on a busy
# machine, which would otherwise move the median.
export ENOUGH=500
arch=$(uname -m)

# ---- lat_ops: the 18 lines, in lmbench's order, on stderr through the lmbench name ----------
"$BIN/lat_ops" 2>"$T/lat" >"$T/lat.out"
check ops/lat-stdout-empty test ! -s "$T/lat.out"
cat >"$T/labels" <<EOF
integer bit
integer add
integer mul
integer div
integer mod
int64 bit
int64 add
int64 mul
int64 div
int64 mod
float add
float mul
float div
double add
double mul
double div
float bogomflops
double bogomflops
EOF
sed 's/: .*//' "$T/lat" >"$T/got"
check ops/lat-18-labels-in-order cmp -s "$T/labels" "$T/got"
n=$(grep -Ec '^[a-z0-9]+ [a-z]+: [0-9]+\.[0-9]{2} nanoseconds$' "$T/lat")
if [ "$n" -eq 18 ]; then pass ops/lat-format; else fail ops/lat-format "$n of 18 lines match"; fi
lat() { awk -v l="$1:" 'index($0, l) == 1 { print $(NF - 1); exit }' "$T/lat"; }
add=$(lat "integer add"); div=$(lat "integer div"); mul=$(lat "integer mul")
add64=$(lat "int64 add"); div64=$(lat "int64 div"); mul64=$(lat "int64 mul")
if lt "$add" "$div"; then pass ops/div-slower-than-add; else fail ops/div-slower-than-add "add=$add div=$div"; fi
if lt "$add64" "$div64"; then pass ops/int64-div-slower-than-add; else fail ops/int64-div-slower-than-add "add=$add64 div=$div64"; fi
# lmbench prints "integer add: 0.00" on this kind of machine (folded chain); plumb must not
if [ "$add" != "0.00" ] && lt 0 "$add"; then pass ops/add-not-zero; else fail ops/add-not-zero "$add"; fi
if lt "$(lat "float add")" "$(lat "float div")"; then pass ops/fdiv-slower-than-fadd; else fail ops/fdiv-slower-than-fadd "$(grep float "$T/lat" | tr '\n' ' ')"; fi
# the seed article's filter, through the symlink
v=$("$BIN/lat_ops" 2>&1 | grep "^float mul:" | cut -f3 -d" ")
if isnum "$v"; then pass ops/seed-float-mul-filter; else fail ops/seed-float-mul-filter "got '$v'"; fi

# ---- mhz: the line, and physics: an add takes one cycle, a multiply a whole number ------------
# mhz gives up ("-1 System too busy", exit 3) when its two chains never agree, which a busy
# moment (or a guest whose host moves its clock) can cause: a wrong format or a wrong clock is
# wrong every time, so a refusal is measured again, up to 3 times in all
mhz_line() { for i in 1 2 3; do "$BIN/mhz" >"$T/mhz" 2>"$T/mhz.err" && return 0; cat "$T/mhz.err" >>"$T/mhz.refused"; done; return 1; }
if ! mhz_line; then fail ops/mhz-refused "3 refusals: $(head -c 300 "$T/mhz.refused")"; fi
check ops/mhz-line grep -Eq '^[0-9]+ MHz, [0-9]+\.[0-9]{4} nanosec clock$' "$T/mhz"
check ops/mhz-stderr-empty test ! -s "$T/mhz.err"
mhz=$(awk '{ print $1; exit }' "$T/mhz")
# mhz_value env [VAR=V]: the clock in MHz, measured again (up to 3 times) while mhz refuses
mhz_value() { for i in 1 2 3; do v=$("$@" "$PLUMB" mhz 2>/dev/null | awk '{ print $1; exit }'); [ "${v:--1}" != -1 ] && break; done; echo "$v"; }
mhzc() { for i in 1 2 3; do "$BIN/mhz" -c | grep -Eq '^[0-9]+\.[0-9]{4}$' && return 0; done; return 1; }
check ops/mhz-c mhzc
cyc=$(awk -v a="$add" -v m="$mhz" 'BEGIN { print a * m / 1000 }')
# a busy moment slows one measurement: out of range, lat_ops is measured again (up to 2 more
# times); a wrong loop or clock is out of range every time
for again in 1 2; do
	between "$cyc" 0.6 1.6 && break
	"$BIN/lat_ops" 2>"$T/lat" >/dev/null
	add=$(lat "integer add")
	cyc=$(awk -v a="$add" -v m="$mhz" 'BEGIN { print a * m / 1000 }')
done
if between "$cyc" 0.6 1.6; then pass ops/add-one-cycle; else fail ops/add-one-cycle "add=$add ns at $mhz MHz = $cyc cycles"; fi
# the steady figures (median short batches): one for each of the 16 chains, and physics again:
# the add's median takes one cycle, a divide more than an add (up to 3 tries: a busy moment)
for again in 1 2 3; do
	"$PLUMB" lat_ops -N 3 --json >"$T/latj" 2>/dev/null
	set -- $(python3 -c 'import json, sys
r = {x["metric"]: x for x in json.load(open(sys.argv[1]))["results"]}
st = [m for m in r if m.endswith(".steady") and r[m]["info"].get("steady") == "batches"]
print(len(st), r["lat_ops.integer_add.steady"]["value"], r["lat_ops.integer_div.steady"]["value"])' "$T/latj" 2>/dev/null)
	scyc=$(awk -v a="${2:-0}" -v m="$mhz" 'BEGIN { print a * m / 1000 }')
	[ "${1:-0}" -eq 16 ] && between "$scyc" 0.6 1.6 && lt "$2" "$3" && break
done
if [ "${1:-0}" -eq 16 ] && between "$scyc" 0.6 1.6 && lt "$2" "$3"; then pass ops/steady-add-one-cycle
else fail ops/steady-add-one-cycle "twins=${1:-none} add=${2:-?} ns ($scyc cycles at $mhz MHz) div=${3:-?} ns"; fi
nom=$("$PLUMB" sysinfo | awk '$1 == "nominal_mhz" { print $2 }')
# the lowest clock the kernel's frequency driver may choose (none in most guests): a CPU held at
# its lowest clock (powersave) runs far below its nominal one, and that is not an error
fmin=$(cat /sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq 2>/dev/null)
if [ -n "$nom" ] && lt 0 "$nom"; then
	lo=$(awk -v n="$nom" -v f="$fmin" 'BEGIN { print 0.9 * (f + 0 > 0 ? f / 1000 : n) }'); hi=$(awk -v n="$nom" 'BEGIN { print 2 * n }')
	if between "$mhz" "$lo" "$hi"; then pass ops/mhz-vs-nominal; else fail ops/mhz-vs-nominal "mhz=$mhz nominal=$nom lowest=${fmin:-?} kHz"; fi
else
	skip ops/mhz-vs-nominal "the kernel reports no nominal clock"
fi
# An independent chain of another instruction: lat_ops' int64 multiply (C code, not mhz's asm),
# read in cycles of mhz's clock, is a whole number of cycles (1 to 8: 3 on current x86-64 cores,
# 4 to 6 on older and smaller ones) on any CPU. The two are measured back to back; a busy
# machine or a clock change between them can move the ratio off a whole number once, so a miss
# is measured again, up to 3 times in all: a wrong clock is wrong every time.
whole() { awk -v c="$1" 'BEGIN { r = int(c + 0.5); d = c - r; if (d < 0) d = -d; exit !(r >= 1 && r <= 8 && d <= 0.1 * r) }'; }
mc=$(awk -v a="$mul64" -v m="$mhz" 'BEGIN { print a * m / 1000 }')
tries="$mc"; n=1
while ! whole "$mc" && [ $n -lt 3 ]; do
	n=$((n + 1))
	m2=$(mhz_value env)
	u2=$("$PLUMB" lat_ops 2>&1 | awk 'index($0, "int64 mul:") == 1 { print $(NF - 1); exit }')
	mc=$(awk -v a="$u2" -v m="$m2" 'BEGIN { print a * m / 1000 }')
	tries="$tries, $u2 ns at $m2 MHz = $mc"
done
if whole "$mc"; then pass ops/mhz-agrees-with-mul; else fail ops/mhz-agrees-with-mul "int64 mul = $tries cycles: not a whole number in $n tries (first: $mul64 ns at $mhz MHz)"; fi
# the portable C chains find the same clock as the assembly ones. A guest's clock moves by 10 %
# within seconds, so the two are measured back to back, and again (up to 3 times in all) when
# they differ: wrong chains are wrong every time.
pm=$(mhz_value env PLUMB_PORTABLE=1)
am=$mhz; tries="portable=$pm asm=$am"; n=1
r=$(awk -v a="$pm" -v b="$am" 'BEGIN { print a / b }')
while ! between "$r" 0.9 1.1 && [ $n -lt 3 ]; do
	n=$((n + 1))
	am=$(mhz_value env)
	pm=$(mhz_value env PLUMB_PORTABLE=1)
	r=$(awk -v a="$pm" -v b="$am" 'BEGIN { print a / b }')
	tries="$tries; portable=$pm asm=$am"
done
if between "$r" 0.9 1.1; then pass ops/mhz-portable-agrees; else fail ops/mhz-portable-agrees "$tries ($n tries)"; fi
for i in 1 2 3; do "$PLUMB" mhz --json >"$T/mj" 2>/dev/null && break; done
check ops/mhz-json-mul-cycles grep -Eq '"mul_cycles": [2-8]' "$T/mj"

# ---- the chains survive the compiler: count the instructions in the binary ---------------------
if [ "$arch" = x86_64 ] && command -v objdump >/dev/null 2>&1; then
	objdump -d --no-show-raw-insn "$BIN/plumb" >"$T/dis" 2>/dev/null
	count() { awk -v f="<$1>:" -v re="$2" '$2 == f { on = 1; next } on && /^$/ { exit } on && $0 ~ re { n++ } END { print n + 0 }' "$T/dis"; }
	a=$(count lat_integer_add '\t(add|sub) +%e')
	if [ "$a" -ge 100 ]; then pass ops/asm-add-chain; else fail ops/asm-add-chain "$a 32-bit add/sub in lat_integer_add, want 100"; fi
	d=$(count lat_int64_div '\tdiv +%r')
	if [ "$d" -ge 100 ]; then pass ops/asm-int64-div-64bit; else fail ops/asm-int64-div-64bit "$d 64-bit divs in lat_int64_div"; fi
	m=$(count lat_int64_mul '\timul +%r')
	if [ "$m" -ge 100 ]; then pass ops/asm-int64-mul-64bit; else fail ops/asm-int64-mul-64bit "$m 64-bit imuls"; fi
	f=$(count lat_float_mul '\tv?mulss')
	if [ "$f" -ge 100 ]; then pass ops/asm-float-mul-scalar; else fail ops/asm-float-mul-scalar "$f mulss"; fi
else
	skip ops/asm-chains "needs x86-64 and objdump"
fi

# ---- par_ops: 16 lines, every figure >= 1, float mul overlaps on x86-64 -------------------------
"$BIN/par_ops" -N 4 2>"$T/par"
sed 's/ parallelism: .*//' "$T/par" >"$T/got"
grep -v bogomflops "$T/labels" >"$T/plabels"
check ops/par-16-labels-in-order cmp -s "$T/plabels" "$T/got"
n=$(grep -Ec '^[a-z0-9]+ [a-z]+ parallelism: [0-9]+\.[0-9]{2}$' "$T/par")
if [ "$n" -eq 16 ]; then pass ops/par-format; else fail ops/par-format "$n of 16 lines match"; fi
bad=$(awk '$NF + 0 < 1' "$T/par" | head -1)
if [ -z "$bad" ] && [ -s "$T/par" ]; then pass ops/par-at-least-1; else fail ops/par-at-least-1 "$bad"; fi
fm=$(awk '/^float mul parallelism/ { print $NF }' "$T/par")
if [ "$arch" = x86_64 ]; then
	if lt 1.5 "$fm"; then pass ops/par-float-mul; else fail ops/par-float-mul "float mul parallelism $fm"; fi
fi
# the steady twins: the same ratio from median short batches, one per type; the float
# multiplier overlaps by them too on x86-64
"$PLUMB" par_ops -N 4 --json >"$T/parj" 2>/dev/null
set -- $(python3 -c 'import json, sys
r = {x["metric"]: x for x in json.load(open(sys.argv[1]))["results"]}
st = [m for m in r if m.endswith(".steady") and r[m]["info"].get("steady") == "batches" and r[m]["value"] >= 1]
print(len(st), r["par_ops.float_mul.steady"]["value"])' "$T/parj" 2>/dev/null)
if [ "${1:-0}" -eq 16 ] && { [ "$arch" != x86_64 ] || lt 1.5 "$2"; }; then pass ops/par-steady
else fail ops/par-steady "twins of at least 1: ${1:-none}; float mul ${2:-?}"; fi

# ---- memsize: within what the kernel says is available, honours a small argument ---------------
# memsize stops early when touching pages slows down for three steps in a row (reclaim); a CPU
# shared with other work can look like that once, so a short answer is asked again, up to 3
# times in all (memory that is there is there every time)
for i in 1 2 3; do
	"$BIN/memsize" 64 >"$T/ms" 2>"$T/ms.err"
	grep -qx 64 "$T/ms" && break
done
check ops/memsize-small-arg grep -qx 64 "$T/ms"
check ops/memsize-quiet-off-tty test ! -s "$T/ms.err"
availk=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
ms=$("$BIN/memsize" 512)
if isnum "$ms" && lt 0 "$ms" && ! lt $((availk / 1024)) "$ms" && ! lt 512 "$ms"; then
	pass ops/memsize-within-available
else
	fail ops/memsize-within-available "memsize=$ms MemAvailable=$((availk / 1024)) MiB"
fi
"$PLUMB" memsize 32 --json >"$T/msj"
check ops/memsize-json grep -q '"metric": "memsize.mib"' "$T/msj"

# ---- bad input: one line, exit 2 ------------------------------------------------------------------
expect_usage ops/usage-lat-operand "$PLUMB" lat_ops extra
expect_usage ops/usage-lat-bad-N "$PLUMB" lat_ops -N abc
expect_usage ops/usage-par-operand "$PLUMB" par_ops 3
expect_usage ops/usage-mhz-operand "$PLUMB" mhz 5
expect_usage ops/usage-mhz-unknown "$PLUMB" mhz -x
expect_usage ops/usage-memsize-word "$PLUMB" memsize lots
expect_usage ops/usage-memsize-suffix "$PLUMB" memsize 12q
expect_usage ops/usage-memsize-two "$PLUMB" memsize 1 2
expect_usage ops/usage-memsize-huge "$PLUMB" memsize 99999999999999999
