"""Rating updates after a completed hand: the stored numbers equal
openskill's Plackett–Luce called directly on the same teams and ranks.

The teams and ranks are derived here from the stored summary by the rules
themselves (升級 S1/S17: partners 0+2 and 1+3, the attackers win from 160
points; 保皇 B9/B10/B12: the emperor with his guard, or alone when solo,
against the rebels; positive score wins, 0 draws), not by the code under
test.  Seeds are chosen to give each kind of hand; each test asserts that the
kind it needs occurred.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from openskill.models import PlackettLuce

from games.models import Seat
from ratings import compute
from ratings.models import PlayerRating, RatedHand, RatingChange
from tests.site.ratings_fixtures import make_user, play_out, seated_room  # noqa: F401

pytestmark = pytest.mark.django_db

MODEL = PlackettLuce()


def preset(users, game, values):
    """Give each user a prior rating (μ, σ) in ``game``."""
    for user, (mu, sigma) in zip(users, values):
        PlayerRating.objects.create(user=user, game=game, mu=mu, sigma=sigma,
                                    rating=compute.display(mu), hands=12, wins=5)


def expected(teams_seats, ranks, prior):
    """openskill called directly: ``prior`` maps seat -> (μ, σ)."""
    teams = [[MODEL.rating(mu=prior[s][0], sigma=prior[s][1]) for s in team] for team in teams_seats]
    new = MODEL.rate(teams, ranks=ranks)
    return {s: (r.mu, r.sigma) for team, rs in zip(teams_seats, new) for s, r in zip(team, rs)}


def shengji_teams(summary):
    """S1/S17 from the summary: (teams, ranks)."""
    dealer_team = summary["dealer"] % 2
    attackers_won = summary["attackers_points"] >= 160
    win_team = 1 - dealer_team if attackers_won else dealer_team
    return [[0, 2], [1, 3]], ([1, 2] if win_team == 0 else [2, 1])


def baohuang_teams(summary):
    """B9/B10/B12 from the summary: (teams, ranks)."""
    emperor = summary["emperor"]
    side = [emperor] if summary["solo"] else sorted([emperor, summary["guard"]])
    rebels = [s for s in range(5) if s not in side]
    ranks = {"emperor": [1, 2], "rebels": [2, 1], "draw": [1, 1]}[summary["winner"]]
    return [side, rebels], ranks


def check_against_openskill(hand, users_by_seat, prior, teams, ranks):
    want = expected(teams, ranks, prior)
    changes = {c.seat: c for c in RatingChange.objects.filter(rated_hand__hand=hand)}
    assert sorted(changes) == list(range(len(prior)))
    for seat, user in users_by_seat.items():
        row = PlayerRating.objects.get(user=user, game=hand.match.room.game)
        assert (row.mu, row.sigma) == want[seat], f"seat {seat}"
        assert row.rating == compute.display(want[seat][0])
        c = changes[seat]
        assert (c.mu_before, c.sigma_before) == prior[seat]
        assert (c.mu_after, c.sigma_after) == want[seat]
        team = next(i for i, t in enumerate(teams) if seat in t)
        assert c.rank == ranks[team]
        outcome = "draw" if len(set(ranks)) == 1 else "win" if ranks[team] == 1 else "loss"
        assert c.outcome == outcome
    return changes


def test_shengji_hand_matches_openskill(make_user, multipliers, monkeypatch):
    users = [make_user(f"s{i}") for i in range(4)]
    prior_values = [(27.0, 5.0), (24.5, 6.0), (22.0, 7.5), (30.0, 3.0)]
    preset(users, "shengji", prior_values)
    room = seated_room("shengji", users, seed=3, monkeypatch=monkeypatch)
    hand = play_out(room)
    teams, ranks = shengji_teams(hand.summary)
    prior = dict(enumerate(prior_values))
    check_against_openskill(hand, dict(enumerate(users)), prior, teams, ranks)
    row = PlayerRating.objects.get(user=users[0], game="shengji")
    assert row.hands == 13
    assert row.wins == 5 + (ranks[0] == 1)


def test_shengji_hand_with_bots_uses_their_fixed_levels(make_user, multipliers, monkeypatch):
    """Bots take part with their level's fixed rating and are never changed."""
    a, b = make_user("a"), make_user("b")
    room = seated_room("shengji", [a, "random", b, "heuristic"], seed=8, monkeypatch=monkeypatch)
    hand = play_out(room)
    teams, ranks = shengji_teams(hand.summary)
    prior = {0: compute.INITIAL, 1: compute.BOT_LEVELS["random"], 2: compute.INITIAL,
             3: compute.BOT_LEVELS["heuristic"]}
    changes = check_against_openskill(hand, {0: a, 2: b}, prior, teams, ranks)
    for seat, level in ((1, "random"), (3, "heuristic")):
        assert changes[seat].user_id is None and changes[seat].bot == level
        assert (changes[seat].mu_after, changes[seat].sigma_after) == compute.BOT_LEVELS[level]
    assert PlayerRating.objects.filter(game="shengji").count() == 2
    first = PlayerRating.objects.get(user=a, game="shengji")
    assert first.hands == 1 and first.provisional


