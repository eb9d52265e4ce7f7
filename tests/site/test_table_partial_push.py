"""bytes per move: a table socket sends only the regions of its
seat's fragment that changed since what *that* socket last received
(:mod:`games.render.regions`), as stubs the page's morph keeps; the whole
fragment on the first send, when no region is unchanged, and when the page asks
(``{"full": 1}``).

Checked here: a push after a move carries stubs (the hand among them) and
the regions that changed; the page it leaves (stubs replaced by what the
socket sent before, :class:`tests.table_pages.PageCopy`) equals a full render
of that version for that seat; no push carries another seat's cards; the page
can ask for the whole table once per version.  The browser side:
tests/browser/test_browser_partial_push.py.
"""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from markupsafe import Markup

from games import services
from games.engine import get_rules
from games.live import snapshots as live
from games.live.routing import websocket_urlpatterns
from games.render import regions
from games.runtime.tasks import play_turn
from tests.conftest import make_due
from tests.table_pages import PagedCommunicator, stubs
from tests.table_pages import hand_codes

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]

APP = URLRouter(websocket_urlpatterns)
RULES = get_rules("baohuang")
REGION = re.compile(r'<[a-z][a-z0-9]* (?:[^>]*? )?id="([^"]+)"[^>]*? data-h="([0-9a-f]+)">')


def _clockless(html: str) -> str:
    """Without the render's own clock and the commit time (root attributes)."""
    return re.sub(r' data-(?:server-now|committed-at)="\d+"', "", html)


def _step(room_id):
    from games.models import Room

    room = Room.objects.get(pk=room_id)
    make_due(room)
    return play_turn(room.pk, room.version)


def _full_render(room_id, user) -> str:
    live.forget(room_id)
    snap = live.load_snapshot(room_id)
    return str(live.render_seat(snap, user, None, None))


def _own_hand(room_id, seat):
    from games.models import Room

    hand = services.current_hand(Room.objects.get(pk=room_id))
    return RULES.view(services.hand_state(hand), seat)["hand"]


async def test_pushes_after_moves_carry_only_changed_regions(bot_room, alice):
    comm = PagedCommunicator(APP, f"/ws/rooms/{bot_room.pk}/")
    comm.scope["user"] = alice
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    first = comm.raw[-1]
    assert "data-keep" not in first  # the first send is whole
    ids = [rid for rid, _h in REGION.findall(first)]
    assert {"seat-0", "seat-4", "status-line", "my-hand"} <= set(ids), ids
    await database_sync_to_async(services.set_autoplay)(bot_room.pk, alice, True)
    partial_pushes = kept_hand = 0
    for n in range(12):
        if n:
            assert await database_sync_to_async(_step)(bot_room.pk) in ("bot", "timeout")
        page = await comm.receive_from(timeout=5)
        raw = comm.raw[-1]
        kept = dict(stubs(raw))
        sent = {rid for rid, _h in REGION.findall(raw)}
        assert not set(kept) & sent
        if kept:
            partial_pushes += 1
            assert len(raw) < len(page)
            # what is kept is what the socket sent last, unchanged
            kept_hand += "my-hand" in kept
        # the page equals a full render of the same version for alice
        assert _clockless(page) == _clockless(await database_sync_to_async(_full_render)(bot_room.pk, alice))
        # only alice's own cards, in the push and on the page
        mine = await database_sync_to_async(_own_hand)(bot_room.pk, 0)
        assert hand_codes(page) == mine
        assert set(hand_codes(raw)) <= set(mine)
    assert partial_pushes >= 8 and kept_hand >= 4, (partial_pushes, kept_hand)
    await comm.disconnect()


async def test_the_page_may_ask_for_the_whole_table_once_per_version(bot_room, alice):
    comm = PagedCommunicator(APP, f"/ws/rooms/{bot_room.pk}/")
    comm.scope["user"] = alice
    assert (await comm.connect())[0]
    await comm.receive_from(timeout=5)
    await database_sync_to_async(_step)(bot_room.pk)
    await comm.receive_from(timeout=5)
    assert "data-keep" in comm.raw[-1]
    version = re.search(r'data-version="(\d+)"', comm.raw[-1]).group(1)
    await comm.send_to(text_data=json.dumps({"full": "1"}))
    await comm.receive_from(timeout=5)
    again = comm.raw[-1]
    assert "data-keep" not in again and f'data-version="{version}"' in again
    await comm.send_to(text_data=json.dumps({"full": "1"}))  # once per version
    assert await comm.receive_nothing(timeout=0.5)
    await database_sync_to_async(_step)(bot_room.pk)
    await comm.receive_from(timeout=5)
    assert "data-keep" in comm.raw[-1]  # the record was reset to the whole table
    await comm.disconnect()


