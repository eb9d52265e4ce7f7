#!/usr/bin/env python3
"""Refuse a CI run that tested nothing: ``check_junit.py EMBEDDED.xml PRODUCTION.xml``.

Exit 1 when a report is missing, holds no passed test, or (production report)
holds no passed test from ``tests/integration`` (i.e. the production-marked
tests were skipped or never collected).  Prints the counts either way.
"""

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def counts(path: Path) -> dict:
    """``{"passed", "failed", "skipped", "integration_passed"}`` of a JUnit file."""
    root = ET.parse(path).getroot()
    out = {"passed": 0, "failed": 0, "skipped": 0, "integration_passed": 0}
    for case in root.iter("testcase"):
        kinds = {child.tag for child in case}
        if kinds & {"failure", "error"}:
            out["failed"] += 1
        elif "skipped" in kinds:
            out["skipped"] += 1
        else:
            out["passed"] += 1
            if case.get("classname", "").startswith("tests.integration."):
                out["integration_passed"] += 1
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    ok = True
    for label, name in zip(("embedded", "production"), argv):
        path = Path(name)
        if not path.exists():
            print(f"{label}: no report at {path} (the run did not happen)")
            ok = False
            continue
        c = counts(path)
        print(f"{label}: {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped")
        if c["passed"] == 0:
            print(f"{label}: no test passed: refusing an empty run")
            ok = False
        if label == "production" and c["integration_passed"] == 0:
            print("production: no integration test ran against the live processes")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
