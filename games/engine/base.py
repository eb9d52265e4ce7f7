"""The contract every game engine implements, and the types it shares.

Each game lives in its own package (``games.engine.baohuang``,
``games.engine.shengji``) and exposes a module-level ``RULES`` object that
satisfies :class:`GameRules`.  The site, the bots, ``replay`` and ``simulate``
talk to a game only through this contract, so they never need to know a rule.

Life of a hand::

    rules = get_rules("baohuang")
    match = rules.new_match({"multiplier": 1})          # or from a record's "start"
    deal = rules.deal(match, seed)                       # seeded shuffle (C3)
    state = rules.start_hand(match, deal)                # automatic steps done
    while not rules.is_complete(state):
        seat = rules.to_act(state)
        action = rules.bot_action(state, seat, "heuristic", rng)
        state = rules.apply(state, action)               # raises IllegalAction
    summary = rules.summary(state)                       # hand-record output object
    match = rules.next_match(match, state)               # levels / tribute carried

States are immutable: ``apply`` returns a new state and never changes the old one,
so a refused action leaves the state exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .cards import Card, CardError, format_cards, parse_cards

#: Verbs whose argument is a list of cards.
CARD_VERBS = frozenset({"play", "bid", "bury"})
#: Verbs whose argument is ``true`` in records.
FLAG_VERBS = frozenset({"pass", "yield"})
#: Verbs whose argument is a string choice.
CHOICE_VERBS = frozenset({"crown", "solo", "guard", "trump"})
#: ``give`` (還牌, S14): a mapping loser seat -> cards.
ALL_VERBS = CARD_VERBS | FLAG_VERBS | CHOICE_VERBS | {"give"}


@dataclass(frozen=True, slots=True)
class Ranking:
    """A completed hand's result as ranked sides (the input of a team rating
    model such as openskill's ``rate(teams, ranks=...)``).

    ``teams`` are tuples of seats, every seat of the table in exactly one
    team; ``ranks`` gives one rank per team, 1 = best; equal ranks are a draw
    between those teams.  Teams may differ in size (保皇: a solo emperor
    against four rebels).
    """

    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


def gettext_noop(message: str) -> str:
    """Marks a label for translation without importing Django (the site
    translates it when shown; ``makemessages`` finds the marked strings)."""
    return message


@dataclass(frozen=True, slots=True)
class RecordStat:
    """One line of a player's per-game record (profile): ``key`` in the
    dicts of :meth:`GameRules.seat_stats`, a ``label`` (zh-Hans, marked for
    translation) and how values add up over hands: ``"rate"`` (the mean of
    0/1 values, shown as a percentage), ``"mean"`` (per hand) or ``"total"``."""

    key: str
    label: str
    kind: str


class IllegalAction(Exception):
    """An action the rules refuse.

    ``message`` is a sentence a player understands (it names the rule, e.g.
    ``"must follow hearts: you hold 3"``); ``rule`` is the ruling id (``"S9"``,
    ``"B4"`` …) or ``None``.  The state the action was applied to is unchanged.
    """

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule


class RecordError(ValueError):
    """A hand record (or action payload) that is not valid at all: bad JSON
    shape, unknown card, wrong deck or hand sizes.  ``replay`` exits 2 on it."""


@dataclass(frozen=True, slots=True)
class Action:
    """One decision by one seat: exactly one verb and its argument.

    ``arg`` by verb: ``play``/``bid``/``bury`` a tuple of :class:`Card`;
    ``pass``/``yield`` ``True``; ``crown`` ``"accept"|"pass"``; ``solo`` and
    ``guard`` ``"open"|"secret"``; ``trump`` a suit letter; ``give`` a tuple of
    ``(loser_seat, cards)`` pairs sorted by seat.

    >>> a = Action.from_record({"seat": 2, "play": ["AC", "10C"]})
    >>> a.to_record()
    {'seat': 2, 'play': ['AC', 'TC']}
    """

    seat: int
    verb: str
    arg: Any = True

    def __init__(self, seat: int, verb: str, arg: Any = True):
        # Written out (the dataclass keeps it): the generated frozen __init__
        # sets each field through object.__setattr__; the slots' own setters
        # do the same assignment about three times faster.  Same signature,
        # same fields, still frozen (assigning later raises FrozenInstanceError).
        _set_seat(self, seat)
        _set_verb(self, verb)
        _set_arg(self, arg)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards of a card verb (empty for others)."""
        return self.arg if self.verb in CARD_VERBS else ()

    def to_record(self) -> dict:
        """The hand-record JSON form (``docs/spec/hand-record.md``)."""
        if self.verb in CARD_VERBS:
            value: Any = format_cards(self.arg)
        elif self.verb == "give":
            value = {str(seat): format_cards(cards) for seat, cards in self.arg}
        else:
            value = self.arg
        return {"seat": self.seat, self.verb: value}

    @classmethod
    def from_record(cls, data: Any, seats: int | None = None) -> "Action":
        """Parse a record action; raise :class:`RecordError` if malformed.

        Checks the shape only (seat range, one known verb, card codes); whether
        the action is legal is the engine's business.
        """
        if not isinstance(data, dict):
            raise RecordError(f"an action must be an object, got {data!r}")
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0 or (
            seats is not None and seat >= seats
        ):
            raise RecordError(f"bad seat in action {data!r}")
        verbs = [k for k in data if k != "seat"]
        if len(verbs) != 1 or verbs[0] not in ALL_VERBS:
            raise RecordError(f"an action needs exactly one known verb: {data!r}")
        verb = verbs[0]
        raw = data[verb]
        try:
            if verb in CARD_VERBS:
                arg: Any = parse_cards(raw)
            elif verb in FLAG_VERBS:
                if raw is not True:
                    raise RecordError(f"{verb} takes true: {data!r}")
                arg = True
            elif verb == "give":
                if not isinstance(raw, dict):
                    raise RecordError(f"give takes an object seat -> cards: {data!r}")
                pairs = []
                for key, codes in raw.items():
                    try:
                        loser = int(key)
                    except (TypeError, ValueError):
                        raise RecordError(f"bad seat {key!r} in give") from None
                    pairs.append((loser, parse_cards(codes)))
                arg = tuple(sorted(pairs))
            else:
                if not isinstance(raw, str):
                    raise RecordError(f"{verb} takes a string: {data!r}")
                arg = raw
        except CardError as exc:
            raise RecordError(str(exc)) from None
        return cls(seat, verb, arg)


