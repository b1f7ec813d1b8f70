#!/bin/sh
# lava_job.sh — contrib/lava/plumb.yaml in a whole LAVA job, run here by Debian's lava-dispatcher
# (lava-run, no lava-server) on a qemu device: the static bundle as `make bundle` builds it,
# committed beside the definition in a throwaway git repository (the job's `from: git`); a
# ramdisk of busybox-static; this machine's Debian kernel from /boot. LAVA deploys both (its
# test overlay appended to the ramdisk), boots them with qemu (KVM when a KVM guest boots here,
# else TCG), runs the definition with RUN_OPTIONS "--quick --only syscall" and parses the
# device's output into results. Checked from lava-run's own log: the job passes; every point of
# the run is exactly one passed LAVA test case, its value the measurement, its unit the units;
# the run's JSON, cut from the log, is whole; LAVA's temporary directory and qemu are gone after.
# A .ci/run stage (a static build and a VM boot: too long for make test). SKIPs, saying why,
# where lava-run, root, qemu-system-x86_64, a kernel in /boot or a static busybox is missing.
. tests/lib.sh
PY=/usr/bin/python3
job=plumb-lava-job-$$
# LAVA's own directory for the job (lava_common.constants.DISPATCHER_DOWNLOAD_DIR/JOB-ID): the
# kernel and ramdisk it deploys, so qemu's command line names it
ltmp=/var/lib/lava/dispatcher/tmp/$job
lrpid="" probe=""
# the processes of the job: lava-run (its title names the job) and a qemu holding the job's files
job_pids() {
	for p in /proc/[0-9]*; do
		grep -qF -e "$ltmp/" -e "[job: $job]" "$p/cmdline" 2>/dev/null && echo "${p#/proc/}"
	done
}
# kill_job: lava-run given time to cancel and clean up, then whatever of the job is left
kill_job() {
	for p in $probe $lrpid; do kill "$p" 2>/dev/null; done
	i=0
	while [ -n "$lrpid" ] && kill -0 "$lrpid" 2>/dev/null && [ $i -lt 30 ]; do sleep 0.5; i=$((i + 1)); done
	for p in $lrpid $(job_pids); do kill -9 "$p" 2>/dev/null; done
	rm -rf "$ltmp" "$T"
}
trap kill_job EXIT
trap 'exit 130' INT TERM HUP

why=""
kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
bb=$(command -v busybox)
if [ "$(uname -m)" != x86_64 ]; then why="the qemu device is an x86-64 guest; this machine is $(uname -m)"
elif ! command -v lava-run >/dev/null || ! "$PY" -c 'import lava_dispatcher' 2>/dev/null; then
	why="Debian's lava-dispatcher is not installed (apt-get install lava-dispatcher)"
elif [ "$(id -u)" -ne 0 ]; then why="lava-run runs jobs as root only"
elif ! command -v qemu-system-x86_64 >/dev/null; then why="no qemu-system-x86_64 (apt-get install qemu-system-x86)"
elif [ -z "$kernel" ] || [ ! -r "$kernel" ]; then why="no readable kernel in /boot (apt-get install linux-image-amd64)"
elif [ -z "$bb" ] || ! file -L "$bb" | grep -q 'statically linked'; then
	why="no static busybox for the ramdisk (apt-get install busybox-static)"
elif ! command -v cpio >/dev/null || ! command -v git >/dev/null; then why="LAVA needs cpio and git here"
fi
if [ -n "$why" ]; then
	skip lava-job/all "$why"
	exit 0
fi

# the static bundle, built by `make bundle` in a copy of the sources (the files it copies itself)
mkdir "$T/src" && tar cf - Makefile VERSION mk src docs README.md | tar xf - -C "$T/src"
if ! make -C "$T/src" -s bundle >"$T/bundle.out" 2>&1; then
	fail lava-job/bundle "$(tail -n 2 "$T/bundle.out")"
	exit 0
fi
# the definition's repository, with the bundle beside the definition (BUNDLE_URL empty)
d=$T/def
mkdir -p "$d/contrib/lava"
cp contrib/lava/plumb.yaml contrib/lava/plumb-lava.sh "$T"/src/plumb-*.tar.gz "$d/contrib/lava/"
(cd "$d" && git init -q && git add -A &&
	git -c user.name=plumb -c user.email=plumb@localhost commit -qm "plumb's LAVA definition") ||
	{ fail lava-job/repository "git could not commit the definition"; exit 0; }

