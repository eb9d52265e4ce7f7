"""Illegal plays through RULES.apply: refused with the rule named, state unchanged (S8, S9, S15)."""

import pytest

from games.engine.base import IllegalAction
from games.engine.shengji import RULES

from .shengji_fixtures import act, play_state

# hearts trump, level 2; dealer 0 leads
HANDS = {
    0: "4C 4C 3C 6C 9D 9D",
    1: "6C 6C 7C 9S 8D JD",
    2: "QC QC JC 3S 6S 7S",
    3: "8C 8C TC 4S 4D 6D",
}
KITTY = "3S 4S 6S 7S 8S 9S JS QS"


@pytest.fixture
def s():
    return play_state(HANDS, KITTY, dealer=0, trump="H")


@pytest.mark.parametrize("seat, cards, rule, message", [
    (0, "3C 6C", "S8", "S8"),           # neither a unit, a tractor nor a throw
    (0, "3C 9D", "S8", "one suit"),     # two suits
    (0, "AC", "S8", "hold"),            # not held
    (1, "6C", "S15", "turn"),           # out of turn
])
def test_bad_leads_are_refused(s, seat, cards, rule, message):
    with pytest.raises(IllegalAction, match=message) as exc:
        RULES.apply(s, act(seat, "play", cards))
    assert exc.value.rule == rule


def test_bad_follows_are_refused_and_the_state_is_unchanged(s):
    s1 = RULES.apply(s, act(0, "play", "4C 4C"))  # a pair of clubs
    snapshot = (s1.hands, s1.plays, s1.to_act, s1.log)
    for cards, message in [
        ("6C", None),            # wrong count
        ("6C 9S", None),         # not following clubs while holding 3
        ("6C 7C", None),         # breaks the pair obligation
    ]:
        with pytest.raises(IllegalAction) as exc:
            RULES.apply(s1, act(1, "play", cards))
        assert exc.value.rule == "S9", exc.value.message
    with pytest.raises(IllegalAction, match="only play"):
        RULES.apply(s1, act(1, "pass"))
    assert (s1.hands, s1.plays, s1.to_act, s1.log) == snapshot
    s2 = RULES.apply(s1, act(1, "play", "6C 6C"))
    assert s2.to_act == 2 and len(s2.plays) == 2


def test_a_trick_is_won_and_its_winner_leads(s):
    for seat, cards in ((0, "4C 4C"), (1, "6C 6C"), (2, "QC QC"), (3, "8C 8C")):
        s = RULES.apply(s, act(seat, "play", cards))
    assert s.tricks[-1].winner == 2 and s.to_act == 2 and s.leader == 2
    assert s.tricks[-1].points == 0
    assert RULES.legal_verbs(s, 2) == frozenset({"play"})


def test_auto_actions_are_the_smallest_legal_plays(s):
    a = RULES.auto_action(s, 0)
    assert a.verb == "play" and [c.code for c in a.arg] == ["3C"]
    s1 = RULES.apply(s, a)
    b = RULES.auto_action(s1, 1)
    assert [c.code for c in b.arg] == ["6C"]
    RULES.apply(s1, b)


def test_auto_action_in_the_auction_is_a_pass():
    m = RULES.new_match()
    st = RULES.start_hand(m, RULES.deal(m, 3))
    assert RULES.auto_action(st, st.to_act).verb == "pass"
    with pytest.raises(IllegalAction):
        RULES.auto_action(st, (st.to_act + 1) % 4)


def test_state_replace_equals_dataclasses_replace():
    """``state.replace`` / ``state.replacer`` (straight-line copies per set of
    changed fields, slot descriptors) give the state ``dataclasses.replace``
    gives, for the play path's field sets and others, at every step of a hand;
    unknown or repeated fields raise TypeError."""
    import dataclasses
    import random as _random

    import pytest as _pytest

    from games.engine.shengji import RULES as _R
    from games.engine.shengji import state as sm

    m = _R.new_match()
    s = _R.start_hand(m, _R.deal(m, 3))
    rng = _random.Random(2)
    steps = 0
    while not _R.is_complete(s):
        for ch in ({}, {"to_act": 2}, {"hands": s.hands[::-1], "plays": (), "to_act": 1},
                   {"played": {}, "voids": (frozenset(),) * 4, "leader": 3, "log": ()}):
            a = sm.replace(s, **ch)
            b = dataclasses.replace(s, **ch)
            assert a == b and a is not s
            assert all(getattr(a, f.name) is getattr(b, f.name) for f in dataclasses.fields(b))
        f = sm.replacer("hands", "plays", "to_act")
        assert f(s, (), (), 0) == dataclasses.replace(s, hands=(), plays=(), to_act=0)
        s = _R.apply(s, _R.bot_action(s, s.to_act, "heuristic", rng))
        steps += 1
    assert steps > 50
    with _pytest.raises(TypeError):
        sm.replace(s, colour="red")
    with _pytest.raises(TypeError):
        sm.replacer("hands", "hands")
