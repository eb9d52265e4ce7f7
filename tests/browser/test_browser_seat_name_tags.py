"""A seat's name and its tags on a phone, 375 × 812 and 812 × 375 (session 24): the name is
never broken around a tag ("机器人4" stood as "机器人" and "4" on two lines
with the 庄家 tag between them at 375 px); under the context "seat tag" the
English role tags are Dealer, Partner, Attack (session 25: the dealer's
partner had been "Ally").

The strip of the others' seats keeps every seat in two lines: the number
and the name (with a human's note and 托管) on the first, the count, the
role tags and the timer's pill on the second.  The role tag stood on the
name's line, and where it had no room there (保皇's 皇帝 beside
"机器人5" in a five-seat table's 66 px seat, "Emperor" beside "Bot5")
it made a third line, the felt 18 px lower; in English "41 cards" and the
pill made one too.  On the phone the count shows its number in a small
card's outline; "41 张" / "41 cards" stays its text, for screen readers.
Names are never cut (no ellipsis) and no tag is dropped."""

from __future__ import annotations

import pytest

from .conftest import SHOTS
from .helpers import WAITING, bot_table, crowned_room, open_page, or_waiting

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 812}
LANDSCAPE = {"width": 812, "height": 375}

#: Per seat of the others: the lines its name's text stands on (the tops of
#: its characters' boxes), its name's line's box, and its role tags' middles
#: with its count's box.
SEATS = """() => [...document.querySelectorAll('.seat .seat-name')].map(box => {
  const name = box.querySelector('.name');
  if (!name) return null;
  const tops = new Set();
  const text = name.firstChild;
  for (let i = 0; text && i < text.textContent.length; i++) {
    const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1);
    const b = r.getBoundingClientRect(); if (b.width > 0) tops.add(Math.round(b.top));
  }
  const seat = box.closest('.seat');
  const n = name.getBoundingClientRect(), s = seat.getBoundingClientRect();
  const count = seat.querySelector('.seat-info .count');
  const c = count ? count.getBoundingClientRect() : null;
  const lh = parseFloat(getComputedStyle(seat).lineHeight);
  return {name: name.textContent, lines: tops.size,
          boxLines: Math.round(box.getBoundingClientRect().height / lh), nameTop: n.top, nameBottom: n.bottom,
          seatWidth: s.width, nameWidth: n.width,
          count: c && {top: c.top, bottom: c.bottom},
          parts: [...box.children].filter(e => e.getClientRects().length).map(e => [e.className, Math.round(e.getBoundingClientRect().width)]),
          tags: [...seat.querySelectorAll('.tag.role')].map(t => {
            const b = t.getBoundingClientRect();
            return {text: t.textContent, top: b.top, bottom: b.bottom, mid: (b.top + b.bottom) / 2};
          })};
}).filter(Boolean)"""


@pytest.mark.parametrize("size", [PHONE, LANDSCAPE])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_a_name_stays_whole_and_its_role_tag_goes_beside_the_count(site_server, browser, language, size):
    tag = f"{size['width']}x{size['height']}"
    with bot_table(site_server, browser, "shengji", size, prefix=f"nt{language[:2]}{size['width']}", autoplay=True,
                   bot_delay_ms=300, turn_seconds=120, language=language) as page:
        # the auction over: every seat carries its role (庄 / 庄家 / 闲)
        page.wait_for_function("() => document.querySelectorAll('.seat .tag.role').length >= 4",
                               timeout=180_000)
        seats = page.evaluate(SEATS)
        page.screenshot(path=str(SHOTS / f"seat-name-tags-{language}-{tag}.png"))
        assert len(seats) == 4 and all(s["tags"] for s in seats), seats
        if language == "en":
            assert {t["text"] for s in seats for t in s["tags"]} <= {"Dealer", "Partner", "Attack"}, seats
        for s in seats:
            assert s["lines"] == 1, s  # the name in one piece
            assert s["boxLines"] == 1, s  # the name's line: the seat's first of two
            for t in s["tags"]:
                # on the count's line, below the name's
                assert s["count"]["top"] <= t["mid"] <= s["count"]["bottom"], s
                assert t["top"] >= s["nameBottom"] - 1, s


