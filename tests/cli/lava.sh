#!/bin/sh
# lava.sh — the LAVA test definition (contrib/lava/) proven with LAVA's own code from Debian's
# lava-dispatcher package: the definition passes LAVA's test-definition schema
# (lava_common.schemas.test.testdef), its step script runs a bundle of this build with LAVA's own
# lava-test-case and lava-test-reference helpers on the PATH (as LAVA's test shell deploys them,
# its interpreter line added), and the log is read back by LAVA's signal pattern, handle_testcase
# and SignalMatch (the result parsing of lava_dispatcher.actions.test.shell): every point of the
# run printed into the log is one test case, passed, with its value as the measurement and its
# unit as the units. The whole job on a qemu device is tests/lava_job.sh (a .ci/run stage; see
# docs/lab.md). SKIPs when lava-dispatcher is not installed.
. tests/lib.sh
PY=/usr/bin/python3
lava=$("$PY" -c 'import os, lava_dispatcher; print(os.path.dirname(lava_dispatcher.__file__))' 2>/dev/null)
if [ -z "$lava" ] || [ ! -f "$lava/lava_test_shell/lava-test-case" ]; then
	skip lava/all "Debian's lava-dispatcher is not installed (apt-get install lava-dispatcher)"
	exit 0
fi
# LAVA's helpers as its test shell deploys them: the interpreter line filled in
mkdir "$T/lavabin" "$T/results" "$T/devtmp"
for h in lava-test-case lava-test-reference lava-common-functions; do
	{ echo '#!/bin/sh'; cat "$lava/lava_test_shell/$h"; } >"$T/lavabin/$h"
	chmod +x "$T/lavabin/$h"
done
# the definition's repository as LAVA checks it out, with a bundle of this build beside it
tree=$(cd "$(dirname "$PLUMB")/.." && pwd)
mkdir -p "$T/def/contrib/lava"
cp contrib/lava/plumb.yaml contrib/lava/plumb-lava.sh "$T/def/contrib/lava/"
sh mk/bundle.sh "$tree" "$T/def/contrib/lava/plumb-test.tar.gz" >"$T/bundle.out" 2>&1 ||
	{ fail lava/bundle "$(tail -n 1 "$T/bundle.out")"; exit 0; }
if (cd "$T/def" && PATH="$T/lavabin:$PATH" LAVA_RESULT_DIR="$T/results" PLUMB_DB="$T/none.db" TMPDIR="$T/devtmp" \
	sh ./contrib/lava/plumb-lava.sh "" "" --quick --only lat_syscall.null,lat_pipe) >"$T/log" 2>"$T/err"; then
	pass "lava: the definition's step runs"
else
	fail "lava: the definition's step runs" "$(tail -n 2 "$T/err")"
fi
check "lava: the device keeps no file" test -z "$(ls -A "$T/devtmp")"

"$PY" - "$T/log" contrib/lava/plumb.yaml >"$T/check" 2>&1 <<'EOF'
import json, math, re, sys, yaml
from lava_common.schemas.test import testdef
from lava_dispatcher.actions.test.shell import TestShellAction, handle_testcase
from lava_dispatcher.connection import SignalMatch

log, yml = open(sys.argv[1]).read(), sys.argv[2]
try:
    testdef.validate(yaml.safe_load(open(yml)))
    print("PASS lava: the definition passes LAVA's test-definition schema")
except Exception as e:
    print("FAIL lava: the definition passes LAVA's test-definition schema: %s" % e)
shell = TestShellAction()
shell._reset_patterns()
fixup = shell.pattern.fixupdict()
cases = {}
for m in re.finditer(shell.patterns["signal"], log):
    name, params = m.groups()
    if name == "TESTCASE":
        res = SignalMatch().match(handle_testcase(params.split()), fixupdict=fixup)
        if res["test_case_id"] in cases:
            print("FAIL lava: case names unique: %s twice" % res["test_case_id"])
        cases[res["test_case_id"]] = res
    elif name == "TESTREFERENCE":
        cases[params.split()[0]] = {"result": params.split()[1]}
begin, end = "=== plumb run JSON begin ===\n", "=== plumb run JSON end ==="
try:
    run = json.loads(log[log.index(begin) + len(begin):log.index(end)])
    print("PASS lava: the run's JSON is in the log, whole")