#: The slot setters :meth:`Action.__init__` uses (bypassing the frozen
#: ``__setattr__``, as the generated ``__init__`` does).
_set_seat = Action.__dict__["seat"].__set__
_set_verb = Action.__dict__["verb"].__set__
_set_arg = Action.__dict__["arg"].__set__


@runtime_checkable
class GameRules(Protocol):
    """What the site, bots, ``replay`` and ``simulate`` need from a game.

    ``Match`` carries what passes from hand to hand (levels and dealer in
    shengji; the previous result, hence tribute, in baohuang) and the options.
    ``Deal`` is what each seat received before anything moved, plus the kitty
    and opener where the game has them.  Both are immutable and convert to and
    from the hand-record JSON (``start`` and a hand's ``deal``/``kitty``/``opener``).
    ``State`` is one hand in progress; all three are opaque to callers.
    """

    game: str
    seats: int
    #: Seats that play as fixed partners (teams of two), e.g. ``((0, 2), (1, 3))``;
    #: empty when the game has no fixed partnerships (quick play seats a pair
    #: of friends on one of these).  Default: none.
    partner_slots: tuple[tuple[int, ...], ...] = ()

    def default_options(self) -> dict:
        """Options with the rulings' defaults, e.g. ``{"multiplier": 1, ...}``."""

    def new_match(self, options: dict | None = None, start: dict | None = None) -> Any:
        """A match before its next hand.  ``start`` is the record's ``start``
        member (None: a fresh match).  Raises :class:`RecordError` if malformed."""

    def match_to_json(self, match: Any) -> dict:
        """``{"options": {...}, "start": {...}}`` such that
        ``new_match(**that)`` rebuilds an equal match."""

    def deal(self, match: Any, seed: int) -> Any:
        """Shuffle with ``seed`` and deal (S1/B1; S13 shown card on hand 1)."""

    def deal_from_record(self, match: Any, hand: dict) -> Any:
        """The deal of a record hand (``deal``, ``kitty``, ``opener``); raises
        :class:`RecordError` on a wrong deck or hand sizes or unknown cards."""

    def deal_to_record(self, deal: Any) -> dict:
        """``{"deal": {...}, "kitty": [...], "opener": n}`` as in records."""

    def start_hand(self, match: Any, deal: Any) -> Any:
        """The hand's initial state with the automatic steps done (e.g. 買3)."""

    def apply(self, state: Any, action: Action) -> Any:
        """The state after ``action``; raises :class:`IllegalAction`."""

    def to_act(self, state: Any) -> int | None:
        """The seat whose decision is awaited; None when the hand is complete."""

    def phase(self, state: Any) -> str:
        """A short phase name (e.g. ``"crown"``, ``"play"``, ``"auction"``)."""

    def legal_verbs(self, state: Any, seat: int) -> frozenset[str]:
        """Verbs ``seat`` may use now (empty when it is not that seat's turn)."""

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """Legal actions for ``seat``; for card verbs this may be a
        representative subset (the shengji follow space is huge) but every
        returned action is legal and it is never empty while the seat is to act."""

    def auto_action(self, state: Any, seat: int) -> Action:
        """What the server plays for ``seat`` when its time runs out (C5)."""

    def bot_action(self, state: Any, seat: int, policy: str, rng: Any,
                   search: Any = None) -> Action:
        """The action of bot ``policy`` (``random``, ``heuristic``, ``search``)
        for ``seat``, decided from that seat's view only (the full state is
        never shown to the policy).  ``search``: a
        :class:`~games.engine.search.SearchConfig` (time budget per decision,
        default 300 ms) for the ``search`` policy; ignored by the others."""

    def view(self, state: Any, seat: int | None) -> dict:
        """JSON-able view for ``seat`` (None: a spectator): own cards, counts
        of the others, the table, public declarations; never a hidden card."""

    def is_complete(self, state: Any) -> bool:
        """True once the hand is over (or voided)."""

    def actions(self, state: Any) -> tuple[Action, ...]:
        """The action log that led from ``start_hand`` to ``state``."""

    def summary(self, state: Any) -> dict:
        """The hand object of the ``replay`` output (hand-record spec): always
        ``complete``; when incomplete also ``phase`` and ``to_act``; the
        per-game members listed in the spec (``game_points`` include the
        room multiplier from the options)."""

    def next_match(self, match: Any, state: Any) -> Any:
        """The match after the completed hand ``state`` (carry-over)."""

    def match_winner(self, match: Any) -> Any:
        """The match winner (a team) or None; baohuang matches never end."""

    #: The per-game lines of a player's record (:class:`RecordStat`), in order.
    record_stats: tuple[RecordStat, ...]

    def seat_stats(self, summary: dict, seat: int) -> dict[str, float]:
        """``seat``'s values in the completed hand ``summary`` for each of
        :attr:`record_stats` (e.g. ``{"first": 1}`` for 头科)."""

    def ranking(self, summary: dict) -> Ranking | None:
        """The sides of the completed hand whose ``summary`` (the JSON of
        :meth:`summary`, e.g. as stored) is given, ranked by its result; None
        when the hand ranks nobody (incomplete, voided).  Ratings are computed
        from this alone, so a stored summary is enough to recompute them."""

    # -- optional hooks ---------------------------------------------------
    # A game's rules class subclasses this contract explicitly and overrides
    # only the hooks it has (as a chess variant overrides hooks of a board);
    # the defaults below describe a game without the feature, so the site
    # calls every hook unconditionally.

    #: The keys of :meth:`view` whose values are the same for every seat and a
    #: spectator at one state (a game that says none: every key per seat).
    public_keys: frozenset[str] = frozenset()

    def view_from_public(self, state: Any, seat: int | None, public: dict) -> dict:
        """:meth:`view` for ``seat`` (None: a spectator), given ``public``,
        ``view(state, None)`` of the same state: a game may take the values
        every seat shares (:attr:`public_keys`) from it and work out only the
        seat's own parts, so a site rendering every seat of one state builds
        the public view once.  Must equal ``view(state, seat)`` (hidden
        information as that view keeps it: a seat's cards and hidden roles
        only in its own view); the returned dict may share ``public``'s
        values, which nobody changes.  Default: ``view(state, seat)``."""
        return self.view(state, seat)

    def hint(self, state: Any, seat: int) -> Action | None:
        """A move to suggest (提示) to ``seat``, from that seat's own cards
        only; None when there is nothing to suggest.  Default: the C5 move
        (:meth:`auto_action`)."""
        return self.auto_action(state, seat)

    def seat_aids(self, state: Any, seat: int | None) -> dict:
        """JSON-able helpers for ``seat``'s table (None: a spectator) beyond
        :meth:`view`, computed only from what that seat may know (its own
        cards, the public table), e.g. which of its cards may be given.
        Default: ``{}``."""
        return {}

    def carry_in_pending(self, state: Any) -> bool:
        """True while the hand ``state`` has not yet settled what its carry-in
        owes (baohuang: tribute, paid when the crown is accepted, B13), so a
        leaver's share can still be settled in points (B14).  Default False."""
        return False

    def leave_settlement(self, match: Any, seat: int) -> dict[int, int]:
        """B14: game points per seat (multiplier included) when ``seat``
        leaves a table whose carry-in ``match`` still owes something.
        Default: nothing owed, ``{}``."""
        return {}

    def match_after_leave(self, match: Any) -> Any:
        """B14: the carry-in once a player left (the debt lapsed).  Default:
        ``match`` unchanged (nothing lapses)."""
        return match

    def bot_playout(self, state: Any, rng: Any) -> Any:
        """The completed hand after playing ``state`` to the end with the
        ``heuristic`` policy at every seat, computed faster than deciding and
        applying one action at a time, or None when the game offers no such
        play-out from ``state`` (then the caller steps with
        :meth:`bot_action` and :meth:`apply`).  A state returned must equal
        what stepping gives (the same :meth:`actions` and end state), so
        ``simulate`` may use it when every seat plays ``heuristic``; ``rng``
        is the bots' random source, as for :meth:`bot_action`.  Default: None
        (not provided)."""
        return None

    #: The unit and class thresholds of the hand review, a
    #: :class:`~games.engine.review.ReviewUnit`; None: the game has no reviewer.
    review_unit: Any = None

    def review_problem(self, state: Any, action: Action, rng: Any) -> Any:
        """the decision ``action`` taken in ``state`` as a
        :class:`~games.engine.review.ReviewProblem` (candidates from the
        acting seat's information set, a world sampler, a play-out); None
        when the game has no reviewer.  Default None."""
        return None


def bot_decision(rules: GameRules, state: Any, seat: int, policy: str, rng: Any,
                 search: Any = None) -> Action:
    """``rules.bot_action(state, seat, policy, rng)``, with ``search`` (a
    :class:`~games.engine.search.SearchConfig`) passed only to the ``search``
    policy, so a game whose ``bot_action`` has no ``search`` keyword (one
    without a search bot) still runs its other policies.  Raises what
    ``bot_action`` raises (:class:`IllegalAction` when not ``seat``'s turn)."""
    if policy == "search":
        return rules.bot_action(state, seat, policy, rng, search=search)
    return rules.bot_action(state, seat, policy, rng)


def rebuild(rules: GameRules, match: Any, deal: Any, actions: list[Action]) -> Any:
    """Replay ``actions`` from the start of a hand; raises :class:`IllegalAction`
    at the first illegal one.  The state is a pure function of match, deal, log."""
    state = rules.start_hand(match, deal)
    for action in actions:
        state = rules.apply(state, action)
    return state