#: Every seat of the strip (the others' seats) and the viewer's own: the
#: lines its parts stand on (their boxes grouped by vertical overlap), its
#: name whole or not (wider than its box, or cut with an ellipsis), its
#: tags shown, its timer; null until some seat of the strip shows its
#: timer (and, when a seat of the strip has a role, one such seat does).
STRIP = """() => {
  const table = document.querySelector('#table');
  if (!table) return null;
  const me = table.dataset.mySeat;
  const seats = [...document.querySelectorAll('.seats .seat')];
  const lines = seat => {
    const rs = [...seat.querySelectorAll('.seat-name > *, .seat-info > *')]
      .flatMap(e => [...e.getClientRects()]).filter(r => r.width > 0 && r.height > 0)
      .sort((a, b) => a.top - b.top);
    let n = 0, bottom = -1e9;
    for (const r of rs) { if (r.top >= bottom - 2) { n++; bottom = r.bottom; } else bottom = Math.max(bottom, r.bottom); }
    return n;
  };
  const read = seat => {
    const name = seat.querySelector('.name');
    const cs = name && getComputedStyle(name);
    const shown = e => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0;
    const timer = seat.querySelector('.seat-timer');
    return {seat: seat.dataset.seat, mine: seat.dataset.seat === me, lines: lines(seat),
            height: seat.getBoundingClientRect().height, text: seat.textContent.replace(/\\s+/g, ' ').trim(),
            name: name && name.textContent.trim(),
            nameWhole: !!name && name.scrollWidth <= name.clientWidth + 1
                       && !(cs.textOverflow === 'ellipsis' && cs.overflowX === 'hidden'),
            roles: [...seat.querySelectorAll('.tag.role')].map(t => [t.textContent.trim(), shown(t)]),
            autoplay: [...seat.querySelectorAll('.seat-name .tag')].filter(t => !t.classList.contains('bot') && !t.classList.contains('level'))
                        .map(t => [t.textContent.trim(), shown(t)]),
            count: (seat.querySelector('.count') || {}).textContent || null,
            timer: !!timer && shown(timer),
            overflow: seat.scrollWidth > seat.clientWidth + 1};
  };
  const all = seats.map(read);
  const strip = all.filter(s => !s.mine);
  if (!strip.some(s => s.timer)) return null;
  if (strip.some(s => s.roles.length) && !strip.some(s => s.roles.length && s.timer)) return null;
  return all;
}"""

#: A game's role tags, in the languages read.
ROLES = {"baohuang": {"zh-hans": {"皇帝", "保皇"}, "en": {"Emperor", "Guard"}},
         "shengji": {"zh-hans": {"庄", "庄家", "闲"}, "en": {"Dealer", "Partner", "Attack"}}}
AUTOPLAY = {"zh-hans": "托管", "en": "Auto-play"}


def _room(site_server, browser, game: str) -> dict:
    """A room of ``game``, one human on 托管 and bots, playing; in 保皇 one
    whose emperor is a bot, a seat of the viewer's strip (the deal's: a
    new room while the human holds the crown or the deal is voided, at most
    five, :func:`crowned_room`)."""
    kw = dict(bot_delay_ms=900, turn_seconds=60, prefix="strip")
    if game == "baohuang":
        return crowned_room(site_server, browser, 1, PHONE, accept=lambda seat: seat != 0, **kw)[0]
    return site_server.ops("bot_room", game=game, humans=1, autoplay=True, ready=True, timeout=240, **kw)


