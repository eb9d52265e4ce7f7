"""Hand review: the search bot judges every decision of a finished hand.

For each decision of each seat the game's hook
(:meth:`~games.engine.base.GameRules.review_problem`) describes what the
search bot would compare *from that seat's information at that moment*: a
short list of candidate actions (the search's own candidates plus the move
actually made), a sampler of *worlds* consistent with the seat's view (never
the real hidden cards) and a play-out that scores one candidate in one world
by the seat's real result.  :func:`evaluate_decision` plays every candidate in
the same sampled worlds with the same play-out seed (common random numbers, as
:func:`~games.engine.search.flat_monte_carlo` does) and reports:

* ``expected``: the mean result of the move played (the point of the graph);
* ``best``: the candidate with the best mean result and its mean;
* ``loss``: best mean minus played mean, ≥ 0, in the game's unit (its
  :attr:`~games.engine.base.GameRules.review_unit`: the seat's result as the
  game's search bot values it, see each game's ``review`` module), the best
  chosen on half of the worlds and measured on the other half (both ways,
  averaged; :func:`_held_out_loss`), so that the noise of several means does
  not make the best move look better than the one played;
* ``se``: the standard error of that paired difference over the ``worlds``
  sampled — the confidence of the figure (more worlds, smaller ``se``);
* ``all_cards_loss``: the same comparison in the real deal only (labelled
  "with all cards" where shown: it judges by cards the player could not see).

Classes (:func:`classify`) use the game's thresholds
(:attr:`ReviewUnit.thresholds`, loss in the game's unit) on the lower end of
the loss's confidence range (``loss`` minus :data:`CONFIDENCE` standard
errors): a decision is flagged only when its loss is both large and
confident; with few worlds an apparent loss may be the luck of the sample.

Accuracy of a seat over a hand (:func:`accuracy`): ``100 × exp(−max(0, mean
loss) / scale)``, the mean over its unforced decisions of the unclipped
held-out losses, ``scale`` the game's mistake threshold: a seat that loses
nothing scores 100, one that loses a mistake per decision ≈ 37.  The mean is
taken first because one decision's estimate is noisy: averaging per-decision
scores of clipped losses turned that noise into lost accuracy (on the test
hands the random seat of one game then scored 83 and the search seats 82; with the
mean first, ≈ 69 against 100).
Its confidence (:func:`accuracy_interval`): the same formula at the mean
loss ± :data:`INTERVAL_Z` standard errors of that mean (each decision's
``se``, the decisions' worlds being drawn independently), so that a seat's
accuracy from a few noisy decisions shows as the wide range it is (a hand of
18 decisions, a 3 s budget for the hand: accuracy 38, range 17–87) rather than a
figure to be trusted to the unit.

Budget: worlds, not time.  :func:`review_hand` samples ``worlds`` worlds
(default :data:`DEFAULT_WORLDS`) an unforced decision on average, in two
rounds: :data:`PILOT_WORLDS` for every decision, then the rest of the hand's
budget to the decisions in proportion to how much their candidates' results
spread (:func:`allocate`: a decision where every candidate scored as the
move in every world needs no more, one whose play-outs swing by doublings
needs many).  A review is a pure function of the record, ``seed`` and
``worlds``: the same hand
reviewed on a busy or an idle, a slow or a fast machine gets the same
verdicts, only sooner or later.  ``budget_ms`` is an optional cap on *this
thread's CPU time* (``time.thread_time``) for the hand, a protection against a
runaway review: once spent, the decisions left get :data:`MIN_WORLDS` worlds
each and the review counts them (``capped``).

Pure Python; no Django.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

from .base import Action, GameRules, RecordError
from .base import IllegalAction
from .records import replay_record
from . import get_rules

#: Classes of a decision, best first.
VERDICTS = ("fine", "inaccuracy", "mistake", "blunder")
#: A decision is classed by the lower end of its loss's confidence range,
#: ``loss - CONFIDENCE * se``: flagged only when the loss is both large (that
#: lower end reaches the inaccuracy threshold) and confident (≈ 99.9 %
#: one-sided at 3 standard errors).  Calibrated with scripts/review_figures.py
#: on seeded hands of one random seat among search seats (seeds 1001-1006, 8
#: worlds a decision, docs/review.md): the old rule (loss beyond 2.33
#: standard errors and above the threshold) flagged one game's search seats 2.3 %
#: of the time against the random seat's 3.0 % (ratio 1.3, and only 38 % of
#: its flags were flagged again at 80 worlds); this one at 3 flags them
#: 0.5 % against 2.7 % (ratio 4.9; 50 % flagged again at 80 worlds).
CONFIDENCE = 3.0
#: Standard errors each side of a seat's mean loss for its accuracy's range
#: (≈ 95 %, two-sided).
INTERVAL_Z = 1.96
#: Worlds every unforced decision gets whatever the budget (the first one is
#: needed to have a figure at all; two give a standard error).
MIN_WORLDS = 2
#: Worlds sampled for each unforced decision by default: the review's budget,
#: so that its verdicts do not depend on the machine's speed (docs/review.md).
#: 32 since session 38 (8 before): the best is picked on half of them, and a
#: review that picks on four worlds judges a search bot of tens of worlds
#: (the site's samples a median of 12 to 66 a decision at its default
#: budget, by game) with a weaker eye than the bot's.  On thirty hands of one
#: random seat among such bots, the random seat's mean loss was the worst in
#: 16–17 of 30 hands at 8 worlds and 20–24 at 32 in one game, 23 and 26 in
#: the other (docs/review.md, session 38).
DEFAULT_WORLDS = 32
#: Worlds every unforced decision gets in the review's first round; the rest
#: of the hand's budget (``worlds`` a decision on average) goes in a second
#: round to the decisions by their spread (:func:`allocate`), at most
#: :data:`MAX_SHARE` times ``worlds`` each.  A budget of ``PILOT_WORLDS``
#: worlds or fewer is spent evenly.
PILOT_WORLDS = 8
MAX_SHARE = 4
#: Worlds a decision needs before it may be flagged: below it the loss is
#: not held out (:func:`_held_out_loss` needs two halves of two) and a
#: standard error of two or three worlds is no confidence at all (two worlds
#: that happen to agree give ``se`` 0).  Only a review cut short by its CPU
#: cap has such decisions (``capped``): they count in the seats' figures
#: but are never flagged.  Before this floor, a hand reviewed under a 300 ms
#: cap (two worlds a decision) flagged 2–13 decisions where the same hand at
#: eight worlds flagged 1–5 (eight heuristic hands, docs/review.md).
FLAG_MIN_WORLDS = 4
#: The site's CPU cap per hand, milliseconds (``GAMES_REVIEW_BUDGET_MS``
#: overrides it there): a protection against a runaway review, set well
#: above a hand's need.  At 8 worlds a hand needed about 1.5–3 s of CPU on
#: session 14's machine and 5.6–10 s on session 35's (a slower machine,
#: loaded by CI): the old cap of 4 s cut most hands short there.  At
#: :data:`DEFAULT_WORLDS` (32) a hand needs 3.6–7.7 s in pure Python and
#: 2.2–2.9 s compiled on session 38's idle machine, about four times the
#: 8-world figure: the cap went from 20 s to 60 s with it.  A hand that
#: reaches it counts the decisions cut short (``capped``; see
#: :data:`FLAG_MIN_WORLDS`).
DEFAULT_HAND_BUDGET_MS = 60_000.0


@dataclass(frozen=True)
class ReviewUnit:
    """A game's unit of result and its class thresholds.

    ``name``: what one unit is (``"game points"``, ``"levels"``);
    ``thresholds``: losses at which a decision becomes an inaccuracy, a
    mistake, a blunder (increasing, same unit); ``scale``: the loss at which
    the accuracy of one decision falls to 1/e (the mistake threshold)."""

    name: str
    thresholds: tuple[float, float, float]

    @property
    def scale(self) -> float:
        return self.thresholds[1]


@dataclass
class ReviewProblem:
    """One decision as the game's hook hands it to the reviewer.

    ``candidates``: game-specific objects (the played move among them, at
    index ``played``); ``sample(rng)``: a world drawn from the seat's
    information set, or None when none can be drawn; ``evaluate(world,
    candidate, rng)``: the seat's result after the candidate and a play-out;
    ``to_action(candidate)``: the engine :class:`Action`; ``real``: the true
    state (for the "with all cards" figure)."""

    candidates: Sequence[Any]
    played: int
    sample: Callable[[random.Random], Any]
    evaluate: Callable[[Any, Any, random.Random], float]
    to_action: Callable[[Any], Action]
    real: Any = None


@dataclass
class DecisionReview:
    """The review of one decision: ``index`` in the hand's action log,
    ``seat``, ``played`` and ``best`` as action records (``{"seat": 0,
    "play": ["AS"]}``), ``expected`` (mean result of the move played) and
    ``best_expected``, ``loss`` = their difference (≥ 0), ``se`` its standard
    error over ``worlds`` worlds, ``verdict`` (one of :data:`VERDICTS`, or
    ``"forced"`` when there was one candidate), ``all_cards_loss`` (None when
    not computed), ``phase``; ``raw_loss``: the held-out estimate before it
    is clipped at 0 (unbiased, so it may be negative; seat means use it)."""

    index: int
    seat: int
    phase: str
    played: dict
    best: dict
    expected: float
    best_expected: float
    loss: float
    se: float
    worlds: int
    verdict: str
    all_cards_loss: float | None = None
    raw_loss: float = 0.0

    @property
    def flagged(self) -> bool:
        return self.verdict not in ("fine", "forced")


@dataclass
class SeatReview:
    """A seat's figures over the hand: ``decisions`` (unforced), ``mean_loss``
    per decision (the mean of the decisions' unclipped held-out estimates,
    ``raw_loss``: clipping each at 0 would turn the noise of every fine move
    into a loss), ``accuracy`` (0–100), counts per verdict, and
    ``accuracy_range`` (``[low, high]``, :func:`accuracy_interval`; None
    without decisions)."""

    seat: int
    decisions: int
    mean_loss: float
    accuracy: float | None
    counts: dict[str, int] = field(default_factory=dict)
    accuracy_range: list[float] | None = None


@dataclass
class HandReview:
    """The review of one hand: ``game``, ``unit`` (name), ``thresholds``,
    ``decisions`` (every decision in log order), ``seats``, ``cpu_ms`` spent,
    ``budget_ms`` the CPU cap given (None: none), ``worlds`` per unforced
    decision (the budget), ``capped``: decisions that got fewer because the
    cap was reached (0 for a review that is a pure function of its inputs)."""

    game: str
    unit: str
    thresholds: tuple[float, float, float]
    decisions: list[DecisionReview]
    seats: list[SeatReview]
    cpu_ms: float
    budget_ms: float | None
    worlds: int = 0
    capped: int = 0

    def to_json(self) -> dict:
        """A JSON-able dict (what the site stores)."""
        return {
            "game": self.game, "unit": self.unit, "thresholds": list(self.thresholds),
            "decisions": [asdict(d) for d in self.decisions],
            "seats": [asdict(s) for s in self.seats],
            "cpu_ms": round(self.cpu_ms, 1), "budget_ms": self.budget_ms,
            "worlds": self.worlds, "capped": self.capped,
        }

    def flagged(self) -> list[DecisionReview]:
        return [d for d in self.decisions if d.flagged]


def classify(loss: float, se: float, unit: ReviewUnit, worlds: int | None = None) -> str:
    """The verdict of a decision losing ``loss`` (± ``se``) in ``unit``: the
    highest class whose threshold the lower end ``loss - CONFIDENCE * se``
    reaches, ``"fine"`` when it reaches none (a loss that is small, or not
    distinguishable from none on the worlds sampled).  A negative ``se``
    (unknown: fewer than two worlds) counts as 0.  ``worlds``, if given, is
    the number of worlds the figures come from: below
    :data:`FLAG_MIN_WORLDS` the verdict is ``"fine"`` whatever the loss.

    >>> unit = ReviewUnit("points", (0.5, 1.0, 2.0))
    >>> classify(1.2, 0.1, unit), classify(1.2, 0.0, unit), classify(1.2, 0.3, unit)
    ('inaccuracy', 'mistake', 'fine')
    >>> classify(1.2, 0.0, unit, worlds=2), classify(1.2, 0.0, unit, worlds=4)
    ('fine', 'mistake')
    """
    if worlds is not None and worlds < FLAG_MIN_WORLDS:
        return "fine"
    low = loss - CONFIDENCE * max(0.0, se)
    verdict = "fine"
    for name, limit in zip(VERDICTS[1:], unit.thresholds):
        if low >= limit:
            verdict = name
    return verdict


def _score(mean_loss: float, unit: ReviewUnit) -> float:
    return 100.0 * math.exp(-max(0.0, mean_loss) / unit.scale)


def accuracy(losses: Sequence[float], unit: ReviewUnit) -> float | None:
    """``100 × exp(−max(0, mean(losses)) / unit.scale)`` of the unclipped
    (held-out) losses of a seat's decisions; None for no decisions."""
    if not losses:
        return None
    return _score(sum(losses) / len(losses), unit)


