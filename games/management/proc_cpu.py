"""CPU time of processes from ``/proc`` (Linux), for ``manage.py bench_live``.

A process's CPU seconds are ``utime + stime`` of ``/proc/<pid>/stat``
(clock ticks, ``SC_CLK_TCK``).  :func:`tree_cpu` adds every live descendant
(a prefork Celery worker's children) and the ``cutime + cstime`` of children
that already exited and were reaped.  :func:`sample` reads several process
kinds at once; :func:`delta` subtracts two samples.  Everything is read-only
and bounded by the number of entries in ``/proc``.
"""

from __future__ import annotations

import os
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (field 3
    onwards), or None when the process is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def cpu_seconds(pid: int, children: bool = False) -> float:
    """``utime + stime`` of ``pid`` in seconds (plus its reaped children's
    ``cutime + cstime`` with ``children``); 0.0 when the process is gone."""
    fields = _stat(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    if children:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime
    return ticks / TICK


def _processes() -> dict[int, tuple[int, str]]:
    """``{pid: (ppid, cmdline)}`` of every process visible in ``/proc``."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        fields = _stat(int(entry))
        if fields is None:
            continue
        try:
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(
                "utf-8", "replace").strip()
        except OSError:
            cmd = ""
        out[int(entry)] = (int(fields[1]), cmd)
    return out


def tree_cpu(root: int, procs: dict[int, tuple[int, str]] | None = None) -> float:
    """CPU seconds of ``root`` and all its descendants (live ones, and those
    already reaped through ``cutime + cstime``)."""
    procs = _processes() if procs is None else procs
    children: dict[int, list[int]] = {}
    for pid, (ppid, _cmd) in procs.items():
        children.setdefault(ppid, []).append(pid)
    total, todo, seen = 0.0, [root], set()
    while todo and len(seen) < 10000:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += cpu_seconds(pid, children=(pid == root))
        todo.extend(children.get(pid, ()))
    return total


def sample(kinds: dict[str, list[int]], database: str | None = None) -> dict[str, float]:
    """CPU seconds per kind now: ``kinds`` maps a kind (``daphne``, ``worker``,
    ``beat`` …) to its root pids (trees summed).  With ``database``: ``pg`` is
    the PostgreSQL backends whose command line names that database (one
    backend per connection; a backend that exits between two samples loses
    its time, which :func:`delta` counts from zero for a new one), and
    ``pg_cluster`` the whole local cluster (the postmaster's reaped children
    plus every live child: other databases' work included), ``redis`` every
    ``redis-server`` process (shared by everybody on this machine)."""
    procs = _processes()
    out = {kind: sum(tree_cpu(pid, procs) for pid in pids) for kind, pids in kinds.items()}
    if database:
        out["pg"] = {pid: cpu_seconds(pid) for pid, (_pp, cmd) in procs.items()
                     if cmd.startswith("postgres:") and f" {database} " in f"{cmd} "}
        masters = [pid for pid, (_pp, cmd) in procs.items()
                   if "postgres" in cmd.split(" ")[0] and " -D " in f" {cmd} "]
        out["pg_cluster"] = sum(tree_cpu(pid, procs) for pid in masters)
        out["redis"] = sum(cpu_seconds(pid) for pid, (_pp, cmd) in procs.items()
                           if cmd.startswith("redis-server"))
    return out


def delta(before: dict, after: dict) -> dict[str, float]:
    """``after - before`` per kind (``pg``: per backend, a new backend from zero)."""
    out = {}
    for kind, value in after.items():
        if isinstance(value, dict):
            old = before.get(kind) or {}
            out[kind] = sum(v - old.get(pid, 0.0) for pid, v in value.items())
        else:
            out[kind] = value - before.get(kind, 0.0)
    return out