@pytest.mark.parametrize("game", ["baohuang", "shengji"])
def test_every_seat_of_the_strip_keeps_two_lines(site_server, browser, game):
    """At 375 × 812 and 812 × 375, in 中文 and English, during play: each
    seat of the strip stands in at most two lines (its timer's too, on the
    seat whose turn it is; 保皇 once the emperor is known, his seat's when
    it is in the strip), its name whole, its role tag shown; the viewer's
    seat shows 托管; the count's words stay its text."""
    base = site_server.web_url
    room = _room(site_server, browser, game)
    for size in (PHONE, LANDSCAPE):
        for language in ("zh-hans", "en"):
            tag = f"{game}-{size['width']}x{size['height']}-{language}"
            for _ in range(3):
                ctx, page = open_page(browser, base, room["users"][0]["cookie"], size, language=language)
                page.goto(f"{base}/rooms/{room['room_id']}/")
                page.wait_for_function(
                    "() => document.querySelector('.seat .tag.role.emperor, .seat .tag.role.dealer')", timeout=180_000)
                seats = page.wait_for_function(or_waiting(STRIP), timeout=120_000).json_value()
                if seats != WAITING:
                    break
                # The hand ended while its only human was on 托管: the room
                # went back to waiting (services.hands.next_hand; on a loaded
                # machine a hand ends within the test's eight page loads).  A
                # new room (in 保皇 its emperor again a seat of the strip).
                ctx.close()
                site_server.ops("close", room_id=room["room_id"])
                room = _room(site_server, browser, game)
            else:
                pytest.fail(f"{tag}: the room went back to waiting three times")
            try:
                page.screenshot(path=str(SHOTS / f"seat-strip-{tag}.png"))
                strip = [s for s in seats if not s["mine"]]
                mine = next(s for s in seats if s["mine"])
                assert len(strip) == (4 if game == "baohuang" else 3), seats
                roles = [r for s in seats for r in s["roles"]]
                assert roles and all(shown for _, shown in roles), (tag, seats)
                assert {text for text, _ in roles} <= ROLES[game][language], (tag, seats)
                if game == "shengji":
                    assert all(s["roles"] for s in seats), (tag, seats)
                else:  # the emperor's seat in the strip, its timer shown (STRIP)
                    assert any(s["roles"] and s["roles"][0][0] in ("皇帝", "Emperor") for s in strip), (tag, strip)
                    assert any(s["timer"] and s["roles"] for s in strip), (tag, strip)
                # the viewer is on 托管: its tag shown on its seat
                assert [AUTOPLAY[language], True] in mine["autoplay"], (tag, mine)
                words = "张" if language == "zh-hans" else "card"
                for s in strip:
                    assert s["lines"] <= 2, (tag, s)
                    assert s["nameWhole"] and not s["overflow"], (tag, s)
                    assert s["count"] is None or words in s["count"], (tag, s)
                # the count's words in the accessibility tree (what a screen reader
                # reads), though the phone shows its number only
                seat = next(s["seat"] for s in strip if s["count"])
                read = page.locator(f'.seats .seat[data-seat="{seat}"] .seat-info').aria_snapshot()
                assert words in read and "/" not in read, (tag, read)
                # the strip's seats one height: none a line taller than the others
                assert max(s["height"] for s in strip) - min(s["height"] for s in strip) < 3, (tag, strip)
            finally:
                ctx.close()


#: The longest turn the room form allows (games.pages.forms.CreateRoomForm's
#: turn_seconds): a human's pill counts it down from three digits.
LONGEST_TURN = 600

#: The seat ``seat`` once its pill reads three digits: its pill's, count's,
#: seat-info's and seat's boxes, the boxes of its other parts, its line
#: height, its role tags; null before.
LONG_PILL = """(seat) => {
  const el = document.querySelector(`.seats .seat[data-seat="${seat}"]`);
  const pill = el && el.querySelector('.seat-timer');
  if (!pill || !/^\\d{3}/.test(pill.textContent.trim())) return null;
  const R = e => { const b = e.getBoundingClientRect(); return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; };
  return {pill: R(pill), pillText: pill.textContent.trim(), count: R(el.querySelector('.count')),
          info: R(el.querySelector('.seat-info')), box: R(el), lh: parseFloat(getComputedStyle(el).lineHeight),
          others: [...el.querySelectorAll('.seat-name > *, .seat-info > :not(.seat-timer)')]
            .filter(e => e.getClientRects().length).map(e => [e.textContent.trim(), R(e)]),
          roles: [...el.querySelectorAll('.tag.role')].filter(t => t.getClientRects().length).map(t => t.textContent.trim()),
          overflow: el.scrollWidth > el.clientWidth + 1, text: el.textContent.replace(/\\s+/g, ' ').trim()};
}"""


