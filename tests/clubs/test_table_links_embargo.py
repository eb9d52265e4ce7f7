"""The table's result panel and score sheet do not link to an embargoed
board (docs/tournaments.md "Nothing leaks"): while another table of the
running duplicate round has not completed board *k*, the live table fragment
of a table that has shows no replay or record link to it (the link answered
403), for its players and spectators alike; admins keep the links.  The
embargo is read once per snapshot (games.embargo.room_hidden_hands), the
render per seat still makes no query.  Swiss events' tables keep their links.

Without the flag on the snapshot the fragment linked to
``/hands/<board 1>/replay`` and ``/record``, both 403."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.live import snapshots as live
from games.models import Hand
from tests.clubs.rounds import two_table_round

pytestmark = pytest.mark.django_db


def complete(room) -> int:
    return Hand.objects.filter(match__room=room, complete=True).count()


def dealt(room) -> int:
    return Hand.objects.filter(match__room=room).count()


def setup_round(club_setup, make_user, game: str, fmt: str = "duplicate"):
    """mike (升級: with pam) and bot entries at two tables; mike's table is the
    one whose humans are ready, the other one is not driven."""
    _, r, mine, other, _ = two_table_round(club_setup, make_user, game, fmt, name="链接", ready=True)
    return r, mine, other


def fragments(room, users) -> list[str]:
    """The fragment of ``room`` for each of ``users`` from one fresh snapshot,
    asserting that the renders make no query."""
    live.forget(room.pk)
    snap = live.load_snapshot(room.pk)
    with CaptureQueriesContext(connection) as ctx:
        out = [str(live.render_seat(snap, user, snap.version, 1)) for user in users]
    assert ctx.captured_queries == []
    return out


def links(html: str, hand: Hand) -> tuple[bool, bool]:
    return reverse("hand_replay", args=[hand.pk]) in html, reverse("hand_record", args=[hand.pk]) in html


@pytest.mark.parametrize("game", ["shengji", "baohuang"])
def test_no_link_to_a_board_another_table_has_to_play(client, club_setup, multipliers, make_user, driver,
                                                      django_user_model, game):
    club, olga, mike, *_ = club_setup
    r, mine, other = setup_round(club_setup, make_user, game)
    watcher = make_user("watcher")
    staff = django_user_model.objects.create_user("root", password="x", is_staff=True)
    viewers = [mike, watcher, staff]

    # board 1 complete at mike's table (its result panel is up), the other table has not played it
    driver(mine.room, lambda rm: complete(rm) >= 1)
    board1 = Hand.objects.filter(match__room=mine.room).order_by("number").first()
    assert board1.complete and complete(other.room) == 0
    client.force_login(mike)
    assert client.get(reverse("hand_replay", args=[board1.pk])).status_code == 403
    player, spectator, admin = fragments(mine.room, viewers)
    for html in (player, spectator):
        assert links(html, board1) == (False, False)
        assert f'data-embargoed="{board1.pk}"' in html
        assert "所有牌桌打完这副牌或本轮结束后才能回放和下载牌谱" in html
    assert links(admin, board1) == (True, True) and "data-embargoed" not in admin

    # board 2 dealt: board 1 is the last result and a line of the score sheet, still without links
    driver(mine.room, lambda rm: dealt(rm) >= 2)
    player, spectator, admin = fragments(mine.room, viewers)
    assert links(player, board1) == (False, False) and links(spectator, board1) == (False, False)
    assert f'data-embargoed="{board1.pk}"' in player
    assert links(admin, board1)[0]

    # the other table completes board 1: the links are back
    driver(other.room, lambda rm: complete(rm) >= 1)
    player, spectator, admin = fragments(mine.room, viewers)
    assert links(player, board1)[0] and links(spectator, board1)[0]
    assert "data-embargoed" not in player
    assert client.get(reverse("hand_replay", args=[board1.pk])).status_code == 200


def test_swiss_tables_keep_their_links(club_setup, multipliers, make_user, driver):
    club, olga, mike, *_ = club_setup
    r, mine, other = setup_round(club_setup, make_user, "shengji", fmt="swiss")
    driver(mine.room, lambda rm: complete(rm) >= 1)
    board1 = Hand.objects.filter(match__room=mine.room).order_by("number").first()
    (player,) = fragments(mine.room, [mike])
    assert links(player, board1) == (True, True) and "data-embargoed" not in player
