"""Nothing sent reveals whether a hidden role is a human's or a bot's.

保皇 (B10): the ♥4* holder's 明保/暗保 decision is hidden (the others' view
shows no ``to_act``).  Two tables are played in lock-step on a fake clock with
the same deal and the same moves; only the kind of the ♥4* holder (seat H)
differs: a human (A) or a bot (B).  For every step of every phase (crown,
declare, play, done) the websocket frame (``live.render_seat``, what each
socket is sent) of every other seat and of a spectator must be identical, and
so must the HTML page's ``#table`` (GET) once per phase.  Normalised away are
only what is public and not the role: seat H's name/机器人 label, room and
hand ids, and on seat H's own *visible* turns the deadline and its "auto" pace mark (a seat's kind is
on its label; its visible turns are paced by it).

升級: no decision is hidden (``games.services.hidden.is_hidden`` is false through a
whole hand): teams are fixed (S1), bids and the declarer who takes the kitty
are public, so the pace follows only the public kind of the seat to act.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.test import Client
from django.utils import timezone

from games.services import hidden
from games.live import snapshots as live
from games import services
from games.engine import get_rules
from games.engine.baohuang.order import KIND_BJ_MARKED, KIND_H4_MARKED, KIND_OF
from games.models import Room
from games.runtime.tasks import play_turn
from games.services.hidden import is_hidden

pytestmark = pytest.mark.django_db

BH = get_rules("baohuang")
T0 = datetime(2026, 1, 5, 12, 0, 0, tzinfo=dt_timezone.utc)


class Clock:
    def __init__(self):
        self.t = T0

    def __call__(self):
        return self.t


def _holders(seed: int) -> tuple[int, int]:
    deal = BH.deal(BH.new_match({"multiplier": 1}), seed)
    kinds = [[KIND_OF[c] for c in hand] for hand in deal.hands]
    bj = next(s for s in range(5) if KIND_BJ_MARKED in kinds[s])
    h4 = next(s for s in range(5) if KIND_H4_MARKED in kinds[s])
    return bj, h4


def _seed() -> tuple[int, int]:
    """A deal where seat 0 (alice) holds BJ* (so she is offered the crown)
    and another seat holds ♥4* (a guard decision, not a solo)."""
    for seed in range(1, 5000):
        bj, h4 = _holders(seed)
        if bj == 0 and h4 not in (0,):
            return seed, h4
    raise AssertionError("no suitable seed")


def _normalise(html: str, h: int, names: tuple[str, ...], visible_h_turn: bool) -> str:
    # Once the hand is over nothing is hidden (B10) and the ledger credits
    # points to humans only: per-seat point notes follow the seats' public kind.
    html = re.sub(r'<span class="note-seat"[^>]*>.*?</strong>(?:&nbsp;<span class="tag note-mark"[^>]*>[^<]*</span>)?</span>',
                  "", html, flags=re.S)
    html = re.sub(r'(data-seat="%d"[^>]*>\s*<div class="seat-name">).*?(</div>)' % h, r"\1<H>\2",
                  html, flags=re.S)
    for name in names:
        html = html.replace(name, "<H-NAME>")
    html = re.sub(r"/rooms/\d+/", "/rooms/<id>/", html)
    html = re.sub(r"/hands/\d+/", "/hands/<id>/", html)
    html = re.sub(r'data-room="\d+"', 'data-room="<id>"', html)
    html = re.sub(r'data-hand="\d+"', 'data-hand="<id>"', html)
    # a region's hash covers its text, names and ids included (games/render/regions.py)
    html = re.sub(r' data-h="[0-9a-f]+"', "", html)
    if visible_h_turn:
        html = re.sub(r'data-deadline="\d+"', 'data-deadline="<H-turn>"', html)
        # the countdown's "auto" mark (a bot's / 托管 seat's pace) on H's visible turn
        html = re.sub(r'(class="countdown[^"]*?) auto"', r'\1"', html)
    return re.sub(r"\s+", " ", html)


@pytest.fixture
def lockstep(make_user, multipliers, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(timezone, "now", clock)
    seed, h = _seed()
    from games.services import hands as services_hands

    monkeypatch.setattr(services_hands, "new_seed", lambda: seed)
    alice, hank, sam, carl = (make_user(n) for n in ("alice", "hank", "sam", "carl"))
    carl_seat = next(i for i in (1, 2, 3, 4) if i != h)

    def table(human_h: bool) -> Room:
        room = services.create_room(alice, "baohuang", "同一张桌", turn_seconds=30, bot_delay_ms=800)
        services.take_seat(room, carl, carl_seat)
        if human_h:
            services.take_seat(room, hank, h)
        else:  # keep the version sequence the same: carl toggles ready once more
            services.set_ready(room, carl, False)
        services.fill_bots(room, alice, "heuristic")
        services.set_ready(room, carl, True)
        if human_h:
            services.set_ready(room, hank, True)
        else:
            services.set_ready(room, alice, False)
        services.set_ready(room, alice, True)
        room.refresh_from_db()
        assert room.status == Room.Status.PLAYING
        return room

    a = table(True)
    b = table(False)
    observers = {"alice": alice, "carl": carl, "sam": sam}
    return clock, h, a, b, observers, hank


def _frames(room: Room, observers: dict, h: int, names, visible_h_turn: bool) -> dict:
    live.forget(room.pk)
    snap = live.load_snapshot(room.pk)
    return {name: _normalise(live.render_seat(snap, user, snap.version, None), h, names, visible_h_turn)
            for name, user in observers.items()}


def _page(room: Room, observers: dict, h: int, names, visible_h_turn: bool) -> dict:
    out = {}
    for name, user in observers.items():
        client = Client()
        client.force_login(user)
        out[name] = _normalise(client.get(f"/rooms/{room.pk}/table").content.decode(), h, names,
                               visible_h_turn)
    return out


def _state(room: Room):
    hand = services.current_hand(room)
    return hand, services.hand_state(hand)


def test_baohuang_hidden_guard_human_or_bot_sends_the_same(lockstep):
    clock, h, a, b, observers, hank = lockstep
    names_a, names_b = ("hank",), (f"机器人{h + 1}",)
    phases_seen, held_seen, steps = set(), False, 0
    last_phase = None
    while steps < 600:
        steps += 1
        a.refresh_from_db()
        b.refresh_from_db()
        hand_a, st_a = _state(a)
        hand_b, st_b = _state(b)
        phase = BH.phase(st_a)
        assert phase == BH.phase(st_b)
        visible_h = BH.view(st_a, None)["to_act"] == h
        assert a.version == b.version and a.deadline == b.deadline or visible_h, (phase, a.deadline, b.deadline)
        fa = _frames(a, observers, h, names_a, visible_h)
        fb = _frames(b, observers, h, names_b, visible_h)
        for who in observers:
            if fa[who] != fb[who]:
                import difflib

                diff = [d for d in difflib.ndiff(fa[who].split("> "), fb[who].split("> ")) if d[:1] in "+-"]
                raise AssertionError(f"{who} is sent different frames in phase {phase} (step {steps}): {diff[:6]}")
        if phase != last_phase:
            pa = _page(a, observers, h, names_a, visible_h)
            pb = _page(b, observers, h, names_b, visible_h)
            assert pa == pb, f"the #table page differs in phase {phase}"
            phases_seen.add(phase)
            last_phase = phase
        if hand_a.complete:
            break
        seat = BH.to_act(st_a)
        start = clock.t
        if a.seats.get(index=seat).user_id is not None:
            # A human's move: the bot's choice, made as a bot would time it.
            count = services.current_hand_counted(a).n_actions
            action = BH.bot_action(st_a, seat, "heuristic", services.bot_rng(hand_a, count)).to_record()
            action.pop("seat")
            user = a.seats.get(index=seat).user
            if is_hidden(BH, st_a):
                # Hidden: hank decides after 2 s; it is held, nothing is sent.
                clock.t = start + timedelta(seconds=2)
                version = a.version
                outcome = services.do_move(a, seat, action, a.version, user=user)
                assert outcome.applied and outcome.reason == "held"
                a.refresh_from_db()
                assert a.version == version, "a held decision bumps nothing"
                # What a (re)connecting socket is sent now, on both tables.
                assert _frames(a, observers, h, names_a, False) == _frames(
                    b, observers, h, names_b, False), "a held decision changes no frame"
                held_seen = True
                clock.t = a.deadline
                assert play_turn(a.pk, a.version) == "held"
            else:
                clock.t = start + timedelta(milliseconds=800)
                assert services.do_move(a, seat, action, a.version, user=user).applied
        else:
            clock.t = a.deadline
            assert play_turn(a.pk, a.version) in ("bot", "timeout")
        # Table B: the same seat moves at the same moment.
        b_seat_user = b.seats.get(index=seat).user
        if b_seat_user is not None:
            count = services.current_hand_counted(b).n_actions
            action = BH.bot_action(st_b, seat, "heuristic", services.bot_rng(hand_b, count)).to_record()
            action.pop("seat")
            assert services.do_move(b, seat, action, b.version, user=b_seat_user,
                                      hold_hidden=False).applied
        else:
            assert play_turn(b.pk, b.version) in ("bot", "timeout"), "B moves at the same time"
    assert {"crown", "declare", "play", "done"} <= phases_seen, phases_seen
    assert held_seen, "the human's hidden decision was held until the deadline"
    ha = services.current_hand(a)
    assert [x.payload for x in ha.actions.order_by("seq")] == [
        x.payload for x in services.current_hand(b).actions.order_by("seq")
    ]


def test_hidden_decision_deadline_is_the_same_for_human_and_bot(lockstep):
    """The 明保/暗保 deadline is the window (min(time limit, 10 s)) for both."""
    clock, h, a, b, observers, hank = lockstep
    for room in (a, b):
        room.refresh_from_db()
        alice_seat = room.seats.get(index=0)
        hand, st = _state(room)
        assert BH.phase(st) == "crown"
        clock.t = T0 + timedelta(seconds=1)
        services.do_move(room, 0, {"crown": "accept"}, room.version, user=alice_seat.user)
        room.refresh_from_db()
        hand, st = _state(room)
        assert BH.phase(st) == "declare" and is_hidden(BH, st)
        assert room.deadline == clock.t + timedelta(seconds=hidden.window_s(room))
    assert a.deadline == b.deadline


def test_hidden_timeout_does_not_switch_to_autoplay(lockstep):
    """hank lets the window pass: the C5 default is played for him but his
    seat is not switched to 托管 (the tag would show who held ♥4*)."""
    clock, h, a, b, observers, hank = lockstep
    a.refresh_from_db()
    clock.t = T0 + timedelta(seconds=1)
    services.do_move(a, 0, {"crown": "accept"}, a.version, user=a.seats.get(index=0).user)
    a.refresh_from_db()
    clock.t = a.deadline
    assert play_turn(a.pk, a.version) == "timeout"
    assert a.seats.get(index=h).autoplay is False
    assert BH.phase(_state(a)[1]) == "play"


def test_shengji_has_no_hidden_decision(make_user, multipliers, driver):
    """A whole 升級 hand: the seat to act is always shown to everyone."""
    alice = make_user("alice")
    room = services.create_room(alice, "shengji", "升级", turn_seconds=30, bot_delay_ms=0)
    services.fill_bots(room, alice, "heuristic")
    services.set_autoplay(room, alice, True)
    services.set_ready(room, alice, True)
    rules = get_rules("shengji")
    seen = set()

    def check(r):
        hand = services.current_hand(r)
        if hand is None:
            return False
        st = services.hand_state(hand)
        seen.add(rules.phase(st))
        assert not hidden.is_hidden(rules, st), rules.phase(st)
        return hand.complete

    driver(room, check)
    assert len(seen) >= 3, seen


def test_held_decision_is_one_quiet_transaction(lockstep, django_capture_on_commit_callbacks):
    """The guard's held 明保/暗保 choice (B10) goes through the one path of a
    move (``do_move``): one transaction, one lock (the version bump that
    takes it is undone in the closing UPDATE), the seats and hand read once;
    the room's version, ``changed`` (a frame's ``committed_at``) and deadline
    stay as they were and nothing is announced after the commit."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.site.test_query_counts import statements

    clock, h, a, b, observers, hank = lockstep
    a.refresh_from_db()
    clock.t = T0 + timedelta(seconds=1)
    services.do_move(a, 0, {"crown": "accept"}, a.version, user=a.seats.get(index=0).user)
    a.refresh_from_db()
    hand, st = _state(a)
    assert BH.to_act(st) == h and is_hidden(BH, st)
    count = services.current_hand_counted(a).n_actions
    action = BH.bot_action(st, h, "heuristic", services.bot_rng(hand, count)).to_record()
    action.pop("seat")
    before = (a.version, a.changed, a.deadline)
    clock.t = T0 + timedelta(seconds=3)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with CaptureQueriesContext(connection) as ctx:
            outcome = services.do_move(a.pk, None, action, a.version, user=hank)
    assert outcome.applied and outcome.reason == "held" and outcome.version == before[0]
    assert statements(ctx) == ["SAVEPOINT", "UPDATE games_room", "SELECT games_seat",
                               "SELECT games_hand", "UPDATE games_room", "RELEASE"]
    assert callbacks == [], "a held decision announces nothing"
    a.refresh_from_db()
    assert (a.version, a.changed, a.deadline) == before
    assert a.pending["seat"] == h and a.pending["count"] == count
    assert services.current_hand_counted(a).n_actions == count  # nothing stored yet
    clock.t = a.deadline
    assert play_turn(a.pk, a.version) == "held"
    a.refresh_from_db()
    assert a.pending is None and a.version == before[0] + 1
