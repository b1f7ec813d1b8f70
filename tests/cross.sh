#!/bin/sh
# cross.sh ARCH — build plumb for an ARM target with Debian's cross compiler (no other flags),
# then run the core tests under qemu-user: the unit tests and a few tools through both names.
# Timing bounds are loose: emulation is slow and noisy. Run from a scratch copy of the tree
# (it cleans and rebuilds). Prints PASS/FAIL lines.
arch=$1
case "$arch" in
armhf) cc=arm-linux-gnueabihf-gcc; qemu=qemu-arm; sysroot=/usr/arm-linux-gnueabihf ;;
aarch64) cc=aarch64-linux-gnu-gcc; qemu=qemu-aarch64; sysroot=/usr/aarch64-linux-gnu ;;
*) echo "usage: cross.sh armhf|aarch64"; exit 2 ;;
esac
export QEMU_LD_PREFIX=$sysroot
export ENOUGH=2000
ok() { echo "PASS cross-$arch/$1"; }
ko() { echo "FAIL cross-$arch/$1: $2"; }
make clean >/dev/null 2>&1
if make CC=$cc WERROR=1 all bin/unit-tests >build-cross.log 2>&1; then ok build; else ko build "$(tail -n 5 build-cross.log)"; exit 1; fi
if grep -q ' warning:' build-cross.log; then ko no-warnings "$(grep ' warning:' build-cross.log | head -3)"; else ok no-warnings; fi
rm -f build-cross.log
file bin/plumb | grep -q 'ARM' && ok is-arm-binary || ko is-arm-binary "$(file bin/plumb)"
# the simulations are arithmetic that the native stages run whole; under qemu (tens of times
# slower) the four lightest of them check the target's arithmetic, the heavy ones would take minutes
if PLUMB_TEST_EMULATED=1 $qemu bin/unit-tests --no-sims >build/unit.log 2>&1 &&
   $qemu bin/unit-tests --sims compare_sim_separate_runs_fresh_store compare_sim_two_default_runs_detect_15pct \
	decide_shifts_power_and_same decide_aa_sessions >>build/unit.log 2>&1
then ok unit-tests; else ko unit-tests "$(grep FAIL build/unit.log | head -5)"; fi
line=$($qemu bin/lat_syscall null 2>&1 >/dev/null)
echo "$line" | grep -Eq '^Simple syscall: [0-9.]+ microseconds$' && ok lat_syscall-symlink || ko lat_syscall-symlink "$line"
line=$($qemu bin/plumb lat_syscall null 2>/dev/null)
echo "$line" | grep -Eq '^Simple syscall: [0-9.]+ microseconds$' && ok lat_syscall || ko lat_syscall "$line"
if $qemu bin/plumb list --names | grep -qx bw_mem; then
	line=$($qemu bin/bw_mem 1m rd 2>&1 >/dev/null)
	echo "$line" | grep -Eq '^1\.05 [0-9.]+$' && ok bw_mem-1m-rd || ko bw_mem-1m-rd "$line"
fi
# emulation is a fact of the run, and the host's CPU is not recorded as the target's
$qemu bin/plumb sysinfo >build/sysinfo.txt 2>&1
if grep -Eq '^emulated +qemu-user$' build/sysinfo.txt && ! grep -Eq '^(cpu_model|nominal_mhz) ' build/sysinfo.txt; then
	ok records-emulation
else
	ko records-emulation "$(grep -E '^(emulated|cpu_model|host_cpu_model|nominal_mhz|arch) ' build/sysinfo.txt | tr '\n' ';')"
fi
# (PLUMB_LLC: no latency-knee probe first, which under emulation takes minutes and is not
# what this checks)
if PLUMB_LLC=32M $qemu bin/plumb run --quick --only syscall --no-store --format json -o build/emu.json >build/emu.log 2>&1 &&
	[ -s build/emu.json ]; then
	if grep -q '"emulated": *"qemu-user"' build/emu.json && ! grep -q '"cpu_model"' build/emu.json &&
		! grep -q '"clock_mhz"' build/emu.json; then
		ok run-records-emulation
	else
		ko run-records-emulation "$(grep -o '"\(emulated\|cpu_model\|clock_mhz\)": *"[^"]*"' build/emu.json | tr '\n' ' ')"
	fi
else
	ko run-records-emulation "the run failed: $(tail -n 3 build/emu.log)"
fi
# lat_proc's helper is a child binary of the target: it runs where binfmt_misc names the
# emulator, else lat_proc says in one line why it cannot
line=$($qemu bin/plumb lat_proc -N 1 fork 2>&1 >/dev/null)
out=$($qemu bin/plumb lat_proc -N 1 fork 2>/dev/null)
if echo "$out" | grep -Eq '^Process fork\+exit: [0-9.]+ microseconds$' ||
	echo "$line" | grep -q 'cannot start it: .*binfmt_misc'
then ok lat_proc-helper; else ko lat_proc-helper "$out $line"; fi
$qemu bin/plumb lat_syscall bogus >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok usage-error || ko usage-error "rc=$rc"
make clean >/dev/null 2>&1