def accuracy_interval(losses: Sequence[float], ses: Sequence[float],
                      unit: ReviewUnit, z: float = INTERVAL_Z) -> list[float] | None:
    """``[low, high]``: :func:`accuracy` at the mean of ``losses`` plus and
    minus ``z`` standard errors of that mean, ``sqrt(Σ se²) / n`` from the
    decisions' standard errors ``ses`` (a negative ``se``, unknown, counts as
    0: such a decision had fewer than two worlds, hence no loss either).
    None for no decisions.

    >>> unit = ReviewUnit("levels", (0.5, 1.0, 2.0))
    >>> [round(x, 1) for x in accuracy_interval([0.2, 0.2], [0.0, 0.0], unit)]  # certain
    [81.9, 81.9]
    >>> # mean 0.2 ± 1.96 × sqrt(0.3² + 0.3²) / 2 = 0.2 ± 0.416
    >>> [round(x, 1) for x in accuracy_interval([0.2, 0.2], [0.3, 0.3], unit)]
    [54.0, 100.0]
    """
    if not losses:
        return None
    n = len(losses)
    mean = sum(losses) / n
    half = z * math.sqrt(sum(max(0.0, se) ** 2 for se in ses)) / n
    return [_score(mean + half, unit), _score(mean - half, unit)]


