"""What the 升级 (shengji) table template needs beyond the generic table.

:func:`shengji_regions` is the game's ``table_regions`` hook
(:class:`~games.registry.GameSpec`), called by
:func:`games.render.tables.table_render` for every viewer.  It reads only the
viewer's seat view (``table.view``, the engine's ``view(state, seat)``) and
the engine's seat aids for that seat (``table.aids``,
``RULES.seat_aids(state, seat)``: suit of play of the viewer's own cards, the
lead's suit, the trump order, the cheapest bid, the 还牌 limits), so nothing
here can show a card another seat holds (hidden information, S13–S15).

The result is one :class:`ShengjiRegions` (frozen), read by the template
``games/shengji/jinja2/games/shengji/_board.html`` as ``game``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext, pgettext

from games.engine.cards import SUIT_SYMBOLS, Card
from games.engine.shengji.match import team_of
from games.engine.shengji.scoring import result_row
from games.engine.shengji.trumps import bid_points, card_points
from games.templatetags.cards import card_class as card_css
from games.templatetags.cards import face, short

if TYPE_CHECKING:
    from games.render.view import TableView

SUIT_NAMES = {"S": gettext_noop("黑桃"), "H": gettext_noop("红桃"), "D": gettext_noop("方块"),
              "C": gettext_noop("梅花")}


def level_label(level: str | None) -> str:
    """``"T"`` -> ``"10"`` (C1 codes to what players say).

    >>> level_label("T"), level_label("2"), level_label(None)
    ('10', '2', '')
    """
    if level is None:
        return ""
    return "10" if level == "T" else level


def suit_name(suit: str | None) -> str:
    """The trump suit as players say it (``♥ 红桃``); empty before trumps."""
    if not suit:
        return ""
    return f"{SUIT_SYMBOLS[suit]} {_(SUIT_NAMES[suit])}"


def hand_html(cards: list[dict], stack: bool = True) -> str:
    """The buttons of the viewer's hand (built here, not in the template: a
    hand of 52-60 cards is re-rendered for every seat on every change).

    Each is ``<button class="card …" data-card="CODE" [data-count="N"] [data-bid]
    [data-kitty] [data-suit-of] [data-block]>`` with the rank over the suit
    inside (and a 比牌's points with their unit, ``<span class="bid">``).
    With ``stack`` identical cards (same code, same marks: a kitty
    card stays apart from a copy held before, S15) are one button with
    ``data-count`` and a ``×N`` badge, placed where the first copy stands:
    a target a finger can hit on a phone (each tap takes one more copy,
    static/games/table.js); 还牌 (S14) keeps one button per card.
    """
    groups: dict = {}  # key -> [first card, copies], in the order first seen
    for i, c in enumerate(cards):
        key = (c["code"], c["kitty"], c["block"]) if stack else i
        groups.setdefault(key, [c, 0])[1] += 1
    out = []
    # a 比牌's points (S13) as its badge says them: "6分", "6 pt", the unit
    # the piles' "6 分" and "最高 6 分" use (a bare number was not understood)
    bid_label = pgettext("bid badge", "%(n)s分")
    for c, n in groups.values():
        css = "card"
        if c["css"]:
            css += " " + c["css"]
        attrs = [f'data-card="{c["code"]}"']
        if n > 1:
            attrs.append(f'data-count="{n}"')
        if c["bid"]:
            css += " bipai"
            attrs.append(f'data-bid="{c["bid"]}"')
        if c["kitty"]:
            css += " kitty"
            attrs.append('data-kitty="1"')
        if c["suit_of"]:
            attrs.append(f'data-suit-of="{c["suit_of"]}"')
        if c["block"]:
            css += " blocked"
            attrs.append(f'data-block="{escape(c["block"])}"')
        badge = f'<span class="n">×{n}</span>' if n > 1 else ""
        if c["bid"]:
            badge += f'<span class="bid">{escape(bid_label % {"n": c["bid"]})}</span>'
        out.append(
            f'<button type="button" class="{css}" {" ".join(attrs)}>'
            f'<span class="r">{escape(c["rank"])}</span><span class="s">{escape(c["suit"])}</span>{badge}</button>'
        )
    return mark_safe("".join(out))


def level_reason(attackers_points: int, teams: list[dict]) -> list[str]:
    """Why the levels moved as they did, in the reader's language, citing
    the rulings: the band of the attackers' points (S17, as the engine's
    ``result_row`` scores it: 0 → defenders +4; under 160 → defenders +1;
    160-235 → roles swap, no level; 240-315 → swap, +1; 320-395 → +2; 400 and
    more → +3) and, when a team's level passed 3, 5 or A, that these are never
    levels (S2: ``2 4 6 7 8 9 10 J Q K``): "2 → 4" is one level, "2 → 8" four,
    said with the team's own levels.  ``teams``
    as in the result (``before``, ``after`` labels, ``gained``).  Plain text;
    the template links the ids."""
    x = attackers_points
    side, gained, _points = result_row(x)
    if side == "defenders":
        band = (_("闲家 0 分：庄家升 4 级（S17）") if gained == 4
                else _("闲家 %(x)s 分，不到 160 分：庄家守住，升 1 级（S17）") % {"x": x})
    else:
        band = (_("闲家 %(x)s 分，在 160 到 235 分之间：闲家上台，不升级（S17）"),
                _("闲家 %(x)s 分，在 240 到 315 分之间：闲家上台，升 1 级（S17）"),
                _("闲家 %(x)s 分，在 320 到 395 分之间：闲家上台，升 2 级（S17）"),
                _("闲家 %(x)s 分，400 分以上：闲家上台，升 3 级（S17）"))[gained] % {"x": x}
    out = [band]
    for t in teams:  # a move across 3 or 5 (never levels): say this team's own
        if t["gained"] and t["before"] in ("2", "4"):
            out.append(ngettext(
                "级序是 2 4 6 7 8 9 10 J Q K（3、5 和 A 不打）：%(before)s → %(after)s 是升 %(n)s 级（S2）",
                "级序是 2 4 6 7 8 9 10 J Q K（3、5 和 A 不打）：%(before)s → %(after)s 是升 %(n)s 级（S2）",
                t["gained"]) % {"before": t["before"], "after": t["after"], "n": t["gained"]})
            break
    return out


def follow_sentence(trick: dict | None) -> str:
    """What S9 asks of a follower, in the reader's language (the engine's
    own hint line mixes languages): the count and suit led."""
    if not trick or not trick.get("led_count"):
        return ""
    led = trick["led_suit"]
    suit = _("主牌") if led == "T" else suit_name(led)
    return _("跟 %(n)s 张：有%(suit)s就必须出%(suit)s，并尽量跟出同样的牌型。") % {"n": trick["led_count"], "suit": suit}


def _team_label(team: int, names: list[str]) -> str:
    seats = [s for s in range(4) if team_of(s) == team]
    return _("、").join(names[s] for s in seats)


@dataclass(frozen=True, slots=True)
class ShengjiRegions:
    """The 升级 board for one viewer (``game`` in its template).

    ``phase`` the engine's phase code; ``cards`` the viewer's hand as dicts
    (``code``, ``rank``, ``suit``, ``css``, ``bid`` 比牌 points or 0,
    ``kitty`` marked as a kitty card while burying, ``suit_of`` suit of play,
    ``points``, ``block`` why it may not be given back) and ``hand_html``
    their buttons, ``count`` how many; ``piles`` (every seat's shown 比牌
    with points, passed, highest), ``highest``, ``shown_card``, ``opener``,
    ``auction_winner`` (S13); ``trump``/``trump_name``/``trump_order``,
    ``suit_counts`` (the trump call's buttons), ``level``, ``dealer`` (seat or
    None)/``dealer_name``, ``levels`` (per team), ``attackers_points``;
    ``trick`` and ``last_trick`` (plays by seat with names, or None),
    ``tricks_played``, ``failed`` (a failed throw, never who stopped it,
    S11/S12), ``follow_hint`` (S9), ``give`` (owed per loser, caps, hint,
    S14, or None), ``result`` (S16–S18 figures, or None), ``kitty_count``,
    ``match_number``/``hand_number``; ``hint`` the 提示 button's cards: the
    cheapest bid that exceeds in the auction, else the table's hint."""

    phase: str
    cards: list
    hand_html: str
    count: int
    piles: list
    highest: int
    shown_card: str
    opener: str
    auction_winner: str
    trump: str | None
    trump_name: str
    trump_order: list
    suit_counts: dict
    level: str
    dealer: int | None
    dealer_name: str
    levels: list
    attackers_points: Any
    trick: dict | None
    last_trick: dict | None
    tricks_played: int
    failed: dict | None
    follow_hint: str
    give: dict | None
    result: dict | None
    kitty_count: int
    match_number: int | None
    hand_number: int | None
    hint: str


