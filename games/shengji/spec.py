"""The :class:`~games.registry.GameSpec` of 四副牌升級 with 比牌 bidding (four
seats in two teams)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _, pgettext_lazy

from typing import Mapping

from games.engine.shengji import RULES
from games.engine.shengji import tournament as tournament_hooks
from games.engine.shengji.match import team_of
from games.registry import GameSpec, Tag

from .table import BOARD_READS, shengji_board_shared, shengji_regions


#: A seat's role tags, under the context "seat tag": English words short
#: enough to stand beside a name on a phone's seat.
DEALER = Tag("role dealer", pgettext_lazy("seat tag", "庄"))
DEFENDER = Tag("role defender", pgettext_lazy("seat tag", "庄家"))
ATTACKER = Tag("role attacker", pgettext_lazy("seat tag", "闲"))


def seat_tags(data: Mapping | None, seat: int) -> list[Tag]:
    """庄 for the dealer, 庄家 for the partner, 闲 for the attackers (S15,
    S16), once the dealer is known."""
    dealer = (data or {}).get("dealer")
    if dealer is None:
        return []
    if seat == dealer:
        return [DEALER]
    return [DEFENDER] if team_of(seat) == team_of(dealer) else [ATTACKER]


def seat_plays(view: Mapping | None) -> dict:
    """The cards each seat played in the trick on the table, the play
    winning it so far marked ``winning`` (the engine's S10 comparison, the
    view's ``trick.winning``: public cards only).

    Between a completed trick and the next lead the completed trick stays
    on the table for that one state, each play with ``won_by``: the winner's
    seat (the view's ``last_trick``), so that the page slides it to the
    winner; ``won_by`` is None on the plays of a trick in progress."""
    view = view or {}
    trick = view.get("trick") or {}
    plays = trick.get("plays") or []
    if plays:
        winning = trick.get("winning")
        return {p["seat"]: {"cards": list(p["cards"]), "verb": None, "winning": p["seat"] == winning,
                            "won_by": None} for p in plays}
    last = view.get("last_trick")
    if not trick or not last:
        return {}
    winner = last["winner"]
    return {p["seat"]: {"cards": list(p["cards"]), "verb": None, "winning": p["seat"] == winner,
                        "won_by": winner} for p in last["plays"]}


#: The view's keys :func:`seat_tags` and :func:`seat_plays` read
#: (``GameSpec.seat_reads``; no ``seat_place``): all public (S15, S10).
SEAT_READS = ("dealer", "trick", "last_trick")


def parse_give(verb: str, post) -> dict | None:
    """``give`` (还牌, S14) reads the fields ``give_<seat>`` of ``post``
    (space-separated codes per loser seat): ``{"give": {"1": ["4C"], …}}``;
    None for any other verb.  Raises ``ValueError`` for a malformed give."""
    if verb != "give":
        return None
    give = {}
    for key in post or {}:
        seat = key[5:] if key.startswith("give_") else None
        if seat is None:
            continue
        if not seat.isdigit() or len(give) >= 8:
            raise ValueError(_("未知的动作"))
        codes = (post.get(key) or "").split()
        if len(codes) > 64:
            raise ValueError(_("未知的动作"))
        give[seat] = codes
    if not give:
        raise ValueError(_("请先选择要还的牌"))
    return {"give": give}


SPEC = GameSpec(
    tournament=tournament_hooks,
    blurb=_("四人两队，四副牌，比牌争叫主，从 2 打过 K。"),
    code="shengji",
    label=_("升级"),
    full_label=_("升级（四副牌）"),
    rules=RULES,
    board_template="games/shengji/_board.html",
    replay_template="games/shengji/_replay_public.html",
    css=("games/shengji.css",),
    js=("games/shengji.js",),
    table_regions=shengji_regions,
    seat_tags=seat_tags,
    seat_plays=seat_plays,
    seat_reads=SEAT_READS,
    board_shared=shengji_board_shared,
    board_reads=BOARD_READS,
    action_labels={
        "bid": _("亮牌"),
        "trump-S": _("♠ 黑桃"),
        "trump-H": _("♥ 红桃"),
        "trump-D": _("♦ 方块"),
        "trump-C": _("♣ 梅花"),
        "give": _("还牌"),
        "bury": _("埋底"),
    },
    choices={"trump": ("S", "H", "D", "C")},
    # S9: following asks for the led shape by default; the room may ask only for the suit
    option_words={"follow": {"label": _("跟牌规则"), "choices": {
        "format": _("须尽量跟出同样的牌型"), "suit": _("只须跟花色")}}},
    verb_order=("trump", "give", "bury", "bid", "play", "pass"),
    phase_names={
        "auction": _("比牌"),
        "trump": _("叫主"),
        "give": _("还牌"),
        "bury": _("埋底"),
        "play": _("出牌"),
        "done": _("本局结束"),
    },
    rule_messages={  # one sentence per ruling, no ruling id
        "S8": _("这样不能领出：领出须是单张、对子、三张、炸弹、拖拉机、摔牌或甩牌。"),
        "S9": _("跟牌不对：有领出这一门的牌就必须跟这一门，并尽量跟出同样的牌型（对子跟对子，拖拉机跟拖拉机）。"),
        "S13": _("亮牌后你的比牌总分必须超过目前的最高分。"),
        "S14": _("这样还牌不行：张数要和拿走的一样，不能还分牌（5、10、K），每门至少留一张。"),
        "S15": _("埋底必须是你手里的正好 8 张牌。"),
    },
    parse_extra=parse_give,
    ledger_reasons={"spade_ace": _("黑桃A被抓")},
)
