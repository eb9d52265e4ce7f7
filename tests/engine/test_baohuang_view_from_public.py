"""保皇's view of a seat built from the view for no seat
(``RULES.view_from_public(state, seat, public)``) equals the view worked out
whole for that seat, the reference kept here as it was written before the
split (B7, B8, B9, B10, B13: a seat's cards, the secret guard, a secret solo,
the crown pile and the payment cards reach only the seats that may know them).

Every seat and a spectator, in every state of seeded matches of several
hands played by mixed bots; the match must reach the guard kept secret, a
solo (独保), a 買3 with its paid card and a tribute, or the test proves
nothing for them."""

import random

from games.engine.baohuang import RULES
from games.engine.baohuang.order import KINDS
from games.engine.baohuang.view import (
    PUBLIC_KEYS, guard_visible, legal_verbs, public, solo_visible, view_from_public, visible_to_act,
)


def _codes(cards):
    return [c.code for c in cards]


def reference_view(st, seat, summary=None) -> dict:
    """The view for ``seat`` worked out whole (the code before the split)."""
    over = st.phase in ("done", "voided")
    hand = []
    if seat is not None:
        for k, n in enumerate(st.hands[seat]):
            if n:
                hand.extend([KINDS[k].code] * n)
    crown = None
    if st.phase == "crown" or st.phase == "voided":
        crown = {
            "holder": st.crown_holder,
            "first": st.crown_first,
            "passed": list(st.crown_passed),
            "twos": sum(1 for c in st.crown_pile if c.rank == "2"),
            "second_round": st.crown_second,
            "pile": _codes(st.crown_pile) if (seat == st.crown_holder or over) else None,
        }
    bought = []
    for buyer, seller, paid, three in st.bought:
        show = over or seat in (buyer, seller)
        bought.append({"buyer": buyer, "seller": seller,
                       "paid": (paid.code if paid else None) if show else None,
                       "three": three.code if show else None,
                       "hidden": not show})
    tribute = []
    for frm, to, card in st.tribute:
        show = over or seat in (frm, to)
        tribute.append({"from": frm, "to": to, "card": card.code if show else None,
                        "hidden": not show})
    gv = guard_visible(st, seat)
    declared = st.guard_declared
    if declared == "secret" and not (over or seat == st.guard):
        declared = None
    top = None
    if st.top is not None:
        top = {"seat": st.top[0], "cards": _codes(st.top[1])}
    return {
        "game": "baohuang", "seat": seat, "phase": st.phase,
        "to_act": visible_to_act(st, seat), "hand": hand,
        "counts": {str(s): st.sizes[s] for s in range(5)},
        "emperor": st.emperor, "guard": st.guard if gv else None,
        "solo": solo_visible(st, seat), "guard_declared": declared, "crown": crown,
        "crown_twos": st.crown_twos if st.emperor is not None else None,
        "top": top,
        "round": {
            "leader": st.leader,
            "yielded": [s for s in range(5) if st.yielded >> s & 1],
            "passed": [s for s in range(5) if st.passed >> s & 1],
        },
        "trick_log": [{"seat": s, "verb": v, "cards": _codes(c)} for s, v, c in st.trick_log],
        "last_round": [{"seat": s, "verb": v, "cards": _codes(c)} for s, v, c in st.last_round],
        "finished": list(st.finished),
        "h4_played": st.h4_played,
        "bought_threes": bought, "tribute": tribute,
        "legal": legal_verbs(st, seat),
        "result": summary if over else None,
    }


POLICIES = ("heuristic", "random")


def states_of_matches(seeds, hands_per_match=4):
    """Every state of ``hands_per_match`` hands of a match per seed, the seats
    played by a seeded mix of heuristic and random bots."""
    for seed in seeds:
        rng = random.Random(seed)
        match = RULES.new_match()
        for number in range(hands_per_match):
            st = RULES.start_hand(match, RULES.deal(match, seed * 100 + number))
            yield st
            policies = [rng.choice(POLICIES) for _ in range(5)]
            steps = 0
            while not RULES.is_complete(st):
                seat = RULES.to_act(st)
                st = RULES.apply(st, RULES.bot_action(st, seat, policies[seat], rng))
                yield st
                steps += 1
                assert steps < 2000
            match = RULES.next_match(match, st)


def test_view_from_public_equals_the_whole_view_for_every_seat_and_a_spectator():
    reached = {"secret guard": 0, "solo": 0, "secret solo": 0, "buy3 paid": 0, "tribute": 0,
               "declare": 0, "crown pile": 0, "over": 0}
    states = 0
    for st in states_of_matches(range(1, 9)):
        states += 1
        summary = RULES.summary(st) if st.phase in ("done", "voided") else None
        pub = public(st, summary)
        assert pub == reference_view(st, None, summary)
        assert RULES.view(st, None) == pub
        for seat in (None, 0, 1, 2, 3, 4):
            expected = reference_view(st, seat, summary)
            got = RULES.view_from_public(st, seat, pub)
            assert got == expected, (seat, st.phase)
            assert view_from_public(st, seat, pub) == expected
            assert RULES.view(st, seat) == expected
            for key in PUBLIC_KEYS:  # the keys said to be every seat's alike
                assert got[key] == pub[key], key
        assert pub == public(st, summary)  # the seats' views changed nothing of it
        over = st.phase in ("done", "voided")
        if st.guard is not None and not over and not guard_visible(st, None):
            reached["secret guard"] += 1
            assert pub["guard"] is None
            assert RULES.view_from_public(st, st.guard, pub)["guard"] == st.guard
            others = [s for s in range(5) if s not in (st.guard,)]
            assert all(RULES.view_from_public(st, s, pub)["guard"] is None for s in others)
        if st.solo is not None:
            reached["solo"] += 1
            if not over and solo_visible(st, None) is None:
                reached["secret solo"] += 1
                assert RULES.view_from_public(st, st.emperor, pub)["solo"] == st.solo
        if not over and any(paid is not None for _b, _s, paid, _t in st.bought):
            reached["buy3 paid"] += 1
            assert all(b["paid"] is None for b in pub["bought_threes"])
        if not over and st.tribute:
            reached["tribute"] += 1
            assert all(t["card"] is None for t in pub["tribute"])
        if st.phase == "declare":
            reached["declare"] += 1
            assert pub["to_act"] is None
        if st.phase == "crown" and st.crown_holder is not None:
            reached["crown pile"] += 1
            assert pub["crown"]["pile"] is None
        reached["over"] += over
    assert states > 1000
    assert all(reached.values()), reached


def test_a_seats_cards_only_in_its_own_view():
    st = next(states_of_matches([3], 1))
    pub = public(st)
    assert pub["hand"] == []
    hands = [RULES.view_from_public(st, seat, pub)["hand"] for seat in range(5)]
    assert all(len(h) == 41 for h in hands)
    assert len({tuple(h) for h in hands}) == 5
    assert pub["hand"] == []  # not filled in place


def test_the_default_hook_is_the_engines_view():
    from games.engine.base import GameRules

    class Plain:
        calls = []

        def view(self, state, seat):
            self.calls.append((state, seat))
            return {"seat": seat}

    rules = Plain()
    assert GameRules.view_from_public(rules, "s", 2, {"seat": None}) == {"seat": 2}
    assert rules.calls == [("s", 2)]
    assert GameRules.public_keys == frozenset()
