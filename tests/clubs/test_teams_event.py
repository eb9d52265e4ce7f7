"""Team duplicate through the services: a team of four (and a substitute)
registered, a round paired as two-table matches with the teams' seats
swapped, each table seating the team's own pair, the boards embargoed while
the round runs, then the stored board scores turned into IMPs, VPs, team
standings, score cards and travellers."""

from __future__ import annotations

import pytest
from django.utils import timezone

from clubs import guards, services
from clubs.models import Round
from clubs.results import scorecards
from clubs.results.standings import standings
from clubs.running import events, teams
from clubs.running.rounds import _close_round
from clubs.services import ClubError, Conflict
from clubs.teams import results as team_results
from clubs.tournament.scoring import wbf_vp
from games import seating

pytestmark = pytest.mark.django_db


@pytest.fixture
def team_event(club_setup, make_user):
    club, olga, mike, *_ = club_setup
    players = [mike] + [make_user(n) for n in ("pam", "sue", "tom", "ursula")]
    for u in players[1:]:
        services.join_club(u, club.join_code)
    event = events.create_event(olga, club, name="团体赛", game="shengji", format="teams", rounds=2,
                                hands_per_round=2, bot_delay_ms=0)
    team = teams.register_team(mike, event, "东城队", ["pam", "sue", "tom"], ["ursula"])
    return event, team, players, olga


def test_a_team_is_four_players_and_its_substitutes(team_event):
    event, team, players, olga = team_event
    assert [p.user for p in team.players.order_by("index")] == players
    assert team.status == "pending"  # the teammates confirm, as a partner does
    for u in players[1:]:
        events.confirm(u, team)
    team.refresh_from_db()
    assert team.status == "active"
    with pytest.raises(ClubError):
        teams.register_team(olga, event, "缺人队", ["pam"], [])


def test_the_format_needs_a_partnership_game(club_setup):
    club, olga, *_ = club_setup
    with pytest.raises(ClubError):
        events.create_event(olga, club, name="x", game="baohuang", format="teams", hands_per_round=2)


def test_a_round_is_two_tables_per_match_with_the_teams_seats_swapped(team_event):
    event, team, players, olga = team_event
    for u in players[1:]:
        events.confirm(u, team)
    bot_team = events.add_bot_entries(olga, event, 1)[0]
    assert bot_team.players.count() == 4
    r = events.start_round(olga, events.pair_round(olga, event))
    tables = list(r.tables.order_by("number"))
    assert [t.entries for t in tables] in ([[team.pk, bot_team.pk], [bot_team.pk, team.pk]],
                                           [[bot_team.pk, team.pk], [team.pk, bot_team.pk]])
    assert r.pairing["legs"] == [0, 1] and len(r.boards) == 2
    first, second = tables
    mike, pam, sue, tom, ursula = players
    # the first pair (mike, pam) at the first table, the second (sue, tom) at the second,
    # each on the team's side of that table (entry 0: seats 0 and 2; entry 1: seats 1 and 3)
    side = {t.number: t.entries.index(team.pk) for t in tables}
    seated = {t.number: {s.index: s.user_id for s in t.room.seats.all() if s.user_id} for t in tables}
    assert seated[first.number] == {side[1]: mike.pk, side[1] + 2: pam.pk}
    assert seated[second.number] == {side[2]: sue.pk, side[2] + 2: tom.pk}
    assert seating.seat_refusal(first.room, sue, side[1]) is not None  # not her table
    assert seating.seat_refusal(second.room, sue, side[2]) is None
    # the boards are embargoed until both tables played them
    assert list(guards.embargoed_boards(r)) == [0, 1]
    # no swapping players while the round runs
    with pytest.raises(Conflict):
        teams.swap_players(mike, team, 3, 4)


def _finish(r, scores):
    """Store each table's board scores (per board, per entry index) and close the round."""
    for t in r.tables.order_by("number"):
        boards = scores[t.number]
        t.result = {"entries": [{"margin": 0, "points": 0, "hands": len(boards)}] * 2, "hands": len(boards),
                    "boards": boards}
        t.finished = timezone.now()
        t.save()
    assert _close_round(r.pk)
    r.refresh_from_db()


