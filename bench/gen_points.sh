#!/bin/sh
# gen_points.sh N SEED [SCALE] — a plumb JSON run of N points on stdout, for bench/scale.sh:
# series of 1000 points each (lat_mem_rd.rand at strides 1, 2, ..., x = 0.001 ... 1 MB), one
# sample per point, values scaled by SCALE (1 by default). About 170 bytes a point, so that a
# million points stay under the 256 MiB plumb reads from one file.
awk -v n="$1" -v seed="$2" -v scale="${3:-1}" 'BEGIN {
	srand(seed)
	printf "{\n  \"schema\": \"plumb/1\", \"kind\": \"run\", \"plumb_version\": \"0.1.0\",\n"
	printf "  \"run\": {\"id\": null, \"label\": \"scale%d\", \"host\": \"bench\", \"profile\": \"quick\", \"started\": \"2026-11-30T04:00:00Z\", \"ended\": \"2026-11-30T04:05:00Z\", \"incomplete\": false, \"rounds\": 1, \"options\": {}},\n", seed
	printf "  \"system\": {\"hostname\": \"bench\"},\n  \"facts\": {},\n  \"results\": [\n"
	for (i = 0; i < n; i++) {
		v = 90 * scale * (1 + 0.04 * (rand() - 0.5))
		printf "%s{\"metric\":\"lat_mem_rd.rand\",\"params\":{\"stride\":\"%d\"},\"x\":%.3f,\"value\":%.4f,\"unit\":\"ns\",\"method_version\":1,\"samples\":[{\"value\":%.4f,\"iters\":1000,\"elapsed_ns\":90000,\"round\":0}]}", i ? ",\n" : "", int(i / 1000) + 1, (i % 1000 + 1) / 1000, v, v
	}
	printf "\n  ]\n}\n"
}'
