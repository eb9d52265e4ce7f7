"""A round at two tables, for the clubs tests of spectating and embargo:
mike's entry and bot entries in a one-round event of two boards."""

from __future__ import annotations

from clubs import services
from clubs.running import events
from games import services as game_services


def two_table_round(club_setup, make_user, game: str = "shengji", fmt: str = "duplicate",
                    name: str = "复式", ready: bool = False):
    """Round 1 of a new one-round ``game`` event (``fmt``, two boards per round,
    no bot delay) of ``club_setup``'s club, started at two tables: mike's entry
    (升級: with pam, a new member, as a confirmed pair; 保皇: alone) and bot
    entries.  The bots' table deals board 1 at once; mike's waits for its humans
    unless ``ready`` (then they are ready and board 1 is dealt there too).

    Returns ``(event, round, mine, other, humans)``: ``mine`` is mike's table,
    ``other`` the bots', ``humans`` mike's side (``[mike, pam]`` or ``[mike]``)."""
    club, olga, mike, *_ = club_setup
    event = events.create_event(olga, club, name=name, game=game, format=fmt, rounds=1,
                                hands_per_round=2, bot_delay_ms=0)
    if game == "shengji":
        pam = make_user("pam")
        services.join_club(pam, club.join_code)
        entry = events.register(mike, event, partner="pam")
        events.confirm(pam, entry)
        events.add_bot_entries(olga, event, 3)
        humans = [mike, pam]
    else:
        entry = events.register(mike, event)
        events.add_bot_entries(olga, event, 9)
        humans = [mike]
    r = events.start_round(olga, events.pair_round(olga, event))
    mine = next(t for t in r.tables.all() if entry.pk in t.entries)
    other = next(t for t in r.tables.all() if t.pk != mine.pk)
    if ready:
        for user in humans:
            game_services.set_ready(mine.room, user, True)
    return event, r, mine, other, humans