@pytest.mark.parametrize("seed", [1, 3])  # B10: emperor + guard; the emperor's side wins / loses
def test_baohuang_hand_with_guard_matches_openskill(seed, make_user, multipliers, monkeypatch):
    users = [make_user(f"b{i}") for i in range(5)]
    prior_values = [(25.0, 8.0), (28.0, 4.0), (21.0, 6.0), (26.0, 2.5), (23.0, 7.0)]
    preset(users, "baohuang", prior_values)
    room = seated_room("baohuang", users, seed=seed, monkeypatch=monkeypatch)
    hand = play_out(room)
    assert hand.summary["solo"] is None and hand.summary["guard"] is not None
    teams, ranks = baohuang_teams(hand.summary)
    assert len(teams[0]) == 2 and len(teams[1]) == 3
    check_against_openskill(hand, dict(enumerate(users)), dict(enumerate(prior_values)), teams, ranks)


# B9: 明独 (open solo) won, 暗独 (secret solo) lost; the seeds follow the
# heuristic (bots.PARAMS: after session 41's tuning 暗独 is rare, 2167 the first)
@pytest.mark.parametrize(("seed", "solo", "winner"), [(16, "open", "emperor"), (2167, "secret", "rebels")])
def test_baohuang_solo_hand_matches_openskill(seed, solo, winner, make_user, multipliers, monkeypatch):
    users = [make_user(f"b{i}") for i in range(5)]
    prior_values = [(25.0, 8.0), (28.0, 4.0), (21.0, 6.0), (26.0, 2.5), (23.0, 7.0)]
    preset(users, "baohuang", prior_values)
    room = seated_room("baohuang", users, seed=seed, monkeypatch=monkeypatch)
    hand = play_out(room)
    assert (hand.summary["solo"], hand.summary["winner"]) == (solo, winner)
    teams, ranks = baohuang_teams(hand.summary)
    assert teams[0] == [hand.summary["emperor"]] and len(teams[1]) == 4
    check_against_openskill(hand, dict(enumerate(users)), dict(enumerate(prior_values)), teams, ranks)


def test_baohuang_draw_ranks_both_sides_equal(make_user, multipliers, monkeypatch):
    users = [make_user(f"d{i}") for i in range(2)]
    room = seated_room("baohuang", [users[0], "heuristic", users[1], "random", "heuristic"],
                       seed=2, monkeypatch=monkeypatch)
    hand = play_out(room)
    assert hand.summary["winner"] == "draw"
    teams, ranks = baohuang_teams(hand.summary)
    prior = {s: compute.INITIAL for s in range(5)}
    prior.update({1: compute.BOT_LEVELS["heuristic"], 3: compute.BOT_LEVELS["random"],
                  4: compute.BOT_LEVELS["heuristic"]})
    changes = check_against_openskill(hand, {0: users[0], 2: users[1]}, prior, teams, ranks)
    assert {c.outcome for c in changes.values()} == {"draw"}
    assert PlayerRating.objects.get(user=users[0], game="baohuang").draws == 1


def test_voided_deal_is_not_rated(make_user, multipliers, monkeypatch):
    """B8: five passes twice void the deal; nothing is rated."""
    from games import services

    users = [make_user(f"v{i}") for i in range(5)]
    room = seated_room("baohuang", users, seed=5, monkeypatch=monkeypatch)
    for _ in range(10):
        room.refresh_from_db()
        hand = services.current_hand(room)
        if hand.complete:
            break
        state = services.hand_state(hand)
        seat = state.to_act
        services.do_move(room, seat, {"crown": "pass"}, room.version, actor="bot")
    hand.refresh_from_db()
    assert hand.complete and hand.summary["voided"]
    assert not RatedHand.objects.filter(hand=hand).exists()
    assert not PlayerRating.objects.exists()


def test_result_panel_shows_the_rating_change(make_user, multipliers, monkeypatch):
    """The "+12" of every human's displayed change on the result panel; a
    provisional rating says so in a word after it ("暂定", English
    "Provisional"), not with a "?" that read as a help link (session 20)."""
    from games.render.tables import render_table

    a, b = make_user("ra"), make_user("rb")
    room = seated_room("shengji", [a, "heuristic", b, "heuristic"], seed=3, monkeypatch=monkeypatch)
    hand = play_out(room)
    html = render_table(room, a)
    assert 'data-note="rating"' in html
    for seat, user in ((0, a), (2, b)):
        c = RatingChange.objects.get(rated_hand__hand=hand, seat=seat)
        assert c.delta != 0
        text = f"{c.delta:+d}"
        assert f'data-note-seat="{seat}"' in html and f'data-note-value="{text}"' in html
        # provisional after the first hand: the word after the number
        assert re.search(rf'data-note-seat="{seat}">[^<]*<strong data-note-value="{re.escape(text)}">'
                         rf'{re.escape(text)}</strong>&nbsp;<span class="tag note-mark" data-note-mark>暂定</span>', html), html
    assert not re.search(r'data-note-value="[^"]*\?', html)
    assert 'data-note-seat="1"' not in html  # bots have no rating change
    with translation.override("en"):
        html_en = render_table(room, a)
    assert html_en.count("data-note-mark>Provisional</span>") == 2


def test_human_on_autoplay_is_still_rated(make_user, multipliers, monkeypatch):
    a = make_user("auto")
    room = seated_room("shengji", [a, "heuristic", "heuristic", "heuristic"], seed=4,
                       monkeypatch=monkeypatch)
    Seat.objects.filter(room=room, index=0).update(autoplay=True)
    hand = play_out(room)
    assert RatingChange.objects.get(rated_hand__hand=hand, seat=0).user == a