# the ramdisk: busybox and an init giving LAVA a shell on the serial console
r=$T/rootfs
mkdir -p "$r/bin" "$r/proc" "$r/sys" "$r/dev" "$r/tmp" "$r/root"
cp "$bb" "$r/bin/busybox"
cat >"$r/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
ifconfig lo 127.0.0.1 up
# no kernel messages on the console from here: they would land inside the test's output
dmesg -n 1
export HOME=/root PATH=/bin PS1='plumb-guest# '
exec setsid cttyhack sh
EOF
chmod +x "$r/init"
(cd "$r" && find . | cpio -o -H newc 2>/dev/null | gzip -1) >"$T/ramdisk.cpio.gz"

# KVM when a guest boots with it here (a nested KVM guest can hang at the kernel's entry): the
# kernel's first line within 10 s; else TCG, the qemu device type's no_kvm
accel=TCG kvm=""
if [ -w /dev/kvm ]; then
	qemu-system-x86_64 -enable-kvm -cpu host -nographic -monitor none -net none -m 128 -no-reboot \
		-kernel "$kernel" -append "console=ttyS0 panic=-1" </dev/null >"$T/kvm.out" 2>&1 &
	probe=$!
	i=0
	while [ $i -lt 20 ] && ! grep -aq 'Linux version' "$T/kvm.out"; do sleep 0.5; i=$((i + 1)); done
	kill "$probe" 2>/dev/null; wait "$probe" 2>/dev/null; probe=""
	if grep -aq 'Linux version' "$T/kvm.out"; then
		accel=KVM kvm="
          - -cpu host
          - -enable-kvm"
	fi
fi
echo "lava-job: qemu with $accel, kernel $kernel"

# the device configuration: lava-server's qemu device type (qemu.jinja2, lava-server 2023.01)
# as it renders for arch amd64, reduced to what a tmpfs deploy and a qemu boot read
cat >"$T/device.yaml" <<EOF
constants:
  posix:
    lava_test_sh_cmd: /bin/sh
    lava_test_results_dir: /lava-%s
    lava_test_shell_file: ~/.bashrc
  shutdown-message: 'The system is going down for reboot NOW'
  kernel-start-message: 'Linux version [0-9]'
  default-shell-prompt: 'lava-test: # '
  spawn_maxread: '4092'
  failure_retry: 1
  boot_retry: 0
parameters:
  pass:
available_architectures: [amd64, x86_64]
actions:
  deploy:
    connections: {serial: }
    methods:
      image:
        parameters:
          guest: {size: 512, interface: ide, driveid: lavatest}
  boot:
    connections: {serial: }
    methods:
      qemu:
        parameters:
          command: qemu-system-x86_64
          boot_options: {root: /dev/sda1, console: 'ttyS0,115200', boot_order: c}
          options:$kvm
          - -nographic
          - -net none
          - -m 512
          - -monitor none
          - -no-reboot
timeouts:
  actions:
    lava-test-shell: {minutes: 4}
    power-off: {seconds: 10}
  connections:
    lava-test-shell: {seconds: 10}
EOF
# the job: deploy to tmpfs (LAVA's overlay appended to the cpio ramdisk), boot, the definition
cat >"$T/job.yaml" <<EOF
device_type: qemu
job_name: plumb's LAVA test definition on a local qemu device
timeouts:
  job: {minutes: 6}
  action: {minutes: 4}
  connection: {minutes: 2}
priority: medium
visibility: public
context:
  arch: amd64
actions:
- deploy:
    to: tmpfs
    timeout: {minutes: 2}
    images:
      kernel:
        url: file://$kernel
        image_arg: -kernel {kernel} -append "console=ttyS0,115200 panic=-1"
      ramdisk:
        url: file://$T/ramdisk.cpio.gz
        compression: gz
        format: cpio.newc
        overlays: {lava: true}
        image_arg: -initrd {ramdisk}
- boot:
    method: qemu
    media: tmpfs
    timeout: {minutes: 3}
    prompts: ['plumb-guest# ']
