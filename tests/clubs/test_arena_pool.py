"""Arena services (clubs.arena.pool): join, leave, seat, re-seat, every hand
scored exactly once however often ``hand_completed`` comes, the clock's end."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import services
from clubs.arena import pool
from clubs.models import Arena, ArenaPlayer, ArenaScore, ArenaTable, Event
from clubs.services import Conflict, Forbidden
from games.models import Hand, Room

pytestmark = pytest.mark.django_db


@pytest.fixture
def arena(club_setup, multipliers):
    club, organiser, member, other, _ = club_setup
    event = pool.create_arena(organiser, club, name="周五竞技场", game="baohuang", minutes=30,
                              bot_delay_ms=0)
    return event, organiser, member


def _done(room):
    return Hand.objects.filter(match__room=room, complete=True).count() >= 1


def test_join_leave_and_refusals(arena, club_setup, make_user):
    event, organiser, member = arena
    player = pool.join(member, event)
    assert player.state == ArenaPlayer.State.WAITING
    with pytest.raises(Conflict):
        pool.join(member, event)
    with pytest.raises(Forbidden):  # not a member of the club
        pool.join(make_user("stranger"), event)
    pool.leave(member, event)
    assert ArenaPlayer.objects.get(pk=player.pk).state == ArenaPlayer.State.AWAY
    with pytest.raises(Conflict):
        pool.leave(member, event)
    assert pool.join(member, event).state == ArenaPlayer.State.WAITING  # back at will


def test_seated_as_soon_as_enough_wait_then_scored_once_and_reseated(arena, driver):
    event, organiser, member = arena
    me = pool.join(member, event)
    assert pool.seat_pool(event.pk) == []  # one human: not a table
    pool.add_bots(organiser, event, 9, seed=1)
    tables = pool.seat_pool(event.pk)
    assert len(tables) == 2
    mine = pool.current_table(event.pk, member)
    assert mine is not None and mine.room.seats.filter(user=member, ready=True).exists()
    assert mine.room.status == Room.Status.PLAYING  # dealt at once: the human is made ready
    for t in tables:
        driver(t.room, _done)
        hand = Hand.objects.get(match__room=t.room)
        for _ in range(3):  # delivered again after a worker was killed: scored once
            pool.on_hand_completed("baohuang", room_id=t.room_id, hand_id=hand.pk)
        pool.score_table(t.pk)
        assert ArenaScore.objects.filter(hand=hand).count() == 5
        assert ArenaScore.objects.filter(hand=hand).values("player").distinct().count() == 5
    me.refresh_from_db()
    assert me.table is None and me.state == ArenaPlayer.State.WAITING  # back in the pool
    assert ArenaTable.objects.get(pk=mine.pk).finished is not None
    assert Room.objects.get(pk=mine.room_id).status == Room.Status.CLOSED
    # ten players from two old tables: every new table of five repeats table-mates,
    # so the tables are held for the arena's wait (10 s per hand), then formed
    assert pool.seat_pool(event.pk) == []
    ArenaPlayer.objects.filter(arena_id=event.pk).update(waiting_since=timezone.now() - timedelta(seconds=11))
    assert len(pool.seat_pool(event.pk)) == 2
    me.refresh_from_db()
    assert me.table is not None and me.table.pk != mine.pk  # re-seated at a new table
    assert pool.current_table(event.pk, member).pk == me.table_id
    board = pool.leaderboard(event.pk)
    assert sum(r["hands"] for r in board) == 10
    assert {r["player"].pk for r in board} >= {me.pk}


def test_a_player_who_left_finishes_the_table_and_is_not_reseated(arena, driver):
    event, organiser, member = arena
    me = pool.join(member, event)
    pool.add_bots(organiser, event, 4, seed=2)
    (table,) = pool.seat_pool(event.pk)
    pool.leave(member, event)
    driver(table.room, _done)
    pool.score_table(table.pk)
    me.refresh_from_db()
    assert me.state == ArenaPlayer.State.AWAY and me.table is None
    assert ArenaScore.objects.filter(player=me).count() == 1  # the table's hand still counts for him
    pool.add_bots(organiser, event, 1, seed=3)
    assert all(me.pk not in t.players for t in pool.seat_pool(event.pk))


def test_the_clock_ends_it_and_a_hand_in_play_does_not_count(arena, driver):
    event, organiser, member = arena
    pool.add_bots(organiser, event, 5, seed=4)
    (table,) = pool.seat_pool(event.pk)
    assert Hand.objects.filter(match__room=table.room, complete=False).exists()  # in play
    Arena.objects.filter(pk=event.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    assert pool.advance_arena(event.pk) == "finished"
    table.refresh_from_db()
    assert table.finished is not None and Room.objects.get(pk=table.room_id).status == Room.Status.CLOSED
    assert not ArenaScore.objects.filter(counted=True).exists()
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    with pytest.raises(Conflict):
        pool.join(member, event)


def test_bots_fill_after_the_organisers_wait(club_setup, multipliers):
    club, organiser, member, *_ = club_setup
    event = pool.create_arena(organiser, club, name="补位", game="baohuang", minutes=30, bot_fill_seconds=0)
    me = pool.join(member, event)
    (table,) = pool.seat_pool(event.pk)
    assert table.players.count(None) == 4 and me.pk in table.players
    assert table.room.seats.filter(bot_policy__isnull=False).count() == 4


def test_team_battle_counts_the_best_n(club_setup, multipliers):
    club, organiser, member, other, other_organiser = club_setup
    event = pool.create_arena(organiser, club, name="对抗赛", game="shengji", minutes=30, team_battle=True,
                              team_size=1, teams=[other])
    a = pool.join(member, event)
    b = pool.join(other_organiser, event)
    assert (a.team, b.team) == (club, other)
    table = ArenaTable.objects.create(arena_id=event.pk, number=1, players=[a.pk, b.pk, None, None])
    hand_rows = []
    from games.services import create_room

    room = create_room(organiser, "shengji", "x", take_seat=False)
    from games.models import Match

    match = Match.objects.create(room=room, number=1, start={})
    for k in range(2):
        hand_rows.append(Hand.objects.create(match=match, number=k + 1, seed=k, deal={}, start={}))
    ArenaScore.objects.create(arena_id=event.pk, table=table, hand=hand_rows[0], player=a, result="win", points=2)
    ArenaScore.objects.create(arena_id=event.pk, table=table, hand=hand_rows[1], player=b, result="win", points=4)
    teams = pool.team_standings(event.pk)
    assert [(t["team"], t["total"]) for t in teams] == [(other, 4), (club, 2)]


def test_berserk_halves_the_turn_time_and_adds_one_on_a_win(arena, driver):
    event, organiser, member = arena
    me = pool.join(member, event)
    pool.set_berserk(member, event, True)
    pool.add_bots(organiser, event, 4, seed=6)
    (table,) = pool.seat_pool(event.pk)
    assert table.berserk == [me.pk]
    seat = table.players.index(me.pk)
    room = Room.objects.get(pk=table.room_id)
    assert pool.PLANNER.turn_seconds(room, seat) == room.turn_seconds // 2
    assert pool.PLANNER.turn_seconds(room, (seat + 1) % 5) is None
    from games.services import dealing

    assert dealing.turn_seconds(room, seat) == 15 and dealing.turn_seconds(room, (seat + 1) % 5) == 30
    driver(table.room, _done)
    pool.score_table(table.pk)
    score = ArenaScore.objects.get(player=me)
    assert score.berserk and score.points == score.base + (1 if score.result == "win" else 0)
    assert not ArenaPlayer.objects.get(pk=me.pk).berserk  # one table only
