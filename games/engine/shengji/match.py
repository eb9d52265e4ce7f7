"""What a 升級 match carries from hand to hand: options, levels, the next dealer.

Teams: ``0`` is seats 0 and 2, ``1`` is seats 1 and 3 (S1).  Levels follow the S2
sequence ``2 4 6 7 8 9 T J Q K``; a team whose level would go past K has completed
the cycle and wins the match.

>>> m = new_match()
>>> m.levels, m.dealer, match_winner(m)
(('2', '2'), None, None)
>>> step_level("Q", 2)
(None, 2)
>>> step_level("9", 4)
('K', 4)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..base import RecordError
from ..options import multiplier_problem

#: S2: the levels in order (ten is written ``T`` as in C1).
LEVELS: tuple[str, ...] = ("2", "4", "6", "7", "8", "9", "T", "J", "Q", "K")
#: Option defaults (rulings C4 multiplier, S9 format obligation).
DEFAULT_OPTIONS: dict = {"multiplier": 1, "follow": "format"}


def team_of(seat: int) -> int:
    """The team of ``seat``: 0 for seats 0 and 2, 1 for seats 1 and 3 (S1)."""
    return seat % 2


def partner_of(seat: int) -> int:
    """The seat opposite ``seat`` (S1)."""
    return (seat + 2) % 4


def step_level(level: str, steps: int) -> tuple[str | None, int]:
    """Move ``level`` up ``steps`` places in the S2 sequence.

    Returns ``(new_level, steps)``; ``new_level`` is None when the team goes past
    K (it has completed the cycle and wins the match, S2).
    """
    i = LEVELS.index(level) + steps
    if i >= len(LEVELS):
        return None, steps
    return LEVELS[i], steps


def normalize_options(options: dict | None) -> dict:
    """Options with defaults filled in; raise :class:`RecordError` if malformed.

    ``multiplier``: positive int (C4 room multiplier); ``follow``: ``"format"``
    (S9 format obligation, default) or ``"suit"`` (suit only).
    """
    out = dict(DEFAULT_OPTIONS)
    if options:
        unknown = set(options) - set(DEFAULT_OPTIONS)
        if unknown:
            raise RecordError(f"unknown shengji option(s): {', '.join(sorted(unknown))}")
        out.update(options)
    mult = out["multiplier"]
    problem = multiplier_problem(mult)
    if problem:
        raise RecordError(problem)
    if out["follow"] not in ("format", "suit"):
        raise RecordError(f'follow must be "format" or "suit", got {out["follow"]!r}')
    return out


def _parse_level(value) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise RecordError(f"a level must be a rank code, got {value!r}")
    v = value.strip().upper()
    if v == "10":
        v = "T"
    if v not in LEVELS:
        raise RecordError(f"{value!r} is not a level (S2: {' '.join(LEVELS)})")
    return v


@dataclass(frozen=True, slots=True)
class Match:
    """A match before its next hand (immutable).

    ``levels``: (team 0, team 1) level codes; ``dealer``: the dealer of the next
    hand, or None before the first hand (then the S13 auction winner deals);
    ``winner``: the team that went past K, or None.
    """

    multiplier: int = 1
    follow: str = "format"
    levels: tuple[str, str] = ("2", "2")
    dealer: int | None = None
    winner: int | None = None

    @property
    def options(self) -> dict:
        return {"multiplier": self.multiplier, "follow": self.follow}

    @property
    def first_hand(self) -> bool:
        """True when no dealer is known yet (hand 1 of the match, S13/S15)."""
        return self.dealer is None

    def hand_level(self, dealer: int | None) -> str:
        """The level the hand is played at: the dealer team's level (S2).

        Before the first hand there is no dealer; both teams start at 2 (S2), so
        the level is the common level (``new_match`` refuses a first hand with
        unequal levels, which has no dealer team to decide it).
        """
        if dealer is None:
            return self.levels[0]
        return self.levels[team_of(dealer)]


def new_match(options: dict | None = None, start: dict | None = None) -> Match:
    """A match from options and a record's ``start`` (``{"levels": {"0": "2",
    "1": "2"}, "dealer": null|seat}``).  Raises :class:`RecordError` if malformed.

    A first hand (``dealer`` null) needs both teams at the same level: the level
    of the 比牌 auction must be known before there is a dealer (S2, S13).
    """
    opts = normalize_options(options)
    levels = ("2", "2")
    dealer = None
    if start:
        if not isinstance(start, dict):
            raise RecordError("start must be an object")
        raw = start.get("levels", {"0": "2", "1": "2"})
        if not isinstance(raw, dict) or set(map(str, raw)) != {"0", "1"}:
            raise RecordError('start.levels must be {"0": level, "1": level}')
        norm = {str(k): v for k, v in raw.items()}
        levels = (_parse_level(norm["0"]), _parse_level(norm["1"]))
        dealer = start.get("dealer")
        if dealer is not None and (
            not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < 4
        ):
            raise RecordError(f"start.dealer must be a seat 0..3 or null, got {dealer!r}")
    winner = start.get("winner") if start else None
    if winner is not None and winner not in (0, 1):
        raise RecordError(f"start.winner must be a team 0 or 1, got {winner!r}")
    if dealer is None and levels[0] != levels[1]:
        raise RecordError(
            "a first hand (dealer null) needs both teams at the same level (S2)"
        )
    return Match(opts["multiplier"], opts["follow"], levels, dealer, winner)


def match_to_json(match: Match) -> dict:
    """``{"options": ..., "start": ...}`` such that ``new_match(**that)`` is equal
    ``start.winner`` is added once a team has won."""
    start: dict = {
        "levels": {"0": match.levels[0], "1": match.levels[1]},
        "dealer": match.dealer,
    }
    if match.winner is not None:
        start["winner"] = match.winner
    return {"options": match.options, "start": start}


def match_winner(match: Match) -> int | None:
    """The team (0 or 1) that went past K, or None (S2)."""
    return match.winner
