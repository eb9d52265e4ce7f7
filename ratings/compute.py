"""Rating arithmetic: pure Python (no Django), shared by the live update and
``rebuild_ratings`` so both run exactly the same float operations.

The model is openskill's Plackett–Luce with its default parameters (μ 25,
σ 25/3, β 25/6, τ 25/300), pinned in ``requirements.txt``.  A hand is rated as
the game's :class:`~games.engine.base.Ranking` says: 升級 the two partner
teams, 保皇 the emperor's side (or the solo emperor) against the rebels.

**Bots** (the documented choice): a bot takes part in the model as a player
with a fixed rating for its level (:data:`BOT_LEVELS`), so a human's rating
moves by how strong the bots beside and against him are; a bot's own rating
never changes and is not stored.  A hand counts when at least one human was
dealt in; a human on 托管 (auto-play) still counts as himself (he chose or
let the time run out).  A voided deal ranks nobody and is not rated.

**Display**: the number players see is ``round(500 + 40 μ)`` (a new player
shows 1500; a typical established change is ±5–15).  A player is
*provisional* for his first :data:`PROVISIONAL_HANDS` rated hands of a game
(shown with "?", listed after the established players on leaderboards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
#: A new player's (μ, σ).
INITIAL = (MODEL.mu, MODEL.sigma)
#: Fixed (μ, σ) per bot level (``Seat.bot_policy``): the random bot plays far
#: below a new human, the heuristic bot like an average one, the search bot
#: above.  A small σ says
#: "known strength": humans' updates trust it.
BOT_LEVELS: dict[str, tuple[float, float]] = {
    "random": (15.0, 1.0),
    "heuristic": (25.0, 1.0),
    "search": (30.0, 1.0),  # the Monte Carlo search bot, clearly above heuristic
}
#: Any other bot level (a policy added later) until it is given a row above.
DEFAULT_BOT = (25.0, 1.0)
#: Rated hands during which a player's rating is provisional.
PROVISIONAL_HANDS = 10


def bot_rating(policy: str | None) -> tuple[float, float]:
    """The fixed (μ, σ) of a bot of level ``policy``."""
    return BOT_LEVELS.get(policy or "", DEFAULT_BOT)


def display(mu: float) -> int:
    """The rating players see for μ: ``round(500 + 40 μ)`` (1500 for a newcomer)."""
    return int(round(500 + 40 * mu))


def is_provisional(hands: int) -> bool:
    """Whether a player with ``hands`` rated hands still has a provisional rating."""
    return hands < PROVISIONAL_HANDS


@dataclass(frozen=True, slots=True)
class Entry:
    """One seat of a rated hand: its ``team`` index (into the ranking's
    teams), the team's ``rank`` (1 = best), who sat there (``user``, an id,
    or a ``bot`` level) and the seat's ``outcome`` (``"win"``, ``"loss"`` or
    ``"draw"``)."""

    seat: int
    team: int
    rank: int
    user: int | None
    bot: str | None
    outcome: str


def entries(players: Sequence[Mapping], teams: Sequence[Sequence[int]],
            ranks: Sequence[int]) -> list[Entry] | None:
    """The rated seats of a hand, in seat order, or None when the hand is not
    rated (no human dealt in; a user in two seats; a ranking that does not
    cover every seat exactly once).

    ``players`` is ``Hand.players`` (per seat ``{"user": id|None, "bot":
    level|None, ...}``); ``teams``/``ranks`` the game's ranking.
    """
    team_of: dict[int, int] = {}
    for t, team in enumerate(teams):
        for seat in team:
            if seat in team_of:
                return None
            team_of[seat] = t
    if sorted(team_of) != list(range(len(players))) or len(ranks) != len(teams):
        return None
    users = [p.get("user") for p in players if p.get("user")]
    if not users or len(set(users)) != len(users):
        return None
    best = min(ranks)
    all_equal = len(set(ranks)) == 1
    out = []
    for seat, p in enumerate(players):
        t = team_of[seat]
        rank = int(ranks[t])
        outcome = "draw" if all_equal else "win" if rank == best else "loss"
        user = p.get("user") or None
        out.append(Entry(seat, t, rank, user, None if user else (p.get("bot") or ""), outcome))
    return out


def rate(teams: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]
         ) -> list[list[tuple[float, float]]]:
    """openskill Plackett–Luce on (μ, σ) pairs grouped in ``teams`` with
    ``ranks`` (1 = best; equal = draw): the new (μ, σ), same shape."""
    model_teams = [[MODEL.create_rating([mu, sigma]) for mu, sigma in team] for team in teams]
    result = MODEL.rate(model_teams, ranks=list(ranks))
    return [[(r.mu, r.sigma) for r in team] for team in result]


@dataclass(frozen=True, slots=True)
class Change:
    """One seat's rating change in one hand: before and after (μ, σ); a bot's
    before and after are its fixed level."""

    entry: Entry
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def rating_before(self) -> int:
        return display(self.mu_before)

    @property
    def rating_after(self) -> int:
        return display(self.mu_after)

    @property
    def delta(self) -> int:
        """The displayed change (``+12``)."""
        return self.rating_after - self.rating_before


def rate_hand(rated: Iterable[Entry], current: Mapping[int, tuple[float, float]]
              ) -> list[Change]:
    """Rate one hand: ``current`` maps each human's user id to his (μ, σ)
    before the hand (missing: a new player, :data:`INITIAL`).  Returns one
    :class:`Change` per seat, in seat order."""
    rated = list(rated)
    n_teams = max(e.team for e in rated) + 1
    before = {
        e.seat: current.get(e.user, INITIAL) if e.user else bot_rating(e.bot) for e in rated
    }
    teams: list[list[Entry]] = [[] for _ in range(n_teams)]
    ranks = [0] * n_teams
    for e in rated:
        teams[e.team].append(e)
        ranks[e.team] = e.rank
    new = rate([[before[e.seat] for e in team] for team in teams], ranks)
    after = {}
    for team, values in zip(teams, new):
        for e, value in zip(team, values):
            after[e.seat] = value if e.user else before[e.seat]
    return [
        Change(e, before[e.seat][0], before[e.seat][1], after[e.seat][0], after[e.seat][1])
        for e in rated
    ]
