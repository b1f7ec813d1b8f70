#!/usr/bin/env python3
"""bench/scale_side.py FACTOR REGEX PLUMB ARGS... — a known change on real noise, for bench/ab_goals.sh.

Used as side B of `plumb ab` (--b "python3 bench/scale_side.py 1.05 '^lat_syscall\\.' bin/plumb"):
runs PLUMB ARGS (the side's worker), passes the session's requests and the worker's answers
through unchanged, and when the worker says "saved", multiplies every sample of the results whose
metric matches REGEX (value and elapsed time; the result's own value too) by FACTOR in the file
the worker saved, before passing "saved" on. So side B's rows measure exactly FACTOR times what
the machine gave, with the machine's own noise, drift and order effects, and the session's
sequential design (looks, rounds added where undecided) works on them as on a real change.
Why not a slower system call: on some kernels even the smallest seccomp filter adds 28-38 %
to a null call (bin/slowsys), so changes of 3-20 % cannot be made that way there.
A bench tool, not part of plumb or its tests."""
import json, os, re, subprocess, sys, threading


def scale(path, factor, pattern):
    with open(path) as f:
        d = json.load(f)
    for r in d.get('results', []):
        if not pattern.search(r.get('metric', '')):
            continue
        if isinstance(r.get('value'), (int, float)):
            r['value'] *= factor
        for s in r.get('samples', []):
            for k in ('value', 'elapsed_ns'):
                if isinstance(s.get(k), (int, float)):
                    s[k] *= factor
    tmp = path + '.scaled'
    with open(tmp, 'w') as f:
        json.dump(d, f)
    os.replace(tmp, path)


def main():
    if len(sys.argv) < 4:
        sys.exit('usage: scale_side.py FACTOR REGEX PLUMB ARGS...')
    factor, pattern, cmd = float(sys.argv[1]), re.compile(sys.argv[2]), sys.argv[3:]
    path = next((a.split('=', 1)[1] for a in cmd if a.startswith('--ab-worker=')), None)
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def feed():  # the session's requests, line by line, as they come
        for line in sys.stdin.buffer:
            try:
                child.stdin.write(line)
                child.stdin.flush()
            except BrokenPipeError:
                return
        child.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    for line in child.stdout:
        if line.strip() == b'saved' and path:
            scale(path, factor, pattern)
        sys.stdout.buffer.write(line)
        sys.stdout.buffer.flush()
    rc = child.wait()
    # os._exit, not sys.exit: the feeding thread may sit in a read of stdin, and Python 3.11's
    # shutdown then aborts ("could not acquire lock for stdin"), which the session reads as a
    # failed side
    sys.stdout.flush()
    os._exit(rc)


if __name__ == '__main__':
    main()
