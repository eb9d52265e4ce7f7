"""The typed seam between the generic table and a game's regions.

Every table state these tests can reach — both games and the test-only third
game, each phase, every viewer kind (each seat, a signed-in spectator, an
anonymous visitor, a completed hand's replay at its steps) — renders through the live fragment with the Jinja2
environment's strict undefined (:mod:`games.render.jinja`), so a renamed field
of :class:`~games.render.view.TableView`, :class:`~games.render.view.SeatView`
or a game's regions fails here instead of printing nothing.

``SEAM_GOLDEN=record`` / ``SEAM_GOLDEN=compare`` (a developer's run, one test
at a time) keeps the renders in ``tmp/seam_golden.json`` / compares with
them: the rendered HTML stayed the same through the seam's rewrite.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation
from jinja2 import UndefinedError

from games import services
from games.engine import get_rules
from games.live import snapshots as live
from games.models import Hand, Room
from games.render import tables
from tests.conftest import drive
from tests.site.shengji_fixtures import auction_with_give, auto, state_of
from tests.site.shengji_fixtures import sj_humans  # noqa: F401 (fixture)
from tests.site.test_third_game import hc_room, highcard  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).resolve().parents[2] / "tmp" / "seam_golden.json"
_CLOCKS = re.compile(r' data-(?:server-now|committed-at|deadline)="\d*"| data-h="[0-9a-f]+"')


@pytest.fixture(autouse=True)
def _seeded_deals(monkeypatch):
    """Deals from a fixed sequence of seeds, so that two runs see the same tables."""
    seeds = itertools.count(1000)
    monkeypatch.setattr("games.services.hands.new_seed", lambda: next(seeds))


class Renders:
    """Each viewer's fragment at each table state, without the clocks."""

    def __init__(self):
        self.html: dict[str, str] = {}
        self.errors: dict[str, str] = {}  # strict undefined: message -> first render

    def take(self, label: str, room: Room, viewers) -> None:
        live.forget(room.pk)
        snap = live.load_snapshot(room.pk)
        for name, viewer in viewers:
            for language in ("zh-hans", "en"):
                try:
                    with translation.override(language):
                        html = str(live.render_seat(snap, viewer, snap.version, 1))
                except UndefinedError as exc:
                    self.errors.setdefault(str(exc), f"{label}/{name}/{language}")
                    continue
                self.html[f"{label}/{name}/{language}"] = _CLOCKS.sub("", html)

    def take_replay(self, label: str, hand, viewers) -> list[str]:
        """The replay of the completed ``hand`` (:func:`games.render.tables.replay_snapshot`)
        at its first, middle steps and last step, as each viewer sees it; the
        renders of the first viewer, step by step."""
        total = hand.actions.count()
        steps = sorted({0, 1, total // 3, total // 2, total - 1, total})
        first = []
        for step in steps:
            snap = tables.replay_snapshot(hand, step)
            for name, viewer in viewers:
                try:
                    html = str(tables.render_table_parts(snap.room, viewer, 1, snapshot=snap))
                except UndefinedError as exc:
                    self.errors.setdefault(str(exc), f"{label}/{step}/{name}")
                    continue
                self.html[f"{label}/{step}/{name}"] = _CLOCKS.sub("", html)
                if name == viewers[0][0]:
                    first.append(html)
        return first

    def check(self, test: str) -> None:
        """No render failed; with ``SEAM_GOLDEN`` the renders are kept or compared."""
        assert not self.errors, self.errors
        mode = os.environ.get("SEAM_GOLDEN")
        if not mode:
            return
        kept = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        if mode == "record":
            kept[test] = self.html
            GOLDEN.parent.mkdir(exist_ok=True)
            GOLDEN.write_text(json.dumps(kept, ensure_ascii=False, indent=0))
            return
        before = kept[test]
        assert set(before) <= set(self.html)
        changed = [k for k in before if before[k] != self.html[k]]
        for key in changed[:3]:
            a, b = before[key], self.html[key]
            at = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y) if a[:len(b)] != b[:len(a)] else min(len(a), len(b))
            print(key, "\n before:", a[max(0, at - 200):at + 200], "\n after: ", b[max(0, at - 200):at + 200])
        assert not changed, f"{len(changed)} of {len(before)} renders changed"


def _replay_shows_the_hand_as_a_spectator(renders: list[str], own_board: bool = True) -> None:
    """Step 0 to the last: nobody's cards, no button, no clock; the hand over
    only at the end.  A game with its own board (and ``seat_plays``) lays the
    plays on the felt in between and shows its result panel at the end."""
    for html in renders:
        assert 'data-region="hand"' not in html
        assert not re.search(r'hx-post="[^"]*/(act|seat|ready|autoplay|fill-bots)"', html)
        assert "data-my-seat" not in html and "data-deadline" not in html
    assert 'data-region="result"' not in renders[0]
    assert ('data-region="result"' in renders[-1]) == own_board
    assert "本局结束" in renders[-1] and "本局结束" not in renders[0]
    assert any("data-played-seat" in html for html in renders[1:-1]) == own_board


def _viewers(users, watcher):
    return [*((f"seat{i}", u) for i, u in enumerate(users)), ("watcher", watcher), ("anonymous", AnonymousUser())]


def test_every_shengji_phase_renders_for_every_viewer(sj_humans, make_user):
    """升级: the auction (S13), 还牌 (S14), the trump call, burying (S15), a
    trick in progress and a completed one (S10), the hand's result (S16-S18)
    and the next hand's deal, for the four seats, a spectator and a visitor."""
    room, users = sj_humans
    viewers = _viewers(users, make_user("watcher"))
    renders = Renders()
    rules = get_rules("shengji")
    renders.take("auction", room, viewers)
    auction_with_give(room, users)
    renders.take("give", room, viewers)
    seen = set()
    plays = 0
    for _ in range(600):
        phase = rules.phase(state_of(room))
        if phase == "done":
            break
        if phase not in seen or (phase == "play" and plays < 10):  # the first tricks, led and followed
            seen.add(phase)
            plays += phase == "play"
            renders.take(f"{phase}-{plays}", room, viewers)
        auto(room, users)
    room.refresh_from_db()
    renders.take("done", room, viewers)
    assert {"trump", "bury", "play"} <= seen
    html = renders.html["done/seat0/zh-hans"]
    assert 'data-region="result"' in html and 'data-region="play"' not in html
    first = Hand.objects.get(match__room=room, number=1)
    drive(room, lambda r: services.current_hand(r).number >= 2)
    renders.take("hand2", room, viewers)
    _replay_shows_the_hand_as_a_spectator(renders.take_replay("replay", first, viewers[:1] + viewers[-2:]))
    renders.check("shengji")


def test_every_baohuang_phase_renders_for_every_viewer(five_humans, make_user):
    """保皇: the crown (B8), the guard (B10), rounds of play (B5), the result,
    the next hand with the score sheet and the last result."""
    room, users = five_humans
    viewers = _viewers(users, make_user("watcher"))
    renders = Renders()
    start = room.version
    phases = set()
    rules = get_rules("baohuang")
    for step in range(0, 1200, 10):
        drive(room, lambda r, s=step: r.version >= start + s or services.current_hand(r).complete,
              stay=False)  # timed out: 托管 plays on
        renders.take(f"v{step}", room, viewers)
        hand = services.current_hand(room)
        phases.add(rules.phase(services.hand_state(hand)))
        if hand.complete:
            break
    assert {"crown", "play", "done"} <= phases
    renders.take("all-autoplay", room, viewers)  # everyone on 托管: the table stops
    for user in users:
        services.set_autoplay(room, user, False)
    drive(room, lambda r: services.current_hand(r).number >= 2)
    renders.take("hand2", room, viewers)
    first = Hand.objects.get(match__room=room, number=1)
    _replay_shows_the_hand_as_a_spectator(renders.take_replay("replay", first, viewers[:1] + viewers[-2:]))
    renders.check("baohuang")


def test_waiting_and_bot_tables_render(bh_room, alice, make_user):
    """A waiting room (free seats to take, the owner's bot form), then bots
    playing 保皇 to its second hand (托管, the bots' tags)."""
    watcher = make_user("watcher")
    viewers = [("owner", alice), ("watcher", watcher), ("anonymous", AnonymousUser())]
    renders = Renders()
    renders.take("waiting", bh_room, viewers)
    services.fill_bots(bh_room, alice, "heuristic")
    renders.take("bots-waiting", bh_room, viewers)
    services.set_ready(bh_room, alice, True)
    bh_room.refresh_from_db()
    start = bh_room.version
    for step in range(0, 3000, 40):
        drive(bh_room, lambda r, s=step: r.version >= start + s)
        renders.take(f"v{step}", bh_room, viewers)
        if services.current_hand(bh_room).number >= 2:
            break
    renders.check("bots")


def test_the_third_game_renders_through_the_generic_seat(hc_room, alice, make_user):
    """A game registered with nothing but its rules (tests/thirdgame): no
    regions of its own, the generic board, through a whole hand."""
    viewers = [("seat0", alice), ("watcher", make_user("watcher")), ("anonymous", AnonymousUser())]
    renders = Renders()
    start = hc_room.version
    for step in range(0, 60, 3):
        drive(hc_room, lambda r, s=step: r.version >= start + s)
        renders.take(f"v{step}", hc_room, viewers)
    assert any('data-region="play"' in h for h in renders.html.values())
    first = Hand.objects.get(match__room=hc_room, number=1)
    drive(hc_room, lambda r: Hand.objects.get(pk=first.pk).complete)
    first.refresh_from_db()
    _replay_shows_the_hand_as_a_spectator(renders.take_replay("replay", first, viewers), own_board=False)
    renders.check("thirdgame")
