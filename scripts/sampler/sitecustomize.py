"""A wall-clock stack sampler and per-thread CPU meter for the bench stack.

``scripts/bench.py --sample DIR`` puts this directory first on the stack
processes' ``PYTHONPATH`` and sets ``BENCH_SAMPLE_DIR``; Python imports
``sitecustomize`` at start-up, and every process of the stack (daphne, the
Celery worker, beat) then samples all its threads' Python stacks 100 times a
second and rewrites ``DIR/<pid>-<command>.txt`` every 3 s with

* one line per distinct stack: ``frame;frame;… count`` (collapsed, root first,
  each frame ``function (file:first line)``), the input of flame-graph tools;
* ``#cpu <thread name>: <ticks>``: each live thread's CPU time (``utime +
  stime`` from ``/proc/self/task/<tid>/stat``, clock ticks, usually 10 ms;
  numbered pool threads summed under their pool's name), and ``#cpu PROCESS``.

Wall-clock samples also count threads that wait (for the GIL, a socket, a
query); the per-thread CPU lines are what tells where the CPU goes.  py-spy
(requirements-dev.txt) does the same from outside where it can read the
interpreter (``py-spy record`` could not, on the machine of session 6).
Nothing happens unless ``BENCH_SAMPLE_DIR`` is set.
"""

import os

_DIR = os.environ.get("BENCH_SAMPLE_DIR")

if _DIR:
    import collections
    import sys
    import threading
    import time

    def _key(frame) -> str:
        parts = []
        while frame is not None:
            code = frame.f_code
            parts.append(f"{code.co_name} ({os.path.basename(code.co_filename)}:{code.co_firstlineno})")
            frame = frame.f_back
        return ";".join(reversed(parts))

    def _ticks(path: str) -> int:
        with open(path) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def _dump(path: str, counts: collections.Counter) -> None:
        cpu = collections.Counter()
        for thread in threading.enumerate():
            try:
                cpu[thread.name.rstrip("0123456789_-")] += _ticks(f"/proc/self/task/{thread.native_id}/stat")
            except (OSError, IndexError, ValueError):
                pass
        cpu["PROCESS"] = _ticks("/proc/self/stat")
        with open(path + ".tmp", "w") as out:
            for stack, n in counts.items():
                out.write(f"{stack} {n}\n")
            for name, ticks in cpu.items():
                out.write(f"#cpu {name}: {ticks}\n")
        os.replace(path + ".tmp", path)

    def _run() -> None:
        counts: collections.Counter = collections.Counter()
        me = threading.get_ident()
        command = "_".join(a.replace("/", "") for a in sys.argv[:4])[:60]
        path = os.path.join(_DIR, f"{os.getpid()}-{command}.txt")
        last = time.monotonic()
        while True:
            time.sleep(0.01)
            for ident, frame in list(sys._current_frames().items()):
                if ident != me:
                    counts[_key(frame)] += 1
            if time.monotonic() - last > 3:
                last = time.monotonic()
                _dump(path, counts)

    threading.Thread(target=_run, daemon=True, name="sampler").start()
