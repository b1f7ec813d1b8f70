#!/bin/sh
# ci_templates.sh — contrib/ci's GitHub Actions and GitLab CI templates run as CI would run them
# (a .ci/run stage: it builds plumb four times, too long for make test). For each template, a
# throwaway clone of this tree with one more commit (the change; the base is its parent) runs
# the template's own commands, read from its YAML: GitHub's run: steps (but the one installing
# packages) each with bash -eo pipefail as Actions does, GitLab's script: lines in one bash -e
# as its runner does (before_script installs packages: not run). PLUMB_OPTIONS is made small
# (one step, --time-limit 30s). Checked: the job passes (base and change are the same code: no
# regression to find), its JUnit file validates against tests/junit.xsd, GitHub's step summary
# gets the markdown table. Then, for each template, a change that makes lat_syscall's null
# call three getppid() calls: the job fails, and its JUnit file holds the failure.
. tests/lib.sh
PY=/usr/bin/python3
if ! "$PY" -c 'import yaml' 2>/dev/null; then
	skip ci-templates/all "no python3-yaml to read the templates with"
	exit 0
fi
tree=$(pwd)
# run_steps W: the extracted steps in W's clone, as CI runs them; returns the first failure
run_steps() {
	for s in "$1"/step*.sh; do
		(cd "$1/repo" && PLUMB_BASE= PLUMB_DB="$1/none.db" GITHUB_STEP_SUMMARY="$1/summary.md" \
			PLUMB_OPTIONS="--only lat_syscall.null --time-limit 30s" \
			bash -eo pipefail "$s") >>"$1/log" 2>&1 || return $?
	done
}
for tpl in ${CI_TEMPLATES:-github-actions gitlab-ci}; do
	w="$T/$tpl"
	mkdir -p "$w" && git clone -q "$tree" "$w/repo" ||
		{ fail "ci-templates: $tpl: clone" "git clone failed"; continue; }
	git -C "$w/repo" -c user.name=ci -c user.email=ci@localhost commit -q --allow-empty -m change
	"$PY" - "contrib/ci/$tpl.yml" "$w" <<'PYEOF' || { fail "ci-templates: $tpl: read" "python"; continue; }
import os, sys, yaml
path, out = sys.argv[1], sys.argv[2]
d = yaml.safe_load(open(path))
steps = []
if "jobs" in d:  # GitHub Actions: each run: step on its own, but package installs
    for job in d["jobs"].values():
        for s in job["steps"]:
            if "run" in s and "install" not in s.get("name", ""):
                steps.append(s["run"])
else:  # GitLab CI: the script lines are one shell session
    steps.append("\n".join(d["plumb-ab"]["script"]))
for i, s in enumerate(steps):
    open(os.path.join(out, "step%d.sh" % i), "w").write(s + "\n")
PYEOF
	run_steps "$w"
	rc=$?
	if [ $rc -eq 0 ]; then
		pass "ci-templates: $tpl: the job passes"
	else
		fail "ci-templates: $tpl: the job passes" "exit $rc: $(tail -n 3 "$w/log")"
	fi
	check "ci-templates: $tpl: built the base" test -x "$w/plumb-base/bin/plumb"
	if xmllint --noout --schema tests/junit.xsd "$w/repo/plumb-junit.xml" >"$w/xsd" 2>&1; then
		pass "ci-templates: $tpl: JUnit valid"
	else
		fail "ci-templates: $tpl: JUnit valid" "$(tail -n 2 "$w/xsd")"
	fi
	check "ci-templates: $tpl: JUnit names the step" grep -q 'lat_syscall' "$w/repo/plumb-junit.xml"
	[ "$tpl" = github-actions ] &&
		check "ci-templates: $tpl: step summary written" grep -q 'lat_syscall' "$w/summary.md"
	git -C "$w/repo" worktree remove --force ../plumb-base 2>/dev/null
done

# a real regression: the change's null call makes three system calls; each template's job fails
for tpl in ${CI_TEMPLATES:-github-actions gitlab-ci}; do
	w="$T/$tpl"
	[ -d "$w/repo" ] || continue
	git -C "$w/repo" worktree remove --force ../plumb-base 2>/dev/null
	sed -i 's/^\(\t*\)(void)getppid();$/\1{ (void)getppid(); (void)getppid(); (void)getppid(); }/' \
		"$w/repo/src/bench/sys/lat_syscall.c"
	git -C "$w/repo" -c user.name=ci -c user.email=ci@localhost commit -q -a -m "a slower null call"
	rm -f "$w/repo/plumb-ab.db" "$w/repo/plumb-junit.xml"
	run_steps "$w"
	rc=$?
	check "ci-templates: $tpl: a regression fails the job (exit $rc)" test $rc -eq 1
	check "ci-templates: $tpl: the regression is a JUnit failure" \
		grep -q '<failure' "$w/repo/plumb-junit.xml"
	git -C "$w/repo" worktree remove --force ../plumb-base 2>/dev/null
done
