"""Hand records of 保皇 through games.engine.records.replay_record and manage.py replay."""

import copy
import json

import pytest

from games.engine.base import RecordError
from games.engine.records import replay_record
from tests.engine.baohuang_helpers import make_record
from tests.engine.replay_cli import run_replay



def test_replay_of_a_bot_hand_gives_status_0_and_the_summary():
    record, summaries = make_record(7, hands=1)
    out, status = replay_record(json.loads(json.dumps(record)))
    assert status == 0 and "error" not in out
    assert out["hands"] == summaries
    h = out["hands"][0]
    for key in ("bought_threes", "emperor", "guard", "solo", "guard_declared", "tribute",
                "finish_order", "emperor_side_score", "winner", "game_points", "voided"):
        assert key in h
    assert h["complete"] is True


def test_multi_hand_record_carries_tribute_and_start_previous():
    start = {"previous": {"emperor": 0, "guard": 3, "solo": None, "guard_declared": "secret",
                          "finish_order": [3, 0, 1, 4, 2]}}
    record, summaries = make_record(8, hands=3, options={"multiplier": 2}, start=start)
    out, status = replay_record(record)
    assert status == 0 and out["hands"] == summaries
    assert out["hands"][0]["tribute"] or out["hands"][0]["voided"]
    assert all(abs(v) % 2 == 0 for h in out["hands"] if h["game_points"]
               for v in h["game_points"].values())


def test_illegal_action_gives_status_1_with_hand_and_action_index():
    record, _ = make_record(9, hands=2)
    bad = copy.deepcopy(record)
    actions = bad["hands"][1]["actions"]
    i = next(i for i, a in enumerate(actions) if "play" in a and i > 10)
    actions[i] = {"seat": (actions[i]["seat"] + 1) % 5, "play": actions[i]["play"]}
    out, status = replay_record(bad)
    assert status == 1
    assert out["error"]["hand"] == 1 and out["error"]["action"] == i
    assert "turn" in out["error"]["message"]
    assert len(out["hands"]) == 2 and out["hands"][1]["complete"] is False
    assert "phase" in out["hands"][1] and "to_act" in out["hands"][1]


def test_incomplete_last_hand_is_reported():
    record, _ = make_record(10, hands=1)
    record["hands"][0]["actions"] = record["hands"][0]["actions"][:12]
    out, status = replay_record(record)
    assert status == 0 and out["hands"][0]["complete"] is False


def test_bad_deck_is_a_record_error():
    record, _ = make_record(11, hands=1)
    deal = record["hands"][0]["deal"]
    deal["0"][0], deal["1"][0] = deal["1"][0], "BJ*" if deal["1"][0] != "BJ*" else "4H*"
    with pytest.raises(RecordError):
        replay_record(record)
    record, _ = make_record(11, hands=1)
    record["start"] = {"previous": {"emperor": 9}}
    with pytest.raises(RecordError):
        replay_record(record)


