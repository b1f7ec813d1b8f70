# gen_run.sh — sourced by tests: gen_run FILE HOST LABEL SLOW NRESULTS [UID] writes a plumb JSON
# run with 6 rounds of 3 samples for lat_syscall.null/read/write/stat and, when NRESULTS > 4,
# that many more results (lat_mem_rd.rd points) to make a big run. SLOW multiplies null and read
# (2: two regressions against a run made with 1). UID (32 hex digits) is the run's identity;
# without one the run is known by its content. The values are synthetic, not measurements.
gen_run() {
	awk -v host="$2" -v label="$3" -v slow="$4" -v n="$5" -v uid="$6" '
	function result(metric, params, x, base, unit,    k, rd, s, v) {
		printf "%s    {\"metric\": \"%s\", \"params\": {%s}, \"x\": %s, \"value\": %.6f, \"unit\": \"%s\", \"method_version\": 1, \"samples\": [", sep, metric, params, x, base, unit
		sep = ",\n"
		for (rd = 0; rd < 6; rd++)
			for (s = 0; s < 3; s++) {
				v = base * (1 + 0.004 * rd + 0.001 * s)
				printf "%s{\"value\": %.6f, \"iters\": 1000, \"elapsed_ns\": %.1f, \"round\": %d}", (rd || s) ? ", " : "", v, v * 1000 * 1000, rd
			}
		printf "]}"
	}
	BEGIN {
		printf "{\"schema\": \"plumb/1\", \"kind\": \"run\", \"run\": {"
		if (uid != "") printf "\"uid\": \"%s\", ", uid
		printf "\"label\": \"%s\", \"host\": \"%s\", \"profile\": \"default\", \"source\": \"plumb\", ", label, host
		printf "\"started\": \"2026-11-0%dT10:00:00Z\", \"ended\": \"2026-11-0%dT10:02:00Z\", \"incomplete\": false, \"rounds\": 6, \"options\": {\"repeat\": \"6\"}},\n", (slow > 1) ? 2 : 1, (slow > 1) ? 2 : 1
		printf "\"system\": {\"hostname\": \"%s\", \"kernel\": \"6.1.0-test\", \"os\": \"Linux\"},\n\"results\": [\n", host
		sep = ""
		result("lat_syscall.null", "", "null", 0.30 * slow, "us")
		result("lat_syscall.read", "", "null", 0.40 * slow, "us")
		result("lat_syscall.write", "", "null", 0.50, "us")
		result("lat_syscall.stat", "", "null", 1.00, "us")
		for (i = 4; i < n; i++)
			result("lat_mem_rd.rd", "\"stride\": \"" (64 + i % 7) "\"", 0.001 * (i + 1), 1 + i % 97, "ns")
		printf "\n]}\n"
	}' >"$1"
}