def _variance(xs: Sequence[float]) -> float:
    """The sample variance of ``xs`` (two or more values)."""
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


class _Estimate:
    """The running figures of one decision: every candidate played out in
    each world sampled so far (common random numbers), more worlds added by
    :meth:`sample` (the reviewer samples in two rounds, :func:`review_hand`)."""

    def __init__(self, problem: ReviewProblem, rng: random.Random):
        self.problem, self.rng = problem, rng
        n = len(problem.candidates)
        self.sums = [0.0] * n
        self.diffs: list[list[float]] = [[] for _ in range(n)]
        self.worlds = 0
        self.failures = 0
        self.cut = False  # stopped by the deadline before its target

    def sample(self, target: int | None, deadline: float | None, min_worlds: int,
               clock: Callable[[], float], pause: Callable[[], None] | None) -> None:
        """Sample worlds until ``target`` in all (None: no target) or, once
        ``min_worlds`` are done, until ``clock()`` passes ``deadline``."""
        problem = self.problem
        while target is None or self.worlds < target:
            if self.worlds >= min_worlds and deadline is not None and clock() > deadline:
                self.cut = target is not None
                break
            if deadline is None and target is None and self.worlds >= min_worlds:
                break
            if self.failures > 3:
                break
            if pause is not None:
                pause()
            seed = self.rng.getrandbits(62)
            world = problem.sample(random.Random(seed))
            if world is None:
                self.failures += 1
                continue
            results = [problem.evaluate(world, c, random.Random(seed ^ 0x5DEECE66D))
                       for c in problem.candidates]
            base = results[problem.played]
            for i, r in enumerate(results):
                self.sums[i] += r
                self.diffs[i].append(r - base)
            self.worlds += 1

    def spread(self) -> float:
        """The largest standard deviation, over the worlds so far, of a
        candidate's difference to the move played (0 when every candidate
        scored as the move in every world; 0 below two worlds)."""
        if self.worlds < 2:
            return 0.0
        return math.sqrt(max(_variance(d) for d in self.diffs))

    def result(self) -> dict:
        """:func:`evaluate_decision`'s answer for the worlds so far."""
        problem, worlds = self.problem, self.worlds
        n = len(problem.candidates)
        if not worlds:
            return {"means": [0.0] * n, "played": problem.played, "best": problem.played,
                    "loss": 0.0, "raw_loss": 0.0, "se": 0.0, "worlds": 0, "cut": self.cut}
        means = [s / worlds for s in self.sums]
        best = max(range(n), key=lambda i: (means[i], i == problem.played))
        d = self.diffs[best]
        raw = _held_out_loss(self.diffs, problem.played) if worlds >= 4 else sum(d) / worlds
        loss = max(0.0, raw)
        se = math.sqrt(_variance(d) / worlds) if worlds > 1 else float("inf")
        return {"means": means, "played": problem.played, "best": best, "loss": loss,
                "raw_loss": raw, "se": se, "worlds": worlds, "cut": self.cut}


