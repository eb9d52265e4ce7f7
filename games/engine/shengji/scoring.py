"""Points, kitty, result table and ♠A penalty (S16, S17, S18), levels (S2), next dealer (S15).

>>> result_row(0), result_row(5), result_row(155), result_row(160)
(('defenders', 4, 8), ('defenders', 1, 2), ('defenders', 1, 2), ('attackers', 0, 1))
>>> result_row(239), result_row(240), result_row(320), result_row(400)
(('attackers', 0, 1), ('attackers', 1, 2), ('attackers', 2, 4), ('attackers', 3, 6))
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Card
from .match import LEVELS, Match, partner_of, step_level, team_of
from .trumps import card_points

SPADE_ACE = Card.parse("AS")
#: S18: game points moved by each penalised ♠A (before the room multiplier).
SPADE_ACE_PENALTY = 5


def points_of(cards) -> int:
    """S16 card points: 5 scores 5, 10 and K score 10."""
    return sum(card_points(c) for c in cards)


def kitty_multiplier(winning_play_all_trumps: bool) -> int:
    """S16: the kitty counts ×2 for the attackers when the last trick's winning
    play is all trumps, ×1 when it is a side suit."""
    return 2 if winning_play_all_trumps else 1


def result_row(x: int) -> tuple[str, int, int]:
    """S17 for attackers' points ``x`` (kitty included): ``(winning side, levels
    gained by the winners, game points per player)``.

    ``"defenders"`` keep the deal; ``"attackers"`` means the roles swap.
    """
    if x <= 0:
        return ("defenders", 4, 8)
    if x < 160:
        return ("defenders", 1, 2)
    if x < 240:
        return ("attackers", 0, 1)
    if x < 320:
        return ("attackers", 1, 2)
    if x < 400:
        return ("attackers", 2, 4)
    return ("attackers", 3, 6)


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of a complete hand.

    ``attackers_points`` includes the kitty (with its multiplier) when the
    attackers won the last trick (``kitty_to`` "attackers"; otherwise
    "defenders" and the multiplier is 1); ``kitty_points`` is the raw value of the
    buried cards; ``game_points`` by seat include the ♠A penalties and the room
    multiplier; ``levels_gained`` by team counts steps in the S2 sequence (the
    nominal number, also when a team goes past K); ``levels_after`` keeps K for a
    team that went past it, and ``match_winner`` names it.
    """

    attackers_points: int
    kitty_points: int
    kitty_multiplier: int
    kitty_to: str
    winners: str
    levels_before: tuple[str, str]
    levels_after: tuple[str, str]
    levels_gained: tuple[int, int]
    next_dealer: int
    game_points: tuple[int, int, int, int]
    penalties: tuple[int, int, int, int]
    match_winner: int | None


def spade_ace_penalties(tricks) -> list[int]:
    """S18 by seat (before the multiplier): each ♠A played into a trick won by an
    opponent of its player costs him 5 and gives the trick's winner 5.

    ``tricks`` is a sequence of ``(plays, winner)`` with ``plays`` a sequence of
    ``(seat, cards)``.  The kitty is never looked at, so a buried ♠A is exempt.
    """
    out = [0, 0, 0, 0]
    for plays, winner in tricks:
        for seat, cards in plays:
            if team_of(seat) == team_of(winner):
                continue
            n = sum(1 for c in cards if c == SPADE_ACE)
            if n:
                out[seat] -= SPADE_ACE_PENALTY * n
                out[winner] += SPADE_ACE_PENALTY * n
    return out


def hand_result(
    match: Match,
    dealer: int,
    trick_points_attackers: int,
    kitty_cards,
    last_winner: int,
    last_play_all_trumps: bool,
    penalties: list[int],
) -> HandResult:
    """Settle a complete hand (S16–S18, S2, S15)."""
    attackers = 1 - team_of(dealer)
    kitty_points = points_of(kitty_cards)
    x = trick_points_attackers
    if team_of(last_winner) == attackers:
        mult = kitty_multiplier(last_play_all_trumps)
        kitty_to = "attackers"
        x += kitty_points * mult
    else:
        mult = 1  # S16: the defenders keep the kitty, never doubled
        kitty_to = "defenders"
    winners, steps, gp = result_row(x)
    win_team = team_of(dealer) if winners == "defenders" else attackers
    levels = list(match.levels)
    gained = [0, 0]
    winner = match.winner
    new_level, _ = step_level(levels[win_team], steps)
    gained[win_team] = steps
    if new_level is None:
        levels[win_team] = LEVELS[-1]
        if winner is None:
            winner = win_team
    else:
        levels[win_team] = new_level
    if winners == "defenders":
        next_dealer = partner_of(dealer)
    else:
        next_dealer = (dealer + 1) % 4
    m = match.multiplier
    game_points = tuple(
        (gp if team_of(s) == win_team else -gp) * m + penalties[s] * m for s in range(4)
    )
    return HandResult(
        attackers_points=x,
        kitty_points=kitty_points,
        kitty_multiplier=mult,
        kitty_to=kitty_to,
        winners=winners,
        levels_before=match.levels,
        levels_after=(levels[0], levels[1]),
        levels_gained=(gained[0], gained[1]),
        next_dealer=next_dealer,
        game_points=game_points,  # type: ignore[arg-type]
        penalties=tuple(p * m for p in penalties),  # type: ignore[arg-type]
        match_winner=winner,
    )
