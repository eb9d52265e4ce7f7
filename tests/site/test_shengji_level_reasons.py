"""升級's result says why the levels moved (S17's band, then S2's sequence
with the team's own levels), in the reader's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.shengji.table import level_reason


def _team(before, after, gained):
    return {"before": before, "after": after, "gained": gained}


@pytest.mark.parametrize("x, teams, band, s2", [
    (0, [_team("2", "8", 4), _team("2", "2", 0)], "闲家 0 分：庄家升 4 级（S17）", "2 → 8 是升 4 级"),
    (100, [_team("2", "4", 1), _team("2", "2", 0)], "不到 160 分", "2 → 4 是升 1 级"),
    (330, [_team("4", "7", 2), _team("6", "6", 0)], "升 2 级（S17）", "4 → 7 是升 2 级"),
    (120, [_team("7", "8", 1), _team("2", "2", 0)], "不到 160 分", None),  # no 3 or 5 crossed: no S2 line
    (200, [_team("2", "2", 0), _team("2", "2", 0)], "不升级", None),
])
def test_the_reasons_cite_the_band_and_the_team_own_levels(x, teams, band, s2):
    with translation.override("zh-hans"):
        reasons = level_reason(x, teams)
    assert band in reasons[0]
    if s2 is None:
        assert len(reasons) == 1
    else:
        assert len(reasons) == 2 and s2 in reasons[1] and "（S2）" in reasons[1]


def test_in_english_and_traditional():
    teams = [_team("2", "8", 4), _team("2", "2", 0)]
    with translation.override("en"):
        en = level_reason(0, teams)
    with translation.override("zh-hant"):
        hant = level_reason(0, teams)
    assert "2 → 8 is 4 levels up (S2)" in en[1] and "级" not in en[1]
    assert "2 → 8 是升 4 級" in hant[1]
    with translation.override("en"):
        assert "2 → 4 is 1 level up" in level_reason(100, [_team("2", "4", 1), _team("2", "2", 0)])[1]