def evaluate_decision(problem: ReviewProblem, rng: random.Random, deadline: float | None,
                      max_worlds: int | None, min_worlds: int = MIN_WORLDS,
                      clock: Callable[[], float] = time.thread_time,
                      pause: Callable[[], None] | None = None) -> dict:
    """Means of every candidate over sampled worlds (common random numbers).

    Samples worlds until ``clock()`` passes ``deadline`` (once ``min_worlds``
    are done) or ``max_worlds`` are done.  ``pause``, if given, is called
    before each world (a governor may sleep there: sleeping spends no
    ``thread_time``, so the budget is unchanged).  Returns ``{"means": [...],
    "played": i, "best": j, "loss": x, "se": s, "worlds": n, "cut": bool}``
    (``cut``: the deadline stopped it before ``max_worlds``); ``worlds`` may
    be 0 when no world can be drawn (then every figure is 0)."""
    est = _Estimate(problem, rng)
    est.sample(max_worlds, deadline, min_worlds, clock, pause)
    return est.result()


def allocate(spreads: Sequence[float], budget: int, cap: int) -> list[int]:
    """Extra worlds for decisions of ``spreads`` (each one's standard
    deviation so far): ``budget`` in all, each in proportion to its spread
    (Neyman's allocation: it minimizes ``Σ spread² / worlds``, the variance
    of a seat's mean loss), at most ``cap`` each; what the cap holds back
    goes to the others in the same proportion.  Decisions of spread 0 get
    none, so the budget may be left partly unspent.  Whole worlds by largest
    remainders (ties to the earlier decision): a pure function.

    >>> allocate([0.0, 1.0, 3.0], 8, 100)
    [0, 2, 6]
    >>> allocate([1.0, 1.0, 8.0], 12, 6)  # the third is capped, the rest shared
    [3, 3, 6]
    >>> allocate([0.0, 0.0], 10, 5)
    [0, 0]
    """
    n = len(spreads)
    out = [0] * n
    free = [i for i in range(n) if spreads[i] > 0]
    left = budget
    while free and left > 0:
        total = sum(spreads[i] for i in free)
        share = {i: left * spreads[i] / total for i in free}
        over = [i for i in free if share[i] >= cap]
        if not over:
            floors = {i: int(share[i]) for i in free}
            for i in free:
                out[i] = floors[i]
            rest = left - sum(floors.values())
            for i in sorted(free, key=lambda i: (-(share[i] - floors[i]), i))[:rest]:
                out[i] += 1
            return out
        for i in over:
            out[i] = cap
            left -= cap
        free = [i for i in free if share[i] < cap]
    return out


