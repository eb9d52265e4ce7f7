"""One record loader: ``manage.py replay`` and ``manage.py
review`` read a record file through :func:`games.engine.records.load_record`,
so a file neither can use gets the same one sentence and exit 2 from both
(review used to print a traceback for invalid UTF-8 and deeply nested JSON)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games.engine.records import load_record

BAD = [
    ("latin1", '{"format": "hand-record/1", "players": ["Jos\xe9"]}'.encode("latin-1"), "not valid UTF-8: byte 44"),
    ("nested", b"[" * 100_000 + b"]" * 100_000, "not a valid hand record: the JSON is nested too deeply"),
    ("huge-int", b'{"hands": [' + b"9" * 5000 + b"]}", "not valid JSON"),
    ("syntax", b"not json", "not valid JSON: Expecting value"),
]


@pytest.mark.parametrize("name, content, says", BAD)
def test_both_commands_refuse_a_bad_file_with_the_loaders_sentence(tmp_path, name, content, says):
    path = tmp_path / f"{name}.json"
    path.write_bytes(content)
    record, problem = load_record(str(path))
    assert record is None and problem.startswith(says)
    for command in ("replay", "review"):
        err = io.StringIO()
        with pytest.raises(SystemExit) as exit_:
            call_command(command, str(path), stdout=io.StringIO(), stderr=err)
        assert exit_.value.code == 2
        assert err.getvalue().strip() == problem  # one sentence, the same for both


def test_a_missing_file_and_stdin(tmp_path):
    record, problem = load_record(str(tmp_path / "nope.json"))
    assert record is None and problem.startswith(f"cannot read {tmp_path / 'nope.json'}:")
    assert load_record("-", io.BytesIO(b'{"format": "hand-record/1"}')) == ({"format": "hand-record/1"}, None)
    assert load_record("-", io.StringIO("[1, 2]")) == ([1, 2], None)
    assert load_record("-", io.BytesIO(b"\xff"))[1].startswith("not valid UTF-8")