- test:
    timeout: {minutes: 4}
    definitions:
    - repository: $d
      from: git
      history: false
      path: contrib/lava/plumb.yaml
      name: plumb
      parameters:
        RUN_OPTIONS: "--quick --only syscall"
EOF

t0=$(date +%s)
timeout -k 20 420 lava-run --job-id "$job" --output-dir "$T/out" --device "$T/device.yaml" \
	"$T/job.yaml" >"$T/lava.log" 2>&1 &
lrpid=$!
wait "$lrpid"
rc=$?
lrpid=""
echo "lava-job: lava-run exited $rc after $(($(date +%s) - t0)) s"
check "lava-job: lava-run exits 0" test "$rc" -eq 0
check "lava-job: LAVA removed its directory for the job" test ! -e "$ltmp"
check "lava-job: no lava-run or qemu of the job left running" test -z "$(job_pids)"

"$PY" - "$T/lava.log" "$T/out/result.yaml" >"$T/check" 2>&1 <<'EOF'
import json, math, sys, yaml

def say(ok, what, why=""):
    print(("PASS " if ok else "FAIL ") + "lava-job: " + what + ("" if ok else ": " + why))

# lava-run's log: one YAML mapping a line (lava_common.log); results are LAVA's test cases
log = []
for line in open(sys.argv[1], errors="replace"):
    if line.startswith('{"dt"'):
        log.append(yaml.load(line, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))
results = [e["msg"] for e in log if e["lvl"] == "results"]
target = [e["msg"] for e in log if e["lvl"] == "target" and isinstance(e["msg"], str)]
try:
    job = yaml.safe_load(open(sys.argv[2]))
except OSError as e:
    job = {"error": str(e)}
say(job.get("case") == "job" and job.get("result") == "pass", "the job passes", str(job))
ours = {}
dup = []
for r in results:
    if r.get("definition") == "0_plumb":
        dup += [r["case"]] if r["case"] in ours else []
        ours[r["case"]] = r
say(not dup, "case names unique", " ".join(dup[:3]))
say(all(ours.get(c, {}).get("result") == "pass" for c in ("plumb-bundle", "plumb-run")),
    "the definition's bundle and run cases pass",
    str({c: ours.get(c, {}).get("result") for c in ("plumb-bundle", "plumb-run")}))
summary = [r for r in results if r.get("definition") == "lava" and r.get("case") == "0_plumb"]
say(summary and summary[0]["result"] == "pass", "LAVA's summary of the definition passes",
    str(summary))
# the run's JSON between the markers; LAVA logs each " of the device's output as \" (shell.py)
begin, end = "=== plumb run JSON begin ===", "=== plumb run JSON end ==="
try:
    text = "\n".join(target[target.index(begin) + 1:target.index(end)])
    run = json.loads(text.replace('\\"', '"'))
    say(True, "the run's JSON is in the job log, whole")
except Exception as e:
    say(False, "the run's JSON is in the job log, whole", repr(e)[:200])
    sys.exit(0)
points = run["results"]
say(len(points) >= 5, "the run has points (%d)" % len(points), "too few")
measured = [r for r in ours.values() if "measurement" in r]
bad = []
for p in points:
    found = [r for r in measured if r["case"].startswith(p["metric"]) and r["result"] == "pass"
             and r.get("units") == p["unit"]
             and math.isclose(float(r["measurement"]), p["value"], rel_tol=1e-12)]
    if len(found) != 1:
        bad.append("%s %s: %d cases" % (p["metric"], p.get("params"), len(found)))
say(not bad, "each point is one passed LAVA case, its value the measurement, its unit the units",
    "; ".join(bad[:3]))
say(len(measured) == len(points), "as many measured cases as points (%d, %d)"
    % (len(measured), len(points)), "differ")
EOF
cat "$T/check"
grep -q '^PASS' "$T/check" || fail "lava-job: LAVA's log read" "$(tail -n 3 "$T/check")"
if grep -q '^FAIL' "$T/check" || [ "$rc" -ne 0 ]; then
	echo "lava-job: the end of lava-run's log:"
	tail -n 25 "$T/lava.log" | cut -c 1-300
fi