def _held_out_loss(diffs: list[list[float]], played: int) -> float:
    """The loss with the best candidate chosen on one half of the worlds and
    measured on the other (both ways, averaged): the best of several noisy
    means is biased upwards, so measuring it on the worlds that chose it
    would find a loss even for the best move."""
    n = len(diffs[0])
    halves = (range(0, n, 2), range(1, n, 2))
    total = 0.0
    for pick, judge in (halves, halves[::-1]):
        best = max(range(len(diffs)), key=lambda i: (sum(diffs[i][w] for w in pick), i == played))
        total += sum(diffs[best][w] for w in judge) / len(judge)
    return total / 2


def _all_cards_loss(problem: ReviewProblem, rng: random.Random, playouts: int = 2) -> float:
    """Best minus played in the real deal, over ``playouts`` play-out seeds."""
    n = len(problem.candidates)
    sums = [0.0] * n
    for _ in range(playouts):
        seed = rng.getrandbits(62)
        for i, c in enumerate(problem.candidates):
            sums[i] += problem.evaluate(problem.real, c, random.Random(seed))
    return max(0.0, (max(sums) - sums[problem.played]) / playouts)


def review_hand(rules: GameRules, match: Any, deal: Any, actions: Sequence[Action],
                budget_ms: float | None = None, max_worlds: int | None = None,
                seed: int = 0, all_cards: bool = True,
                clock: Callable[[], float] = time.thread_time,
                pause: Callable[[], None] | None = None,
                worlds: int | None = None) -> HandReview:
    """Review every decision of the hand ``actions`` played from ``match`` and
    ``deal`` (see the module docstring for the figures and the budget).

    ``worlds``: worlds sampled an unforced decision on average (default
    ``max_worlds`` if given, else :data:`DEFAULT_WORLDS`; :data:`PILOT_WORLDS`
    each first, the rest by :func:`allocate`): the budget, so the review is a
    pure function of the record, ``seed`` and ``worlds`` (a machine's speed
    changes only how long it takes).  ``budget_ms``: an optional cap on this
    thread's CPU milliseconds for the hand (None: no cap); once it is spent
    the decisions left get :data:`MIN_WORLDS` worlds each in the first round
    and none more in the second, and :attr:`HandReview.capped` counts them
    (a capped review is no longer machine-independent; the site's cap is set well above a hand's
    need).  ``pause``, if given, is called before each sampled world and each
    "with all cards" play-out: the site's governor sleeps there while live
    tables keep the machine busy (``games.runtime.governor``); the figures do
    not depend on it.

    Raises :class:`~games.engine.base.IllegalAction` if an action is illegal
    and ``ValueError`` if the game has no reviewer (its ``review_problem``
    returns None for every decision and it names no :attr:`review_unit`)."""
    if worlds is None:
        worlds = max_worlds if max_worlds is not None else DEFAULT_WORLDS
    worlds = max(MIN_WORLDS, int(worlds))
    unit = getattr(rules, "review_unit", None)
    if unit is None:
        raise ValueError(f"{rules.game} has no reviewer")
    started = clock()
    rng = random.Random(seed)
    state = rules.start_hand(match, deal)
    problems: list[tuple[int, str, Any, ReviewProblem | None, Action]] = []
    for i, action in enumerate(actions):
        phase = rules.phase(state)
        problem = rules.review_problem(state, action, random.Random(rng.getrandbits(62)))
        problems.append((i, phase, state, problem, action))
        state = rules.apply(state, action)
    end = None if budget_ms is None else started + budget_ms / 1000.0
    # First round: every unforced decision gets PILOT_WORLDS (all its worlds
    # when the budget is no larger).
    pilot = min(worlds, PILOT_WORLDS)
    estimates: dict[int, _Estimate] = {}
    all_cards_losses: dict[int, float] = {}
    for i, _phase, _st, problem, _action in problems:
        if problem is None or len(problem.candidates) < 2:
            continue
        est = estimates[i] = _Estimate(problem, random.Random(rng.getrandbits(62)))
        est.sample(pilot, end, MIN_WORLDS, clock, pause)
        if all_cards and problem.real is not None:
            if pause is not None:
                pause()
            all_cards_losses[i] = _all_cards_loss(problem, random.Random(rng.getrandbits(62)),
                                                  playouts=1)
    # Second round: the rest of the budget by spread (Neyman's allocation).
    if worlds > pilot and estimates:
        order = list(estimates)
        extra = allocate([estimates[i].spread() for i in order],
                         (worlds - pilot) * len(order), MAX_SHARE * worlds - pilot)
        for i, k in zip(order, extra):
            est = estimates[i]
            if k and not est.cut:
                est.sample(est.worlds + k, end, MIN_WORLDS, clock, pause)
    capped = 0
    reviews: list[DecisionReview] = []
    for i, phase, _st, problem, action in problems:
        record = action.to_record()
        if i not in estimates:
            reviews.append(DecisionReview(i, action.seat, phase, record, record, 0.0, 0.0,
                                          0.0, 0.0, 0, "forced"))
            continue
        res = estimates[i].result()
        capped += res["cut"]  # the cap, not a sampler that found no world
        best = problem.to_action(problem.candidates[res["best"]]).to_record()
        ac = all_cards_losses.get(i)
        se = res["se"]
        reviews.append(DecisionReview(
            i, action.seat, phase, record, best if res["loss"] > 0 else record,
            res["means"][res["played"]], res["means"][res["best"]], res["loss"],
            se if math.isfinite(se) else -1.0, res["worlds"],
            classify(res["loss"], se, unit, res["worlds"]), ac, res["raw_loss"]))
    seats = []
    for s in range(rules.seats):
        mine = [d for d in reviews if d.seat == s and d.verdict != "forced"]
        losses = [d.loss for d in mine]
        raw = [d.raw_loss for d in mine]
        counts = {v: sum(1 for d in mine if d.verdict == v) for v in VERDICTS}
        seats.append(SeatReview(s, len(mine), sum(raw) / len(raw) if raw else 0.0,
                                accuracy(raw, unit), counts,
                                accuracy_interval(raw, [d.se for d in mine], unit)))
    return HandReview(rules.game, unit.name, unit.thresholds, reviews, seats,
                      1000.0 * (clock() - started), budget_ms, worlds, capped)