except Exception as e:
    print("FAIL lava: the run's JSON is in the log, whole: %s" % e)
    sys.exit(0)
ok = all(cases.get(c, {}).get("result") == "pass" for c in ("plumb-bundle", "plumb-run"))
print(("PASS" if ok else "FAIL") + " lava: bundle and run cases pass")
points = [r for r in run["results"]]
print(("PASS" if len(points) >= 2 else "FAIL") + " lava: the run has points (%d)" % len(points))
measured = [c for c in cases.values() if "measurement" in c]
bad = []
for p in points:
    found = [c for c in measured if math.isclose(c["measurement"], p["value"], rel_tol=1e-12)
             and c.get("units") == p["unit"] and c["result"] == "pass"
             and c["test_case_id"].startswith(p["metric"])]
    if len(found) != 1:
        bad.append("%s %s: %d cases" % (p["metric"], p["params"], len(found)))
print(("PASS" if not bad else "FAIL") +
      " lava: each point is one passed case, its value the measurement, its unit the units" +
      (": " + "; ".join(bad[:3]) if bad else ""))
n = len(measured)
print(("PASS" if n == len(points) else "FAIL") +
      " lava: as many measured cases as points (%d, %d)" % (n, len(points)))
EOF
cat "$T/check"
[ "$(grep -c '^PASS' "$T/check")" -ge 6 ] || grep -q '^FAIL' "$T/check" ||
	fail "lava: LAVA's parsing ran" "$(tail -n 3 "$T/check")"
check "lava: LAVA's own result files written" test -s "$T/results/results/plumb-run/result"

# UPLOAD_URL: the run's JSON PUT to a loopback HTTP server this test starts (as curl -T sends it
# to a lab's artifact store) and referenced with LAVA's lava-test-reference; when the upload
# fails (the server gone), the JSON goes into the log between the markers instead
cat >"$T/put.py" <<'PYEOF'
import http.server, sys
class Put(http.server.BaseHTTPRequestHandler):
    def do_PUT(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        open(sys.argv[1], "wb").write(body)
        self.send_response(201)
        self.end_headers()
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 0), Put)
open(sys.argv[2], "w").write(str(s.server_address[1]))
s.timeout = 60
s.handle_request()  # one upload, then gone
PYEOF
"$PY" "$T/put.py" "$T/uploaded.json" "$T/port" &
srv=$!
for i in 1 2 3 4 5 6 7 8 9 10; do [ -s "$T/port" ] && break; sleep 0.2; done
url="http://127.0.0.1:$(cat "$T/port" 2>/dev/null)/plumb-run.json"
up() { # up LOG: the step with UPLOAD_URL=$url
	(cd "$T/def" && PATH="$T/lavabin:$PATH" LAVA_RESULT_DIR="$T/results" PLUMB_DB="$T/none.db" \
		TMPDIR="$T/devtmp" sh ./contrib/lava/plumb-lava.sh "" "$url" --quick --only lat_syscall.null) \
		>"$1" 2>>"$T/err"
}
up "$T/uplog"
kill $srv 2>/dev/null; wait $srv 2>/dev/null
check "lava: UPLOAD_URL: the run's JSON arrives whole" "$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert any(x["metric"] == "lat_syscall.null" and x["samples"] for x in r["results"]), r.keys()
' "$T/uploaded.json"
check "lava: UPLOAD_URL: referenced with lava-test-reference" \
	grep -q "<LAVA_SIGNAL_TESTREFERENCE plumb-run-json pass $url>" "$T/uplog"
check "lava: UPLOAD_URL: the JSON is not also in the log" sh -c '! grep -q "=== plumb run JSON begin" "$1"' _ "$T/uplog"
# the server is gone: curl fails, the JSON is kept in the log
up "$T/uplog2"
check "lava: UPLOAD_URL refused: the JSON is in the log instead" \
	sh -c 'grep -q "=== plumb run JSON begin" "$1" && ! grep -q TESTREFERENCE "$1"' _ "$T/uplog2"
check "lava: the device keeps no file after the uploads" test -z "$(ls -A "$T/devtmp")"