def _fragment(*elements: tuple[str, str]) -> regions.TableHtml:
    collector = regions.Regions()
    html = "".join(str(collector(rid, caller=lambda body=body: Markup(body))) for rid, body in elements)
    return regions.TableHtml(f'<div id="table">{html}</div>', collector.parts)


def test_partial_sends_stubs_for_unchanged_regions_and_whole_when_none_is():
    a = '<div id="a">1</div>'
    one = _fragment(("a", a), ("b", '<p id="b">x</p>'), ("c", '<section id="c"><div>y</div></section>'))
    html, record, kept = regions.partial(one, None)
    assert kept == 0 and html == str(one) and set(record) == {"a", "b", "c"}
    two = _fragment(("a", a), ("b", '<p id="b">z</p>'), ("c", '<section id="c"><div>y</div></section>'))
    html, record2, kept = regions.partial(two, record)
    assert kept == 2
    assert f'<div id="a" data-keep="{record["a"]}"></div>' in html
    assert f'<section id="c" data-keep="{record["c"]}"></section>' in html
    assert '<p id="b" data-h="' in html and ">z</p>" in html
    three = _fragment(("a", '<div id="a">2</div>'), ("b", '<p id="b">w</p>'))  # c gone, none unchanged
    html, record3, kept = regions.partial(three, record2)
    assert kept == 0 and "data-keep" not in html and set(record3) == {"a", "b"}
    four = _fragment(("a", '<div id="a">3</div>'), ("b", '<p id="b">w</p>'))  # one of two kept
    html, _record4, kept = regions.partial(four, record3)
    assert kept == 1 and f'<p id="b" data-keep="{record3["b"]}"></p>' in html
    with pytest.raises(ValueError):
        _fragment(("a", '<div id="other">1</div>'))


def test_partial_finds_a_region_by_its_opening_tag_and_checks_it_whole():
    """The stub replaces the region itself, even when the skeleton before it
    holds the same opening tag with other content (it is found by its opening
    tag, then compared whole)."""
    collector = regions.Regions()
    element = str(collector("a", caller=lambda: Markup('<div id="a">kept</div>')))
    decoy = element.replace("kept", "other")
    fragment = regions.TableHtml(f'<div id="table">{decoy}|{element}|</div>', collector.parts)
    html, _record, kept = regions.partial(fragment, {"a": collector.parts["a"][0]})
    digest = collector.parts["a"][0]
    assert kept == 1
    assert html == f'<div id="table">{decoy}|<div id="a" data-keep="{digest}"></div>|</div>'


def test_region_hashes_are_kept_per_id_and_html_and_reset(monkeypatch):
    """A region rendered as before is looked up, not hashed again; the same
    html under another id, or other html, is hashed; the one reset empties it."""
    computed = []
    real = regions._hash_region
    monkeypatch.setattr(regions, "_hash_region", lambda rid, html: computed.append(rid) or real(rid, html))
    services.reset_caches()
    first = regions.Regions()("a", caller=lambda: Markup('<div id="a">1</div>'))
    again = regions.Regions()("a", caller=lambda: Markup('<div id="a">1</div> '))
    assert first == again and computed == ["a"]
    changed = regions.Regions()("a", caller=lambda: Markup('<div id="a">2</div>'))
    assert changed != first and computed == ["a", "a"]
    assert regions.digest('<div id="a">2</div>') in changed
    with pytest.raises(ValueError):  # a region's checks hold on a kept html too
        regions.Regions()("b", caller=lambda: Markup('<div id="a">1</div>'))
    services.reset_caches()
    regions.Regions()("a", caller=lambda: Markup('<div id="a">1</div>'))
    assert computed == ["a", "a", "b", "a"]


# ---- the 保皇 guard (B10) is not inferable from what a push keeps or sends

def _deal_swapping_the_guard(rules, swap: dict):
    """``rules.deal`` that, while ``swap["on"]``, moves ♥4* (the guard's
    mark) from seat 2 to seat 3 in exchange for a plain card of seat 3."""
    from games.engine.baohuang.order import KIND_BJ_MARKED, KIND_H4_MARKED, KIND_OF

    original = rules.deal

    def deal(match, seed):
        d = original(match, seed)
        if not swap["on"]:
            return d
        hands = [list(h) for h in d.hands]
        mark = next(c for c in hands[2] if KIND_OF[c] == KIND_H4_MARKED)
        plain = next(c for c in hands[3] if KIND_OF[c] not in (KIND_H4_MARKED, KIND_BJ_MARKED)
                     and "3" not in repr(c) and "J'" not in repr(c))
        hands[2][hands[2].index(mark)] = plain
        hands[3][hands[3].index(plain)] = mark
        return dataclasses.replace(d, hands=tuple(tuple(h) for h in hands))

    return deal