#: The keys of the engine's view :func:`_public_board` reads
#: (``GameSpec.board_reads``): all public (S13 the piles, S9–S12 the tricks
#: and a failed throw, S2/S17 the levels and the dealer).
BOARD_READS = ("piles", "pile_points", "passed", "highest", "trick", "last_trick",
               "failed_throw", "levels", "dealer", "shown_card", "opener", "auction_winner")


def _public_board(names: list, view) -> dict:
    """The parts of the 升级 board built from the public keys of ``view``
    (:data:`BOARD_READS`) and the seats' names alone: the auction piles
    (S13), the plays of the trick and of the last trick, a failed throw
    (never who stopped it, S11/S12), the teams' levels, the shown card, the
    opener and the auction's winner.  Never the viewer's hand nor its aids."""
    piles = []
    for s in range(4):
        pile = view["piles"].get(str(s)) or []
        piles.append(
            {
                "seat": s,
                "name": names[s],
                "cards": [{"code": c, "label": short(c), "css": card_css(c)} for c in pile],
                "points": view["pile_points"].get(str(s), 0),
                "passed": s in view["passed"],
                "highest": bool(pile) and view["pile_points"].get(str(s), 0) == view["highest"],
            }
        )

    def plays_of(plays, leader=None):
        return [
            {
                "seat": p["seat"],
                "name": names[p["seat"]],
                "cards": [{"code": c, "label": short(c), "css": card_css(c)} for c in p["cards"]],
                "lead": p["seat"] == leader,
            }
            for p in plays
        ]

    trick_plays = None
    if view["trick"] is not None:
        trick_plays = plays_of(view["trick"]["plays"], view["trick"]["leader"])
    last = None
    if view["last_trick"] is not None:
        lt = view["last_trick"]
        last = {
            "winner": lt["winner"],
            "winner_name": names[lt["winner"]],
            "points": lt["points"],
            "failed_throw": lt["failed_throw"],
            "plays": plays_of(lt["plays"], lt["leader"]),
        }
    failed = None
    if view["failed_throw"]:
        f = view["failed_throw"]
        failed = {
            "seat": f["seat"],
            "name": names[f["seat"]],
            "attempted": [short(c) for c in f["attempted"]],
            "played": [short(c) for c in f["played"]],
        }

    dealer = view["dealer"]
    attackers = 1 - team_of(dealer) if dealer is not None else None
    levels = [
        {
            "team": t,
            "level": level_label(view["levels"][str(t)]),
            "players": _team_label(t, names),
            "attacking": attackers == t,
        }
        for t in (0, 1)
    ]
    return {
        "piles": piles,
        "trick_plays": trick_plays,
        "last_trick": last,
        "failed": failed,
        "levels": levels,
        "shown_card": short(view["shown_card"]) if view["shown_card"] else "",
        "opener": names[view["opener"]] if view["opener"] is not None else "",
        "auction_winner": names[view["auction_winner"]] if view["auction_winner"] is not None else "",
    }


