"""Rendering a table for one viewer (used by the page view and the websocket).

Hidden information: everything seat-specific comes from the engine's
``view(state, seat)`` for the viewer's own seat (``None`` for spectators); the
stored deal is never put in a template while a hand is in play.  The root
element of the fragment carries ``data-version`` and ``data-committed-at``
(epoch ms) so clients (and the latency benchmark) can tell which commit they
are looking at.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import F
from django.template import engines
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from games import embargo, registry, seating, services, signals
from games.render import memo, rulings
from games.engine.base import CARD_VERBS, CHOICE_VERBS, FLAG_VERBS
from games.models import Hand, Room, Seat, player_names
from games.services.settlement import related_model
from games.services.prepared import Prepared
from games.render.regions import Regions, TableHtml, kept_region, row_inputs, squeeze
from games.render.view import PublicTable, SeatView, TableRender, TableView

#: Button labels of the verbs every game may use; a game adds its own
#: (:attr:`GameSpec.action_labels <games.registry.GameSpec>`).
ACTION_LABELS = {"play": _("出牌"), "pass": _("过")}
#: Phase names every game may use; a game adds its own.
PHASE_NAMES = {"play": _("出牌"), "done": _("本局结束")}
#: One sentence per common ruling for refusals (never the engine's own
#: text); a game adds its rulings' (``GameSpec.rule_messages``).
RULE_MESSAGES = {"C1": _("这不是有效的牌。")}


def action_labels(spec) -> dict:
    """Button label per data-action hook for ``spec``'s game."""
    return {**ACTION_LABELS, **spec.action_labels}


def phase_name(spec, phase):
    """What players call ``phase`` (the engine's phase code) in ``spec``'s game."""
    return {**PHASE_NAMES, **spec.phase_names}.get(phase, phase)


#: ``(language, game, word's key) -> the word as a plain string``: a game's
#: fixed words (phase names, button labels) in each language, so a render
#: casts no lazy translation for them (each cast asks Django's catalogs).
_words: dict = {}


def fixed_word(spec, key: str, text):
    """``text``, a fixed word of ``spec``'s game (a lazy translation from its
    tables, :func:`phase_name`'s, :func:`action_labels`'), as a plain string
    in the active language, kept per language, game and ``key`` (a string
    naming the word, e.g. ``"phase play"``); None stays None.  No query."""
    if text is None:
        return None
    found_key = (memo.language(), spec.code, key)
    found = _words.get(found_key)
    if found is None:
        found = _words[found_key] = str(text)
    return found


def rule_message(spec, rule: str | None):
    """The sentence for a refusal citing ``rule``, or None."""
    return {**RULE_MESSAGES, **spec.rule_messages}.get(rule)


@dataclass
class ActionButton:
    action: str  # the data-action hook, also the POSTed verb
    label: str
    needs_cards: bool


def action_buttons(verbs, spec) -> list[ActionButton]:
    """One button per legal choice of ``spec``'s game (a choice verb gives
    one button per choice, e.g. ``<verb>-<choice>``), card verbs need cards,
    other verbs are plain buttons; in the game's ``verb_order``; each label a
    plain string in the active language (:func:`fixed_word`)."""
    labels = action_labels(spec)
    order = spec.verb_order
    out = []
    for verb in sorted(verbs, key=lambda v: order.index(v) if v in order else 99):
        if verb in CHOICE_VERBS:
            for choice in spec.choices.get(verb, ()):
                key = f"{verb}-{choice}"
                out.append(ActionButton(key, fixed_word(spec, "verb " + key, labels.get(key, key)), False))
        elif verb in CARD_VERBS:
            out.append(ActionButton(verb, fixed_word(spec, "verb " + verb, labels.get(verb, verb)), True))
        else:
            out.append(ActionButton(verb, fixed_word(spec, "verb " + verb, labels.get(verb, verb)), False))
    return out


def parse_verb(verb: str, cards: list[str], post=None, spec=None) -> dict:
    """The action record (without seat) for a POSTed ``verb`` hook.

    Card verbs take ``cards``, flag verbs are ``True``, ``<verb>-<choice>``
    a choice of ``spec``'s game; anything else is asked of the game
    (``spec.parse_extra(verb, post)``, which reads its own fields of
    ``post``).

    >>> parse_verb("play", ["AS", "AH"])
    {'play': ['AS', 'AH']}
    >>> parse_verb("pass", [])
    {'pass': True}

    Raises ``ValueError`` for anything else.
    """
    if verb in CARD_VERBS:
        if not cards:
            raise ValueError(_("请先选择要出的牌"))
        return {verb: list(cards)}
    if verb in FLAG_VERBS:
        return {verb: True}
    if spec is not None:
        extra = spec.parse_extra(verb, post)
        if extra is not None:
            return extra
        base, _sep, choice = verb.partition("-")
        if choice in spec.choices.get(base, ()):
            return {base: choice}
    raise ValueError(_("未知的动作"))


def epoch_ms(dt) -> int:
    return int(dt.timestamp() * 1000) if dt else 0