def test_manage_py_replay_exit_codes(tmp_path):
    good, _ = make_record(12, hands=1)
    bad = copy.deepcopy(good)
    acts = bad["hands"][0]["actions"]
    acts.insert(len(acts) // 2, {"seat": acts[len(acts) // 2]["seat"], "crown": "accept"})
    broken = copy.deepcopy(good)
    broken["hands"][0]["deal"]["2"] = broken["hands"][0]["deal"]["2"][:-1]
    codes = {}
    for name, rec in (("good", good), ("bad", bad), ("broken", broken)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(rec))
        proc = run_replay(path)
        codes[name] = proc.returncode
        if name != "broken":
            out = json.loads(proc.stdout)
            assert ("error" in out) == (name == "bad")
        else:
            assert "41" in proc.stderr
    assert codes == {"good": 0, "bad": 1, "broken": 2}


def test_hand_crafted_record_voided_deal_then_redeal_with_tribute_from_start_previous():
    """A record written by hand: hand 0 is voided by the crown (B8: six passes), hand 1
    is the redeal; the tribute owed by ``start.previous`` (an open solo lost: every
    count doubled, B13) is paid in hand 1, then guard / play / yield / pass."""
    from tests.engine.baohuang_helpers import make_deal

    no_twos = "456789TJQKA"
    spec = {0: ["3S"], 1: ["3D", "4H*"], 2: ["BJ*", "3C", "4S"], 3: ["3S"],
            4: ["3H", "2S", "2H", "2D"]}
    deal = make_deal(spec, {4: no_twos, 0: no_twos, 1: no_twos, 2: no_twos})
    codes = {str(s): [c.code for c in h] for s, h in enumerate(deal.hands)}
    lead = "4S"
    higher = next(c for c in codes["3"] if c[0] in "56789TJQKA")
    start = {"previous": {"emperor": 4, "guard": None, "solo": "open", "guard_declared": None,
                          "finish_order": [1, 0, 2, 4, 3]}}
    voided = [{"seat": s, "crown": "pass"} for s in (2, 1, 0, 4, 3, 2)]
    redeal = [
        {"seat": 2, "crown": "accept"},
        {"seat": 1, "guard": "secret"},
        {"seat": 2, "play": [lead]},
        {"seat": 3, "yield": True},
        {"seat": 4, "pass": True},
        {"seat": 0, "pass": True},
        {"seat": 1, "pass": True},
        {"seat": 3, "play": [higher]},
    ]
    record = {"format": "hand-record/1", "game": "baohuang", "start": start,
              "hands": [{"deal": codes, "actions": voided}, {"deal": codes, "actions": redeal}]}
    out, status = replay_record(json.loads(json.dumps(record)))
    assert status == 0, out.get("error")
    h0, h1 = out["hands"]
    assert h0["voided"] is True and h0["complete"] is True and h0["tribute"] == []
    assert h0["emperor"] is None and h0["crown_passes"] == [2, 1, 0, 4, 3, 2]
    # redeal: emperor 4 of the lost open solo pays 2s, two per rebel in finishing order
    # (1, 0, then 3; seat 2 is this hand's emperor: served last) until they run out
    assert h1["tribute"] == [{"from": 4, "to": 1, "card": "2S"}, {"from": 4, "to": 1, "card": "2H"},
                             {"from": 4, "to": 0, "card": "2D"}]
    assert h1["emperor"] == 2 and h1["guard"] == 1 and h1["solo"] is None
    assert h1["guard_declared"] == "secret" and h1["voided"] is False
    assert h1["complete"] is False and h1["phase"] == "play" and h1["to_act"] == 2  # 4, 0, 1 passed
    assert h1["bought_threes"] == []
    # without the voided deal the redeal owes exactly the same tribute
    out2, status2 = replay_record({**record, "hands": [record["hands"][1]]})
    assert status2 == 0 and out2["hands"][0] == h1
    # the spec's summary members are all there, under their names
    for key in ("complete", "bought_threes", "emperor", "guard", "solo", "guard_declared",
                "tribute", "finish_order", "emperor_side_score", "winner", "game_points",
                "voided", "phase", "to_act"):
        assert key in h1


@pytest.mark.parametrize("bad", [
    {"finish_order": [0, True, 2, 3, 4]},     # a boolean is not a seat
    {"finish_order": [0, 1.0, 2, 3, 4]},      # nor is a float
    {"guard_declared": None},                 # 明保 or 暗保 must be known (B13 doubling)
])
def test_malformed_start_previous_is_a_record_error(bad):
    from games.engine.baohuang import RULES

    good = {"emperor": 0, "guard": 1, "solo": None, "guard_declared": "secret",
            "finish_order": [0, 1, 2, 3, 4]}
    RULES.new_match(None, {"previous": good})
    with pytest.raises(RecordError):
        RULES.new_match(None, {"previous": {**good, **bad}})


@pytest.mark.parametrize("solo", ["open", "secret"])
def test_complete_solo_hand_replays_to_the_same_summary(solo):
    """B9 through a record: a whole solo hand (crafted deal: seat 3 holds BJ* and
    4H*) exported and replayed gives the engine's summary, then the next hand's
    tribute is 2s only (B13)."""
    import random

    from games.engine.base import Action
    from games.engine.baohuang import RULES
    from tests.engine.baohuang_helpers import make_deal

    deal = make_deal({0: ["3S"], 1: ["3H"], 2: ["3D"], 3: ["3C", "BJ*", "4H*"], 4: ["3S"]})
    rng = random.Random(5)
    m = RULES.new_match()
    st = RULES.start_hand(m, deal)
    st = RULES.apply(st, Action(3, "crown", "accept"))
    st = RULES.apply(st, Action(3, "solo", solo))
    while not RULES.is_complete(st):
        st = RULES.apply(st, RULES.bot_action(st, RULES.to_act(st), "heuristic", rng))
    summ = RULES.summary(st)
    assert summ["solo"] == solo and summ["guard"] is None and summ["guard_declared"] is None
    hand = RULES.deal_to_record(deal)
    hand["actions"] = [a.to_record() for a in RULES.actions(st)]
    second = RULES.deal_to_record(RULES.deal(m, 99))
    record = {"format": "hand-record/1", "game": "baohuang",
              "hands": [hand, {**second, "actions": []}]}
    out, status = replay_record(json.loads(json.dumps(record)))
    assert status == 0 and out["hands"][0] == summ
    assert out["hands"][1]["complete"] is False and out["hands"][1]["phase"] == "crown"
    holder = out["hands"][1]["to_act"]
    record["hands"][1]["actions"] = [{"seat": holder, "crown": "accept"}]
    out, status = replay_record(record)
    tribute = out["hands"][1]["tribute"]
    assert status == 0 and tribute and all(t["card"][0] == "2" for t in tribute)
    won = summ["winner"] == "emperor"
    assert all((t["to"] if won else t["from"]) == 3 for t in tribute)