def review_record(record: Any, hand: int = -1, **kwargs) -> HandReview:
    """Review hand number ``hand`` (default the last) of a hand record
    (``docs/spec/hand-record.md``), replaying the hands before it for the
    match carried in.  Raises :class:`RecordError` on a record that is not
    valid, or whose hand is illegal or not complete (a review needs a finished
    hand).  ``kwargs`` go to :func:`review_hand`."""

    try:
        out, status = replay_record(record)
    except RecordError:
        raise
    if status != 0:
        raise RecordError(f"the record has an illegal action: {out.get('error', {}).get('message')}")
    hands = record["hands"]
    if not hands:
        raise RecordError("the record has no hand")
    if hand < 0:
        hand += len(hands)
    if not 0 <= hand < len(hands):
        raise RecordError(f"the record has no hand {hand}")
    if not out["hands"][hand].get("complete"):
        raise RecordError(f"hand {hand} is not complete: only finished hands are reviewed")

    rules = get_rules(record["game"])
    match = rules.new_match(record.get("options"), record.get("start"))
    for h in range(hand):
        deal = rules.deal_from_record(match, hands[h])
        state = rules.start_hand(match, deal)
        for a in hands[h].get("actions", []):
            state = rules.apply(state, Action.from_record(a, rules.seats))
        match = rules.next_match(match, state)
    deal = rules.deal_from_record(match, hands[hand])
    actions = [Action.from_record(a, rules.seats) for a in hands[hand].get("actions", [])]
    try:
        return review_hand(rules, match, deal, actions, **kwargs)
    except IllegalAction as exc:  # pragma: no cover - replay_record checked it
        raise RecordError(exc.message) from None


