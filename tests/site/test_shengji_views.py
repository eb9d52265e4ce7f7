"""The 升级 table page and the act endpoint: per-seat hooks (data-card,
data-bid for 比牌, data-kitty while burying, data-block while giving back),
the buttons of each phase (bid/pass, trump-S…, give, bury, play), the POSTs
of every verb, refusals (400 with the engine's message, 403, 409) that change
nothing, the last trick toggle and the result panel."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest
from django.test import Client

from games import services
from games.engine.cards import Card
from games.engine.shengji.trumps import bid_points, card_points

from tests.table_pages import hand_codes, kitty_codes

from .shengji_fixtures import (  # noqa: F401 (fixtures)
    RULES,
    auction_with_give,
    auto,
    sj_bot_room,
    sj_humans,
    snapshot,
    state_of,
    to_phase,
)

pytestmark = pytest.mark.django_db


def client(user):
    c = Client()
    c.force_login(user)
    return c


def page(room, user) -> str:
    response = client(user).get(f"/rooms/{room.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def actions(html) -> list[str]:
    block = re.search(r'<div class="actions" id="actions"[^>]*>(.*?)</div>', html, re.S)  # (the region's data-h: games/render/regions.py)
    return re.findall(r'data-action="([^"]+)"', block.group(1)) if block else []


def cards(html) -> list[str]:
    return hand_codes(html)


def post(room, user, data, htmx=True):
    room.refresh_from_db()
    data = {"version": room.version, **data}
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client(user).post(f"/rooms/{room.pk}/act", data, **extra)


def test_auction_page_marks_bipai_and_offers_bid_pass(sj_humans):
    room, users = sj_humans
    state = state_of(room)
    seat = RULES.to_act(state)
    html = page(room, users[seat])
    mine = RULES.view(state, seat)["hand"]
    assert cards(html) == mine  # 比牌 first, then S H D C (engine order)
    # (a stack of identical 比牌 is one button with data-count)
    marked = re.findall(r'data-card="([^"]+)"(?: data-count="(\d+)")? data-bid="(\d+)"', html)
    assert marked and all(bid_points(Card.parse(c), state.level) == int(p) for c, _n, p in marked)
    assert sum(int(n or 1) for _c, n, _p in marked) == sum(1 for c in state.hands[seat] if bid_points(c, state.level))
    assert actions(html)[:1] == ["hint"] and {"bid", "pass"} <= set(actions(html))
    assert 'id="turn-indicator"' in html and 'id="countdown"' in html
    assert 'href="/static/games/shengji.css"' in html and "games/shengji.js" in html
    other = users[(seat + 1) % 4]
    assert actions(page(room, other)) == []
    # a spectator (not seated) sees the board and the shown piles, no cards in hand
    from django.contrib.auth import get_user_model

    watcher = get_user_model().objects.create_user("watcher", password="pw-watcher-123")
    html_watch = page(room, watcher)
    assert 'class="board sj"' in html_watch and 'data-region="hand"' not in html_watch
    assert 'id="sj-piles"' in html_watch and actions(html_watch) == []
    # nobody else's cards on the page
    for s in range(4):
        if s != seat:
            for code in set(RULES.view(state, s)["hand"]) - set(mine):
                assert code not in hand_codes(html)


def test_post_bid_pass_trump_bury_play(sj_humans):
    room, users = sj_humans
    state = state_of(room)
    seat = RULES.to_act(state)
    hint = re.search(r'data-hint="([^"]*)"', page(room, users[seat])).group(1).split()
    response = post(room, users[seat], {"verb": "bid", "cards": " ".join(hint)})
    # the answer carries no table: the push brings the new version (rendered once)
    assert response.status_code == 204 and 'id="table"' not in response.content.decode()
    assert [c.code for c in state_of(room).piles[seat]] == hint
    html = page(room, users[seat])
    assert f'data-pile-seat="{seat}" data-pile-points="{state_of(room).highest}"' in html
    for _ in range(3):
        s = RULES.to_act(state_of(room))
        assert post(room, users[s], {"verb": "pass"}).status_code == 204
    state = state_of(room)
    assert RULES.phase(state) == "trump" and state.auction_winner == seat
    html = page(room, users[seat])
    assert [a for a in actions(html) if a.startswith("trump-")] == ["trump-S", "trump-H", "trump-D", "trump-C"]
    shown = [int(n) for n in re.findall(r'data-suit-count="(\d+)"', html)]
    hand = state_of(room).hands[seat]
    assert shown == [sum(1 for c in hand if c.suit == x and c.rank != state.level) for x in "SHDC"]
    assert post(room, users[seat], {"verb": "trump-D"}).status_code == 204
    state = state_of(room)
    assert state.trump == "D" and RULES.phase(state) == "bury"
    dealer = state.dealer
    html = page(room, users[dealer])
    kitty = kitty_codes(html)
    assert sorted(kitty) == sorted(c.code for c in state.deal.kitty)  # the 8 kitty cards marked
    assert "bury" in actions(html)
    assert 'data-kitty' not in page(room, users[(dealer + 1) % 4])
    bury = re.search(r'data-hint="([^"]*)"', html).group(1)
    assert post(room, users[dealer], {"verb": "bury", "cards": bury}).status_code == 204
    state = state_of(room)
    assert RULES.phase(state) == "play"
    html = page(room, users[dealer])
    assert "play" in actions(html)
    lead = re.search(r'data-hint="([^"]*)"', html).group(1)
    assert post(room, users[dealer], {"verb": "play", "cards": lead}).status_code == 204
    state = state_of(room)
    assert state.plays and [c.code for c in state.plays[0][1]] == lead.split()
    follower = RULES.to_act(state)
    html = page(room, users[follower])
    assert 'id="follow-hint"' in html  # what S9 requires of this follower
    assert f'data-played-seat="{dealer}"' in html  # the lead on the felt, in front of its seat


def test_give_page_blocks_cards_and_posts_give_fields(sj_humans):
    room, users = sj_humans
    winner = auction_with_give(room, users)
    post(room, users[winner], {"verb": "trump-C"})
    state = state_of(room)
    assert RULES.phase(state) == "give"
    html = page(room, users[winner])
    assert 'class="sj-hand give-mode"' in html and "give" in actions(html)
    owed = state.owed
    for loser, n in owed.items():
        assert f'data-give-to="{loser}" data-give-need="{n}"' in html
        assert f'name="give_{loser}"' in html
    blocked = set(re.findall(r'data-card="([^"]+)"[^>]*data-block="[^"]+"', html))
    points = {c.code for c in state.hands[winner] if card_points(c)}
    assert points and points <= blocked  # S14: no 5, 10, K (computed by the engine helper)
    # the losers see who gives, not the cards
    loser = next(iter(owed))
    other_html = page(room, users[loser])
    assert "give-mode" not in other_html and "give" not in actions(other_html)
    # a point card is refused with the S14 message; nothing changes
    before = snapshot(room)
    bad = sorted(points)[: owed[loser]]
    response = post(room, users[winner], {"verb": "give", f"give_{loser}": " ".join(bad)})
    assert response.status_code == 400 and "S14" in response.content.decode()
    assert response["HX-Retarget"] == "#act-msg"
    assert snapshot(room) == before
    # no fields at all
    assert post(room, users[winner], {"verb": "give"}).status_code == 400
    assert post(room, users[winner], {"verb": "give", "give_x": "2C"}).status_code == 400
    # the hint mapping is legal
    hint = html_lib.unescape(re.search(r'data-give-hint="([^"]*)"', html).group(1))
    mapping = json.loads(hint)
    data = {"verb": "give", **{f"give_{s}": " ".join(c) for s, c in mapping.items()}}
    assert post(room, users[winner], data).status_code == 204
    assert RULES.phase(state_of(room)) == "bury"
    assert services.current_hand(room).actions.last().payload == {"seat": winner, "give": mapping}


def test_refusals_over_http_change_nothing(sj_humans):
    room, users = sj_humans
    to_phase(room, users, "play")
    auto(room, users)  # the lead
    state = state_of(room)
    follower = RULES.to_act(state)
    ctx = state.ctx
    led = ctx.suit_of(state.plays[0][1][0])
    hand = state.hands[follower]
    before = snapshot(room)
    if any(ctx.suit_of(c) == led for c in hand):
        off = next((c for c in hand if ctx.suit_of(c) != led), None)
        if off is not None:
            r = post(room, users[follower], {"verb": "play", "cards": off.code})
            body = r.content.decode()
            assert r.status_code == 400 and "跟牌不对" in body and "#rule-S9" in body
            assert "S9" not in re.sub(r"<[^>]+>", "", body)  # no ruling id shown
    r = post(room, users[follower], {"verb": "play", "cards": "ZZ"})
    assert r.status_code == 400
    r = post(room, users[follower], {"verb": "trump-X"})
    assert r.status_code == 400
    other = (follower + 1) % 4
    r = post(room, users[other], {"verb": "play", "cards": state.hands[other][0].code})
    assert r.status_code == 403
    r = post(room, users[follower], {"verb": "play", "cards": hand[0].code, "seat": str(other)})
    assert r.status_code == 403
    room.refresh_from_db()
    r = client(users[follower]).post(f"/rooms/{room.pk}/act", {
        "verb": "play", "cards": hand[0].code, "version": room.version - 1}, HTTP_HX_REQUEST="true")
    assert r.status_code == 409
    assert snapshot(room) == before


def test_last_trick_toggle_and_result_panel(sj_bot_room, alice, driver):
    room = sj_bot_room
    driver(room, lambda r: len(state_of(r).tricks) >= 1 or services.current_hand(r).complete)
    html = page(room, alice)
    assert 'data-action="last-trick"' in html and 'id="last-trick"' in html
    driver(room, lambda r: services.current_hand(r).complete)
    html = page(room, alice)
    hand = services.current_hand(room)
    summary = hand.summary
    panel = re.search(r'<section id="result-panel".*?</section>', html, re.S).group(0)
    assert f'data-attackers-points="{summary["attackers_points"]}"' in panel
    assert f'data-kitty-points="{summary["kitty_points"]}"' in panel
    assert f'data-kitty-multiplier="{summary["kitty_multiplier"]}"' in panel
    assert sorted(re.findall(r'data-card="([^"]+)"', re.search(r'class="sj-kitty".*?</p>', panel, re.S).group(0))) \
        == sorted(summary["kitty"])
    for seat in range(4):
        assert re.search(rf'data-result-seat="{seat}".*?data-penalty="{summary["penalties"][str(seat)]}".*?'
                         rf'data-game-points="{summary["game_points"][str(seat)]}"', panel, re.S)
    for team in "01":
        assert f'data-levels-gained="{summary["levels_gained"][team]}"' in panel
    assert f'/hands/{hand.pk}/replay/' in panel and f'/hands/{hand.pk}/record.json' in panel
    # why the levels moved: the band of the attackers' points, citing S17 with its link
    why = re.search(r'<ul class="level-why".*?</ul>', panel, re.S).group(0)
    assert f'{summary["attackers_points"]}' in why and "S17" in why and "#rule-S17" in why
    # the end of the hand stays: a next-hand (or rematch) button with its countdown
    assert 'data-action="next-hand"' in panel and 'class="next-countdown" data-deadline="' in panel


def test_failed_throw_is_announced_without_who_stopped_it(sj_humans, monkeypatch):
    """S11: hearts trump, level 2, seat 0 throws ♣AAK; seat 1's ♣A stops it, so
    only ♣K is played.  Every seat's page says seat 0's throw failed (what was
    tried, what was played) and never names seat 1 in that announcement."""
    from tests.engine.shengji_fixtures import act as eact
    from tests.engine.shengji_fixtures import play_state

    room, users = sj_humans
    hands = {0: "AC AC KC 6D", 1: "AC 4C 6C 7D", 2: "3C 8C 9C 8D", 3: "QC JC 9C 9D"}
    state = play_state(hands, "3S 4S 6S 7S 8S 9S JS QS", dealer=0, trump="H")
    state = RULES.apply(state, eact(0, "play", "AC AC KC"))
    monkeypatch.setattr(services, "hand_state", lambda hand, *args, **kwargs: state)
    for seat in range(4):
        html = page(room, users[seat])
        failed = re.search(r'<p class="sj-failed" id="sj-failed-throw">(.*?)</p>', html, re.S).group(1)
        assert failed.startswith("sj0 ") and "♣A ♣A ♣K → ♣K" in failed
        assert not any(f"sj{s}" in failed for s in (1, 2, 3))
        assert re.findall(r'data-played-seat="(\d)"', html) == ["0"]  # on the felt, once
        assert 'data-play-seat=' not in html  # the trick is not listed twice (bytes per push)
    # seat 1 follows: the page tells it what S9 requires
    assert 'id="follow-hint"' in page(room, users[1])
    for seat, c in ((1, "4C"), (2, "3C"), (3, "QC")):
        state = RULES.apply(state, eact(seat, "play", c))
    html = page(room, users[2])
    assert 'id="sj-failed-throw"' not in html
    last = re.search(r'<div id="last-trick".*?</div>\s*</div>', html, re.S).group(0)
    assert "甩牌失败" in last and "sj0 赢得此轮" in last


def test_shengji_table_docstring_examples():
    import doctest

    from games.shengji import table as shengji_table

    result = doctest.testmod(shengji_table)
    assert result.attempted >= 1 and result.failed == 0
