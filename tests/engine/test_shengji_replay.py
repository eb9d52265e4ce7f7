"""Hand records of shengji through games.engine.records.replay_record and manage.py replay."""

import copy
import json
import random

import pytest

from games.engine.base import RecordError
from games.engine.records import replay_record
from games.engine.shengji import RULES
from tests.engine.replay_cli import run_replay



def _bot_record(n_hands=1, seed=1, policies=("heuristic", "random") * 2, stop_at=None):
    """A record of ``n_hands`` seeded bot hands (the last cut after ``stop_at``
    actions if given) and the summaries the engine produced."""
    rng = random.Random(seed)
    match = RULES.new_match()
    record = {"format": "hand-record/1", "game": "shengji", **RULES.match_to_json(match),
              "players": ["甲", "乙", "丙", "丁"], "hands": []}
    summaries = []
    for h in range(n_hands):
        deal = RULES.deal(match, rng.getrandbits(63))
        s = RULES.start_hand(match, deal)
        while not RULES.is_complete(s):
            if stop_at is not None and h == n_hands - 1 and len(RULES.actions(s)) >= stop_at:
                break
            seat = RULES.to_act(s)
            s = RULES.apply(s, RULES.bot_action(s, seat, policies[seat], rng))
        hand = RULES.deal_to_record(deal)
        hand["actions"] = [a.to_record() for a in RULES.actions(s)]
        record["hands"].append(hand)
        summaries.append(RULES.summary(s))
        if RULES.is_complete(s):
            match = RULES.next_match(match, s)
    return record, summaries


def test_a_bot_record_replays_to_the_same_summary():
    record, summaries = _bot_record(n_hands=2, seed=3)
    out, status = replay_record(json.loads(json.dumps(record)))
    assert status == 0 and "error" not in out
    assert out["hands"] == json.loads(json.dumps(summaries))
    h0 = out["hands"][0]
    assert h0["complete"] is True
    assert sum(t["points"] for t in h0["tricks"]) + h0["kitty_points"] == 400
    for key in ("opener", "auction_winner", "trump", "level", "dealer", "tricks",
                "attackers_points", "kitty_points", "kitty_multiplier", "levels_after",
                "next_dealer", "game_points", "match_winner", "levels_gained"):
        assert key in h0
    # the second hand continues the match: its dealer opens
    assert out["hands"][1]["opener"] == h0["next_dealer"] == out["hands"][1]["dealer"]


def test_an_unfinished_hand_reports_phase_and_seat():
    record, _ = _bot_record(seed=4, stop_at=9)
    out, status = replay_record(record)
    assert status == 0
    h = out["hands"][0]
    assert h["complete"] is False and h["phase"] in {"auction", "trump", "give", "bury", "play"}
    assert h["to_act"] in range(4)


def test_an_illegal_action_stops_with_its_hand_and_index():
    record, _ = _bot_record(n_hands=2, seed=5)
    actions = record["hands"][1]["actions"]
    k = next(i for i, a in enumerate(actions) if "play" in a and i > 20)
    bad = copy.deepcopy(actions[k])
    actions[k] = {"seat": (bad["seat"] + 1) % 4, "play": bad["play"]}  # out of turn
    out, status = replay_record(record)
    assert status == 1
    assert out["error"]["hand"] == 1 and out["error"]["action"] == k
    assert "turn" in out["error"]["message"]
    assert len(out["hands"]) == 2 and out["hands"][1]["complete"] is False


def test_a_bid_that_does_not_exceed_is_reported():
    record, _ = _bot_record(seed=6)
    hand = record["hands"][0]
    opener = hand["opener"]
    hand["actions"] = [{"seat": opener, "pass": True},
                       {"seat": (opener + 1) % 4, "bid": []}]
    out, status = replay_record(record)
    assert status == 1 and out["error"] == {
        "hand": 0, "action": 1, "message": out["error"]["message"]}
    assert "S13" in out["error"]["message"]


def test_a_bad_deck_is_a_record_error():
    record, _ = _bot_record(seed=7)
    record["hands"][0]["deal"]["0"][0] = record["hands"][0]["deal"]["1"][0] = "BJ"
    record["hands"][0]["deal"]["0"][1] = "BJ"
    record["hands"][0]["deal"]["2"][1] = "BJ"
    record["hands"][0]["deal"]["3"][1] = "BJ"
    with pytest.raises(RecordError, match="hand 0"):
        replay_record(record)


