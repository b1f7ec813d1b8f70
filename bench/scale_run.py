#!/usr/bin/env python3
"""bench/scale_run.py FACTOR REGEX PLUMB ARGS... — a known change on real noise for one `plumb run`.

The run analogue of bench/scale_side.py, for `plumb bisect-check --baseline` (whose looks are
`PLUMB run ... -o FILE`): runs PLUMB ARGS, then multiplies every sample of the results whose
metric matches REGEX (value and elapsed time; the result's own value too) by FACTOR in FILE, and
exits with the run's status. So the build under test measures exactly FACTOR times what the
machine gave it, with the machine's own noise. A bench tool, not part of plumb or its tests."""
import os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale_side import scale  # noqa: E402


def main():
    if len(sys.argv) < 4:
        sys.exit('usage: scale_run.py FACTOR REGEX PLUMB ARGS...')
    factor, pattern, cmd = float(sys.argv[1]), re.compile(sys.argv[2]), sys.argv[3:]
    path = next((cmd[i + 1] for i, a in enumerate(cmd[:-1]) if a == '-o'), None)
    rc = subprocess.call(cmd)
    if rc == 0 and path and os.path.exists(path):
        scale(path, factor, pattern)
    sys.exit(rc)


if __name__ == '__main__':
    main()
