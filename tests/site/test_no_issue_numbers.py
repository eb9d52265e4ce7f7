"""Code says why in words: no issue-tracker references (``#12``, ``issue 26``)
in Python, templates, scripts or style sheets outside migrations.  The tracker is not in the
repository, so a number explains nothing to a reader; the history is in git."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


ROOT = Path(__file__).resolve().parents[2]
REFERENCE = re.compile(r"(?<![&\w#])#\d{1,2}\b(?![\w\"]|'(?!s\b))|\b[Ii]ssues? #?\d{1,2}\b")


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / name for name in out.stdout.split()
            if "/migrations/" not in name and "static/vendor/" not in name]


def test_no_issue_numbers_in_code():
    found = []
    for path in tracked("*.py", "*.html", "*.js", "*.css"):
        if path == Path(__file__).resolve():
            continue  # its own examples of what it finds
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if REFERENCE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert found == []


def test_the_pattern_finds_what_it_must():
    assert REFERENCE.search("a fix (#22)") and REFERENCE.search("issue 14: quick play")
    assert REFERENCE.search("as #24's table showed")  # a possessive is a reference too
    assert not REFERENCE.search("color: #fff") and not REFERENCE.search("it&#39;s")