def shengji_board_shared(public) -> dict:
    """The game's ``board_shared`` hook: :func:`_public_board` from the view
    for no seat (a :class:`~games.render.view.PublicTable`), built once per
    version and language for every viewer whose view equals it there."""
    return _public_board(list(public.names), public.view)


def shengji_regions(table: TableView) -> ShengjiRegions | None:
    """The 升级 board of ``table`` (None before the first deal): built from
    the viewer's own view and aids only (hidden information, S13–S15)."""
    view = table.view
    aids = table.aids
    if view is None or aids is None:
        return None
    names = list(table.names)
    hand = table.hand
    me = table.me
    phase = view["phase"]
    level = view["level"]
    trump = view["trump"]
    dealer = view["dealer"]
    hint = table.hint

    # --- the viewer's hand, with per-card hooks
    kitty_left = Counter(view["kitty"] or []) if phase == "bury" and me == dealer else Counter()
    give = aids["give"] if phase == "give" and table.my_turn else None
    cards = []
    blocked = (give or {}).get("blocked", {})
    parse = {code: Card.parse(code) for code in set(view["hand"])}
    for code in view["hand"]:
        rank, suit = face(code)
        is_kitty = kitty_left[code] > 0
        if is_kitty:
            kitty_left[code] -= 1
        card = parse[code]
        cards.append(
            {
                "code": code,
                "rank": rank,
                "suit": suit,
                "css": card_css(code),
                "bid": bid_points(card, level) if phase == "auction" else 0,
                "kitty": is_kitty,
                "suit_of": aids["suit_of"].get(code, ""),
                "points": card_points(card),
                "block": blocked.get(code, ""),
            }
        )

    # --- what every viewer sees alike: built once per version and language
    # (``table.shared_board``) when this viewer's view equals the view for no
    # seat where it reads, else here
    shared = table.shared_board
    if shared is None:
        shared = _public_board(names, view)
    piles = shared["piles"]
    if phase == "auction" and table.my_turn and "bid" in view["legal"]:
        hint = " ".join(aids["bid"] or [])

    trick = None
    if view["trick"] is not None:
        plays = view["trick"]["plays"]
        trick = {
            "leader": view["trick"]["leader"],
            "plays": shared["trick_plays"],
            # the seat winning so far (the engine's S10 comparison; public plays only)
            "winning": view["trick"].get("winning"),
            # the suit of play led (T for trumps): public once the lead is on the table
            # (the viewer's aids: never shared)
            "led_suit": aids["led_suit"] if plays else "",
            "led_count": len(plays[0]["cards"]) if plays else 0,
        }
    last = shared["last_trick"]
    failed = shared["failed"]
    levels = shared["levels"]

    give_ctx = None
    if phase == "give":
        owed = [
            {"seat": int(s), "name": names[int(s)], "n": n,
             "given": [short(c) for c in view["given"].get(s, [])]}
            for s, n in view["owed"].items()
        ]
        give_ctx = {"owed": owed, "mine": give is not None}
        if give:
            give_ctx.update(
                caps=give["caps"],
                caps_json=json.dumps(give["caps"]),
                hint=give["hint"],
                hint_json=json.dumps(give["hint"]),
            )

    order_labels = []
    if aids["trump_order"]:
        seen = set()
        for code, off_suit_level in aids["trump_order"]:
            if off_suit_level:
                label = _("%(level)s（副）") % {"level": level_label(level)}
            else:
                label = short(code)
            if label not in seen:
                seen.add(label)
                order_labels.append(label)

    result = None
    r = view["result"]
    if r is not None:
        kitty = view["kitty"] or []
        result = {
            "attackers_points": r["attackers_points"],
            "kitty_points": r["kitty_points"],
            "kitty_multiplier": r["kitty_multiplier"],
            "kitty": [{"code": c, "label": short(c), "css": card_css(c)} for c in kitty],
            "winners": r["winners"],
            "winners_label": _("闲家上台") if r["winners"] == "attackers" else _("庄家守住"),
            "teams": [
                {
                    "team": t,
                    "players": _team_label(t, names),
                    "before": level_label(r["levels_before"][str(t)]),
                    "after": level_label(r["levels_after"][str(t)]),
                    "gained": r["levels_gained"][str(t)],
                }
                for t in (0, 1)
            ],
            "rows": [
                {
                    "seat": s,
                    "name": names[s],
                    "points": r["game_points"][str(s)],
                    "penalty": r["penalties"][str(s)],
                }
                for s in range(4)
            ],
            "next_dealer": names[r["next_dealer"]],
            "reasons": [],
            "match_winner": r["match_winner"],
            "match_winner_players": _team_label(r["match_winner"], names)
            if r["match_winner"] is not None
            else "",
        }

    if result is not None:
        result["reasons"] = level_reason(result["attackers_points"], result["teams"])

    # trump phase: how many cards of each suit the viewer holds (jokers and
    # level cards aside), shown on the four suit buttons
    suit_counts = {}
    if phase == "trump":
        suit_counts = {f"trump-{x}": sum(1 for c in view["hand"] if c not in ("BJ", "SJ")
                                          and c[-1] == x and c[:-1] != level) for x in "SHDC"}

    points_sofar = view["attackers_points"]
    return ShengjiRegions(**{
        "phase": phase,
        "cards": cards,
        "hand_html": hand_html(cards, stack=not (give_ctx and give_ctx["mine"])),
        "count": len(cards),
        "piles": piles,
        "highest": view["highest"],
        "shown_card": shared["shown_card"],
        "opener": shared["opener"],
        "auction_winner": shared["auction_winner"],
        "trump": trump,
        "trump_name": suit_name(trump),
        "trump_order": order_labels,
        "suit_counts": suit_counts,
        "level": level_label(level),
        "dealer": dealer,
        "dealer_name": names[dealer] if dealer is not None else "",
        "levels": levels,
        "attackers_points": points_sofar,
        "trick": trick,
        "last_trick": last,
        "tricks_played": view["tricks_played"],
        "failed": failed,
        "follow_hint": follow_sentence(trick) if view["hint"] else "",
        "give": give_ctx,
        "result": result,
        "kitty_count": sum(1 for c in cards if c["kitty"]),
        "match_number": hand.match.number if hand is not None else None,
        "hand_number": hand.number if hand is not None else None,
        "hint": hint,
    })
