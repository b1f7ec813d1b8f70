#!/bin/sh
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# stores.sh — stores as users share them: an SQLite store on a read-only file system (a read-only
# bind mount in a private mount namespace) and a store owned by another user in a shared sticky
# directory are read by runs/summary/compare/report/export, writes fail naming the store, a
# reader leaves no side file, the owner can still import. compare of 200 k points finishes (its
# time is printed, not asserted). Passwords in every form a user may write them never appear in
# any byte plumb prints, without a server (connection errors, where libpq quotes things; with a
# server: pgstore.sh).
. tests/lib.sh
export PLUMB_DB="$T/default.db" # never touch the user's store
SHARED=
trap 'rm -rf "$T" $SHARED' EXIT
sh bench/gen_points.sh 300 1 >"$T/a.json"
sh bench/gen_points.sh 300 2 1.2 >"$T/b.json"

# reads_work WHAT DB [WRAPPER...]: runs, summary, compare, report, export work on DB
reads_work() {
	what=$1 db=$2
	shift 2
	for c in "runs" "summary 1" "compare 1 2" "report 1 2 -o $OUTDIR/r-$what.html" \
		"export 1 -o $OUTDIR/e-$what.json"; do
		if "$@" "$PLUMB" $c --db "$db" >"$T/o" 2>"$T/e"; then
			pass "stores/$what-reads-${c%% *}"
		else
			fail "stores/$what-reads-${c%% *}" "$(head -c 300 "$T/e")"
		fi
	done
}
# write_fails WHAT DB [WRAPPER...]: an import fails with one line naming the store
write_fails() {
	what=$1 db=$2
	shift 2
	"$@" "$PLUMB" import --db "$db" --label no "$JSONDIR/a.json" >"$T/o" 2>"$T/e"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && grep -q "^import: $db: cannot write" "$T/e"; then
		pass "stores/$what-write-fails-naming-store"
	else
		fail "stores/$what-write-fails-naming-store" "rc=$rc $(head -c 300 "$T/e")"
	fi
}
side_files() { ls -a "$1" | grep -E -- '-(wal|shm|journal)$'; }
# in_ro CMD...: CMD in a private mount namespace where $T/ro/mnt is $T/ro/data read-only
in_ro() { unshare -m sh -c 'mount --bind -o ro "$0/ro/data" "$0/ro/mnt" && exec "$@"' "$T" "$@"; }

if "$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite'; then
	skip stores/sqlite "plumb was built without SQLite"
