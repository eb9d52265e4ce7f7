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
from .base import bot_decision
from .search import DEFAULT_BUDGET_MS, SearchConfig
from .shengji import state as shengji_state
from .shengji.match import LEVELS
import multiprocessing


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
    #: this process's CPU seconds (``time.process_time``) over the run: on a
    #: shared machine the figure to compare, wall time counts the others' load
    cpu_seconds: float = 0.0
    decision_seconds: list[float] = field(default_factory=list)
    #: per hand, per policy: the mean game points of the seats with that policy
    policy_points: dict[str, list[float]] = field(default_factory=dict)
    attackers_points: list[float] = field(default_factory=list)
    levels_gained: dict[str, list[float]] = field(default_factory=dict)
    #: decision times (seconds) by policy
    policy_decisions: dict[str, list[float]] = field(default_factory=dict)
    #: decisions made inside a play-out (``GameRules.bot_playout``): not timed
    #: one by one, each counted at its play-out's mean time per decision
    playout_decisions: int = 0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.wall_seconds if self.wall_seconds else 0.0

    @property
    def hands_per_cpu_second(self) -> float:
        return self.hands / self.cpu_seconds if self.cpu_seconds else 0.0

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
    budget_ms: float | None = None,
    on_record=None,
    max_worlds: int | None = None,
) -> SimulationReport:
    """Play ``hands`` bot hands of ``game`` with ``policies[seat]`` at each seat.

    ``seed`` fixes every deal and every bot choice, so a run is reproducible.
    ``on_record(n, record)``: called after hand ``n`` (0-based) with its
    one-hand record (:func:`hand_record`; ``simulate --records``).
    Stops early (with fewer hands) after ``max_seconds`` of wall time if given.
    When every seat plays ``heuristic`` and the game offers
    :meth:`~games.engine.base.GameRules.bot_playout`, the rest of a hand is
    played by it at once (the same actions and results as stepping): its
    decisions are counted and each is timed as the play-out's time divided by
    their number.
    Raises ``ValueError`` if the number of policies is not the seat count.
    """
    rules = get_rules(game)
    if len(policies) != rules.seats:
        raise ValueError(f"{game} needs {rules.seats} policies, got {len(policies)}")
    search = _search_config(budget_ms, max_worlds)
    master = random.Random(seed)
    bot_rng = random.Random(master.getrandbits(63))
    report = SimulationReport(game=game, policies=list(policies))
    for name in set(policies):
        report.policy_points[name] = []
    match = rules.new_match(None, None)
    started = time.perf_counter()
    cpu_started = time.process_time()
    clock = time.perf_counter
    decision_seconds = report.decision_seconds
    by_seat = [report.policy_decisions.setdefault(name, []) for name in policies]
    is_complete, to_act, apply = rules.is_complete, rules.to_act, rules.apply
    bot_action = rules.bot_action
    # every seat heuristic: the game may play the rest of a hand at once
    # (GameRules.bot_playout); its decisions share the play-out's time equally
    playout = getattr(rules, "bot_playout", None)
    if not all(p == "heuristic" for p in policies):
        playout = None
    actions = rules.actions
    for _ in range(hands):
        deal = rules.deal(match, master.getrandbits(63))
        state = rules.start_hand(match, deal)
        decisions = 0
        while not is_complete(state):
            if playout is not None:
                t0 = clock()
                done = playout(state, bot_rng)
                if done is not None:
                    spent = clock() - t0
                    n = len(actions(done)) - len(actions(state))
                    share = spent / n if n else 0.0
                    decision_seconds.extend([share] * n)
                    by_seat[0].extend([share] * n)  # one policy: one shared list
                    decisions += n
                    report.playout_decisions += n
                    state = done
                    break
            seat = to_act(state)
            policy = policies[seat]
            t0 = clock()
            if policy == "search":
                action = bot_decision(rules, state, seat, policy, bot_rng, search)
            else:  # what bot_decision does for every other policy, one call less
                action = bot_action(state, seat, policy, bot_rng)
            spent = clock() - t0
            decision_seconds.append(spent)
            by_seat[seat].append(spent)
            state = apply(state, action)
            decisions += 1
        report.decisions += decisions
        summary = rules.summary(state)
        if on_record is not None:
            on_record(report.hands, hand_record(rules, match, deal, state, policies))
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
    report.cpu_seconds = time.process_time() - cpu_started
    return report