def test_a_first_hand_without_opener_is_a_record_error():
    record, _ = _bot_record(seed=8)
    del record["hands"][0]["opener"]
    with pytest.raises(RecordError, match="opener"):
        replay_record(record)


def _run(tmp_path, record):
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(record) if not isinstance(record, str) else record)
    return run_replay(path)


def test_manage_py_replay_exit_codes(tmp_path):
    record, summaries = _bot_record(seed=9)
    done = _run(tmp_path, record)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"][0]["game_points"] == summaries[0]["game_points"]

    bad = copy.deepcopy(record)
    bad["hands"][0]["actions"][-1]["seat"] = (bad["hands"][0]["actions"][-1]["seat"] + 1) % 4
    done = _run(tmp_path, bad)
    assert done.returncode == 1
    assert json.loads(done.stdout)["error"]["action"] == len(record["hands"][0]["actions"]) - 1

    broken = copy.deepcopy(record)
    broken["hands"][0]["kitty"] = broken["hands"][0]["kitty"][:7]
    done = _run(tmp_path, broken)
    assert done.returncode == 2 and "kitty" in done.stderr


# ---------------------------------------------------------------- audit: the spec's example

def _spec_example_record():
    """The hand-record spec's example shape, on a crafted deal: seat 2 opens with
    ♠A, seat 3 outbids with ♥5 ♦5, names hearts, gives ♣4 back, buries, and leads
    the 摔牌 ♣AAKKK."""
    from games.engine.shengji.deal import deal_to_record

    from .shengji_fixtures import build_deal

    deal = build_deal({2: "AS", 3: "5H 5D AC AC KC KC KC 4C 2C 2C 3C 4D 6D 7D 8S 9S"},
                      opener=2)
    hand = deal_to_record(deal)
    hand["actions"] = [
        {"seat": 2, "bid": ["AS"]},
        {"seat": 3, "bid": ["5H", "5D"]},
        {"seat": 0, "pass": True},
        {"seat": 1, "pass": True},
        {"seat": 2, "pass": True},
        {"seat": 3, "trump": "H"},
        {"seat": 3, "give": {"2": ["4C"]}},
        {"seat": 3, "bury": ["2C", "2C", "3C", "4D", "6D", "7D", "8S", "9S"]},
        {"seat": 3, "play": ["AC", "AC", "KC", "KC", "KC"]},
    ]
    return {"format": "hand-record/1", "game": "shengji",
            "options": {"multiplier": 1, "follow": "format"},
            "players": ["甲", "乙", "丙", "丁"],
            "start": {"levels": {"0": "2", "1": "2"}, "dealer": None},
            "hands": [hand]}


def test_the_spec_example_shape_replays():
    out, status = replay_record(json.loads(json.dumps(_spec_example_record())))
    assert status == 0 and "error" not in out
    h = out["hands"][0]
    assert h["complete"] is False and h["phase"] == "play" and h["to_act"] == 0
    assert (h["opener"], h["auction_winner"], h["dealer"], h["trump"], h["level"]) == \
        (2, 3, 3, "H", "2")
    assert h["tricks"] == []


def test_the_spec_example_continued_reports_tricks_with_string_seat_keys():
    record = _spec_example_record()
    # finish the hand with the C5 automatic actions, then replay the whole record
    from games.engine.base import Action

    match = RULES.new_match(record["options"], record["start"])
    state = RULES.start_hand(match, RULES.deal_from_record(match, record["hands"][0]))
    for a in record["hands"][0]["actions"]:
        state = RULES.apply(state, Action.from_record(a, 4))
    while not RULES.is_complete(state):
        a = RULES.auto_action(state, RULES.to_act(state))
        record["hands"][0]["actions"].append(a.to_record())
        state = RULES.apply(state, a)
    out, status = replay_record(json.loads(json.dumps(record)))
    assert status == 0
    h = out["hands"][0]
    first = h["tricks"][0]
    assert set(first) >= {"leader", "winner", "points", "plays", "failed_throw"}
    assert set(first["plays"]) == {"0", "1", "2", "3"}
    assert first["plays"]["3"] == ["AC", "AC", "KC", "KC", "KC"] and not first["failed_throw"]
    assert set(h["levels_after"]) == {"0", "1"} and set(h["game_points"]) == {"0", "1", "2", "3"}
    assert isinstance(h["next_dealer"], int) and h["match_winner"] is None
    assert sum(t["points"] for t in h["tricks"]) + h["kitty_points"] == 400
