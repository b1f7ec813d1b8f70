#!/bin/sh
# machine.sh — what a run records about the machine beyond its CPU: the caches from every
# source (sysfs, CPUID, sysconf, the measured latency knee), each level with its source, shown
# with sysfs hidden (PLUMB_CACHE_SOURCES, the testing knob) and marked on the report's charts;
# the kernel's clock source, command line, audit and CPU vulnerabilities as the files say; and
# compare naming a kernel setting that differs between its sides.
. tests/lib.sh
export PLUMB_DB="$T/store.db" # never touch the user's store
unset PLUMB_LLC PLUMB_MEM_KNEE PLUMB_CACHE_SOURCES PLUMB_MEM_NO_SYSFS

# fact FILE KEY: the value of KEY in `plumb sysinfo`'s text output
fact() { sed -n "s/^$2 \{1,\}//p" "$1" | head -n 1; }
# levels FILE: the level size keys present (cache_l1d, cache_l2, ...)
levels() { awk '$1 ~ /^cache_l[0-9]+d?$/ { print $1 }' "$1"; }
# sources_ok FILE ALLOWED...: every level has a _source fact among ALLOWED
sources_ok() {
	f=$1; shift
	for k in $(levels "$f"); do
		s=$(fact "$f" "${k}_source")
		case " $* " in *" $s "*) ;; *) echo "$k source '$s'"; return 1 ;; esac
	done
}
x86=0
case "$(uname -m)" in x86_64 | i?86) x86=1 ;; esac

# ---- caches: every level recorded with its source -----------------------------------------
"$PLUMB" sysinfo >"$T/all" 2>"$T/err"
if [ -n "$(levels "$T/all")" ]; then
	check machine/cache-sources-recorded sources_ok "$T/all" sysfs cpuid sysconf
else
	skip machine/cache-sources-recorded "no source reports a cache size here"
fi
expect_usage machine/cache-sources-bad-word env PLUMB_CACHE_SOURCES=bogus "$PLUMB" sysinfo

# sysfs hidden: on x86 CPUID (or glibc's sysconf) gives the sizes, and they are the sizes sysfs
# gives where it has them (the kernel reads the same CPUID; within 2x for hybrid CPUs)
PLUMB_CACHE_SOURCES=cpuid,sysconf "$PLUMB" sysinfo >"$T/nosysfs" 2>&1
l1=$(fact "$T/nosysfs" cache_l1d)
if [ $x86 = 1 ]; then
	if [ -z "$(levels "$T/nosysfs")" ]; then
		skip machine/cache-without-sysfs-x86 "neither CPUID nor sysconf reports a cache here (a hypervisor hiding the leaves?)"
	elif [ -n "$l1" ] && sources_ok "$T/nosysfs" cpuid sysconf >/dev/null; then
		pass machine/cache-without-sysfs-x86
	else
		fail machine/cache-without-sysfs-x86 "$(grep cache_ "$T/nosysfs" | head -5)"
	fi
	PLUMB_CACHE_SOURCES=cpuid "$PLUMB" sysinfo >"$T/cpuid"
	if [ -n "$(levels "$T/cpuid")" ]; then
		check machine/cache-cpuid-source sources_ok "$T/cpuid" cpuid
	else
		skip machine/cache-cpuid-source "CPUID lists no cache here"
	fi
	sys1=$(cat /sys/devices/system/cpu/cpu0/cache/index0/size 2>/dev/null)
	if [ -n "$sys1" ] && [ -n "$l1" ]; then
		PLUMB_CACHE_SOURCES=sysfs "$PLUMB" sysinfo >"$T/sysfs"
		s1=$(fact "$T/sysfs" cache_l1d)
		if between "$l1" $((s1 / 2)) $((s1 * 2)); then pass machine/cache-cpuid-matches-sysfs
		else fail machine/cache-cpuid-matches-sysfs "cpuid/sysconf L1d $l1, sysfs $s1"; fi
	else
		skip machine/cache-cpuid-matches-sysfs "sysfs has no cache directory to compare with"
	fi
else
	PLUMB_CACHE_SOURCES=cpuid "$PLUMB" sysinfo >"$T/cpuid"
	check machine/cache-no-cpuid-off-x86 test -z "$(levels "$T/cpuid")"
	if [ -n "$l1" ]; then check machine/cache-sysconf-source sources_ok "$T/nosysfs" sysconf
	else skip machine/cache-sysconf-source "sysconf reports no cache sizes here"; fi
fi

