"""Hand records of 保皇 through games.engine.records.replay_record and manage.py replay."""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.base import RecordError
from games.engine.records import replay_record
from tests.engine.baohuang_helpers import make_record

ROOT = Path(__file__).resolve().parents[2]


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
        proc = subprocess.run([sys.executable, "manage.py", "replay", str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        codes[name] = proc.returncode
        if name != "broken":
            out = json.loads(proc.stdout)
            assert ("error" in out) == (name == "bad")
        else:
            assert "41" in proc.stderr
    assert codes == {"good": 0, "bad": 1, "broken": 2}