def review_inputs_json(game: str, start: dict, deal: dict, payloads: list[dict],
                       budget_ms: float | None, seed: int,
                       worlds: int | None = None,
                       pause: Callable[[], None] | None = None) -> dict:
    """:func:`review_hand` of a stored hand given as plain data (``start``:
    ``{"options", "start"}`` as ``match_to_json`` gives; ``deal`` as
    ``deal_to_record``; ``payloads``: the action records), returning
    :meth:`HandReview.to_json`.  Plain data in and out, so that it may run in
    another process (the embedded topology's low-priority review process);
    ``budget_ms`` (a CPU cap), ``worlds`` and ``pause`` as for
    :func:`review_hand`."""

    rules = get_rules(game)
    match = rules.new_match(**start)
    deal_obj = rules.deal_from_record(match, deal)
    actions = [Action.from_record(p, rules.seats) for p in payloads]
    return review_hand(rules, match, deal_obj, actions, budget_ms=budget_ms,
                       seed=seed, pause=pause, worlds=worlds).to_json()


def format_review(review: HandReview) -> str:
    """Human-readable: per seat decisions, mean loss, accuracy (its 95 %
    range in brackets); then the
    flagged decisions (index, seat, verdict, loss ± se, move played, better move)."""
    lines = [f"game: {review.game}  unit: {review.unit}  thresholds (inaccuracy/mistake/"
             f"blunder): {'/'.join(f'{t:g}' for t in review.thresholds)}  cpu: "
             f"{review.cpu_ms:.0f} ms"
             + (f" (cap {review.budget_ms:.0f} ms)" if review.budget_ms is not None else "")
             + f"  worlds per decision: {review.worlds}"
             + (f" ({review.capped} decisions cut short by the cap)" if review.capped else "")]
    for s in review.seats:
        acc = "-" if s.accuracy is None else f"{s.accuracy:.1f}"
        if s.accuracy_range is not None:
            acc += f" ({s.accuracy_range[0]:.0f}-{s.accuracy_range[1]:.0f})"
        lines.append(f"seat {s.seat}: decisions {s.decisions}  mean loss {s.mean_loss:.3f}"
                     f"  accuracy {acc}  " + " ".join(f"{k} {v}" for k, v in s.counts.items()))
    flagged = review.flagged()
    lines.append(f"flagged decisions: {len(flagged)}")
    for d in flagged:
        lines.append(f"  #{d.index} seat {d.seat} {d.verdict}: loss {d.loss:.2f} ± {d.se:.2f}"
                     f" ({d.worlds} worlds)  played {_move(d.played)}  better {_move(d.best)}")
    return "\n".join(lines)


def _move(record: dict) -> str:
    verb, arg = next((k, v) for k, v in record.items() if k != "seat")
    if isinstance(arg, list):
        return f"{verb} {' '.join(arg)}"
    if arg is True:
        return verb
    return f"{verb} {arg}"
