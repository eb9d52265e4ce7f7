"""Personal score cards linked from the standings, and the printable
table slips and final standings: a card's rows add up to the entrant's score
in the standings, with the table, opponents and running total."""

from __future__ import annotations

import re

import pytest

from clubs.results.scorecards import card, card_text
from clubs.results.standings import standings
from clubs.running import events

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(club_setup, multipliers, finish):
    """A 2-round 升级 Swiss of 4 bot pairs, both rounds played."""
    club, olga, *_ = club_setup
    event = events.create_event(olga, club, name="升级双轮", game="shengji", rounds=2, hands_per_round=1,
                                bot_delay_ms=0)
    events.add_bot_entries(olga, event, 4)
    for _ in range(2):
        r = events.pair_round(olga, event)
        events.start_round(olga, r)
        finish(r, 1)
    return event


def test_cards_add_up_to_the_standings(played):
    for s in standings(played):
        entry = played.entries.get(pk=s.entry)
        c = card(entry)
        assert [r["round"] for r in c["rows"]] == [1, 2]
        assert c["rows"][-1]["total"] == pytest.approx(s.score) == pytest.approx(sum(r["score"] for r in c["rows"]))
        for r in c["rows"]:
            assert r["table"] in (1, 2) and len(r["opponents"]) == 1 and r["opponents"][0] != c["name"]
        assert c["name"] in card_text(entry)


def test_standings_link_to_the_card_page(client, played):
    html = client.get(f"/clubs/events/{played.pk}/").content.decode()
    links = re.findall(r'href="(/clubs/entries/(\d+)/card)"', html)
    assert len(links) == 4
    page = client.get(links[0][0]).content.decode()
    assert page.count("<tr><td>") == 2 and 'id="card-total"' in page


def test_table_slips_and_printed_standings(client, played):
    r1 = played.round_set.get(number=1)
    html = client.get(f"/clubs/events/{played.pk}/rounds/1/slips").content.decode()
    assert html.count('class="slip"') == r1.tables.count() == 2
    for t in r1.tables.all():
        slip = html.split(f'data-table="{t.number}"', 1)[1].split("</div>", 1)[0]
        names = [played.entries.get(pk=i).display_name() for i in t.entries]
        assert all(n in slip for n in names) and slip.count("<tr><td>") == 4  # 升级: four seats
    html = client.get(f"/clubs/events/{played.pk}/standings/print").content.decode()
    assert html.count("<tr><td>") == 4
