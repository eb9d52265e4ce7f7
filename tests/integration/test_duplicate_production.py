"""Production topology: a 保皇 duplicate round with one human
no-show and one correction runs through the real Celery worker (every bot
move) and beat (the no-show grace, the deal sweep, the round sweep); the
organiser's correction is a POST of the correction form to the live daphne;
the standings equal the worked example below.

Worked example.  Ten entries: mike (a human who never comes) and nine bot
entries, two tables of five, one board, rule 机器人代打，缺席者判负, no grace.
Both tables deal the same board (the same seed and start) and every seat is
played by the same heuristic bot (mike's by the bot that replaces him), whose
choices are a function of the hand's seed and the action count: both tables
score the same ``s`` seat by seat, every seat ties and earns ½ of 1
matchpoint (50 %), except mike, absent: 0 of 1 (0 %).

The organiser then corrects the *other* table's board: seat ``a`` (the first
seat other than mike's) +10, seat ``b`` (the next) −10.  Now seat ``a`` of
the other table outscores seat ``a`` of mike's table (100 % / 0 %), seat
``b`` of mike's table outscores the other's (100 % / 0 %); every other seat
still ties (50 %); mike stays at 0 %:

    mike 0 % · other-table a 100 % · mike's-table a 0 % · mike's-table b 100 %
    · other-table b 0 % · the five others 50 %  (4½ matchpoints of 10: mike's
    ½ is not given to anybody else)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.parse
import urllib.request

import pytest

from .stack import REPO, wait_until

pytestmark = pytest.mark.production


def ops(stack, op: str, **params) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "tests.integration.duplicate_ops", op, json.dumps(params)],
        cwd=REPO, env=stack.env, capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def post_correction(stack, event: int, table: int, cookie: str, values: dict) -> tuple[int, str]:
    """GET the event page as the organiser (CSRF cookie and token), then POST
    the correction form; returns the final status and page."""
    jar = {"sessionid": cookie}

    def request(path, data=None):
        req = urllib.request.Request(stack.web_url + path, data=data)
        req.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in jar.items()))
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), NoRedirect)
        resp = opener.open(req, timeout=30)
        for header in resp.headers.get_all("Set-Cookie") or []:
            name, value = header.split(";", 1)[0].split("=", 1)
            jar[name] = value
        return resp.status, resp.headers.get("Location"), resp.read().decode()

    status, _, page = request(f"/clubs/events/{event}/")
    assert status == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({**values, "csrfmiddlewaretoken": token}).encode()
    status, location, _ = request(f"/clubs/tables/{table}/correct", body)
    assert status == 302, status
    return request(location)[::2]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

    def http_error_302(self, req, fp, code, msg, headers):
        return fp


def test_baohuang_duplicate_no_show_and_correction(production_stack):
    stack = production_stack
    started = ops(stack, "start")
    event, mike = started["event"], started["human_entry"]

    def finished():
        s = ops(stack, "status", event=event)
        return s if s["status"] == "finished" else None

    state = wait_until(finished, timeout=300, what="the duplicate round to finish", interval=2)
    tables = state["tables"]
    assert len(tables) == 2 and all(t["finished"] for t in tables)
    home = next(t for t in tables if mike in t["entries"])
    other = next(t for t in tables if mike not in t["entries"])
    h = home["entries"].index(mike)
    assert home["result"]["forfeit"] == [mike]                   # beat applied the no-show rule
    board = home["result"]["boards"][0]
    assert board is not None and other["result"]["boards"][0] == board   # same deal, same bots: same scores

    before = {e: score for e, _rank, score in ops(stack, "standings", event=event)["standings"]}
    assert before[mike] == 0.0
    assert all(score == 50.0 for e, score in before.items() if e != mike)

    a, b = [k for k in range(5) if k != h][:2]
    values = {k: ("" if v is None else v) for k, v in ops(stack, "form", table=other["id"]).items()
              if not k.endswith("_absent")}
    values.update({f"b0_{a}": board[a] + 10, f"b0_{b}": board[b] - 10, "reason": "记分员抄错"})
    status, page = post_correction(stack, event, other["id"], started["organiser_cookie"], values)
    assert status == 200 and "成绩已更正" in page

    after = ops(stack, "standings", event=event)
    pct = {e: score for e, _rank, score in after["standings"]}
    want = {e: 50.0 for e in pct}
    want[mike] = 0.0
    want[other["entries"][a]] = 100.0
    want[home["entries"][a]] = 0.0
    want[home["entries"][b]] = 100.0
    want[other["entries"][b]] = 0.0
    assert pct == want
    assert sum(pct.values()) == 450.0
    (correction,) = after["corrections"]
    assert correction["reason"] == "记分员抄错" and len(correction["changes"]) == 2
    assert all("→" in line and "{" not in line for line in correction["changes"])
