"""What a profile page shows of ratings: per game the rating, its graph over
time (a server-rendered SVG, ``templates/ratings/_graph.html``) and the
player's record (hands, win rate and the game's own lines: 头科 rate, levels
gained per hand, ♠A penalties … from the engine's ``record_stats`` /
``seat_stats``).  Reached through :data:`accounts.signals.profile_context`
where that signal exists, so ``accounts`` never imports this app.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.formats import date_format, time_format

from games.engine import get_rules
from games.models import GAME_CHOICES

from .models import PlayerRating, RatingChange

#: Points drawn in a graph (the latest ones).
GRAPH_POINTS = 200
#: Hands a record is computed over (the latest ones).
RECORD_HANDS = 1000
#: The graph's box in SVG units; the margins hold a four-digit rating (left)
#: and the dates or times (below) at the phone's larger axis font (ratings.css).
WIDTH, HEIGHT, PAD_X, PAD_Y = 600, 200, 52, 28


@dataclass(frozen=True)
class Graph:
    """A rating graph ready for the SVG template: ``points`` is the
    polyline's ``"x,y x,y …"``; ``low``/``high`` the rating range drawn,
    ``first``/``last`` the times (aware datetimes) of the first and last
    point, drawn under the axis' two ends as :attr:`axis_labels` says."""

    points: str
    dots: list
    count: int
    low: int
    high: int
    first: object
    last: object
    width: int = WIDTH
    height: int = HEIGHT
    pad_x: int = PAD_X
    pad_y: int = PAD_Y

    @property
    def one_day(self) -> bool:
        """Do the first and the last point fall on one day (the viewer's time
        zone)?  Then the axis says that date once and the times of the two
        ends, not the same date at both ends."""
        first, last = self.first, self.last
        if first is None or last is None:
            return False
        return timezone.localtime(first).date() == timezone.localtime(last).date()

    @property
    def axis_labels(self) -> tuple[str, str]:
        """``(left, right)``: the words under the time axis' two ends, in the
        active language and time zone.  Two dates; within one day
        (:attr:`one_day`) the date and time of the first point, then the
        time of the last, or ``""`` when that reads the same (one hand)."""
        if self.first is None or self.last is None:
            return "", ""
        first, last = timezone.localtime(self.first), timezone.localtime(self.last)
        if not self.one_day:
            return date_format(first, "SHORT_DATE_FORMAT"), date_format(last, "SHORT_DATE_FORMAT")
        start, end = time_format(first, "TIME_FORMAT"), time_format(last, "TIME_FORMAT")
        return f"{date_format(first, 'SHORT_DATE_FORMAT')} {start}", "" if end == start else end

    @property
    def y_high(self) -> int:
        return PAD_Y

    @property
    def y_low(self) -> int:
        return HEIGHT - PAD_Y


def graph(history: list[tuple[object, int]]) -> Graph | None:
    """The graph of ``history`` (``[(when, rating after the hand)]``, oldest
    first; the rating before the first hand is drawn as its first point)."""
    if not history:
        return None
    ratings = [r for _when, r in history]
    low, high = min(ratings), max(ratings)
    if high - low < 20:
        mid = (high + low) / 2
        low, high = int(mid - 10), int(mid + 10)
    n = len(history)
    span_x = WIDTH - 2 * PAD_X
    span_y = HEIGHT - 2 * PAD_Y
    coords = []
    for i, r in enumerate(ratings):
        x = PAD_X + (span_x * i / (n - 1) if n > 1 else span_x / 2)
        y = PAD_Y + span_y * (high - r) / (high - low)
        coords.append((round(x, 1), round(y, 1)))
    return Graph(
        points=" ".join(f"{x},{y}" for x, y in coords),
        dots=coords if n <= 30 else [coords[-1]],
        count=n, low=low, high=high, first=history[0][0], last=history[-1][0],
    )


def game_section(user, game: str, label) -> dict | None:
    """One game's rating section for ``user`` (None before his first rated hand)."""
    row = PlayerRating.objects.filter(user=user, game=game).first()
    if row is None or not row.hands:
        return None
    changes = list(
        RatingChange.objects.filter(user=user, game=game)
        .order_by("-rated_hand_id")
        .values_list("created", "rating_before", "rating_after", "seat",
                     "rated_hand__hand__summary")[:RECORD_HANDS]
    )
    changes.reverse()
    recent = changes[-GRAPH_POINTS:]
    history = []
    if recent:
        history.append((recent[0][0], recent[0][1]))
        history += [(when, after) for when, _before, after, _seat, _summary in recent]
    rules = get_rules(game)
    totals: dict[str, float] = {}
    counts: dict[str, int] = {}
    for _when, _before, _after, seat, summary in changes:
        for key, value in rules.seat_stats(summary or {}, seat).items():
            totals[key] = totals.get(key, 0) + value
            counts[key] = counts.get(key, 0) + 1
    lines = []
    for stat in rules.record_stats:
        if not counts.get(stat.key):
            continue
        total, n = totals[stat.key], counts[stat.key]
        if stat.kind == "rate":
            shown = f"{100 * total / n:.0f}%"
        elif stat.kind == "mean":
            shown = f"{total / n:.2f}"
        else:
            shown = f"{total:g}"
        lines.append({"key": stat.key, "label": stat.label, "value": shown})
    return {
        "game": game,
        "label": label,
        "rating": row,
        "win_rate": row.win_rate or 0.0,
        "graph": graph(history),
        "stats": lines,
        "record_hands": len(changes),
    }


def sections(user) -> list[dict]:
    """Every game's rating section for ``user``, in the site's game order."""
    out = []
    for game, label in GAME_CHOICES:
        section = game_section(user, game, label)
        if section is not None:
            out.append(section)
    return out


def profile_context(sender, user, **kwargs) -> dict:
    """Receiver of ``accounts.signals.profile_context``: ``{"rating_sections": …}``."""
    return {"rating_sections": sections(user)}
