"""Bot-only simulation over any :class:`~games.engine.base.GameRules`.

Plays ``hands`` consecutive hands at one table (match state carried from hand
to hand; a finished match starts a new one) with one bot policy per seat, and
measures speed and results.  Pure Python, no Django: the ``simulate``
management command only parses arguments and prints :func:`format_report`.

>>> report = run_simulation("baohuang", hands=2, seed=1, policies=["random"] * 5)  # doctest: +SKIP
>>> report.hands
2
"""

from __future__ import annotations

import math
import random
import statistics
import time
from dataclasses import dataclass, field

from . import get_rules


@dataclass(frozen=True)
class Interval:
    """A sample mean with its 95% confidence half-width (normal approximation)."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:+.3f} ± {self.half_width:.3f} (95% CI [{self.low:+.3f}, {self.high:+.3f}], n={self.n})"


def interval(values: list[float]) -> Interval:
    """Mean and 95% half-width ``1.96·s/√n`` of ``values`` (0 width when n < 2)."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0)
    mean = statistics.fmean(values)
    if n < 2:
        return Interval(mean, 0.0, n)
    return Interval(mean, 1.96 * statistics.stdev(values) / math.sqrt(n), n)


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) of already sorted values, nearest-rank method."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[rank - 1]


@dataclass
class SimulationReport:
    """Figures of one simulation run.  Times in seconds unless named ``_ms``."""

    game: str
    policies: list[str]
    hands: int = 0
    voided: int = 0
    matches_won: dict[str, int] = field(default_factory=dict)
    decisions: int = 0
    wall_seconds: float = 0.0
    decision_seconds: list[float] = field(default_factory=list)
    #: per hand, per policy: the mean game points of the seats with that policy
    policy_points: dict[str, list[float]] = field(default_factory=dict)
    attackers_points: list[float] = field(default_factory=list)
    levels_gained: dict[str, list[float]] = field(default_factory=dict)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.wall_seconds if self.wall_seconds else 0.0

    @property
    def decisions_per_second(self) -> float:
        return self.decisions / self.wall_seconds if self.wall_seconds else 0.0

    def decision_ms(self, q: float) -> float:
        return 1000.0 * percentile(sorted(self.decision_seconds), q)


def run_simulation(
    game: str,
    hands: int,
    seed: int,
    policies: list[str],
    max_seconds: float | None = None,
) -> SimulationReport:
    """Play ``hands`` bot hands of ``game`` with ``policies[seat]`` at each seat.

    ``seed`` fixes every deal and every bot choice, so a run is reproducible.
    Stops early (with fewer hands) after ``max_seconds`` of wall time if given.
    Raises ``ValueError`` if the number of policies is not the seat count.
    """
    rules = get_rules(game)
    if len(policies) != rules.seats:
        raise ValueError(f"{game} needs {rules.seats} policies, got {len(policies)}")
    master = random.Random(seed)
    bot_rng = random.Random(master.getrandbits(63))
    report = SimulationReport(game=game, policies=list(policies))
    for name in set(policies):
        report.policy_points[name] = []
    match = rules.new_match(None, None)
    started = time.perf_counter()
    clock = time.perf_counter
    for _ in range(hands):
        deal = rules.deal(match, master.getrandbits(63))
        state = rules.start_hand(match, deal)
        while not rules.is_complete(state):
            seat = rules.to_act(state)
            t0 = clock()
            action = rules.bot_action(state, seat, policies[seat], bot_rng)
            report.decision_seconds.append(clock() - t0)
            state = rules.apply(state, action)
            report.decisions += 1
        summary = rules.summary(state)
        report.hands += 1
        if summary.get("voided"):
            report.voided += 1
        points = summary.get("game_points") or {}
        for name in report.policy_points:
            seats = [s for s, p in enumerate(policies) if p == name]
            report.policy_points[name].append(
                statistics.fmean(float(points.get(str(s), 0)) for s in seats)
            )
        if summary.get("attackers_points") is not None:
            report.attackers_points.append(float(summary["attackers_points"]))
        for team, gained in (summary.get("levels_gained") or {}).items():
            report.levels_gained.setdefault(str(team), []).append(float(gained))
        match = rules.next_match(match, state)
        winner = rules.match_winner(match)
        if winner is not None:
            report.matches_won[str(winner)] = report.matches_won.get(str(winner), 0) + 1
            match = rules.new_match(None, None)
        if max_seconds is not None and clock() - started > max_seconds:
            break
    report.wall_seconds = time.perf_counter() - started
    return report


def format_report(report: SimulationReport) -> str:
    """Human-readable figures, one per line."""
    lines = [
        f"game: {report.game}  policies: {','.join(report.policies)}",
        f"hands: {report.hands} (voided {report.voided})  decisions: {report.decisions}"
        f"  wall: {report.wall_seconds:.2f} s",
        f"hands/s: {report.hands_per_second:.1f}",
        f"decisions/s: {report.decisions_per_second:.0f}",
        f"decision time: p50 {report.decision_ms(0.50):.3f} ms  p99 {report.decision_ms(0.99):.3f} ms"
        f"  max {report.decision_ms(1.0):.3f} ms",
    ]
    for name in sorted(report.policy_points):
        seats = [str(s) for s, p in enumerate(report.policies) if p == name]
        lines.append(
            f"game points per hand, policy {name} (seats {','.join(seats)}): "
            f"{interval(report.policy_points[name])}"
        )
    if report.attackers_points:
        lines.append(f"attackers' points per hand: {interval(report.attackers_points)}")
    for team in sorted(report.levels_gained):
        lines.append(f"levels gained per hand, team {team}: {interval(report.levels_gained[team])}")
    if report.matches_won:
        won = ", ".join(f"team {t}: {n}" for t, n in sorted(report.matches_won.items()))
        lines.append(f"matches won: {won}")
    return "\n".join(lines)