# a sysfs that lists L1 and L2 only (a board's thin device tree), simulated in a mount namespace
# of our own: those two from sysfs at its sizes, a level it lacks from the next source
if unshare -m true 2>/dev/null; then
	F=$T/fakecpu
	for i in 0 1; do mkdir -p "$F/cache/index$i"; echo $((i + 1)) >"$F/cache/index$i/level"
		echo 64 >"$F/cache/index$i/coherency_line_size"; done
	echo Data >"$F/cache/index0/type"; echo 24K >"$F/cache/index0/size"
	echo Unified >"$F/cache/index1/type"; echo 768K >"$F/cache/index1/size"
	unshare -m sh -c "for c in /sys/devices/system/cpu/cpu[0-9]*; do
		mount --bind '$F' \$c 2>/dev/null || { echo cannot-mount; exit 0; }; done
		'$PLUMB' sysinfo" >"$T/thin" 2>&1
	if grep -q '^cannot-mount' "$T/thin"; then
		skip machine/cache-thin-sysfs-filled-from-next "cannot bind-mount over sysfs here"
	elif [ "$(fact "$T/thin" cache_l1d)" = 24576 ] && [ "$(fact "$T/thin" cache_l2)" = 786432 ] &&
		[ "$(fact "$T/thin" cache_l1d_source)" = sysfs ] && [ "$(fact "$T/thin" cache_l2_source)" = sysfs ] &&
		! grep -Eq '^cache_l([3-9]|[1-9][0-9])_source +sysfs' "$T/thin"
	then pass machine/cache-thin-sysfs-filled-from-next
	else fail machine/cache-thin-sysfs-filled-from-next "$(grep cache_ "$T/thin" | head -8)"; fi
else
	skip machine/cache-thin-sysfs-filled-from-next "no mount namespace here (needs root)"
fi

# no source at all (a board with a thin device tree, no sysconf): the measured knee is the
# effective last level, recorded as measured
PLUMB_CACHE_SOURCES=none "$PLUMB" sysinfo --measure >"$T/knee" 2>&1
eff=$(fact "$T/knee" cache_llc_effective)
if [ -n "$(levels "$T/knee")" ]; then
	fail machine/cache-knee-only "levels reported with every source off: $(levels "$T/knee")"
elif [ -z "$eff" ]; then
	skip machine/cache-knee-only "the knee probe found no knee up to its top (caches of 128 MiB or more?)"
elif [ "$(fact "$T/knee" cache_llc_effective_source)" = measured ] &&
	between "$eff" 65536 268435456; then
	pass machine/cache-knee-only
else
	fail machine/cache-knee-only "$(grep cache_ "$T/knee")"
fi

# only the measured source allowed (an ARM board whose sysfs, CPUID and sysconf say nothing): the
# knee probe's curve gives every level, each recorded as measured, in ascending sizes, the first
# an L1 (4 KiB to 1 MiB on every known CPU); on x86 the L1d within 2x of CPUID's (3 tries: a busy
# machine bends the curve)
meas_ok=""
for try in 1 2 3; do
	PLUMB_CACHE_SOURCES=measured "$PLUMB" sysinfo --measure >"$T/meas" 2>&1
	m1=$(fact "$T/meas" cache_l1d)
	sizes=$(awk '$1 ~ /^cache_l[0-9]+d?$/ { print $2 }' "$T/meas" | tr '\n' ' ')
	srcs=$(awk '$1 ~ /^cache_l[0-9]+d?_source$/ { print $2 }' "$T/meas" | sort -u | tr -d '\n')
	[ -n "$m1" ] && [ "$srcs" = measured ] && between "$m1" 4096 1048576 &&
		echo "$sizes" | awk '{ for (i = 2; i <= NF; i++) if ($i <= $(i-1)) exit 1 }' || continue
	if [ $x86 = 1 ]; then
		c1=$(PLUMB_CACHE_SOURCES=cpuid "$PLUMB" sysinfo | awk '$1 == "cache_l1d" { print $2 }')
		[ -z "$c1" ] || awk -v m="$m1" -v c="$c1" 'BEGIN { exit !(m >= c / 2 && m <= 2 * c) }' || continue
	fi
	meas_ok=1
	break
done
if [ -n "$meas_ok" ]; then pass machine/cache-levels-measured
elif [ -z "$(levels "$T/meas")" ] && [ -z "$(fact "$T/meas" cache_llc_effective)" ]; then
	skip machine/cache-levels-measured "the knee probe found no level up to its top"
else fail machine/cache-levels-measured "sizes [$sizes] sources [$srcs] cpuid L1d ${c1:-?}: $(grep cache_ "$T/meas" | tr '\n' ' ')"; fi

# a reported last level larger than the knee (a guest shown its host's L3): said, and the knee
# is the effective size
PLUMB_LLC=1G PLUMB_MEM_KNEE=8M "$PLUMB" sysinfo >"$T/guest"
if [ "$(fact "$T/guest" cache_llc_effective)" = 8388608 ] &&
	[ "$(fact "$T/guest" cache_llc_effective_source)" = measured ] &&
	fact "$T/guest" cache_llc_note | grep -q 'reported 1024 MiB (PLUMB_LLC) is larger than the latency knee measured at 8 MiB'
then pass machine/cache-reported-larger-than-knee
else fail machine/cache-reported-larger-than-knee "$(grep cache_llc "$T/guest")"; fi

