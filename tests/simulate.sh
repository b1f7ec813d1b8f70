#!/bin/sh
# simulate.sh — run a command (usually the tests) as on another kind of machine, so a test that
# holds only on the developer's machine is found before a user finds it:
#
#   sh tests/simulate.sh nocache CMD...   sysfs without cache information: every
#                                         /sys/devices/system/cpu/cpuN/cache hidden under an empty
#                                         directory, in a private mount namespace (root, or a user
#                                         namespace where the kernel allows one)
#   sh tests/simulate.sh onecpu CMD...    one CPU: CMD and everything it starts may use only the
#                                         first CPU this shell may use (taskset)
#   sh tests/simulate.sh busy CMD...      a busy machine: one CPU hog per usable CPU runs while
#                                         CMD runs, and is killed when it ends (also on a failure
#                                         or a stop)
#
# e.g. sh tests/simulate.sh onecpu make test
#      TESTS="memory present" sh tests/simulate.sh nocache sh tests/run.sh
# Exit status: CMD's; 2 when the machine cannot be simulated here (one line says why).
usage() { echo "usage: sh tests/simulate.sh nocache|onecpu|busy CMD..." >&2; exit 2; }
[ $# -ge 2 ] || usage
machine=$1; shift

# the first CPU this process may use (taskset and cpusets respected)
first_cpu() {
	awk '/^Cpus_allowed_list:/ { split($2, a, /[,-]/); print a[1] }' /proc/self/status
}

case "$machine" in
nocache)
	# Inside the namespace: an empty tmpfs over each cache directory, then CMD. Nothing of this
	# is seen outside the namespace, and it ends with CMD.
	hide='for d in /sys/devices/system/cpu/cpu[0-9]*/cache; do
		[ -d "$d" ] || continue
		mount -t tmpfs -o size=4k,mode=0755 plumb-nocache "$d" || exit 97
	done
	[ -z "$(ls /sys/devices/system/cpu/cpu0/cache 2>/dev/null)" ] || exit 97
	exec "$@"'
	command -v unshare >/dev/null 2>&1 || { echo "simulate.sh: nocache needs unshare (util-linux)" >&2; exit 2; }
	if [ "$(id -u)" -eq 0 ]; then ns="unshare -m --propagation private"
	else ns="unshare -Urm --propagation private"; fi
	if ! $ns true 2>/dev/null; then
		echo "simulate.sh: nocache needs a private mount namespace ($ns), which this machine refuses" >&2
		exit 2
	fi
	$ns sh -c "$hide" simulate-nocache "$@"
	rc=$?
	[ $rc -ne 97 ] || { echo "simulate.sh: could not hide the cache directories in sysfs" >&2; exit 2; }
	exit $rc
	;;
onecpu)
	command -v taskset >/dev/null 2>&1 || { echo "simulate.sh: onecpu needs taskset (util-linux)" >&2; exit 2; }
	cpu=$(first_cpu)
	[ -n "$cpu" ] || { echo "simulate.sh: cannot read the CPUs allowed here" >&2; exit 2; }
	exec taskset -c "$cpu" "$@"
	;;
busy)
	n=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)
	hogs=""
	stop_hogs() {
		# only the hogs this script started, by their ids
		[ -n "$hogs" ] && kill $hogs 2>/dev/null
		[ -n "$hogs" ] && wait $hogs 2>/dev/null
		hogs=""
	}
	trap 'stop_hogs' EXIT
	trap 'stop_hogs; exit 130' INT
	trap 'stop_hogs; exit 143' TERM
	trap 'stop_hogs; exit 129' HUP
	i=0
	while [ $i -lt "$n" ]; do
		sh -c 'while :; do :; done' &
		hogs="$hogs $!"
		i=$((i + 1))
	done
	"$@"
	rc=$?
	stop_hogs
	exit $rc
	;;
*) usage ;;
esac