def hand_record(rules, match, deal, state, players=None) -> dict:
    """The hand-record (``docs/spec/hand-record.md``) of one hand: the match
    it started from (options and start), its deal and its actions, so that
    ``replay`` and ``review`` take it alone."""
    m = rules.match_to_json(match)
    hand = dict(rules.deal_to_record(deal))
    hand["actions"] = [a.to_record() for a in rules.actions(state)]
    out = {"format": "hand-record/1", "game": rules.game, "options": m.get("options"),
           "start": m.get("start"), "hands": [hand]}
    if players is not None:
        out["players"] = list(players)
    return out


def format_report(report: SimulationReport) -> str:
    """Human-readable figures, one per line."""
    lines = [
        f"game: {report.game}  policies: {','.join(report.policies)}",
        f"hands: {report.hands} (voided {report.voided})  decisions: {report.decisions}"
        f"  wall: {report.wall_seconds:.2f} s  cpu: {report.cpu_seconds:.2f} s",
        f"hands/s: {report.hands_per_second:.1f} (wall)  {report.hands_per_cpu_second:.1f} per CPU-second"
        f" ({_engine_build()})",
        f"decisions/s: {report.decisions_per_second:.0f}",
        f"decision time: p50 {report.decision_ms(0.50):.3f} ms  p99 {report.decision_ms(0.99):.3f} ms"
        f"  max {report.decision_ms(1.0):.3f} ms",
    ]
    if report.playout_decisions:
        lines.append(
            f"  ({report.playout_decisions} of {report.decisions} decisions were made in play-outs,"
            " which time a hand's play phase as a whole: each counts as its play-out's mean,"
            " so these percentiles are of per-hand means, not of single decisions)"
        )
    lines += _decision_lines(report.policy_decisions)
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


def _engine_build() -> str:
    """``"compiled engine"`` when the engine's modules run from extension
    modules built by ``setup_engine.py`` (``make engine-fast``), else
    ``"pure Python"``."""
    return "compiled engine" if not shengji_state.__file__.endswith(".py") else "pure Python"


def _search_config(budget_ms: float | None, max_worlds: int | None = None):
    return SearchConfig(budget_ms=DEFAULT_BUDGET_MS if budget_ms is None else budget_ms,
                        max_playouts=max_worlds)


def _decision_lines(by_policy: dict[str, list[float]]) -> list[str]:
    out = []
    for name in sorted(by_policy):
        xs = sorted(by_policy[name])
        out.append(
            f"decision time, policy {name}: p50 {1000 * percentile(xs, 0.5):.1f} ms"
            f"  p99 {1000 * percentile(xs, 0.99):.1f} ms  max {1000 * percentile(xs, 1.0):.1f} ms"
            f"  (n={len(xs)})"
        )
    return out


# ------------------------------------------------------------ duplicate mode


def rotations(game: str, policies: list[str]) -> list[list[str]]:
    """The seatings a duplicate deal is played with.

    shengji: as given, then the two teams swapped (every policy moves one seat
    on); baohuang: the policies moved round all five seats, so a single
    ``search`` sits once in every seat.  Other seat counts: every rotation.
    """
    n = len(policies)
    steps = [0, 1] if game == "shengji" else list(range(n))
    return [[policies[(s - r) % n] for s in range(n)] for r in steps]


