"""Bot entries of different strengths: an organiser's bot entries carry a
policy each (given in turn), and a round's tables seat each bot entry's bots
with its own policy; the other empty seats get the events' default.  Without
it every bot of a duplicate or team event played a board identically at every
table, and every comparison of the tables was a tie."""

from __future__ import annotations

import pytest

from clubs.running import events
from clubs.services import Conflict
from games.models import Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(club_setup, multipliers):
    club, olga, *_ = club_setup
    return events.create_event(olga, club, name="强弱机器人", game="shengji", rounds=1, hands_per_round=1,
                               bot_delay_ms=0), olga


def test_bot_entries_take_the_policies_in_turn(event):
    ev, olga = event
    entries = events.add_bot_entries(olga, ev, 4, ("heuristic", "random"))
    assert [e.bot_policy for e in entries] == ["heuristic", "random", "heuristic", "random"]
    assert [e.bot_policy for e in events.add_bot_entries(olga, ev, 1)] == [""]


def test_an_unknown_policy_is_refused_and_adds_nothing(event):
    ev, olga = event
    with pytest.raises(Conflict):
        events.add_bot_entries(olga, ev, 2, ("heuristic", "genius"))
    assert ev.entries.count() == 0


def test_each_bot_entry_plays_its_seats_with_its_own_policy(event):
    ev, olga = event
    entries = events.add_bot_entries(olga, ev, 2, ("random", "heuristic"))
    policy_of = {e.pk: e.bot_policy for e in entries}
    round_ = events.start_round(olga, events.pair_round(olga, ev))
    table = round_.tables.get()
    plan = events.formats.hooks(ev.game).seat_plan()
    seats = {s.index: s.bot_policy for s in Seat.objects.filter(room=table.room)}
    expected = {seat: policy_of[table.entries[entry_index]] for seat, (entry_index, _) in enumerate(plan)}
    assert seats == expected
    assert sorted(set(seats.values())) == ["heuristic", "random"]
