"""The :class:`~games.registry.GameSpec` of 保皇 (five seats: the emperor and
his guard against three rebels).  Roles and places come from the viewer's own
view (the guard only once revealed, B10) or from a completed hand's summary."""

from __future__ import annotations

from typing import Mapping

from django.utils.translation import gettext_lazy as _, pgettext_lazy

from games.engine.baohuang import RULES
from games.engine.baohuang import tournament as tournament_hooks
from games.registry import GameSpec, Tag

from .table import SHARED_REGIONS

#: Finishing places (B11), in order.
PLACE_NAMES = [_("头科"), _("二科"), _("三科"), _("二落"), _("大落")]
WINNER_NAMES = {"emperor": _("皇帝方胜"), "rebels": _("反贼方胜"), "draw": _("平局")}
#: A seat's role tags, under the context "seat tag" (short English words;
#: 保皇 alone is also the game's name).
EMPEROR = Tag("role emperor", pgettext_lazy("seat tag", "皇帝"))
GUARD = Tag("role guard", pgettext_lazy("seat tag", "保皇"))


def seat_tags(data: Mapping | None, seat: int) -> list[Tag]:
    """The emperor's and the guard's tags, from a view (the guard appears
    there only once revealed, B10) or a summary."""
    if not data:
        return []
    tags = []
    if data.get("emperor") == seat:
        tags.append(EMPEROR)
    if data.get("guard") is not None and data.get("guard") == seat:
        tags.append(GUARD)
    return tags


def seat_place(data: Mapping | None, seat: int):
    """头科 … 大落 for a seat that has gone out (B11), from the view's
    ``finished`` order."""
    finished = list((data or {}).get("finished") or [])
    if seat not in finished:
        return None
    place = finished.index(seat)
    return PLACE_NAMES[place] if place < len(PLACE_NAMES) else None


def _round_plays(log, top_seat, won_by) -> dict:
    out: dict = {}
    for entry in log:
        verb = entry.get("verb")
        if verb == "play":
            out[entry["seat"]] = {"cards": list(entry.get("cards") or []), "verb": None,
                                  "winning": entry["seat"] == top_seat, "won_by": won_by}
        else:
            out[entry["seat"]] = {"cards": [], "verb": {"yield": _("让"), "pass": _("过")}.get(verb, verb),
                                  "winning": False, "won_by": won_by}
    return out


def seat_plays(view: Mapping | None) -> dict:
    """What each seat did in the round on the table (B5), from the view's
    ``trick_log``: its latest set, or 让 / 过; the set that stands (the
    engine's ``top``, the set to beat, B4) marked ``winning``.

    When a round has just ended (nothing played in the new one yet), its
    last actions stay on the table for that one state with ``won_by``: the
    seat whose set stood (B5), so that the page slides them to it;
    ``won_by`` is None during a round.  Public actions only (B10: the guard
    is not in them)."""
    view = view or {}
    log = view.get("trick_log") or []
    if log:
        top = view.get("top") or {}
        return _round_plays(log, top.get("seat"), None)
    if view.get("phase") != "play":
        return {}
    last = view.get("last_round") or []
    sets = [e for e in last if e.get("verb") == "play"]
    if not sets:
        return {}
    winner = sets[-1]["seat"]
    return _round_plays(last, winner, winner)


#: The view's keys :func:`seat_tags`, :func:`seat_place` and :func:`seat_plays`
#: read (``GameSpec.seat_reads``): a seat's view equal to the view for no
#: seat under these shows the seats as everyone sees them; the guard's own
#: view, while he is secret, differs in ``guard`` (B10).
SEAT_READS = ("emperor", "guard", "finished", "trick_log", "top", "phase", "last_round")


def result_extras(result: dict) -> dict:
    """The winner's words and each row's place and roles (B11, B12)."""
    summary = result["summary"]
    order = summary.get("finish_order") or []
    for row in result["rows"]:
        i = row["index"]
        row["place"] = PLACE_NAMES[order.index(i)] if i in order else None
        row["is_emperor"] = summary.get("emperor") == i
        row["is_guard"] = summary.get("guard") == i
    return {"winner": WINNER_NAMES.get(summary.get("winner"), summary.get("winner"))}


SPEC = GameSpec(
    tournament=tournament_hooks,
    blurb=_("五人，皇帝和暗中的保皇对三个反贼，先出完牌的名次高。"),
    code="baohuang",
    label=_("保皇"),
    rules=RULES,
    board_template="games/baohuang/_board.html",
    notice_template="games/baohuang/_settlement.html",
    css=("games/baohuang.css",),
    seat_tags=seat_tags,
    seat_place=seat_place,
    seat_plays=seat_plays,
    seat_reads=SEAT_READS,
    shared_regions=SHARED_REGIONS,
    result_extras=result_extras,
    action_labels={
        "yield": _("让"),
        "crown-accept": _("当皇帝"),
        "crown-pass": _("不当皇帝"),
        "solo-open": _("明独"),
        "solo-secret": _("暗独"),
        "guard-open": _("明保"),
        "guard-secret": _("暗保"),
    },
    choices={"crown": ("accept", "pass"), "solo": ("open", "secret"), "guard": ("open", "secret")},
    verb_order=("crown", "solo", "guard", "play", "yield", "pass"),
    phase_names={
        "crown": _("选皇帝"),
        "declare": _("宣布"),
        "play": _("出牌"),
        "done": _("本局结束"),
        "voided": _("本局作废"),
    },
    rule_messages={  # one sentence per ruling, no ruling id
        "B3": _("这不是一套牌：一套是同点数的牌，可以挂大小王和保子。"),
        "B4": _("管不上：张数要相同，而且每张都要比上家的大。"),
        "B5": _("现在不能这样出牌：领出时要出一套牌，让牌每轮只能用一次。"),
        "B6": _("3 只能在最后一张时单独出。"),
        "B8": _("现在不是选皇帝的时候。"),
        "B9": _("现在不能宣布独。"),
        "B10": _("现在不能宣布保皇。"),
        "B11": _("本局已经结束。"),
    },
    settlement_title=_("离座时所欠进贡按积分结算（B14）"),
    ledger_reasons={
        "tribute": _("进贡折算"),
        "tribute-settlement": _("进贡折算"),  # B14: leaving with tribute owed
    },
    is_default=True,
)