def _long_turn_room(site_server, browser, game: str) -> tuple[dict, int, int]:
    """``(room, seat, viewer)``: a room of ``game`` with turns of
    :data:`LONGEST_TURN`, humans (short names, as wide as "机器人3") on
    托管 and bots, playing, the human at ``seat`` taken off 托管, so that
    his turn counts the room's turn (a bot's or a 托管 seat's pill counts
    the bot delay, a second); in 保皇 ``seat`` holds the crown (a new room
    while a bot does, at most five), in 升級 it is seat 2 (index 1).
    ``viewer`` is another human's index, on 托管, ``seat`` in his strip."""
    import secrets

    humans = 4 if game == "baohuang" else 2
    kw = dict(bot_delay_ms=900, turn_seconds=LONGEST_TURN)
    names = lambda: [f"p{secrets.token_hex(2)}" for _ in range(humans)]  # noqa: E731
    if game == "baohuang":  # the crown a human's (a bot's: another room)
        room, seat = crowned_room(site_server, browser, humans, PHONE, accept=lambda s: s < humans, names=names, **kw)
    else:
        room, seat = site_server.ops("bot_room", game=game, humans=humans, autoplay=True, ready=True,
                                     names=names(), timeout=240, **kw), 1
    site_server.ops("autoplay", room_id=room["room_id"], username=room["users"][seat]["username"], on=False)
    return room, seat, (seat + 1) % humans


@pytest.mark.parametrize("game", ["baohuang", "shengji"])
def test_a_three_digit_pill_stays_on_the_count_line(site_server, browser, game):
    """A human's turn in a room of the longest turns (600 s), his seat in
    the strip (保皇: the emperor's, "[41] 皇帝" and the pill on one line of
    a 73 px seat at 812 × 375), at 375 × 812 and 812 × 375, in 中文 and
    English: the pill reads three digits and takes no line of its own (the
    count's line stays one line; in English on a five-seat table the pill
    stands on the name's line, in its room), over no other part of the
    seat, inside the seat, nothing cut; 保皇's role tag shown.  (A "578s" pill
    went onto a line of its own below "[41] 皇帝" at both sizes; 升級's
    wider seats held it: the case there guards them.)"""
    base = site_server.web_url
    room, seat, viewer = _long_turn_room(site_server, browser, game)
    for size in (PHONE, LANDSCAPE):
        for language in ("zh-hans", "en"):
            tag = f"{game}-{LONGEST_TURN}s-{size['width']}x{size['height']}-{language}"
            ctx, page = open_page(browser, base, room["users"][viewer]["cookie"], size, language=language)
            try:
                page.goto(f"{base}/rooms/{room['room_id']}/")
                s = page.wait_for_function(LONG_PILL, arg=seat, timeout=300_000).json_value()
                page.screenshot(path=str(SHOTS / f"seat-long-pill-{tag}.png"))
                # 保皇's emperor wears his tag (升級's roles come after the auction,
                # where the human may be waited for)
                assert (s["roles"] or game == "shengji") and set(s["roles"]) <= ROLES[game][language], (tag, s)
                assert s["info"]["bottom"] - s["info"]["top"] < 1.5 * s["lh"] + 2, (tag, s)  # one line
                p = s["pill"]
                for text, r in s["others"]:  # over nothing
                    assert p["right"] <= r["left"] + .5 or p["left"] >= r["right"] - .5 \
                        or p["bottom"] <= r["top"] + .5 or p["top"] >= r["bottom"] - .5, (tag, text, s)
                assert s["box"]["left"] <= p["left"] and p["right"] <= s["box"]["right"], (tag, s)
                assert not s["overflow"], (tag, s)
            finally:
                ctx.close()
