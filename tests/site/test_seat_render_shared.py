"""A 保皇 seat's render from what a room version shows everyone, worked out
once: the result panels and the apps' notes (:func:`games.render.tables.shared_results`)
once per version and language, each seat's engine view from the view for no
seat (``rules.view_from_public``, :func:`games.render.tables.seat_view`), and
the fan-out's viewers of one language rendered under one activation of it
(:func:`games.live.fanout._render_all`).

Hidden information is the bar (B10): a seat's page shows its own cards and
no one else's, the secret guard reaches no spectator whoever renders first,
and every fragment equals the reference render that shares nothing
(:data:`games.render.memo.CHECK`)."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

import pytest
from django.utils import translation

from games import registry, services
from games.live import fanout, snapshots as live
from games.render import memo, tables
from tests.conftest import drive

pytestmark = pytest.mark.django_db
RULES = registry.get("baohuang").rules


def _timeless(html) -> str:
    return re.sub(r'data-server-now="\d+"', "", str(html))


def _hand_number(room) -> int:
    hand = services.current_hand(room)
    return 0 if hand is None else hand.number


def _complete(room) -> bool:
    hand = services.current_hand(room)
    return hand is not None and hand.complete


def _renders(snap, viewers, language):
    with translation.override(language):
        return [live.render_seat(snap, u, snap.version, 1) for u in viewers]


def _reference(snap, viewers, language, monkeypatch):
    """The renders that share nothing (every part per viewer), from a copy of
    ``snap`` with nothing kept."""
    monkeypatch.setattr(memo, "CHECK", True)
    try:
        return _renders(dataclasses.replace(snap), viewers, language)
    finally:
        monkeypatch.setattr(memo, "CHECK", False)


@pytest.mark.parametrize("stage, region", [("over", "result-panel"), ("next", "last-result")])
def test_results_are_built_once_per_version_and_language(five_humans, monkeypatch, stage, region):
    room, users = five_humans
    drive(room, _complete if stage == "over" else (lambda r: _hand_number(r) == 2))
    snap = live.load_snapshot(room.pk)
    viewers = [*users, None]
    for language, title in (("zh-hans", "结果"), ("en", "result")):
        before = tables.stats["results built"]
        htmls = _renders(snap, viewers, language)
        assert tables.stats["results built"] == before + 1, "one build for six viewers"
        for html in htmls:
            assert region in html.parts
            assert title in html.parts[region][2].lower() or title in html.parts[region][2]
        # the same panel for every viewer, equal to the one built per viewer
        assert len({html.parts[region] for html in htmls}) == 1
        reference = _reference(snap, viewers, language, monkeypatch)
        assert [_timeless(h) for h in htmls] == [_timeless(h) for h in reference]
        _renders(snap, viewers, language)
        assert tables.stats["results built"] == before + 1, "kept on the snapshot"
    assert {key[1] for key in snap.rendered if key[0] == "results"} == {"zh-hans", "en"}


def test_no_results_kept_in_the_reference(five_humans, monkeypatch):
    room, users = five_humans
    drive(room, _complete)
    snap = live.load_snapshot(room.pk)
    before = tables.stats["results built"]
    _reference(snap, users, "zh-hans", monkeypatch)
    assert tables.stats["results built"] == before
    assert not [key for key in snap.rendered if key[0] == "results"]


def _cards(html: str) -> Counter:
    """The cards of a hand's buttons (a stack says its count)."""
    out = Counter()
    for code, count in re.findall(r'data-card="([^"]+)"(?: data-count="(\d+)")?', html):
        out[code] += int(count or 1)
    return out


def test_a_seat_sees_its_own_cards_and_nobody_elses(secret_guard):
    room, users, guard, _emperor = secret_guard
    snap = live.load_snapshot(room.pk)
    order = [guard, *[i for i in range(5) if i != guard]]  # the guard's seat renders first
    htmls = {i: live.render_seat(snap, users[i], snap.version, None) for i in order}
    for i, html in htmls.items():
        own = RULES.view(snap.state, i)["hand"]
        assert own, "every seat holds cards"
        assert _cards(html.parts["my-hand"][2]) == Counter(own)
    hands = [tuple(RULES.view(snap.state, i)["hand"]) for i in range(5)]
    assert len(set(hands)) == 5
    assert len({htmls[i].parts["my-hand"] for i in range(5)}) == 5
    watcher = live.render_seat(snap, None, snap.version, None)
    assert "my-hand" not in watcher.parts


def test_the_spectator_never_sees_the_secret_guard(secret_guard):
    room, users, guard, _emperor = secret_guard
    snap = live.load_snapshot(room.pk)
    name = users[guard].username
    mine = live.render_seat(snap, users[guard], snap.version, None)  # first: its view built from the public one
    watcher = live.render_seat(snap, None, snap.version, None)
    assert f"保皇：{name}" in mine.parts["bh-public"][2]
    assert "保皇：" not in watcher.parts["bh-public"][2]
    assert "role guard" not in watcher and "保皇：" not in watcher
    public = snap.rendered["public view"]
    assert public["guard"] is None and public["hand"] == []
    assert RULES.view_from_public(snap.state, guard, public)["guard"] == guard
    assert public["guard"] is None, "the seat's view changed nothing of the public one"
    assert tables.seat_view(snap, RULES, None)["guard"] is None


def test_each_viewer_in_their_own_language_within_one_fan_out(five_humans, make_user):
    room, users = five_humans
    watcher = make_user("w")
    viewers = [("zh-hans", users[0]), ("en", users[1]), ("zh-hans", users[2]), ("en", watcher),
               ("zh-hant", users[3]), ("zh-hans", None)]
    snap = live.load_snapshot(room.pk)
    with translation.override("en"):
        htmls, renders = fanout._render_all(snap, viewers, snap.version, 1)
        assert translation.get_language() == "en", "the caller's language is back"
    assert renders == 6
    for (language, user), html in zip(viewers, htmls):
        with translation.override(language):
            alone = live.render_seat(snap, user, snap.version, 1)
        assert _timeless(html) == _timeless(alone)
    english = 'aria-label="Seat"'
    assert english in htmls[1] and english in htmls[3]
    assert english not in htmls[0] and english not in htmls[2] and english not in htmls[5]
    assert htmls[0] != htmls[4]  # 简体 and 繁體 are told apart


def test_fixed_words_and_plurals_are_kept_per_language():
    """A game's phase names and button labels, and the templates' plural
    literals, are worked out once per language: each language keeps its own
    word, whichever was asked first."""
    from games.render import jinja
    from games.render.memo import rendering_in

    spec = registry.get("baohuang")
    words = {}
    for language in ("en", "zh-hans", "en", "zh-hant"):
        with rendering_in(language):
            labels = [b.label for b in tables.action_buttons({"play", "pass"}, spec)]
            phase = tables.fixed_word(spec, "phase play", tables.phase_name(spec, "play"))
            counts = [jinja.plural("%(n)s 张", "%(n)s 张", n) for n in (1, 2)]
        assert type(phase) is str and all(type(label) is str for label in labels)
        words.setdefault(language, (labels, phase, counts))
        assert words[language] == (labels, phase, counts)
    assert words["en"] == (["Play", "Pass"], "Play", ["%(n)s card", "%(n)s cards"])
    assert words["zh-hans"] == (["出牌", "过"], "出牌", ["%(n)s 张", "%(n)s 张"])
    assert tables.fixed_word(spec, "phase none", None) is None
