#!/bin/sh
# bundle.sh TREE OUT.tar.gz [STRIP] — pack a built tree's plumb for a board: bin/plumb (stripped
# with STRIP when given), its helpers plumb-hello and plumb-spawn beside it, one symlink per
# lmbench tool name, the man page, the project's README and a short README.txt on using the
# bundle. `make bundle` calls it on a static build; tests/cli/bundle.sh on the test build.
set -e
tree=$1 out=$2 strip=${3:-}
[ -x "$tree/bin/plumb" ] && [ -x "$tree/bin/plumb-hello" ] && [ -x "$tree/bin/plumb-spawn" ] || {
	echo "bundle.sh: $tree/bin has no built plumb (make all first)" >&2
	exit 2
}
name=$(basename "$out" .tar.gz)
work=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bundle.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM HUP
d=$work/$name
mkdir -p "$d/bin"
for f in plumb plumb-hello plumb-spawn; do
	cp "$tree/bin/$f" "$d/bin/$f"
	[ -z "$strip" ] || "$strip" "$d/bin/$f"
done
# the tool names are the symlinks the build made beside plumb
for l in "$tree"/bin/*; do
	[ -L "$l" ] && [ "$(readlink "$l")" = plumb ] && ln -s plumb "$d/bin/$(basename "$l")"
done
cp "$tree/README.md" "$d/README.md"
cp "$tree/docs/plumb.1" "$d/plumb.1"
cat >"$d/README.txt" <<TXT
$name: plumb, an lmbench-compatible suite of OS and hardware micro-benchmarks, ready to copy
to a board. Nothing to install: unpack it anywhere and run from this directory.

  bin/plumb run --quick -o run.json   # the whole suite in about half a minute, kept as a file
  bin/plumb run                       # the default suite (3 rounds, about 2.5 minutes)
  bin/lat_syscall null                # any lmbench tool by its own name (a symlink to plumb)
  bin/plumb --help                    # every command and tool
  man ./plumb.1                       # the manual

bin/plumb-hello and bin/plumb-spawn are plumb's helpers (lat_proc runs them): keep them beside
bin/plumb. Carry run.json back and compare or chart it on another machine with
plumb import, plumb compare and plumb report. README.md is the project's full README.
Built with: $(sed -n 's/^#define PLUMB_CC "\(.*\)"$/\1/p' "$tree/build/buildinfo.h" 2>/dev/null), $(sed -n 's/^#define PLUMB_FEATURES "\(.*\)"$/\1/p' "$tree/build/buildinfo.h" 2>/dev/null).
TXT
tar czf "$out.tmp" -C "$work" "$name"
mv "$out.tmp" "$out"
echo "$out: $(find "$d/bin" -type l | wc -l) tool names, $(du -k "$out" | cut -f1) KiB"
