# junit.sh — `plumb compare --format junit`: the report parses as XML, validates against the JUnit
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# schema Jenkins reads (tests/junit.xsd), has one testcase per metric point and one failure per
# significant regression, and stays valid XML whatever bytes the runs' names hold.
. tests/lib.sh
. tests/gen_run.sh
gen_run "$T/base.json" box base 1 4
gen_run "$T/slow.json" box slow 2 4
"$PLUMB" compare "$T/base.json" "$T/slow.json" --format junit -o "$T/j.xml" 2>"$T/j.err"
check junit/exit-0-without-fail-on-regression test $? -eq 0
if ! command -v xmllint >/dev/null 2>&1; then
	skip junit/xmllint "xmllint missing (Debian package libxml2-utils): XML not checked"
else
	check junit/parses-as-xml xmllint --noout "$T/j.xml"
	check junit/validates-against-xsd xmllint --noout --schema tests/junit.xsd "$T/j.xml"
	check junit/one-testcase-per-metric test "$(xmllint --xpath 'count(//testcase)' "$T/j.xml")" -eq 4
	check junit/one-failure-per-regression test "$(xmllint --xpath 'count(//testcase/failure)' "$T/j.xml")" -eq 2
	names=$( (xmllint --xpath 'string(//testcase[failure][1]/@name)' "$T/j.xml"; echo
		xmllint --xpath 'string(//testcase[failure][2]/@name)' "$T/j.xml"; echo) | sort | tr -d '\n')
	check junit/failures-are-the-regressions test "$names" = lat_syscall.nulllat_syscall.read
	# the failure message carries the change and its 95 % interval: "worse: +100.0 % [+x, +y]"
	check junit/failure-has-interval grep -Eq 'message="worse: \+[0-9.]+ % \[\+[0-9.]+, \+[0-9.]+\]' "$T/j.xml"
	check junit/suite-counts-failures test "$(xmllint --xpath 'string(//testsuite/@failures)' "$T/j.xml")" -eq 2
	check junit/message-has-change xmllint --xpath '//failure[contains(@message, "worse: +100.0 %")]' "$T/j.xml"
	# no regression: no failure
	"$PLUMB" compare "$T/base.json" "$T/base.json" --format junit >"$T/same.xml" 2>/dev/null
	check junit/same-run-no-failure test "$(xmllint --xpath 'count(//failure)' "$T/same.xml")" -eq 0
	# hostile names (markup, control bytes, bad UTF-8) stay valid XML
	sed 's/"host": "box"/"host": "b<o>x\&\\"\\u0001"/; s/lat_syscall.write/lat_syscall.w<r>\&it\xffe/' "$T/slow.json" >"$T/odd.json"
	"$PLUMB" compare "$T/base.json" "$T/odd.json" --format junit >"$T/odd.xml" 2>/dev/null
	check junit/hostile-names-still-valid xmllint --noout --schema tests/junit.xsd "$T/odd.xml"
fi
# --fail-on-regression keeps its exit status with junit output
"$PLUMB" compare "$T/base.json" "$T/slow.json" --format junit --fail-on-regression >/dev/null 2>&1
check junit/fail-on-regression-exit-1 test $? -eq 1
expect_usage junit/bad-format "$PLUMB" compare "$T/base.json" "$T/slow.json" --format junitx
