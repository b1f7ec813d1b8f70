#!/bin/sh
# plumb-lava.sh BUNDLE_URL UPLOAD_URL [RUN OPTIONS]: the steps of contrib/lava/plumb.yaml, run
# by LAVA's test shell on the device: fetch and unpack the bundle in a private directory, run the
# suite, report each point with lava-test-case (plumb export --format lava), keep the run's JSON
# (uploaded and referenced, or printed between markers), remove the directory.
set -u
bundle_url=$1 upload_url=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d "${TMPDIR:-/tmp}/plumb-lava.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
trap 'exit 1' INT TERM HUP
if [ -n "$bundle_url" ]; then
	if command -v curl >/dev/null; then curl -fsSL -o "$d/b.tar.gz" "$bundle_url"
	else wget -q -O "$d/b.tar.gz" "$bundle_url"; fi || { lava-test-case plumb-bundle --result fail; exit 0; }
else
	set -- "$here"/plumb-*.tar.gz "$@"
	[ -f "$1" ] || { echo "plumb-lava.sh: no BUNDLE_URL and no bundle in $here"; lava-test-case plumb-bundle --result fail; exit 0; }
	cp "$1" "$d/b.tar.gz"
	shift
fi
(cd "$d" && tar xzf b.tar.gz && rm b.tar.gz) || { lava-test-case plumb-bundle --result fail; exit 0; }
for p in "$d"/*/bin/plumb; do :; done
lava-test-case plumb-bundle --result pass
# the run's temporary files inside the private directory; no store on the device
if TMPDIR=$d "$p" run --no-store -o "$d/run.json" "$@"; then
	lava-test-case plumb-run --result pass
else
	lava-test-case plumb-run --result fail
fi
[ -s "$d/run.json" ] || exit 0
"$p" export "$d/run.json" --format lava >"$d/cases.sh" && . "$d/cases.sh"
if [ -n "$upload_url" ] && curl -fsS -T "$d/run.json" "$upload_url"; then
	lava-test-reference plumb-run-json --result pass --reference "$upload_url"
else
	echo "=== plumb run JSON begin ==="
	cat "$d/run.json"
	echo "=== plumb run JSON end ==="
fi
