"""Issue ``manage.py replay`` on input that is not a hand record exits 2
with one sentence on stderr and no traceback.  Before the fix, deeply nested
JSON and invalid UTF-8 printed a traceback and exited 1 (the status of an
illegal action), and ``"hands": []`` and a multiplier of 10^30 were accepted
as valid records."""

from __future__ import annotations

import json

import pytest

from games.engine import get_rules
from games.engine.base import RecordError
from games.engine.options import MAX_MULTIPLIER
from games.engine.records import replay_record

from .replay_cli import run_replay


def _assert_refused(proc, says: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr[-500:])
    assert "Traceback" not in proc.stderr
    assert says in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stdout == ""


@pytest.mark.parametrize("name, content, says", [
    ("nested-list", b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ("nested-object", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "nested too deeply"),
    ("latin1", '{"format": "hand-record/1", "game": "shengji", "players": ["Jos\xe9"]}'.encode("latin-1"),
     "not valid UTF-8"),
    ("lone-byte", b'{"format": "\xff"}', "not valid UTF-8"),
    ("huge-int", b'{"hands": [' + b"9" * 5000 + b"]}", "not valid JSON"),
])
def test_unreadable_input_exits_2_with_a_sentence(tmp_path, name, content, says):
    path = tmp_path / f"{name}.json"
    path.write_bytes(content)
    _assert_refused(run_replay(path), says)


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_a_record_without_hands_is_not_valid(tmp_path, game):
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"format": "hand-record/1", "game": game, "hands": []}))
    _assert_refused(run_replay(path), "at least one hand")


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
@pytest.mark.parametrize("multiplier", [10**30, MAX_MULTIPLIER + 1, 0, -1, 1.5, True, "2"])
def test_a_multiplier_out_of_range_is_not_valid(game, multiplier):
    record = {"format": "hand-record/1", "game": game, "options": {"multiplier": multiplier},
              "hands": [{"deal": {}, "actions": []}]}
    with pytest.raises(RecordError, match="multiplier must be an integer from 1 to"):
        replay_record(record)


def test_the_largest_multiplier_is_accepted():
    for game in ("shengji", "baohuang"):
        assert get_rules(game).new_match({"multiplier": MAX_MULTIPLIER}) is not None


def test_a_huge_multiplier_is_reported_by_its_size_not_printed(tmp_path):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"format": "hand-record/1", "game": "baohuang",
                                "options": {"multiplier": 10**300}, "hands": [{}]}))
    proc = run_replay(path)
    _assert_refused(proc, "an integer of 301 digits")