def seat_of(seats: list[Seat], user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in seats:
        if seat.user_id == user.pk:
            return seat.index
    return None


def score_sheet(
    room: Room, hand: Hand | None, nseats: int, history: tuple[list, list] | None = None
) -> tuple[list[dict], list[int]]:
    """Rows ``{"id", "number", "points": [per seat], "voided", "settlement",
    "hidden"}`` of the completed hands of ``hand``'s match and of its tribute
    settlements (a leaving settlement, ``settlement`` True: after the hand
    they follow, or before the hand whose unpaid tribute lapsed), and the
    per-seat totals; ``hidden`` is "" here (:func:`table_view` says, per
    viewer, why a replay link is withheld).  ``history``
    (:func:`match_history`) saves the two queries."""
    if hand is None:
        return [], [0] * nseats
    completed, settlements = history if history is not None else match_history(hand)
    keyed = []
    for hand_id, number, summary in ((h.id, h.number, h.summary) for h in completed):
        points = services.by_seat((summary or {}).get("game_points"), nseats)
        keyed.append(
            ((number, 1, 0), {"id": hand_id, "number": number, "points": points,
                              "voided": bool((summary or {}).get("voided")), "settlement": False,
                              "hidden": ""})
        )
    for row_id, hand_id, number, points, carry in (
        (t.id, t.hand_id, t.hand_number, t.points, t.carry) for t in settlements
    ):
        # carry None: the lapse was applied inside that hand, before its tribute
        keyed.append(
            ((number, 0 if carry is None else 2, row_id),
             {"id": hand_id, "number": number, "points": services.by_seat(points, nseats),
              "voided": False, "settlement": True, "hidden": ""})
        )
    rows, totals = [], [0] * nseats
    for _key, row in sorted(keyed, key=lambda kr: kr[0]):
        rows.append(row)
        totals = [t + int(p or 0) for t, p in zip(totals, row["points"])]
    return rows, totals


def match_history(hand: Hand) -> tuple[list[Hand], list]:
    """``(completed hands, tribute settlements)`` of ``hand``'s match: the
    hands in number order (:func:`games.services.completed_hands`, one query
    per completed hand and process, cached), the settlements in id order with
    the leaver (``user``) joined and their hand's number as ``hand_number``
    (one query)."""
    completed = services.completed_hands(hand)
    if related_model("settlements") is None:
        return completed, []
    return completed, _SETTLEMENTS.objects(hand.match_id)


#: A match's tribute settlements (see :func:`match_history`), compiled once per thread.
_SETTLEMENTS = Prepared(
    "match settlements",
    lambda match_id: related_model("settlements").objects.filter(hand__match_id=match_id)
    .select_related("user")
    .annotate(hand_number=F("hand__number"))
    .order_by("id"),
)


def latest_settlement(hand: Hand | None, settlements: list | None = None) -> dict | None:
    """The settlement notice for the table: the latest leaving settlement made on
    ``hand`` or on the hand before it in the same match, as ``{"name", "closed",
    "points"}`` (``name`` of the leaver; ``closed`` when the room was closed),
    else None.  ``settlements`` (from :func:`match_history`) saves the query."""
    if hand is None or related_model("settlements") is None:
        return None
    if settlements is not None:
        recent = [t for t in settlements if t.hand_number >= hand.number - 1]
        row = max(recent, key=lambda t: t.id) if recent else None
    else:
        row = (
            related_model("settlements").objects.filter(hand__match_id=hand.match_id, hand__number__gte=hand.number - 1)
            .select_related("user")
            .order_by("-id")
            .first()
        )
    if row is None:
        return None
    return {
        "name": row.user.get_username() if row.user_id else "",
        "closed": row.seat is None,
        "points": list(row.points),
    }


def describe_action(payload: dict, spec) -> dict:
    """``{"label", "cards"}`` for a stored action (replay page): the button
    label of its verb in ``spec``'s game and its cards, if any (a mapping
    of cards, such as a give, lists them all)."""
    labels = action_labels(spec)
    verb = next((k for k in payload if k != "seat"), "")
    value = payload.get(verb)
    if verb in CARD_VERBS:
        return {"label": labels.get(verb, verb), "cards": list(value or [])}
    if isinstance(value, str):
        key = f"{verb}-{value}"
        return {"label": labels.get(key, key), "cards": []}
    if isinstance(value, dict):
        return {"label": labels.get(verb, verb), "cards": [c for v in value.values() for c in v]}
    return {"label": labels.get(verb, verb), "cards": []}


def hand_result(hand: Hand, spec, fallback_names: list[str]) -> dict | None:
    """The result panel of a completed hand, as plain data (a ``memo``
    block's input, :mod:`games.render.memo`): the hand's id, its summary, per seat
    the name and game points (multiplier included, C4) plus what the game
    adds (``spec.result_extras``: the winner's words, places, roles)."""
    summary = hand.summary
    if not summary:
        return None
    nseats = spec.seats
    points = services.by_seat(summary.get("game_points"), nseats)
    names = [str(n) for n in player_names(hand.players)] or fallback_names
    result = {
        "hand_id": hand.pk,
        "hidden": "",  # why its links are withheld from this viewer (table_view)
        "summary": summary,
        "voided": bool(summary.get("voided")),
        "winner": summary.get("winner"),
        "rows": [
            {
                "index": i,
                "name": names[i] if i < len(names) else "",
                "points": points[i],
                "tags": spec.seat_tags(summary, i),
            }
            for i in range(nseats)
        ],
    }
    result.update(spec.result_extras(result))
    return result


def result_notes(game: str, hand: Hand) -> tuple[dict, ...]:
    """What other apps add to the result panel of the completed ``hand``
    (:data:`games.signals.result_notes`): per note its ``key``, ``label`` and
    ``seats``, a list of ``{"index", "name", "text", "mark"}`` in seat order,
    names as the hand was dealt, ``mark`` the note's word for that seat
    (lazy) or None."""
    names = player_names(hand.players)  # bots' names lazy: the snapshot serves every language
    out = []
    for note in signals.collect_result_notes(game, hand):
        seats = sorted((int(i), str(text)) for i, text in note["seats"].items())
        marks = {int(i): m for i, m in (note.get("marks") or {}).items()}
        out.append({
            "key": note.get("key", ""),
            "label": note["label"],
            "seats": [
                {"index": i, "name": names[i] if i < len(names) else "", "text": text, "mark": marks.get(i)}
                for i, text in seats
            ],
        })
    return tuple(out)


@dataclass(frozen=True)
class TableSnapshot:
    """Every viewer-independent read behind a table fragment, taken once per
    room version: the room, its seats (users joined), the latest hand, its
    action count and engine state, the score sheet, the previous completed
    hand and the settlement notice.  :func:`table_view` turns it into one seat's
    view without touching the database, so the sockets of one room in one
    process share a single read (:mod:`games.live.snapshots`).

    The snapshot holds the full engine state (every seat's cards): it must
    only ever go through :func:`table_view`, which passes the viewer's own
    seat to ``rules.view``; it never leaves the process.
    """

    room: Room
    seats: tuple
    hand: Hand | None
    action_count: int
    state: object
    score_rows: list
    totals: list
    previous: Hand | None
    settlement: dict | None
    result_notes: tuple = ()
    #: Ids of this room's completed hands whose replay and record are
    #: refused now to everyone but admins (a duplicate board still being
    #: played elsewhere, :func:`games.embargo.room_hidden_hands`): their
    #: links are left out of the result panel and the score sheet.
    hidden_hands: frozenset = frozenset()
    #: In a room whose hands are for their players only
    #: (:func:`games.embargo.players_only`, a private room): each completed
    #: hand's id with the ids of the users who played it, ``((id, frozenset),
    #: ...)``; a viewer gets no link to a hand they did not play.
    hand_players: tuple = ()
    #: A replay (:func:`replay_snapshot`): how many actions the completed
    #: hand has in all (``action_count`` is the step shown); None for the
    #: live table.
    replay_total: int | None = None
    #: How many versions this snapshot is from the room's last full read: 0
    #: for a full read (:func:`table_snapshot`), n when it was stepped from a
    #: kept snapshot n times (:func:`games.live.snapshots.step_snapshot`).
    steps: int = 0
    #: What :func:`table_view` derives from this snapshot alone, the same for
    #: every viewer, kept for the snapshot's other viewers (the seats' names,
    #: levels and notes, by language: :func:`seat_words`).  Never an engine
    #: view: those are per seat.  A snapshot stepped from this one (the same
    #: seats, :func:`games.live.snapshots.step_snapshot`) shares the dict: only
    #: what depends on the seats alone goes in it.
    shared: dict = field(default_factory=dict, init=False, compare=False, repr=False)
    #: What this version shows every viewer alike, worked out once for all of
    #: them: the :class:`~games.render.view.PublicTable` (the engine's view for
    #: no seat) and the game's shared regions (``GameSpec.shared_regions``), by
    #: language (:func:`public_table`, :func:`shared_region`).  Its own dict,
    #: never the stepped snapshot's (a new version starts empty); it goes when
    #: the snapshot goes (the one room-state cache, reset with it).
    rendered: dict = field(default_factory=dict, init=False, compare=False, repr=False)

    @property
    def version(self) -> int:
        return self.room.version

    @property
    def complete(self) -> bool:
        """The hand shown is over (at the replay's last step, for a replay)."""
        if self.hand is None:
            return False
        if self.replay_total is None:
            return bool(self.hand.complete)
        return self.action_count >= self.replay_total


def table_snapshot(room: Room, seats: tuple | None = None) -> TableSnapshot:
    """Read everything :func:`table_view` needs except the viewer: three
    queries (seats unless given; hand with its action count; the match's
    tribute settlements), one more for the match's completed hands the first
    time this process sees them (:func:`games.services.completed_hands`), one
    for the actions this process has not applied yet (the hand state comes
    from the incremental cache, :func:`games.services.hand_state`), whatever
    the length of the hand and of the match.  The seats come with the
    embargo flag of the room (:func:`games.embargo.annotate_seats`); only a
    flagged room with completed hands asks which of them are hidden
    (:attr:`TableSnapshot.hidden_hands`, a few queries, once per version)."""
    rules = registry.get(room.game).rules
    if seats is None:
        seats = tuple(seating.annotate_seats(embargo.annotate_seats(room.seats.select_related("user")))
                      .order_by("index"))
    hand = services.current_hand_counted(room)
    state = None
    action_count = 0
    rows, totals, previous, settlement = [], [0] * rules.seats, None, None
    if hand is not None:
        action_count = hand.n_actions
        state = services.hand_state(hand, count=action_count)
        completed, settlements = match_history(hand)
        rows, totals = score_sheet(room, hand, rules.seats, (completed, settlements))
        if not hand.complete and hand.number > 1:
            previous = next((h for h in completed if h.number == hand.number - 1), None)
        settlement = latest_settlement(hand, settlements)
    shown = hand if hand is not None and hand.complete else previous
    notes = result_notes(room.game, shown) if shown is not None else ()
    hidden = frozenset()
    if seats and getattr(seats[0], "embargo_room", False) and (rows or shown is not None):
        linked = [r["id"] for r in rows] + ([shown.pk] if shown is not None else [])
        hidden = embargo.room_hidden_hands(room, linked)
    hand_players = ()
    if hand is not None and completed and embargo.players_only(room):
        hand_players = tuple((h.pk, frozenset(p.get("user") for p in h.players or () if p.get("user")))
                             for h in completed)
    return TableSnapshot(
        room, seats, hand, action_count, state, rows, totals, previous, settlement, notes, hidden,
        hand_players,
    )


def replay_snapshot(hand: Hand, step: int | None = None) -> TableSnapshot:
    """The table of the completed ``hand`` after its first ``step`` actions
    (clamped to ``0 .. len``; None: all), for :func:`table_view`: every
    viewer sees it as a spectator saw the live table at that moment (the
    engine's view for no seat: no one's cards, no buttons, no clock), the
    plays of the trick or round on the felt, the result at the last step.
    The caller checks that the viewer may see the hand
    (:func:`games.embargo`); the score sheet is left out.  A few queries:
    the hand's room unless joined, its seats, its actions, and the deal when
    the state is not cached (:func:`games.services.hand_state`)."""
    room = hand.match.room
    seats = tuple(room.seats.select_related("user").order_by("index"))
    payloads = list(hand.actions.order_by("seq").values_list("payload", flat=True))
    step = len(payloads) if step is None else max(0, min(step, len(payloads)))
    state = services.hand_state(hand, payloads, upto=step)
    nseats = registry.get(room.game).seats
    return TableSnapshot(room, seats, hand, step, state, [], [0] * nseats, None, None,
                         replay_total=len(payloads))


#: Why an embargoed board's links are missing, shown in their place.
EMBARGOED = _("这副牌暂不公开：所有牌桌打完这副牌或本轮结束后才能回放和下载牌谱")


def hidden_links(snapshot: TableSnapshot, user) -> dict:
    """``{hand id: sentence}``: the hands of the table's score sheet and
    result panel that ``user`` may not open, with why (shown instead of their
    replay and record links): the boards still embargoed for everyone
    (:attr:`TableSnapshot.hidden_hands`), and in a room whose hands are
    for their players only, those ``user`` did not play
    (:attr:`TableSnapshot.hand_players`, a player who sat down later).
    Admins may open everything: ``{}``.  No query."""
    if getattr(user, "is_staff", False):
        return {}
    hidden = dict.fromkeys(snapshot.hidden_hands, EMBARGOED)
    if snapshot.hand_players:
        reason = embargo.players_only(snapshot.room)
        key = embargo.watcher_key(user)
        for hand_id, users in snapshot.hand_players:
            if key not in users and hand_id not in hidden and reason:
                hidden[hand_id] = reason
    return hidden


def seat_words(snapshot: TableSnapshot) -> tuple[tuple[str, str, str], ...]:
    """``(name, bot level, note)`` of each seat of ``snapshot`` in the active
    language: what a seat shows of its player that no viewer changes (the
    apps' notes, :func:`games.seating.seat_note`, read the seat rows'
    annotations).  Worked out once per snapshot and language and kept in
    :attr:`TableSnapshot.shared`: a room version's sockets share it (no query)."""
    key = ("seat words", memo.language())
    found = snapshot.shared.get(key)
    if found is None:
        found = snapshot.shared[key] = tuple(
            (seat.display_name(), seat.get_bot_policy_display() if seat.bot_policy else "", seating.seat_note(seat))
            for seat in snapshot.seats
        )
    return found


def public_table(snapshot: TableSnapshot) -> PublicTable:
    """What every viewer of ``snapshot`` sees alike, in the active language
    (:class:`~games.render.view.PublicTable`): the engine's view for no seat
    (a spectator's, ``rules.view(state, None)``: no one's cards, no role
    hidden from anyone), the seats' names, the rules page.  Worked out once
    per snapshot (the view) and language (the rest), kept in
    :attr:`TableSnapshot.rendered`.  No query."""
    key = ("public", memo.language())
    found = snapshot.rendered.get(key)
    if found is None:
        view = public_view(snapshot)
        names = tuple(words[0] or _("空座") for words in seat_words(snapshot))
        found = snapshot.rendered[key] = PublicTable(
            view, names, rulings.rule_url(snapshot.room.game), _public_seats(snapshot, view))
    return found


def public_view(snapshot: TableSnapshot) -> dict | None:
    """The engine's view for no seat of ``snapshot`` (``rules.view(state,
    None)``: a spectator's; None before the first deal), worked out once per
    snapshot and kept in :attr:`TableSnapshot.rendered`: :func:`public_table`
    reads it, and each seat's view is built from it
    (``rules.view_from_public``, :func:`seat_view`).  No query."""
    view = snapshot.rendered.get("public view", False)
    if view is False:
        rules = registry.get(snapshot.room.game).rules
        view = rules.view(snapshot.state, None) if snapshot.hand is not None else None
        snapshot.rendered["public view"] = view
    return view


def seat_view(snapshot: TableSnapshot, rules, me: int | None) -> dict:
    """The engine's view of ``snapshot``'s hand for seat ``me`` (None: a
    spectator), built from the view for no seat worked out once per snapshot
    (:func:`public_view`, ``rules.view_from_public``: the game works out only
    the seat's own parts; equal to ``rules.view(state, me)``, hidden
    information included: a seat's cards and the roles only it knows reach
    only its view).  In :data:`games.render.memo.CHECK` (the tests'
    reference) the whole ``rules.view(state, me)``.  The hand must be dealt."""
    if memo.CHECK:
        return rules.view(snapshot.state, me)
    return rules.view_from_public(snapshot.state, me, public_view(snapshot))


def _public_seats(snapshot: TableSnapshot, view) -> tuple[SeatView, ...]:
    """:func:`seat_views` from the view for no seat, as :func:`table_view`
    builds a viewer's (its seat to act, its clock), with no seat to take (a
    seated player's; a spectator offered a seat differs there and renders
    its own)."""
    room = snapshot.room
    replay = snapshot.replay_total is not None
    to_act = (view or {}).get("to_act") if snapshot.hand is not None and not snapshot.complete else None
    deadline_ms = epoch_ms(room.deadline) if room.status == Room.Status.PLAYING and not replay else 0
    return seat_views(snapshot, registry.get(room.game), view, to_act, deadline_ms, may_take=False)


def shared_region(snapshot: TableSnapshot, rid: str, block) -> tuple[str, str, str] | None:
    """``(hash, tag, html with data-h)`` of the game's shared region ``rid``
    (``GameSpec.shared_regions``) of ``snapshot`` in the active language,
    rendered by the ``*_blocks.html`` macro ``block`` from the inputs the game
    derives from :func:`public_table` alone; None when the game says the
    region is not shown.  Worked out once per snapshot and language for all
    its viewers (kept in :attr:`TableSnapshot.rendered`; the block itself is
    kept per distinct inputs across versions as ``region.memo`` keeps it,
    :func:`games.render.regions.kept_region`).  Hidden information: no
    viewer's view reaches it, so a seat's own cards or a role only that seat
    knows (a hidden role) cannot be in it.  Raises ``ValueError`` for a
    region the game does not declare shared."""
    inputs_of = registry.get(snapshot.room.game).shared_regions.get(rid)
    if inputs_of is None:
        raise ValueError(f"region {rid!r} is not one of the game's shared regions")
    key = ("region", rid, memo.language())
    found = snapshot.rendered.get(key, False)
    if found is False:
        inputs = inputs_of(public_table(snapshot))
        found = None if inputs is None else kept_region(rid, block, inputs, strict=True)
        if not memo.CHECK:  # (the tests' reference renders everything afresh)
            snapshot.rendered[key] = found
    return found


def _agrees(view, pview, keys) -> bool:
    """``view`` holds the public view ``pview``'s values under every one of
    ``keys`` (a missing key reads None on both sides): what a viewer must
    share with the view for no seat to take a part built from it."""
    get, pget = view.get, pview.get
    for key in keys:
        if get(key) != pget(key):
            return False
    return True


def shared_board_for(snapshot: TableSnapshot, spec, view):
    """The game's board part every viewer sees alike
    (``spec.board_shared(public_table(snapshot))``), built once per snapshot
    and language, for a viewer whose engine view is ``view``; None when the
    game has none or does not say what it reads (``spec.board_reads`` None),
    before the first deal, or when ``view`` differs from the view for no seat
    under a key the part reads: that viewer's game builds its own.  Hidden
    information: built from the view for no seat alone.  None in
    :data:`games.render.memo.CHECK` (the tests' reference shares nothing).
    No query."""
    build = spec.board_shared
    if build is None or spec.board_reads is None or view is None or memo.CHECK:
        return None
    public = public_table(snapshot)
    pview = public.view
    if pview is None:
        return None
    if not _agrees(view, pview, spec.board_reads):
        return None
    key = ("board", memo.language())
    found = snapshot.rendered.get(key)
    if found is None:
        found = snapshot.rendered[key] = build(public)
    return found


def _auto_turn(seats, to_act) -> bool:
    """The seat to act is a bot or on 托管."""
    return to_act is not None and 0 <= to_act < len(seats) and (
        seats[to_act].is_bot or seats[to_act].autoplay
    )


def _takeable(room: Room, seat: Seat) -> bool:
    """A spectator may sit on ``seat``: an empty one, or a bot's while the
    table waits."""
    return (room.status != Room.Status.CLOSED and seat.is_empty) or (
        room.status == Room.Status.WAITING and seat.is_bot)


#: The keys of the engine's view every game's seat rows read (:func:`seat_views`
#: itself); the game adds those its hooks read (``GameSpec.seat_reads``).
SEAT_READS = ("counts", "to_act")


def public_seats_for(snapshot: TableSnapshot, spec, view, may_take: bool) -> tuple[SeatView, ...] | None:
    """The seats of :func:`public_table` (the view for no seat's rows, the
    very tuple) when a viewer whose engine view is ``view`` would build the
    same rows with :func:`seat_views`, else None (it builds its own).  The
    same rows: the game says which keys of the view its seat hooks read
    (``spec.seat_reads``; None: unknown, every viewer builds its own) and
    ``view`` holds the public view's values under these, :data:`SEAT_READS`
    included (its seat to act, hence the clock), and the viewer has no seat
    to take (``may_take``, a spectator of the live table, with an empty
    seat or a waiting table's bot).  Hidden information: the rows returned
    are built from the view for no seat alone; a viewer who knows more in
    what the rows read (a hidden role on its own seat, a turn only its own
    view shows) differs there and gets its own.  None
    in :data:`games.render.memo.CHECK` (the tests' reference shares
    nothing).  No query."""
    reads = spec.seat_reads
    if reads is None or memo.CHECK:
        return None
    if may_take:
        room = snapshot.room
        if any(_takeable(room, seat) for seat in snapshot.seats):
            return None
    public = public_table(snapshot)
    pview = public.view
    if view is None or pview is None:
        return public.seats if view is pview else None
    if not (_agrees(view, pview, SEAT_READS) and _agrees(view, pview, reads)):
        return None
    return public.seats


def seat_views(
    snapshot: TableSnapshot, spec, view, to_act: int | None, deadline_ms: int, may_take: bool
) -> tuple[SeatView, ...]:
    """The seats of ``snapshot`` as the engine's ``view`` shows them (a seat's
    own view, or the view for no seat: :func:`public_table`), in seat order:
    the seat block's and the felt's inputs.  ``to_act`` is the seat to act as
    that view says (a hidden decision's seat may be known to itself alone);
    ``may_take``, the viewer may sit down (a spectator of the
    live table).  Nothing here depends on where the viewer sits: the ring's
    reference is the page's (``TableView.ref``)."""
    room = snapshot.room
    seats = snapshot.seats
    hand = snapshot.hand
    totals = snapshot.totals
    counts = (view or {}).get("counts") or {}
    plays = spec.seat_plays(view) if view is not None and to_act is not None else {}
    auto_turn = _auto_turn(seats, to_act)
    rows = []
    for seat, (name, level, note) in zip(seats, seat_words(snapshot)):
        is_turn = to_act == seat.index
        rows.append(SeatView(
            index=seat.index,
            name=name,
            is_turn=is_turn,
            # the seat's play of the round on the table (games/_felt.html)
            played=plays.get(seat.index),
            can_take=may_take and _takeable(room, seat),
            # What the seat shows, as plain data: the input of its memo block,
            # the same for every viewer whose view shows the seat alike (its
            # tags are the roles as that view knows them); the countdown only
            # on the seat to act.
            shown={
                "index": seat.index, "name": name, "empty": seat.is_empty,
                "bot": seat.is_bot, "policy": seat.bot_policy or "",
                "level": level,
                "tags": spec.seat_tags(view, seat.index), "autoplay": seat.autoplay,
                # the note and its short form, a phone's narrow seat's (seating.Note), plain strings
                "note": str(note), "note_short": note.short,
                "ready": seat.ready, "hand": hand.pk if hand is not None else None,
                "status": room.status, "count": counts.get(str(seat.index)),
                "place": spec.seat_place(view, seat.index),
                "total": totals[seat.index] if seat.index < len(totals) else 0,
                "turn": is_turn,
                "deadline_ms": deadline_ms if is_turn else 0,
                "auto_turn": auto_turn if is_turn else False,
            },
        ))
    return tuple(rows)


#: The rows a table render may share (``region.rows(…, shared=NAME)``): the
#: fields of :class:`~games.render.view.PublicTable` that hold them.
SHARED_ROWS = frozenset({"seats"})


def shared_rows(snapshot: TableSnapshot, name: str, prefix: str, block, names: list, common: dict):
    """``(source, ((inputs, (hash, tag, html with data-h)), …))``: the
    :func:`public_table`'s rows ``name`` (``"seats"``: the seats as the view
    for no seat shows them, the very tuple: a viewer given them by
    :func:`public_seats_for` takes every row's render without comparing,
    :meth:`games.render.regions.Regions.rows`) and each of them rendered as the region ``prefix + <its first field>``
    by the ``*_blocks.html`` macro ``block`` from its fields ``names`` and
    ``common``; once per snapshot and language for all its viewers (kept in
    :attr:`TableSnapshot.rendered`; each row is kept per distinct inputs
    across versions as ``region.block`` keeps it).  A viewer whose row's
    inputs equal a shared row's gets that row's html
    (:meth:`games.render.regions.Regions.rows`): its own inputs' render, so
    hidden information (a hidden role its seat alone knows) is safe; the
    html comes from the public view, never from the viewer who rendered
    first.  None (every row per viewer) in :data:`games.render.memo.CHECK`,
    the tests' reference.  Raises ``ValueError`` for rows not in
    :data:`SHARED_ROWS`."""
    if name not in SHARED_ROWS:
        raise ValueError(f"rows {name!r} are not shared rows")
    if memo.CHECK:
        return None
    key = ("rows", prefix, block, tuple(names), memo.language())
    source = getattr(public_table(snapshot), name)
    found = snapshot.rendered.get(key)
    if found is None:
        out = []
        for row in source:
            rid, values = row_inputs(prefix, row, names, common)
            out.append((values, kept_region(rid, block, values)))
        found = snapshot.rendered[key] = tuple(out)
    return source, found


def table_view(
    room: Room, user, committed_at: int | None = None, snapshot: TableSnapshot | None = None
) -> TableView:
    """The table as ``user`` (seated or not, signed in or not) sees it: a
    :class:`~games.render.view.TableView`.

    ``snapshot`` (:func:`table_snapshot` of this room) saves every query;
    without it the room is read here.  Hidden information: the engine's view
    and aids are those of ``user``'s own seat (None for anyone else)."""
    if snapshot is None:
        snapshot = table_snapshot(room)
    room = snapshot.room
    spec = registry.get(room.game)
    rules = spec.rules
    seats = snapshot.seats
    replay = snapshot.replay_total is not None
    me = None if replay else seat_of(seats, user)  # a replay is watched, never played
    hand = snapshot.hand
    complete = snapshot.complete
    view = None
    state = snapshot.state
    buttons: list[ActionButton] = []
    hint = ""
    # a seat on 托管 is played by the bot: its viewer is offered no move
    # (no buttons, no hint) and told it is not his turn; the 托管 notice
    # with its 接管 button stays (games/_table.html)
    on_autoplay = me is not None and seats[me].autoplay
    if hand is not None:
        view = seat_view(snapshot, rules, me)
        if me is not None and not complete and not on_autoplay:
            buttons = action_buttons(rules.legal_verbs(state, me), spec)
            if any(b.needs_cards for b in buttons):
                # 提示: the engine's hint (by default the C5 move), from this
                # seat's own cards only.
                suggestion = rules.hint(state, me)
                if suggestion is not None and suggestion.verb in CARD_VERBS:
                    hint = " ".join(c.code for c in suggestion.cards)
    rows, totals = snapshot.score_rows, snapshot.totals
    hidden = hidden_links(snapshot, user)
    if hidden:
        rows = [{**r, "hidden": hidden[r["id"]]} if r["id"] in hidden and not r["settlement"] else r
                for r in rows]
    to_act = (view or {}).get("to_act") if hand is not None and not complete else None
    # seats around the table: the viewer's seat (seat 1 for a spectator) is
    # the ring's reference, at the bottom, the others in playing order; the
    # page's CSS places each seat from its index and this one number
    # (ring.css), so no seat's markup depends on the viewer's place
    ref = me if me is not None else 0
    deadline_ms = epoch_ms(room.deadline) if room.status == Room.Status.PLAYING and not replay else 0
    auto_turn = _auto_turn(seats, to_act)
    may_take = me is None and not replay
    # the public rows themselves when this viewer's would equal them (most
    # viewers, most versions): not built again per viewer
    seat_rows = public_seats_for(snapshot, spec, view, may_take)
    if seat_rows is None:
        seat_rows = seat_views(snapshot, spec, view, to_act, deadline_ms, may_take=may_take)
    seat_names = tuple(r.name for r in seat_rows)
    result, last_result, notes = shared_results(snapshot, spec, seat_names)
    if result is not None and result["hand_id"] in hidden:
        result = {**result, "hidden": hidden[result["hand_id"]]}
    if last_result is not None and last_result["hand_id"] in hidden:
        last_result = {**last_result, "hidden": hidden[last_result["hand_id"]]}
    # a table waiting again after a match began: who it waits for
    paused_for = ()
    if room.status == Room.Status.WAITING and hand is not None and not replay:
        paused_for = tuple(s.display_name() for s in seats if s.user_id and not s.ready)
    return TableView(
        room=room,
        code=room.game,
        spec=spec,
        rules=rules,
        me=me,
        my_seat=seats[me] if me is not None else None,
        is_owner=not replay and user is not None and user.is_authenticated and room.owner_id == user.pk,
        rejoin=services.rejoin_seat(room, seats, hand, user) if me is None and not replay else None,
        replay=replay,
        complete=complete,
        ref=ref,
        seats=seat_rows,
        names=tuple(n or _("空座") for n in seat_names),
        seat_names=seat_names,
        has_empty=any(s.is_empty for s in seats),
        paused_for=paused_for,
        hand=hand,
        action_count=snapshot.action_count,
        view=view,
        aids=rules.seat_aids(state, me) if hand is not None else None,
        to_act=to_act,
        my_turn=to_act is not None and to_act == me and not on_autoplay,
        phase_name=fixed_word(spec, f"phase {(view or {}).get('phase')}", phase_name(spec, (view or {}).get("phase"))),
        buttons=tuple(buttons),
        hint=hint,
        result=result,
        last_result=last_result,
        result_notes=notes,
        score_rows=tuple(rows),
        totals=tuple(totals),
        settlement=snapshot.settlement,
        hidden_hands=hidden,
        version=room.version,
        committed_at=committed_at or epoch_ms(room.changed),
        deadline_ms=deadline_ms,
        server_now_ms=epoch_ms(timezone.now()),
        between_hands=complete and not replay and room.status == Room.Status.PLAYING,
        auto_turn=auto_turn,
        help_url=rulings.rule_url(room.game),
        shared_board=shared_board_for(snapshot, spec, view),
    )


def shared_results(snapshot: TableSnapshot, spec, seat_names: tuple) -> tuple:
    """``(result, last result, notes)`` of ``snapshot`` in the active
    language: the result panel of the completed hand shown (:func:`hand_result`,
    None while it is in play), else of the previous hand of the match (None
    when there is none), and the apps' notes on that hand
    (:attr:`TableSnapshot.result_notes`, their lazy labels and bot names as
    plain strings).  The same for every viewer of the snapshot (what a
    viewer may not open, ``hidden``, :func:`table_view` adds to its own
    copy): built once per snapshot, language and seat names, kept in
    :attr:`TableSnapshot.rendered`; built afresh in
    :data:`games.render.memo.CHECK` (the tests' reference).  No query."""
    key = ("results", memo.language(), seat_names)
    found = None if memo.CHECK else snapshot.rendered.get(key)
    if found is None:
        hand = snapshot.hand
        result = last_result = None
        if snapshot.complete:
            result = hand_result(hand, spec, list(seat_names))
        elif snapshot.previous is not None:
            last_result = hand_result(snapshot.previous, spec, list(seat_names))
        notes = tuple(
            {**n, "label": str(n["label"]),
             "seats": [{**s, "name": str(s["name"]), "mark": str(s["mark"]) if s.get("mark") else None}
                       for s in n["seats"]]}
            for n in snapshot.result_notes
        )
        found = (result, last_result, notes)
        if not memo.CHECK:
            snapshot.rendered[key] = found
            stats["results built"] += 1
    return found


#: How often :func:`shared_results` built a snapshot's results (tests, the bench).
stats = {"results built": 0}


def table_render(
    room: Room, user, committed_at: int | None = None, snapshot: TableSnapshot | None = None
) -> TableRender:
    """:func:`table_view` for ``user`` and the game's regions for that view
    (``spec.table_regions(table)``, a typed value of the game's own, or None):
    what the fragment's templates read as ``table`` and ``game``."""
    table = table_view(room, user, committed_at, snapshot)
    return TableRender(table, table.spec.table_regions(table))


def render_table(
    room: Room, user, committed_at: int | None = None, request=None,
    snapshot: TableSnapshot | None = None, swap_oob: str | None = None,
) -> str:
    """The ``#table`` fragment for ``user`` (HTML string); ``snapshot`` as
    for :func:`table_view` (then no query is made).  ``swap_oob``, when
    given, is the root's ``hx-swap-oob`` (how htmx applies a pushed table:
    ``"morph"``, idiomorph keeping the page's elements, see
    :data:`games.live.group_push.PUSH_SWAP`); a page or a POST answer has none.
    Its regions carry ``data-h`` (:mod:`games.render.regions`)."""
    return mark_safe(render_table_parts(room, user, committed_at, request, snapshot, swap_oob))


def render_table_parts(
    room: Room, user, committed_at: int | None = None, request=None,
    snapshot: TableSnapshot | None = None, swap_oob: str | None = None,
) -> TableHtml:
    """:func:`render_table` with its regions: a :class:`~games.render.regions.TableHtml`
    (a ``str``) whose ``parts`` a socket diffs against what it sent
    (:func:`games.render.regions.partial`)."""
    if snapshot is None:
        snapshot = table_snapshot(room)
    parts = table_render(room, user, committed_at, snapshot)
    collector = Regions(lambda rid, block: shared_region(snapshot, rid, block),
                        lambda name, prefix, block, names, common: shared_rows(
                            snapshot, name, prefix, block, names, common))
    ctx = {"table": parts.table, "game": parts.game, "region": collector, "swap_oob": swap_oob}
    # a Jinja2 template (games/render/jinja.py), taken from its engine at once (no
    # Django-template lookup first); its output is escaped already
    html = engines["jinja2"].get_template("games/_table.html").render(ctx, request)
    return TableHtml(squeeze(html), collector.parts)


def lobby_rooms(game: str):
    """Rooms shown in a game's lobby: waiting and playing, newest first;
    never a private room (:mod:`games.private_rooms`)."""
    return (
        Room.objects.filter(game=game, private=False)
        .exclude(status=Room.Status.CLOSED)
        .select_related("owner")
        .prefetch_related("seats")
        .order_by("-created")[:100]
    )


def render_room_list(game: str, request=None, swap_oob: str | None = None) -> str:
    """The ``#room-list`` fragment of a lobby; ``swap_oob``, in a push, how
    the page applies it (:data:`games.live.group_push.PUSH_SWAP`)."""
    rooms = []
    for room in lobby_rooms(game):
        seats = list(room.seats.all())
        rooms.append(
            {
                "room": room,
                "taken": sum(1 for s in seats if not s.is_empty),
                "total": len(seats),
            }
        )
    return render_to_string(
        "games/_room_list.html", {"rooms": rooms, "game": game, "swap_oob": swap_oob}, request=request
    )
