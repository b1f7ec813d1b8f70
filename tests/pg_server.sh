# pg_server.sh — sourced by tests that need a real PostgreSQL server: pg_start starts a private
# one (initdb into a temporary directory, no TCP listener, a Unix socket in that directory) and
# sets PG_URI (the database plumbtest, user plumb, with a password in the URI that trust
# authentication ignores, so tests can check it never shows); pg_stop stops it and removes
# everything. initdb refuses to run as root, so as root the server runs as nobody.
# pg_start returns 1 with PG_WHY set when the machine cannot run one (the test SKIPs).
PG_DIR= PG_URI= PG_WHY= PG_BIN=
pg_as() { # run a server command as the server's owner
	if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}
pg_start() {
	PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ] || [ ! -x "$PG_BIN/pg_ctl" ]; then
		PG_WHY="no PostgreSQL server binaries (Debian package postgresql) under /usr/lib/postgresql/*/bin"
		return 1
	fi
	if [ "$(id -u)" -eq 0 ] && ! command -v runuser >/dev/null 2>&1; then
		PG_WHY="running as root without runuser: initdb needs an unprivileged user"
		return 1
	fi
	PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/plumb-pg.XXXXXX") || { PG_WHY="mktemp failed"; return 1; }
	chmod 755 "$PG_DIR"
	mkdir "$PG_DIR/sock"
	[ "$(id -u)" -eq 0 ] && chown nobody "$PG_DIR" "$PG_DIR/sock"
	if ! pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U plumb --auth=trust -E UTF8 --no-locale \
		>"$PG_DIR/initdb.log" 2>&1; then
		PG_WHY="initdb failed: $(tail -n 1 "$PG_DIR/initdb.log")"
		rm -rf "$PG_DIR"
		return 1
	fi
	if ! pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/data/server.log" -w -t 60 \
		-o "-c listen_addresses='' -c unix_socket_directories=$PG_DIR/sock -c fsync=off -c max_connections=40" \
		start >"$PG_DIR/pg_ctl.log" 2>&1; then
		PG_WHY="the server did not start: $(tail -n 2 "$PG_DIR/data/server.log" 2>/dev/null | tr '\n' ' ')"
		pg_stop
		return 1
	fi
	"$PG_BIN/createdb" -h "$PG_DIR/sock" -U plumb plumbtest >/dev/null 2>&1
	PG_SOCK_ENC=$(printf '%s' "$PG_DIR/sock" | sed 's|/|%2F|g')
	PG_URI="postgresql://plumb:Pw-S3cret-xyzzy@$PG_SOCK_ENC/plumbtest"
	return 0
}
pg_stop() {
	[ -n "$PG_DIR" ] || return 0
	[ -f "$PG_DIR/data/postmaster.pid" ] && pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$PG_DIR"
	PG_DIR=
}
# psql against the test database (for checks plumb cannot make itself)
pg_sql() { "$PG_BIN/psql" -X -q -t -A -h "$PG_DIR/sock" -U plumb -d plumbtest -c "$1"; }
# pg_start_or_skip NAME: start the server (stopped and removed at exit), or print SKIP NAME with
# the reason (no libpq in this plumb, no server binaries) and return 1
pg_start_or_skip() {
	if "$PLUMB" runs --db "postgresql://x@%2Fnonexistent/x" 2>&1 | grep -q 'without libpq'; then
		skip "$1" "plumb was built without libpq (make NO_PGSQL=1 or no libpq-dev)"
		return 1
	fi
	if ! pg_start; then
		skip "$1" "$PG_WHY"
		return 1
	fi
	trap 'pg_stop; rm -rf "$T"' EXIT
	trap 'exit 1' INT TERM
}
