"""The README is read from a fresh clone, wherever it is: every file or folder
it names must be in the repository (it once sent readers to ../shared/, which a
clone elsewhere does not have), and it stays short enough to read."""

from __future__ import annotations

import re
from pathlib import Path
import pytest

pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


ROOT = Path(__file__).resolve().parents[2]


def named_paths(text: str) -> set[str]:
    """Repository paths the README names in backticks (commands, URLs and
    globs left out)."""
    found = set()
    for span in re.findall(r"`([^`\n]+)`", text):
        word = span.split()[0]
        if "/" not in word and not re.search(r"\.(md|py|txt|toml|ini|conf)$", word):
            continue
        if word.startswith(("http", "/", ".venv", "$")) or any(c in word for c in "*<>{}$=:"):
            continue
        found.add(word.rstrip(".,;"))
    return found


def test_every_path_the_readme_names_exists():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in text
    paths = named_paths(text)
    assert "docs/architecture.md" in paths and "docs/spec/rules/RULINGS.md" in paths
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, f"the README names what a clone does not have: {missing}"


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
