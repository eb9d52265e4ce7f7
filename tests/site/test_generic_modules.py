"""The generic modules name no game: no game code, no game's wording,
no game's ruling (only the common C rulings).  A game's site code lives in
its own package (``games/<code>/``) behind :mod:`games.registry`.

The list below is docs/layout.md's list of generic modules (marked *).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


ROOT = Path(__file__).resolve().parents[2]

GENERIC = [
    "games/*.py", "games/live/*.py", "games/render/*.py", "games/runtime/*.py", "games/pages/*.py",
    "games/services/*.py", "games/templatetags/*.py", "games/jinja2/games/*.html",
    "accounts/*.py", "templates/base.html", "templates/games/*.html",
    "static/games/*.js", "static/games/*.css",
    "games/engine/review.py", "games/pages/review.py", "games/review_models.py",
    "games/services/deal_replay.py", "games/management/commands/makemessages.py",
]

#: Game code names, the games' own names and words (roles, phases, verbs
#: with no meaning outside one game) and their rulings (B…, S…).
WORDS = re.compile(
    r"baohuang|shengji|保皇|升级|升級|皇帝|反贼|\bemperor|\bguard\b|\brebels?\b|\bcrown|\bsolo\b|"
    r"\btrumps?\b|\bkitty\b|\btractor|比牌|叫主|埋底|还牌|還牌|进贡|進貢|\b[BS]\d{1,2}\b",
    re.IGNORECASE,
)


#: Not checked (nor before): embargo.py calls its hooks "guards"; hidden.py
#: explains itself with one game's example (who the guard was).
NOT_CHECKED = {"games/embargo.py", "games/services/hidden.py"}


def generic_files() -> list[Path]:
    files = sorted(
        {p for pattern in GENERIC for p in ROOT.glob(pattern) if p.is_file()} - {ROOT / n for n in NOT_CHECKED}
    )
    assert ROOT / "games" / "models.py" in files  # the tribute tables moved to their game
    assert len(files) > 30
    return files


@pytest.mark.parametrize("path", generic_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_module_names_no_game(path):
    hits = [
        f"{path.relative_to(ROOT)}:{n}: {m.group(0)}"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for m in WORDS.finditer(line)
    ]
    assert hits == []


def test_each_game_package_has_its_spec():
    from games import registry

    for spec in registry.specs():
        package = ROOT / "games" / spec.code
        assert (package / "spec.py").is_file() and (package / "apps.py").is_file()
        if spec.board_template != "games/_board_generic.html":
            assert (package / "jinja2" / spec.board_template).is_file()  # games/render/jinja.py
        for path in (*spec.css, *spec.js):
            assert (package / "static" / path).is_file()