def _guard_seed() -> int:
    from games.engine.baohuang.order import KIND_BJ_MARKED, KIND_H4_MARKED, KIND_OF

    for seed in range(1, 5000):
        d = RULES.deal(RULES.new_match({"multiplier": 1}), seed)
        kinds = [[KIND_OF[c] for c in hand] for hand in d.hands]
        if KIND_BJ_MARKED in kinds[0] and KIND_H4_MARKED in kinds[2]:
            return seed
    raise AssertionError("no suitable seed")


def _normalised(message: str) -> str:
    message = re.sub(r' data-(?:server-now|committed-at|deadline)="\d+"', "", message)
    message = re.sub(r'data-(h|keep)="[0-9a-f]+"', r'data-\1=""', message)
    message = re.sub(r"/rooms/\d+/", "/rooms/<id>/", message)
    message = re.sub(r"/hands/\d+/", "/hands/<id>/", message)
    return re.sub(r'data-(room|hand)="\d+"', r'data-\1=""', message)


@pytest.mark.django_db(transaction=False)
def test_the_guards_seat_changes_no_push_of_a_seat_that_may_not_know_it(make_user, multipliers, monkeypatch):
    """Two tables, one deal except that ♥4* (the guard, 暗保) is at seat 2 on
    table A and at seat 3 on table B, the same moves (the emperor accepts, the
    guard declares secretly, the emperor leads, the others pass): every push
    to seat 1, seat 4, the emperor and a spectator (each with its own record
    of what it was sent) keeps and sends the same regions, the same bytes
    once room and hand ids, clocks and hashes are set aside, and the same
    number of bytes."""
    from games import registry
    from games.services import hands as services_hands

    rules = registry.get("baohuang").rules
    swap = {"on": False}
    monkeypatch.setattr(services_hands, "new_seed", lambda seed=_guard_seed(): seed)
    monkeypatch.setattr(rules, "deal", _deal_swapping_the_guard(rules, swap))
    users = [make_user(n) for n in ("alice", "carl", "gina", "gabe", "dora")]
    watcher = make_user("watcher")

    def table(guard_at_3: bool):
        swap["on"] = guard_at_3
        room = services.create_room(users[0], "baohuang", "同一副牌", turn_seconds=30, bot_delay_ms=800)
        for i, u in enumerate(users[1:], 1):
            services.take_seat(room, u, i)
        for u in users:
            services.set_ready(room, u, True)
        room.refresh_from_db()
        assert room.status == "playing"
        return room

    a, b = table(False), table(True)
    swap["on"] = False
    guards = []
    for room in (a, b):
        state = services.hand_state(services.current_hand(room))
        guards.append([s for s in range(5) if "4H*" in RULES.view(state, s)["hand"]])
    assert guards == [[2], [3]], guards
    observers = {"seat 1": users[1], "seat 4": users[4], "emperor": users[0], "watcher": watcher}
    control = {"seat 2": users[2]}  # the guard on table A: its pushes do differ
    sent = {(room.pk, who): None for room in (a, b) for who in {**observers, **control}}
    checked = kept_total = differ = 0
    for step in range(24):
        messages = {}
        for room in (a, b):
            live.forget(room.pk)
            snap = live.load_snapshot(room.pk)
            for who, user in {**observers, **control}.items():
                fragment = live.render_seat(snap, user, snap.version, None)
                messages[room.pk, who], sent[room.pk, who], kept = regions.partial(fragment, sent[room.pk, who])
                kept_total += kept if who in observers else 0
        differ += _normalised(messages[a.pk, "seat 2"]) != _normalised(messages[b.pk, "seat 2"])
        for who in observers:
            ma, mb = messages[a.pk, who], messages[b.pk, who]
            assert [rid for rid, _h in stubs(ma)] == [rid for rid, _h in stubs(mb)], (step, who)
            assert _normalised(ma) == _normalised(mb), (step, who)
            assert len(ma.encode()) == len(mb.encode()), (step, who)
            checked += 1
        # the same move on both tables
        for room in (a, b):
            room.refresh_from_db()
            state = services.hand_state(services.current_hand(room))
            if RULES.is_complete(state):
                break
            seat = RULES.to_act(state)
            actions = [x.to_record() for x in RULES.legal_actions(state, seat)]
            phase = RULES.phase(state)
            if phase == "crown":
                record = {"crown": "accept"}
            elif phase == "declare":
                record = {"guard": "secret"}
            else:
                record = next((r for r in actions if r.get("pass")), actions[0])
                record = {k: v for k, v in record.items() if k != "seat"}
            assert services.do_move(room, seat, record, room.version, user=users[seat], hold_hidden=False).applied
    assert checked == 24 * len(observers) and kept_total > 24 * len(observers)
    assert differ  # (the control: the guard's own seat is sent its ♥4*)