# ---- the report's charts mark the levels from these sources --------------------------------
# chart FILE ENV...: lat_mem_rd to 2 MiB under ENV, its latency chart into FILE
chart() {
	out=$1; shift
	env "$@" "$PLUMB" lat_mem_rd --json -N 1 2 128 >"$T/chart.json" 2>/dev/null &&
		"$PLUMB" plot "$T/chart.json" -d "$T/charts" 2>/dev/null &&
		cp "$T"/charts/*mem-latency-seq.svg "$out" && rm -rf "$T/charts"
}
if [ $x86 = 1 ]; then
	chart "$T/c-cpuid.svg" PLUMB_CACHE_SOURCES=cpuid,sysconf
	check machine/chart-marks-levels-without-sysfs grep -q '>L1d ' "$T/c-cpuid.svg"
fi
chart "$T/c-knee.svg" PLUMB_CACHE_SOURCES=none PLUMB_MEM_KNEE=1M
check machine/chart-marks-measured-llc grep -q '>LLC 1M (measured)<' "$T/c-knee.svg"
chart "$T/c-guest.svg" PLUMB_CACHE_SOURCES=none PLUMB_LLC=1G PLUMB_MEM_KNEE=1M
if grep -q '>L3 1M (measured)<' "$T/c-guest.svg" && ! grep -q '>L3 1024M' "$T/c-guest.svg"
then pass machine/chart-marks-effective-l3
else fail machine/chart-marks-effective-l3 "$(grep -o '>L[^<]*<' "$T/c-guest.svg")"; fi

# ---- the kernel: facts equal to the files' own content -------------------------------------
cs=/sys/devices/system/clocksource/clocksource0/current_clocksource
if [ -r $cs ]; then check machine/fact-clocksource test "$(fact "$T/all" clocksource)" = "$(cat $cs)"
else skip machine/fact-clocksource "no $cs"; fi
vd=/sys/devices/system/cpu/vulnerabilities
if [ -d $vd ] && [ -n "$(ls $vd)" ]; then
	bad=""
	for f in "$vd"/*; do
		n=$(basename "$f")
		[ "$(fact "$T/all" "vuln_$n")" = "$(head -n 1 "$f")" ] || bad="$bad $n"
	done
	if [ -z "$bad" ]; then pass machine/fact-vulnerabilities
	else fail machine/fact-vulnerabilities "differ from the files:$bad"; fi
else
	skip machine/fact-vulnerabilities "no $vd"
fi
# /proc/cmdline, one line, single spaces; a secret-looking value masked the way plumb does
want=$(tr -s ' \t\n' '   ' </proc/cmdline | sed 's/^ //; s/ $//' | awk '{
	for (i = 1; i <= NF; i++) { e = index($i, "="); if (e && tolower(substr($i, 1, e - 1)) ~ /pass|pwd|secret|token|key|auth|cred/) $i = substr($i, 1, e) "***" }
	print }')
if LC_ALL=C grep -q '[^ -~]\|\\' /proc/cmdline || [ ${#want} -gt 1000 ]; then
	skip machine/fact-cmdline "the command line has bytes plumb escapes or is over 1000 bytes"
else
	check machine/fact-cmdline test "$(fact "$T/all" cmdline)" = "$want"
fi
check machine/fact-audit sh -c "grep -Eq '^audit +(on|off|unknown) \(' '$T/all'"
# a tool's JSON carries them, valid JSON whatever the command line holds
"$PLUMB" lat_syscall --json -N 3 null >"$T/a.json" 2>/dev/null
if command -v python3 >/dev/null 2>&1; then
	check machine/facts-in-tool-json python3 -c "
import json, sys
s = json.load(open('$T/a.json'))['system']
sys.exit(not ('audit' in s and ('clocksource' in s) == ('$(fact "$T/all" clocksource)' != '')))"
fi

# ---- compare names a kernel setting that differs -----------------------------------------
# a machine without the files: side A gets the facts, so there is something to differ
for k in clocksource vuln_spectre_v2; do
	if ! grep -q "\"$k\"" "$T/a.json"; then
		sed "s/\"system\": {/\"system\": {\"$k\": \"as found\", /" "$T/a.json" >"$T/a2.json"
		mv "$T/a2.json" "$T/a.json"
	fi
done
sed 's/"vuln_spectre_v2": "[^"]*"/"vuln_spectre_v2": "Vulnerable (hand-edited)"/; s/"clocksource": "[^"]*"/"clocksource": "hpet (hand-edited)"/' \
	"$T/a.json" >"$T/b.json"
"$PLUMB" compare "$T/a.json" "$T/b.json" >/dev/null 2>"$T/cmp.err"
"$PLUMB" compare "$T/a.json" "$T/a.json" >/dev/null 2>"$T/same.err"
if grep -q "warning: the kernel's settings differ .*vuln_spectre_v2" "$T/cmp.err" &&
	grep -q 'warning: clocksource differs: a.json=.*; b.json=hpet (hand-edited)' "$T/cmp.err" &&
	! grep -q "kernel's settings\|clocksource" "$T/same.err"
then pass machine/compare-names-differing-facts
else fail machine/compare-names-differing-facts "$(cat "$T/cmp.err" "$T/same.err")"; fi
