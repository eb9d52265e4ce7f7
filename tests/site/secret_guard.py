"""A 保皇 table of five humans whose guard is secret (B10), for the tests of
what every viewer may share (tests/site/test_shared_regions.py,
test_public_seat_rows.py): the deal's seed, the driver that plays it by the
deadlines, and the fixtures ``_guard_seed`` and ``secret_guard`` (registered
in tests/site/conftest.py)."""

from __future__ import annotations

import pytest

from games import registry, services
from games.engine.baohuang.view import guard_visible
from games.models import Seat
from games.runtime.tasks import play_turn

RULES = registry.get("baohuang").rules


def guard_secret_after_a_round(room) -> bool:
    """In play, a round over (so both shared regions show), the guard chosen
    and secret to everyone but the guard (B10)."""
    hand = services.current_hand(room)
    if hand is None or hand.complete:
        return False
    st = services.hand_state(hand)
    view = RULES.view(st, None)
    return (view["phase"] == "play" and st.guard is not None and not guard_visible(st, None)
            and any(e["verb"] == "play" for e in view["last_round"]))


def _seed() -> int:
    """A deal where the crown's holder (BJ*) and the guard (♥4*) differ."""
    from games.engine.baohuang.order import KIND_BJ_MARKED, KIND_H4_MARKED, KIND_OF

    for seed in range(1, 5000):
        deal = RULES.deal(RULES.new_match({"multiplier": 1}), seed)
        kinds = [{KIND_OF[c] for c in hand} for hand in deal.hands]
        bj = next(s for s in range(5) if KIND_BJ_MARKED in kinds[s])
        h4 = next(s for s in range(5) if KIND_H4_MARKED in kinds[s])
        if bj != h4:
            return seed
    raise AssertionError("no suitable seed")


@pytest.fixture
def _guard_seed(monkeypatch):
    """Every deal of the test uses one seed whose deal has a guard."""
    from games.services import hands as services_hands

    seed = _seed()
    monkeypatch.setattr(services_hands, "new_seed", lambda: seed)


def declaring(room) -> bool:
    """The ♥4* holder is deciding 明保/暗保 (B10): his own view says he is to
    act, everyone else's ``to_act`` is None."""
    hand = services.current_hand(room)
    st = services.hand_state(hand)
    return st.phase == "declare" and "guard" in RULES.legal_verbs(st, st.to_act)


def _drive(room, users, stop) -> None:
    """Play the deal by the deadlines (C5), the crown accepted and the guard
    kept secret (暗保, B10), until ``stop(room)``."""
    from tests.conftest import make_due

    for _step in range(300):
        room.refresh_from_db()
        if stop(room):
            return
        st = services.hand_state(services.current_hand(room))
        if st.phase == "crown" and "crown" in RULES.legal_verbs(st, st.to_act):
            services.do_move(room, st.to_act, {"crown": "accept"}, room.version, user=users[st.to_act])
            continue
        if st.phase == "declare" and "guard" in RULES.legal_verbs(st, st.to_act):
            services.do_move(room, st.to_act, {"guard": "secret"}, room.version, user=users[st.to_act])
            continue
        make_due(room)
        if play_turn(room.pk, room.version) == "timeout":
            Seat.objects.filter(room=room).update(autoplay=False)
    raise AssertionError("never stopped")


@pytest.fixture
def secret_guard(_guard_seed, five_humans):
    """Five humans (seat i = users[i]) on a deal with a guard, played by their
    deadlines (C5), except that the crown is accepted and the ♥4* holder keeps
    the guard secret (暗保, B10): until a round is over."""
    room, users = five_humans
    _drive(room, users, guard_secret_after_a_round)
    st = services.hand_state(services.current_hand(room))
    return room, users, st.guard, st.emperor
