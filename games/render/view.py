"""The table as one viewer sees it: the typed seam between the generic table
and a game's regions.

:func:`games.render.tables.table_view` builds a :class:`TableView` for one
viewer (a seat, a spectator, a visitor) from a room's snapshot; the game adds
its own regions as one typed value returned by its spec's ``table_regions``
hook (:class:`~games.registry.GameSpec`), never by editing a shared mapping.
The live fragment's Jinja2 templates read attributes of two names::

    table   the TableView (table.seats, table.me, table.buttons …)
    game    the game's regions (a frozen dataclass of the game's own, read
            as game.<field>; None for a game without any)

and the environment's undefined is strict (:mod:`games.render.jinja`), so a
renamed field fails the render instead of printing nothing.

Both classes are frozen and slotted: a view is built once per viewer and
version and never changed afterwards.  Hidden information: ``view`` and
``aids`` come from the engine for the viewer's own seat only
(``rules.view(state, me)``, ``rules.seat_aids(state, me)``); nothing here holds
another seat's cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the viewer's view shows it (``table.seats``, in seat order).

    ``played`` is what it laid in the trick or round on the table
    (``GameSpec.seat_plays``: ``{"cards", "verb", "winning", "won_by"}``) or
    None; ``can_take`` a spectator may sit there; ``shown`` what the seat
    block shows, as plain data (the input of its memo block,
    :mod:`games.render.memo`: the same for every viewer whose view shows the
    seat alike, but for the countdown, only on the seat to act).  Where it
    sits around the felt is not here: the page places it from its index and
    the viewer's reference seat (:attr:`TableView.ref`, ``ring.css``), so its
    regions are rendered once for every viewer who sees it alike
    (:func:`games.render.tables.shared_rows`)."""

    index: int
    name: str
    is_turn: bool
    played: Mapping | None
    can_take: bool
    shown: Mapping


@dataclass(frozen=True, slots=True)
class TableView:
    """The generic table as one viewer sees it.

    Room and viewer: ``room`` (the model), ``code`` (its game), ``spec``,
    ``rules``; ``me`` the viewer's seat index or None (spectator, visitor),
    ``my_seat`` its :class:`~games.models.Seat` or None, ``is_owner``,
    ``rejoin`` (the seat a player who left may take back, else None);
    ``replay`` (a completed hand replayed at a step,
    :func:`~games.render.tables.replay_snapshot`: every viewer a spectator,
    no clock, no seat to take).

    Seats: ``ref`` (the ring's reference seat: the viewer's, seat 1 for a
    spectator; at the bottom, the others in playing order: the page's CSS
    places each seat from its index and this, ``ring.css``), ``seats``
    (:class:`SeatView` per seat), ``names`` (each seat's
    name, "空座" for an empty one), ``seat_names`` (names, "" when empty),
    ``has_empty``, ``paused_for`` (who a paused table waits for).

    The hand: ``hand`` (the model, or None before the first deal),
    ``complete`` (the hand shown is over: at the last step of a replay),
    ``action_count`` (the step, in a replay), ``view`` (the engine's view for ``me``, a mapping, or
    None), ``aids`` (``rules.seat_aids(state, me)`` or None), ``to_act``
    (the seat to act, None when nobody or the hand is over), ``my_turn``
    (the viewer's seat is to act and not on 托管, where the bot acts),
    ``phase_name``, ``buttons`` (:class:`~games.render.tables.ActionButton`
    per legal choice of the viewer, none on 托管), ``hint`` (the engine's suggested cards,
    space-separated C1 codes, or "").

    Results: ``result`` (this hand's result panel, plain data, or None),
    ``last_result`` (the previous hand's, while the next is played),
    ``result_notes``, ``score_rows`` and ``totals`` (the match's score sheet,
    game points per seat), ``settlement`` (the leaving-settlement notice or
    None), ``hidden_hands`` (hand id → why its replay link is withheld).

    Clocks (epoch ms): ``version``, ``committed_at``, ``deadline_ms`` (0:
    none), ``server_now_ms``; ``between_hands``, ``auto_turn`` (the seat to
    act is a bot or on 托管); ``help_url`` (the game's rules page);
    ``shared_board`` the game's board part every viewer of this version
    sees alike (``GameSpec.board_shared``, built once for all of them from
    the view for no seat) when this viewer's view equals that view where it
    reads (``GameSpec.board_reads``), else None (the game builds it).
    """

    room: Any
    code: str
    spec: Any
    rules: Any
    me: int | None
    my_seat: Any
    is_owner: bool
    rejoin: int | None
    replay: bool
    complete: bool
    ref: int
    seats: tuple[SeatView, ...]
    names: tuple
    seat_names: tuple
    has_empty: bool
    paused_for: tuple
    hand: Any
    action_count: int
    view: Mapping | None
    aids: Mapping | None
    to_act: int | None
    my_turn: bool
    phase_name: Any
    buttons: tuple
    hint: str
    result: Mapping | None
    last_result: Mapping | None
    result_notes: tuple
    score_rows: tuple
    totals: tuple
    settlement: Mapping | None
    hidden_hands: Mapping
    version: int
    committed_at: int
    deadline_ms: int
    server_now_ms: int
    between_hands: bool
    auto_turn: bool
    help_url: str
    shared_board: Any = None


@dataclass(frozen=True, slots=True)
class PublicTable:
    """What every viewer of a room version sees alike, the input of a game's
    shared regions (``GameSpec.shared_regions``, rendered once per version and
    language for all viewers, :func:`games.render.tables.shared_region`):
    ``view``, the engine's view for no seat (a spectator's: no one's cards,
    no role hidden from anyone) or None before the first deal;
    ``names`` each seat's name ("空座" for an empty one, lazy: taken in the
    render's language), ``help_url`` (the game's rules page), ``seats``
    (:class:`SeatView` per seat as that view shows them, no seat to take:
    the rows of the seats' and the plays' regions rendered once for every
    viewer whose own rows equal them, ``region.rows(…, shared="seats")``).
    Built from the snapshot alone, never from a viewer's view."""

    view: Mapping | None
    names: tuple
    help_url: str
    seats: tuple = ()


@dataclass(frozen=True, slots=True)
class TableRender:
    """What the table fragment is rendered from: the generic ``table`` and the
    game's ``game`` regions (whatever its spec's ``table_regions`` returned,
    None for a game without regions of its own)."""

    table: TableView
    game: Any = None
