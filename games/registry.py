"""The game registry: one :class:`GameSpec` per game, everything the site
needs to know about a game in one place.

A game is a package beside the generic core (``games/<code>/``, a Django app
listed in ``INSTALLED_APPS`` whose ``spec`` module defines ``SPEC``, found
the first time the registry is read, in ``INSTALLED_APPS`` order): its rules
(an engine ``GameRules`` object), its wording, its templates and static files
and its hooks.  The generic modules (models' choices, lobby links, the room form,
admin filters, the table renderer, services, the ledger's game list and
reasons, the title ladders seeded after ``migrate``) all read this registry
and never name a game.  A test may register a game of its own the same way.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from django.utils.translation import gettext_lazy as _

from .engine.base import GameRules
from .engine import register_rules, unregister_rules
from django.conf import settings

#: The title ladder of ruling C4 (level number, name as the rule text writes
#: it, threshold in game points); every game starts with it, admins edit each
#: game's copy (``accounts.LevelTitle``).
C4_LADDER: tuple[tuple[int, str, int], ...] = (
    (1, "幼兒班", 0), (2, "學前班", 20), (3, "小學生", 40), (4, "國中生", 80),
    (5, "高中生", 160), (6, "大學生", 320), (7, "學士", 530), (8, "研究生", 776),
    (9, "碩士", 1040), (10, "博士生", 2080), (11, "助教", 4160), (12, "講師", 8320),
    (13, "副教授", 19704), (14, "教授", 35396), (15, "博導", 63716), (16, "院士", 114688),
    (17, "院長", 206440), (18, "校長", 371572),
)


@dataclass(frozen=True)
class Tag:
    """A small label beside a player's name (a role): ``css`` classes after
    ``tag``, ``label`` the text."""

    css: str
    label: Any


def _no_regions(table) -> None:
    return None


def _no_tags(data: Mapping | None, seat: int) -> list[Tag]:
    return []


def _no_place(data: Mapping | None, seat: int) -> Any:
    return None


def _no_plays(data: Mapping | None) -> dict:
    return {}


def _no_parse(verb: str, post) -> dict | None:
    return None


@dataclass(frozen=True, eq=False)
class GameSpec:
    """Everything the site knows about one game.

    - ``code``: the key stored in ``Room.game`` and ledger rows (max 16 chars);
      ``label`` (lobby, menus, admin) and ``full_label`` (profiles, ledger;
      defaults to ``label``), lazy translatable strings.
    - ``rules``: the engine's ``GameRules`` object (``rules.seats`` is the seat
      count); registered with the engine too, so ``get_rules(code)`` and
      ``replay`` know the game.
    - ``board_template``: the part of the table fragment below the seats
      while a hand exists (it reads ``table``, the generic
      :class:`~games.render.view.TableView`, and ``game``, what
      ``table_regions`` returned); ``notice_template`` optional notices after it
      (e.g. a settlement); both are Jinja2 templates in the game's
      ``jinja2/`` folder (:mod:`games.render.jinja`); ``replay_template`` (a Django template) an optional public block on
      the replay page; ``css`` / ``js``: static paths the room page loads.
    - ``table_regions(table) -> regions|None``: the game's own part of the
      table for one viewer, one typed value (a frozen dataclass of the
      game's own), read by its templates as ``game``;
      built from ``table`` (a :class:`~games.render.view.TableView`: its
      ``view``, the engine's view for the viewer's own seat, and ``aids``,
      ``rules.seat_aids(state, seat)``, helpers computed from that seat's
      knowledge only), never from the engine state; it changes nothing of
      ``table`` (frozen).  The default: None (the generic board needs none).
    - ``shared_regions``: the regions whose html is the same for every viewer
      (every seat and spectator) at a room version and language, rendered
      once for all of them (``{{ region.shared("x", blocks.x) }}``,
      :meth:`games.render.regions.Regions.shared`): region id ->
      ``inputs(public) -> dict|None``, the block's inputs (plain data) from a
      :class:`~games.render.view.PublicTable` (the engine's view for no seat,
      the seats' names: nothing hidden from anyone), None for no region.  A
      region some seat sees otherwise (its own cards, a role only it knows)
      is never one of these.  The default: none.
    - ``seat_tags(data, seat) -> [Tag]`` (roles from a view or a summary) and
      ``seat_place(data, seat) -> label|None`` (finishing place from a view)
      for the seat list, result and replay; ``seat_plays(view) -> {seat:
      {"cards": [codes], "verb": label|None}}`` what each seat played in the
      trick or round on the table now (laid in front of its seat);
      ``result_extras(result)``
      completes a finished hand's result panel (winner label, places …).
    - ``seat_reads``: the keys of the engine's view that ``seat_tags``,
      ``seat_place`` and ``seat_plays`` read (a tuple of str), or None (not
      said).  A viewer whose view holds, under these keys and the generic
      ``counts`` and ``to_act``, the same values as the view for no seat
      sees the seats as every viewer does: it takes the public rows
      (:func:`games.render.tables.public_table`'s ``seats``) instead of
      building its own; a viewer whose view differs there (a role only it
      knows, its own hidden turn) builds its own.  A key left out would show
      that viewer the public seat (never another viewer's), so a game says
      every key its three hooks read; with None every viewer builds its own
      rows (the default).
    - ``board_shared(public) -> value`` and ``board_reads``: the part of the
      game's ``table_regions`` that is the same for every viewer of a room
      version in one language, built once for all of them from a
      :class:`~games.render.view.PublicTable` (the engine's view for no seat,
      the seats' names) and handed to ``table_regions`` as
      ``table.shared_board``; ``board_reads`` the keys of the engine's view
      it reads (a tuple of str).  A viewer whose view holds the public
      view's values under every one of these keys gets it; any other (a
      seat whose view shows more there, its own cards) gets None and its
      ``table_regions`` builds that part itself.  Never the viewer's aids.
      The default: None for both (every viewer builds its whole board); a
      ``board_shared`` without ``board_reads`` is shared with no viewer (as
      ``seat_reads`` None shares no seat row: a game must say what its
      shared part reads before anyone is shown it).
    - Wording: ``action_labels`` (data-action hook -> button label),
      ``choices`` (choice verb -> its choices in button order),
      ``verb_order``, ``phase_names``, ``rule_messages`` (ruling id -> the
      sentence shown for a refusal), ``settlement_label``/``settlement_title``
      (score-sheet row of a leaving settlement).
    - ``parse_extra(verb, post)``: the action record of a verb whose payload
      is not cards / flag / choice (None: not this game's); raises
      ``ValueError`` with a message for the player.
    - ``ledger_reasons``: ``PointsEntry.reason`` codes this game writes ->
      label; ``ladder``: the default title ladder (C4) seeded after
      ``migrate`` for a game that has none; ``is_default``: preselected when
      creating a room; ``blurb``: the game in one sentence for the home page.
    """

    code: str
    label: Any
    rules: GameRules
    full_label: Any = None
    board_template: str = "games/_board_generic.html"
    notice_template: str | None = None
    replay_template: str | None = None
    css: tuple[str, ...] = ()
    js: tuple[str, ...] = ()
    table_regions: Callable[[Any], Any] = _no_regions
    shared_regions: Mapping[str, Callable[[Any], Mapping | None]] = field(default_factory=dict)
    seat_tags: Callable[[Mapping | None, int], list[Tag]] = _no_tags
    seat_place: Callable[[Mapping | None, int], Any] = _no_place
    seat_plays: Callable[[Mapping | None], dict] = _no_plays
    seat_reads: tuple[str, ...] | None = None
    board_shared: Callable[[Any], Any] | None = None
    board_reads: tuple[str, ...] | None = None
    result_extras: Callable[[dict], dict] = lambda result: {}
    action_labels: Mapping[str, Any] = field(default_factory=dict)
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    verb_order: tuple[str, ...] = ()
    phase_names: Mapping[str, Any] = field(default_factory=dict)
    rule_messages: Mapping[str, Any] = field(default_factory=dict)
    settlement_label: Any = _("离座结算")
    settlement_title: Any = ""
    parse_extra: Callable[[str, Any], dict | None] = _no_parse
    ledger_reasons: Mapping[str, Any] = field(default_factory=dict)
    ladder: tuple[tuple[int, str, int], ...] = C4_LADDER
    is_default: bool = False
    #: the game's tournament hooks (a module, see ``clubs/formats.py``), or None:
    #: the game cannot host club events
    tournament: Any = None
    #: One sentence for a newcomer on the home page.
    blurb: Any = ""
    #: The words of the create-room form's control for each engine option
    #: (``rules.option_schema``'s keys): ``{key: {"label": text, "choices":
    #: {value: text}}}``; a key left out shows its schema label and raw values.
    option_words: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def seats(self) -> int:
        """How many seats a table of this game has."""
        return self.rules.seats

    @property
    def profile_label(self) -> Any:
        """The label on profiles and ledgers (``full_label`` or ``label``)."""
        return self.full_label if self.full_label is not None else self.label


_specs: dict[str, GameSpec] = {}
_discovered = False


def _discover() -> None:
    """Register the ``SPEC`` of every installed game package (an app under
    this package with a ``spec`` module), once, in ``INSTALLED_APPS`` order.
    Safe while models load: a spec module imports no model."""
    global _discovered
    if _discovered:
        return
    _discovered = True

    prefix = __name__.rpartition(".")[0] + "."
    for app in settings.INSTALLED_APPS:
        if app.startswith(prefix) and importlib.util.find_spec(f"{app}.spec") is not None:
            spec = importlib.import_module(f"{app}.spec").SPEC
            if spec.code not in _specs:
                _register(spec)


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` (replacing a spec of the same code) and register its rules
    with the engine.  Raises ``ValueError`` when ``spec.rules.game`` is not
    ``spec.code``."""
    _discover()
    return _register(spec)


def _register(spec: GameSpec) -> GameSpec:
    if spec.rules.game != spec.code:
        raise ValueError(f"rules of {spec.rules.game!r} registered as {spec.code!r}")
    register_rules(spec.rules)
    _specs[spec.code] = spec
    return spec


def unregister(code: str) -> None:
    """Remove a game (tests that registered one of their own)."""

    _specs.pop(code, None)
    unregister_rules(code)


def get(code: str) -> GameSpec:
    """The spec of ``code``; ``KeyError`` for an unknown game."""
    _discover()
    return _specs[code]


def find(code: str) -> GameSpec | None:
    """The spec of ``code`` or None."""
    _discover()
    return _specs.get(code)


def specs() -> list[GameSpec]:
    """Every registered game, in registration order."""
    _discover()
    return list(_specs.values())


def codes() -> tuple[str, ...]:
    """The registered game codes, in registration order."""
    _discover()
    return tuple(_specs)


def choices() -> list[tuple[str, Any]]:
    """``[(code, label)]``: the choices of ``Room.game`` (a callable, so a
    game registered later is offered too)."""
    _discover()
    return [(s.code, s.label) for s in _specs.values()]


def default_code() -> str | None:
    """The game preselected when creating a room."""
    _discover()
    for spec in _specs.values():
        if spec.is_default:
            return spec.code
    return next(iter(_specs), None)