def random_start(game: str, rng: random.Random):
    """A match to start a duplicate deal from, so deals cover the situations of
    a real match: shengji random team levels and dealer; baohuang a random
    previous result (hence tribute) three times in four
    (:func:`random_start_options`)."""
    return get_rules(game).new_match(None, random_start_options(game, rng))


def random_start_options(game: str, rng: random.Random) -> dict | None:
    """The ``start`` argument of ``new_match`` that :func:`random_start` uses
    (None: a fresh match), drawn from ``rng``; a head to head of two engine
    versions gives both the same one (``scripts/strength_vs.py``)."""
    if game == "shengji":
        levels = {"0": rng.choice(LEVELS[:-1]), "1": rng.choice(LEVELS[:-1])}
        return {"levels": levels, "dealer": rng.randrange(4)}
    if game == "baohuang":
        if rng.random() < 0.25:
            return None
        order = list(range(5))
        rng.shuffle(order)
        emperor = rng.randrange(5)
        if rng.random() < 0.1:
            prev = {"emperor": emperor, "guard": None, "solo": rng.choice(["open", "secret"]),
                    "guard_declared": None, "finish_order": order}
        else:
            guard = rng.choice([s for s in range(5) if s != emperor])
            prev = {"emperor": emperor, "guard": guard, "solo": None,
                    "guard_declared": "open" if rng.random() < 0.2 else "secret",
                    "finish_order": order}
        return {"previous": prev}
    return None


def _unit(game: str) -> str:
    return "levels" if game == "shengji" else "game points"


def play_duplicate_deal(game: str, policies: list[str], deal_seed: int,
                        budget_ms: float | None, max_worlds: int | None = None) -> dict:
    """Play one deal in every rotation; returns per-policy results per rotation.

    Returns ``{"points": {policy: [mean game points per rotation]},
    "levels": {policy: [levels gained per rotation]} (shengji),
    "times": {policy: [decision seconds]}, "decisions": n, "voided": n}``.
    A voided baohuang deal is redealt with the next seed (the table redeals, B8)
    so that every counted deal has a result.
    """
    rules = get_rules(game)
    search = _search_config(budget_ms, max_worlds)
    rng = random.Random(deal_seed)
    match = random_start(game, rng)
    out = {"points": {}, "levels": {}, "times": {}, "decisions": 0, "voided": 0}
    for attempt in range(20):
        seed = rng.getrandbits(63)
        deal = rules.deal(match, seed)
        results = []
        voided = False
        for r, seating in enumerate(rotations(game, policies)):
            bot_rng = random.Random(seed ^ (r + 1) * 0x9E3779B97F4A7C15)
            state = rules.start_hand(match, deal)
            clock = time.perf_counter
            while not rules.is_complete(state):
                seat = rules.to_act(state)
                t0 = clock()
                action = bot_decision(rules, state, seat, seating[seat], bot_rng, search)
                out["times"].setdefault(seating[seat], []).append(clock() - t0)
                state = rules.apply(state, action)
                out["decisions"] += 1
            summary = rules.summary(state)
            if summary.get("voided"):
                voided = True
                out["voided"] += 1
                break
            results.append((seating, summary))
        if voided:
            continue
        for seating, summary in results:
            points = summary.get("game_points") or {}
            for name in set(policies):
                seats = [s for s, p in enumerate(seating) if p == name]
                out["points"].setdefault(name, []).append(
                    statistics.fmean(float(points.get(str(s), 0)) for s in seats))
                gained = summary.get("levels_gained")
                if gained is not None:
                    teams = {s % 2 for s in seats}
                    out["levels"].setdefault(name, []).append(
                        statistics.fmean(float(gained[str(t)]) for t in teams))
        return out
    return out


def _duplicate_job(args):
    return play_duplicate_deal(*args)


