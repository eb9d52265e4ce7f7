#!/usr/bin/env python3
"""Run one half of ``make test`` as parts side by side: ``test_parts.py``.

    test_parts.py --junit OUT.xml \\
        --part 'browser: tests/browser' --part 'rest: --ignore=tests/browser' \\
        [--env 'rest:VAR=value' ...] -- python -m pytest --durations=15

Each part is the command after ``--`` plus ``--junitxml=<OUT stem>-<part>.xml``
and the part's own arguments (split as a shell would), with the part's
``--env`` variables added to this process's environment.  The parts run at
the same time; most of a part's wall time is waiting (servers starting, bots'
pacing, fault tests' outages), so two parts take about as long as the longer
one.  A part's output goes to ``<OUT stem>-<part>.log`` and is printed whole,
part after part, once all have ended, with one line as each ends.  The parts'
JUnit reports are merged into ``OUT.xml`` (one ``<testsuites>`` holding every
part's ``<testsuite>``), which is what ``scripts/check_junit.py`` reads.

Exit status: 0 when every part exited 0, else the first non-zero status (2
for a bad command line).  Bounded: each part is stopped after ``--timeout``
seconds (default 80 minutes), which counts as a failure.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path


def parse(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """``(options, command)``; exits 2 on a bad command line."""
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    split = argv.index("--")
    parser = argparse.ArgumentParser(description="Run pytest parts side by side.")
    parser.add_argument("--junit", required=True, type=Path)
    parser.add_argument("--part", action="append", required=True, metavar="'NAME: ARGS'")
    parser.add_argument("--env", action="append", default=[], metavar="'NAME:VAR=value'")
    parser.add_argument("--timeout", type=float, default=80 * 60)
    options = parser.parse_args(argv[:split])
    command = argv[split + 1:]
    if not command:
        parser.error("no command after --")
    return options, command


def merge_junit(out: Path, parts: list[Path]) -> None:
    """Write ``out``: every ``<testsuite>`` of the ``parts`` that exist."""
    root = ET.Element("testsuites")
    for path in parts:
        if not path.exists():
            continue
        tree = ET.parse(path).getroot()
        suites = [tree] if tree.tag == "testsuite" else list(tree.iter("testsuite"))
        root.extend(suites)
    out.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(out, encoding="utf-8", xml_declaration=True)


def main(argv: list[str]) -> int:
    options, command = parse(argv)
    stem = options.junit.with_suffix("")
    parts = []
    for spec in options.part:
        name, sep, args = spec.partition(":")
        name = name.strip()
        if not sep or not name.isidentifier():
            print(f"test_parts: a part is 'NAME: ARGS', not {spec!r}", file=sys.stderr)
            return 2
        env = dict(os.environ)
        for item in options.env:
            owner, _, assignment = item.partition(":")
            var, eq, value = assignment.partition("=")
            if not eq:
                print(f"test_parts: an --env is 'NAME:VAR=value', not {item!r}", file=sys.stderr)
                return 2
            if owner.strip() == name:
                env[var] = value
        junit = Path(f"{stem}-{name}.xml")
        log = Path(f"{stem}-{name}.log")
        junit.unlink(missing_ok=True)
        parts.append({"name": name, "junit": junit, "log": log,
                      "argv": [*command, f"--junitxml={junit}", *shlex.split(args)], "env": env})

    started = time.monotonic()
    for part in parts:
        part["file"] = open(part["log"], "w")
        part["proc"] = subprocess.Popen(part["argv"], env=part["env"], stdout=part["file"],
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        print(f"[parts] {part['name']}: started: {shlex.join(part['argv'])}", flush=True)
    pending = list(parts)
    while pending:
        time.sleep(1)
        for part in list(pending):
            status = part["proc"].poll()
            if status is None and time.monotonic() - started > options.timeout:
                part["proc"].kill()
                status = part["proc"].wait()
                part["timed_out"] = True
            if status is not None:
                part["status"], part["minutes"] = status, (time.monotonic() - started) / 60
                part["file"].close()
                pending.remove(part)
                print(f"[parts] {part['name']}: exited {status} after {part['minutes']:.1f} min", flush=True)

    for part in parts:
        print(f"\n===== part {part['name']}: exit {part['status']}, {part['minutes']:.1f} min"
              f"{' (stopped: over the time limit)' if part.get('timed_out') else ''} =====", flush=True)
        sys.stdout.write(part["log"].read_text(errors="replace"))
        sys.stdout.flush()
    merge_junit(options.junit, [part["junit"] for part in parts])
    failed = [part for part in parts if part["status"] != 0 or part.get("timed_out")]
    return (failed[0]["status"] or 1) if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