elif [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null || ! command -v setpriv >/dev/null; then
	skip stores/shared "needs root (unshare -m for a read-only bind mount, setpriv for other users)"
else
	# ---- a read-only file system -------------------------------------------------------------
	mkdir -p "$T/ro/data" "$T/ro/mnt"
	"$PLUMB" import --db "$T/ro/data/r.db" --label a "$T/a.json" >/dev/null
	"$PLUMB" import --db "$T/ro/data/r.db" --label b "$T/b.json" >/dev/null
	OUTDIR=$T JSONDIR=$T
	reads_work rofs "$T/ro/mnt/r.db" in_ro
	write_fails rofs "$T/ro/mnt/r.db" in_ro
	check stores/rofs-no-side-files test -z "$(side_files "$T/ro/data")"
	# a store left in WAL mode by an older plumb: read without its -shm (SQLite's immutable)
	if command -v sqlite3 >/dev/null; then
		sqlite3 "$T/ro/data/r.db" 'PRAGMA journal_mode = WAL' >/dev/null
		reads_work rofs-wal "$T/ro/mnt/r.db" in_ro
		check stores/rofs-wal-no-side-files test -z "$(side_files "$T/ro/data")"
	fi

	# ---- another user's store in a shared sticky directory -----------------------------------
	# the owner is uid 65533, the reader 65534: neither root, neither can write the other's files
	SHARED=$(mktemp -d /tmp/plumb-shared.XXXXXX)
	chmod 1777 "$SHARED"
	mkdir "$SHARED/out" && chmod 1777 "$SHARED/out"
	cp "$T/a.json" "$T/b.json" "$SHARED/" && chmod 644 "$SHARED"/*.json
	owner() { setpriv --reuid=65533 --regid=65533 --clear-groups "$@"; }
	reader() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	sh bench/gen_points.sh 300 3 >"$SHARED/c.json" && chmod 644 "$SHARED/c.json"
	owner "$PLUMB" import --db "$SHARED/lab.db" --label a "$SHARED/a.json" >/dev/null 2>&1
	owner "$PLUMB" import --db "$SHARED/lab.db" --label b "$SHARED/b.json" >/dev/null 2>&1
	check stores/shared-owner-creates test -f "$SHARED/lab.db"
	OUTDIR=$SHARED/out JSONDIR=$SHARED
	reads_work shared "$SHARED/lab.db" reader
	write_fails shared "$SHARED/lab.db" reader
	check stores/shared-reader-leaves-no-side-file test -z "$(side_files "$SHARED")"
	check stores/shared-owner-imports-after owner "$PLUMB" import --db "$SHARED/lab.db" --label c "$SHARED/c.json"
	check stores/shared-reader-sees-three test "$(reader "$PLUMB" runs --db "$SHARED/lab.db" | grep -c bench)" -eq 3
	# the same with a store still in WAL mode (written by an older plumb)
	if command -v sqlite3 >/dev/null; then
		owner sqlite3 "$SHARED/lab.db" 'PRAGMA journal_mode = WAL' >/dev/null
		sh bench/gen_points.sh 300 4 >"$SHARED/d.json" && chmod 644 "$SHARED/d.json"
		reads_work shared-wal "$SHARED/lab.db" reader
		check stores/shared-wal-reader-leaves-no-side-file test -z "$(side_files "$SHARED")"
		check stores/shared-wal-owner-imports-after owner "$PLUMB" import --db "$SHARED/lab.db" --label d "$SHARED/d.json"
	fi
	# the reader's own delete is a write: refused, naming the store
	reader "$PLUMB" runs --db "$SHARED/lab.db" --delete 1 >"$T/o" 2>"$T/e"
	check stores/shared-delete-refused grep -q "$SHARED/lab.db: cannot write" "$T/e"
	# plumb ab tries the store before its session: refused at once, naming it, nothing measured
	# (side B a copy the reader can reach: the tree may sit below a directory only root searches)
	cp "$PLUMB" "$SHARED/plumb-b" && chmod 755 "$SHARED/plumb-b"
	expect_usage stores/ab-refuses-unwritable-store-first reader "$PLUMB" ab --only syscall --quick \
		--b "$SHARED/plumb-b" --db "$SHARED/lab.db"
	if grep -q "$SHARED/lab.db" "$T/err"; then pass stores/ab-names-the-store
	else fail stores/ab-names-the-store "$(head -c 300 "$T/err")"; fi
fi

# ---- compare at scale: 200 k points (time printed, not asserted) ---------------------------------
sh bench/gen_points.sh 200000 1 >"$T/big-a.json"
sh bench/gen_points.sh 200000 2 1.1 >"$T/big-b.json"
t0=$(date +%s.%N)
"$PLUMB" compare "$T/big-a.json" "$T/big-b.json" >"$T/big.out" 2>&1
rc=$?
t1=$(date +%s.%N)
echo "# compare of 2 x 200000 points: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
rm -f "$T/big-a.json" "$T/big-b.json"
check stores/compare-200k-points test $rc -eq 0 -a "$(grep -c 'lat_mem_rd.rand' "$T/big.out")" -eq 200

# ---- passwords never show (no server: libpq's connection and parse errors) -----------------------
OUT="$T/all-output"
: >"$OUT"
URIS="postgresql://plumb:Se@cret9x@127.0.0.1:1/db
postgresql://plumb@127.0.0.1:1/db?password=Qz7secret&sslmode=bogus
postgresql://plumb@127.0.0.1:1/db?password=Qz7secret&x=%zz
postgresql://[::1/db?password=Qz7secret
postgresql://plumb:s3 cr\"et9'q@127.0.0.1:1/db
postgresql://plumb:s3%20cr%22et9@127.0.0.1:1/db
postgresql://Qz7secret:Qz7secret@127.0.0.1:1/db
postgresql://plumb:Se@cret9x@127.0.0.1:1/db?password=Qz7s
host=127.0.0.1 port=1 password='s3 cr\"et9 q'
host=127.0.0.1 password=Qz7secret
password=Qz7secret"
echo "$URIS" | while IFS= read -r u; do
	for c in runs "summary 1" "compare 1 2" "export 1"; do
		"$PLUMB" $c --db "$u" >>"$OUT" 2>&1
	done
	"$PLUMB" import --db "$u" "$T/a.json" >>"$OUT" 2>&1
	"$PLUMB" push --to "$u" "$T/a.json" >>"$OUT" 2>&1
	PGPASSWORD=Pgenv5ecret "$PLUMB" runs --db "$u" >>"$OUT" 2>&1
done
PGPASSWORD=Pgenv5ecret "$PLUMB" runs --db postgresql://plumb@127.0.0.1:1/db >>"$OUT" 2>&1
check stores/password-errors-said grep -q -e 'cannot connect' -e 'built without libpq' "$OUT"
leaks=$(grep -a -c -e 'cret9' -e 'Se@c' -e 'Qz7s' -e 's3 cr' -e 's3%20' -e 'Pgenv' "$OUT")
if [ "$leaks" -eq 0 ]; then
	pass stores/password-never-printed
else
	fail stores/password-never-printed "$leaks lines: $(grep -a -e 'cret9' -e 'Qz7s' -e 's3 cr' -e 'Pgenv' "$OUT" | head -n 2)"
fi
check stores/keyword-form-creates-no-file test -z "$(ls | grep -e 'password=' -e 'host=')"

if "$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite'; then
	skip stores/zero-byte-and-push "plumb was built without SQLite: no store to read or push to"
else
# a 0-byte file given as a store: every reader refuses it in one line and leaves it 0 bytes;
# --check does not call it ok (issue 34 item 5)
: >"$T/zero.db"
for c in runs:runs check:"runs --check" summary:summary compare:"compare 1 2"; do
	name=${c%%:*} c=${c#*:}
	"$PLUMB" $c --db "$T/zero.db" >"$T/o" 2>"$T/e"
	rc=$?
	if [ $rc -ne 0 ] && [ ! -s "$T/zero.db" ] && [ "$(wc -l <"$T/e")" -eq 1 ] &&
		grep -q 'not a plumb results store' "$T/e" && ! grep -q ': ok' "$T/o"; then
		pass "stores/zero-byte-$name-untouched"
	else
		fail "stores/zero-byte-$name-untouched" "rc $rc, $(wc -c <"$T/zero.db") bytes: $(head -c 200 "$T/e")"
	fi
done

# push leaves out the kernel command line and local paths unless --with-private (issue 34)
python3 - "$T/a.json" "$T/priv.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['facts'] = dict(d.get('facts', {}), cmdline='root=UUID=1234 secret_token=abc',
                  **{'opt.db': '/home/me/private/plumb.db', 'opt.output': '/home/me/o.json'})
d['run']['uid'] = '%032x' % 4242
open(sys.argv[2], 'w').write(json.dumps(d))
PY
"$PLUMB" push "$T/priv.json" --to "$T/shared.db" >/dev/null 2>"$T/e"
"$PLUMB" export --db "$T/shared.db" 1 -o "$T/pushed.json" 2>>"$T/e"
if [ -s "$T/pushed.json" ] && ! grep -q 'secret_token\|/home/me' "$T/pushed.json"; then
	pass stores/push-leaves-out-private
else
	fail stores/push-leaves-out-private "$(head -c 300 "$T/e")"
fi
"$PLUMB" push "$T/priv.json" --to "$T/shared2.db" --with-private >/dev/null 2>"$T/e"
"$PLUMB" export --db "$T/shared2.db" 1 -o "$T/pushed2.json" 2>>"$T/e"
if grep -q 'secret_token' "$T/pushed2.json" && grep -q '/home/me/private' "$T/pushed2.json"; then
	pass stores/push-with-private
else
	fail stores/push-with-private "$(head -c 300 "$T/e")"
fi
fi

# -o on a full disk: the old file is kept whole and no temporary is left (every output is
# written beside it and renamed; issue 34). A 64 KiB tmpfs, filled, in a private mount namespace.
if [ "$(id -u)" -ne 0 ] || ! unshare -m true 2>/dev/null; then
	skip stores/full-disk-keeps-old "needs root (unshare -m to mount a small tmpfs)"
else
	mkdir -p "$T/full"
	for c in compare:"compare $T/a.json $T/b.json" trend:"trend $T/a.json $T/b.json" \
		export:"export $T/a.json" report:"report $T/a.json $T/b.json"; do
		name=${c%%:*} c=${c#*:}
		unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs "$0" && echo old >"$0/out" &&
			dd if=/dev/zero of="$0/fill" bs=4k 2>/dev/null; "$1" $2 -o "$0/out" 2>"$0.err";
			echo "rc=$? $(cat "$0/out") $(ls "$0" | tr "\n" " ")| $(head -c 200 "$0.err")"' \
			"$T/full" "$PLUMB" "$c" >"$T/full.res" 2>&1
		if grep -q '^rc=[1-9][0-9]* old fill out | .*out: cannot write' "$T/full.res" &&
			[ "$(wc -l <"$T/full.res")" -eq 1 ]; then
			pass "stores/full-disk-keeps-old-$name"
		else
			fail "stores/full-disk-keeps-old-$name" "$(head -c 300 "$T/full.res")"
		fi
	done
fi
