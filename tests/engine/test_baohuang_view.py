"""Hidden information in view(state, seat): own cards only, the guard (B10) and a secret
solo (B9) hidden, payment cards shown only to payer and receiver while in play."""

import json

from games.engine.baohuang import RULES
from games.engine.baohuang.order import KIND_OF
from games.engine.baohuang.state import Match
from games.engine.cards import Card
from tests.engine.baohuang_helpers import act, make_deal, prev

LOW = "456789TJQK"
SPEC = {0: ["3S", "3S", "2S"], 1: ["3H", "4H*"], 2: ["3D", "BJ*", "SJ"], 3: ["3C"], 4: ["BJ"]}
FILL = {4: LOW}  # seat 4 has no 3 and no 2/SJ: pays his BJ to seat 0


def start(previous=None, spec=SPEC):
    return RULES.start_hand(Match(1, previous), make_deal(spec, FILL))


def test_shape_and_own_hand_only():
    st = start()
    v = RULES.view(st, 3)
    for key in ("game", "seat", "phase", "to_act", "hand", "counts", "emperor", "guard", "solo",
                "guard_declared", "crown", "top", "round", "trick_log", "finished",
                "bought_threes", "tribute", "legal", "result"):
        assert key in v
    assert v["game"] == "baohuang" and v["seat"] == 3 and v["phase"] == "crown"
    assert len(v["hand"]) == 41 and v["hand"][-1] == "3C"  # sorted high to low, the 3 last
    assert v["hand"] == sorted(v["hand"], key=lambda c: KIND_OF[Card.parse(c)])
    assert RULES.view(st, None)["hand"] == [] and RULES.view(st, None)["legal"] == []
    assert v["counts"] == {"0": 41, "1": 41, "2": 41, "3": 41, "4": 41}
    json.dumps(v)  # JSON-able


def test_buy3_payment_shown_only_to_buyer_and_seller():
    st = start()
    for seat in range(5):
        b = RULES.view(st, seat)["bought_threes"]
        assert [(x["buyer"], x["seller"]) for x in b] == [(4, 0)]
        assert b[0]["paid"] == ("BJ" if seat in (0, 4) else None)


def test_guard_hidden_during_declaration_and_play_until_revealed():
    st = act(start(), 2, "crown", "accept")
    assert RULES.to_act(st) == 1
    for seat in (0, 2, 3, 4):
        v = RULES.view(st, seat)
        assert v["phase"] == "declare" and v["to_act"] is None and v["guard"] is None
        assert v["legal"] == []
    assert RULES.view(st, 1)["to_act"] == 1 and RULES.view(st, 1)["legal"] == ["guard"]
    st = act(st, 1, "guard", "secret")
    assert RULES.view(st, 1)["guard"] == 1 and RULES.view(st, 1)["guard_declared"] == "secret"
    for seat in (0, 2, 3, 4, None):
        v = RULES.view(st, seat)
        assert v["guard"] is None and v["guard_declared"] is None
        assert "4H*" not in json.dumps(v)
    assert RULES.view(st, 0)["emperor"] == 2


def test_open_guard_is_visible_to_all():
    st = act(act(start(), 2, "crown", "accept"), 1, "guard", "open")
    assert all(RULES.view(st, s)["guard"] == 1 for s in range(5))


def test_secret_solo_hidden_from_all_but_the_emperor():
    spec = {0: ["3S", "3S"], 1: ["3H"], 2: ["3D", "BJ*", "4H*"], 3: ["3C"], 4: []}
    st = act(act(start(spec=spec), 2, "crown", "accept"), 2, "solo", "secret")
    assert RULES.view(st, 2)["solo"] == "secret"
    for seat in (0, 1, 3, 4):
        assert RULES.view(st, seat)["solo"] is None and RULES.view(st, seat)["guard"] is None
    st2 = act(act(start(spec=spec), 2, "crown", "accept"), 2, "solo", "open")
    assert all(RULES.view(st2, s)["solo"] == "open" for s in range(5))


def test_tribute_cards_shown_to_payer_and_receiver_then_to_all_after_the_hand():
    import random
    st = act(start(prev(0, 1, [0, 2, 1, 3, 4])), 2, "crown", "accept")
    t = {s: RULES.view(st, s)["tribute"] for s in range(5)}
    for entry_i, entry in enumerate(t[0]):
        for s in range(5):
            shown = t[s][entry_i]["card"]
            assert (shown is not None) == (s in (entry["from"], entry["to"]))
    rng = random.Random(3)
    while not RULES.is_complete(st):
        st = RULES.apply(st, RULES.bot_action(st, RULES.to_act(st), "heuristic", rng))
    v = RULES.view(st, 3)
    assert v["phase"] == "done" and all(x["card"] for x in v["tribute"])
    assert v["bought_threes"][0]["paid"] == "BJ" and v["guard"] == 1
    assert v["result"]["finish_order"] == RULES.summary(st)["finish_order"]


def test_crown_pile_cards_only_to_holder():
    st = act(act(start(), 2, "crown", "pass"), 1, "crown", "pass")
    assert RULES.view(st, 0)["crown"]["pile"][0] == "BJ*"
    assert RULES.view(st, 3)["crown"]["pile"] is None
    assert RULES.view(st, 3)["crown"]["twos"] == 1 and RULES.view(st, 3)["to_act"] == 0


def test_view_does_not_depend_on_other_seats_cards():
    # swap one ordinary card between seats 3 and 4: seat 0's view must not change
    base = RULES.deal_to_record(RULES.deal(RULES.new_match(), 77))["deal"]
    other = {k: list(v) for k, v in base.items()}
    plain = lambda c: c[0] in "56789TJQK" and "*" not in c
    i = next(i for i, c in enumerate(other["3"]) if plain(c))
    j = next(j for j, c in enumerate(other["4"]) if plain(c) and c != other["3"][i])
    other["3"][i], other["4"][j] = other["4"][j], other["3"][i]
    m = RULES.new_match()
    a = RULES.start_hand(m, RULES.deal_from_record(m, {"deal": base}))
    b = RULES.start_hand(m, RULES.deal_from_record(m, {"deal": other}))
    for seat in (0, 1, 2, None):
        assert RULES.view(a, seat) == RULES.view(b, seat)
    assert RULES.view(a, 3) != RULES.view(b, 3)


def test_declare_refusal_to_another_seat_does_not_reveal_solo_or_guard():
    """B9/B10: during the declaration, a refusal to a non-deciding seat is the same
    (message and rule id) whether the emperor declares a solo or the guard declares."""
    from games.engine.base import Action, IllegalAction
    import pytest

    solo_spec = {0: ["3S", "3S"], 1: ["3H"], 2: ["3D", "BJ*", "4H*"], 3: ["3C"], 4: []}
    guard_spec = {0: ["3S", "3S"], 1: ["3H", "4H*"], 2: ["3D", "BJ*"], 3: ["3C"], 4: []}
    answers = []
    for spec in (solo_spec, guard_spec):
        st = act(start(spec=spec), 2, "crown", "accept")
        got = []
        for seat in (0, 3, 4):
            for verb in ("solo", "guard", "play", "yield", "pass", "crown"):
                arg = () if verb == "play" else "open" if verb in ("solo", "guard") else True
                with pytest.raises(IllegalAction) as e:
                    RULES.apply(st, Action(seat, verb, arg))
                got.append((seat, verb, e.value.message, e.value.rule))
        answers.append(got)
    assert answers[0] == answers[1]
