"""The replay on the felt: ``/hands/<id>/replay/?step=k`` draws the
state after k actions with the live table's felt and seat block, seen by a
spectator who sees everything: each seat's cards (identical neighbours as
one face ×n), the round on the felt by seat (the DOM contract:
``data-region="play"`` with ``data-seat``, its cards' ``data-card``), 升級's
kitty once the dealer holds it (S15); it opens at step 0 with "next" the
primary button; an htmx request gets the ``#replay`` fragment alone."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.engine import get_rules

from .shengji_fixtures import sj_bot_room  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db


def _client(user):
    c = Client()
    c.force_login(user)
    return c


def _done(room, driver):
    hand = services.current_hand(room)
    driver(room, lambda r: services.current_hand(r).pk != hand.pk or services.current_hand(r).complete)
    hand.refresh_from_db()
    assert hand.complete
    return hand


def _felt(html: str) -> dict:
    """``{seat: [card codes]}`` of the plays on the replay's felt."""
    felt = re.search(r'<section id="felt".*?</section>', html, re.S).group(0)
    out = {}
    for m in re.finditer(r'<div id="play-(\d)"[^>]*data-region="play" data-seat="(\d)"[^>]*>(.*?)</div>', felt, re.S):
        assert m.group(1) == m.group(2)
        out[int(m.group(2))] = re.findall(r'data-card="([^"]+)"', m.group(3))
    return out


def _seat_cards(html: str) -> dict:
    """``{seat: [codes]}`` of the replay's seats' cards, stacks expanded."""
    out = {}
    for m in re.finditer(r'data-region="seat-cards" data-seat="(\d)">(.*?)</div>', html, re.S):
        codes = []
        for stack in re.finditer(r'<span class="stack">(.*?)</span>(?=<span class="stack">|$)', m.group(2), re.S):
            code = re.search(r'data-card="([^"]+)"', stack.group(1)).group(1)
            times = re.search(r'×(\d+)', stack.group(1))
            codes += [code] * (int(times.group(1)) if times else 1)
        out[int(m.group(1))] = codes
    return out


def _first_full_trick(hand, rules, key) -> int:
    """The first step after which the public view shows a whole round by
    ``key`` ("trick": 升級's trick with a play by each seat)."""
    from games.services import hand_state

    total = hand.actions.count()
    for step in range(1, total + 1):
        view = rules.view(hand_state(hand, upto=step), None)
        last = view.get("last_trick")
        if view.get("phase") == "play" and last and not (view.get("trick") or {}).get("plays"):
            return step
    raise AssertionError("no complete trick")


def test_shengji_replay_opens_at_the_deal_and_draws_a_trick_by_seat(sj_bot_room, driver, alice):
    rules = get_rules("shengji")
    hand = _done(sj_bot_room, driver)
    client = _client(alice)
    html = client.get(f"/hands/{hand.pk}/replay/").content.decode()
    # step 0: the deal; "next" the primary button, no "previous" link
    assert 'data-step="0"' in html and 'id="replay-table"' in html
    assert re.search(r'class="button primary" data-action="replay-next" href="\?step=1"', html)
    assert 'data-action="replay-prev"' not in html
    state0 = services.hand_state(hand, upto=0)
    assert _seat_cards(html) == {s: rules.view(state0, s)["hand"] for s in range(4)}
    assert _felt(html) == {0: [], 1: [], 2: [], 3: []}
    # the step that completes the first trick: its four plays on the felt, by seat
    step = _first_full_trick(hand, rules, "trick")
    html = client.get(f"/hands/{hand.pk}/replay/?step={step}").content.decode()
    view = rules.view(services.hand_state(hand, upto=step), None)
    assert _felt(html) == {p["seat"]: list(p["cards"]) for p in view["last_trick"]["plays"]}
    assert len(re.findall(r'class="play played winning"', html)) == 1
    # the kitty the dealer buried (S15), shown though a spectator's view hides it until the end
    assert view["kitty"] is None
    dealer_view = rules.view(services.hand_state(hand, upto=step), view["dealer"])
    kitty = re.search(r'id="replay-kitty" data-region="kitty">(.*?)</p>', html, re.S).group(1)
    assert re.findall(r'data-card="([^"]+)"', kitty) == list(dealer_view["kitty"])
    # every seat's cards at that step
    state = services.hand_state(hand, upto=step)
    assert _seat_cards(html) == {s: rules.view(state, s)["hand"] for s in range(4)}


def test_baohuang_replay_draws_the_round_by_seat_over_htmx(bot_room, driver, alice):
    rules = get_rules("baohuang")
    hand = _done(bot_room, driver)
    client = _client(alice)
    total = hand.actions.count()
    for step in range(1, total + 1):
        view = rules.view(services.hand_state(hand, upto=step), None)
        if view.get("phase") == "play" and len(view.get("trick_log") or []) >= 3:
            break
    response = client.get(f"/hands/{hand.pk}/replay/?step={step}", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.startswith('<div id="replay"') and "<html" not in html  # the fragment alone
    felt = _felt(html)
    for entry in view["trick_log"]:
        seat = entry["seat"]
        if entry.get("verb") == "play":
            assert felt[seat] == list(entry["cards"])
        else:  # 过 / 让: a word, no card
            assert felt[seat] == []
    state = services.hand_state(hand, upto=step)
    assert _seat_cards(html) == {s: rules.view(state, s)["hand"] for s in range(5)}
    # the last step: no "next" link, "previous" and "first" are
    last = client.get(f"/hands/{hand.pk}/replay/?step={total}").content.decode()
    assert 'data-action="replay-next"' not in last
    assert 'data-action="replay-prev" href="?step=%d"' % (total - 1) in last
    assert 'data-action="replay-first" href="?step=0"' in last
    # the text list: each step so far in words
    assert len(re.findall(r"<li value=", last)) == total
