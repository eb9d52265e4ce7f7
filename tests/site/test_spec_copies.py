"""The specification's copies in docs/spec/ are the originals' (the owners keep
them in ../shared/ beside the checkout, where one exists): a changed ruling must
not go unnoticed behind a stale copy."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
COPIES = {
    "docs/spec/rules/RULINGS.md": "rules/RULINGS.md",
    "docs/spec/rules/baohuang.zh-Hans.txt": "rules/baohuang.zh-Hans.txt",
    "docs/spec/rules/shengji-4deck.zh-Hant.txt": "rules/shengji-4deck.zh-Hant.txt",
    "docs/spec/hand-record.md": "spec/hand-record.md",
}


@pytest.mark.parametrize("copy, original", sorted(COPIES.items()))
def test_each_copy_is_the_original(copy, original):
    assert (ROOT / copy).is_file(), f"{copy} is missing"
    source = SHARED / original
    if not source.is_file():
        pytest.skip(f"no {source} beside this checkout")
    assert (ROOT / copy).read_bytes() == source.read_bytes(), f"{copy} differs from {source}: copy it again"