def test_imps_vps_standings_cards_and_travellers(team_event):
    event, team, players, olga = team_event
    for u in players[1:]:
        events.confirm(u, team)
    bot_team = events.add_bot_entries(olga, event, 1)[0]
    r = events.start_round(olga, events.pair_round(olga, event))
    a, b = r.pairing["matches"][0]
    # board 1: A -1 at table 1 and +2 at table 2 (swing +1 level: 6 IMPs);
    # board 2: A +0.5 at table 1, -0.5 at table 2: flat
    _finish(r, {1: [[-1.0, 1.0], [0.5, -0.5]], 2: [[-2.0, 2.0], [0.5, -0.5]]})
    assert r.status == Round.Status.FINISHED
    (m,) = team_results.round_matches(r)
    assert (m.a, m.b) == (a, b)
    assert m.score.swings == (1.0, 0.0) and m.score.board_imps == (6, 0)
    assert m.vps() == wbf_vp(6, 2)
    table = standings(event)
    assert [s.entry for s in table] == [a, b]
    assert table[0].score == wbf_vp(6, 2)[0] and table[0].tiebreaks["imp_margin"] == 6
    # the team's score card: per board the swing and IMPs, then the match's VPs
    card = scorecards.card(team)
    sign = 1 if team.pk == a else -1
    assert [row["score"] for row in card["rows"][:2]] == [6 * sign, 0]
    assert card["total"] == pytest.approx(wbf_vp(6 * sign, 2)[0])
    # the travellers once the round has ended
    trav = team_results.travelling(r)
    assert [row["imps"] for board in trav for row in board["rows"]] == [6, 0]
    assert trav[0]["rows"][0]["first"] == -1.0 and trav[0]["rows"][0]["second"] == 2.0


def test_substitute_swapped_in_between_rounds(team_event):
    event, team, players, olga = team_event
    mike, pam, sue, tom, ursula = players
    teams.swap_players(mike, team, 3, 4)  # the captain puts ursula in for tom
    assert [p.user for p in team.players.order_by("index")] == [mike, pam, sue, ursula, tom]
    assert event.log.filter(action="substitute").exists()


def test_the_event_page_shows_matches_travellers_and_the_team_card(team_event, client):
    event, team, players, olga = team_event
    for u in players[1:]:
        events.confirm(u, team)
    events.add_bot_entries(olga, event, 1)
    r = events.start_round(olga, events.pair_round(olga, event))
    # while the round runs a visitor sees no match figure (the boards are embargoed)
    page = client.get(f"/clubs/events/{event.pk}/").content.decode()
    assert 'class="team-matches"' in page and "team-travelling" not in page
    _finish(r, {1: [[-1.0, 1.0], [0.5, -0.5]], 2: [[-2.0, 2.0], [0.5, -0.5]]})
    vp_a, vp_b = wbf_vp(6, 2)
    page = client.get(f"/clubs/events/{event.pk}/").content.decode()
    assert f"{vp_a:.2f} : {vp_b:.2f}" in page and "6 : 0" in page
    assert page.count('class="travelling team-travelling"') == 2
    card = client.get(f"/clubs/entries/{team.pk}/card").content.decode()
    assert "胜利分" in card and 'id="scorecard"' in card
    csv = client.get(f"/clubs/events/{event.pk}/rounds.csv").content.decode("utf-8-sig")
    assert "胜利分" in csv.splitlines()[0]


def test_a_team_registers_on_the_event_page(club_setup, make_user, client):
    club, olga, mike, *_ = club_setup
    for n in ("pam", "sue", "tom"):
        services.join_club(make_user(n), club.join_code)
    event = events.create_event(olga, club, name="团体赛", game="shengji", format="teams", hands_per_round=2)
    client.force_login(mike)
    page = client.get(f"/clubs/events/{event.pk}/").content.decode()
    assert 'name="mate3"' in page and 'name="partner"' not in page
    client.post(f"/clubs/events/{event.pk}/register", {"team": "东城队", "mate1": "pam", "mate2": "sue",
                                                       "mate3": "tom", "sub1": "", "sub2": ""})
    team = event.entries.get()
    assert team.name == "东城队" and [p.user.username for p in team.players.order_by("index")] == [
        "mike", "pam", "sue", "tom"]