@dataclass
class DuplicateReport:
    """Figures of a duplicate run: per deal, per policy, the mean over rotations."""

    game: str
    policies: list[str]
    deals: int = 0
    hands: int = 0
    voided: int = 0
    decisions: int = 0
    wall_seconds: float = 0.0
    points: dict[str, list[float]] = field(default_factory=dict)
    levels: dict[str, list[float]] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)
    #: The machine's 1-minute load average as each deal ended (where the run
    #: samples it): a budget is wall time, so on a loaded machine every bot
    #: gets fewer worlds a decision than on an idle one.
    loads: list[float] = field(default_factory=list)

    def difference(self, a: str, b: str) -> Interval:
        """Per deal: policy ``a``'s mean result minus ``b``'s, in the game's unit
        (levels gained per hand for shengji, game points per hand for baohuang)."""
        src = self.levels if self.game == "shengji" else self.points
        return interval([x - y for x, y in zip(src[a], src[b])])


def run_duplicate(game: str, deals: int, seed: int, policies: list[str],
                  budget_ms: float | None = None, jobs: int = 1,
                  max_seconds: float | None = None,
                  max_worlds: int | None = None) -> DuplicateReport:
    """Duplicate simulation: ``deals`` deals, each played in every
    rotation of :func:`rotations` from a random match start; ``jobs`` worker
    processes; ``max_worlds`` caps the worlds a search decision samples.
    Reproducible for a given seed when no time budget decides (search bots
    with a time budget play as far as the clock lets them)."""
    rules = get_rules(game)
    if len(policies) != rules.seats:
        raise ValueError(f"{game} needs {rules.seats} policies, got {len(policies)}")
    master = random.Random(seed)
    seeds = [master.getrandbits(63) for _ in range(deals)]
    report = DuplicateReport(game=game, policies=list(policies))
    started = time.perf_counter()
    tasks = [(game, list(policies), s, budget_ms, max_worlds) for s in seeds]

    def absorb(res):
        if not res["points"]:
            return
        report.deals += 1
        report.voided += res["voided"]
        report.decisions += res["decisions"]
        first = next(iter(res["points"].values()))
        report.hands += len(first)
        for name, xs in res["points"].items():
            report.points.setdefault(name, []).append(statistics.fmean(xs))
        for name, xs in res["levels"].items():
            report.levels.setdefault(name, []).append(statistics.fmean(xs))
        for name, xs in res["times"].items():
            report.times.setdefault(name, []).extend(xs)

    if jobs <= 1:
        for t in tasks:
            absorb(_duplicate_job(t))
            if max_seconds is not None and time.perf_counter() - started > max_seconds:
                break
    else:

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for res in pool.imap(_duplicate_job, tasks):
                absorb(res)
                if max_seconds is not None and time.perf_counter() - started > max_seconds:
                    pool.terminate()
                    break
    report.wall_seconds = time.perf_counter() - started
    return report


def format_duplicate(report: DuplicateReport) -> str:
    """The duplicate figures; the last line is the one asks for."""
    unit = _unit(report.game)
    lines = [
        f"game: {report.game}  policies: {','.join(report.policies)}  duplicate",
        f"deals: {report.deals}  hands: {report.hands} (voided and redealt {report.voided})"
        f"  decisions: {report.decisions}  wall: {report.wall_seconds:.1f} s",
    ]
    lines += _decision_lines(report.times)
    for name in sorted(report.points):
        lines.append(f"game points per hand, policy {name}: {interval(report.points[name])}")
    for name in sorted(report.levels):
        lines.append(f"levels gained per hand, policy {name}: {interval(report.levels[name])}")
    names = sorted(set(report.policies))
    if "search" in names and "heuristic" in names:
        a, b = "search", "heuristic"
    elif len(names) == 2:
        a, b = names
    else:
        return "\n".join(lines)
    d = report.difference(a, b)
    lines.append(
        f"difference {a} − {b}: {d.mean:+.3f} {unit} per hand "
        f"(95% CI [{d.low:+.3f}, {d.high:+.3f}], n={d.n} deals)"
    )
    return "\n".join(lines)
