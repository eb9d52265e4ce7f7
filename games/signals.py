"""Signals other apps listen to; ``games`` imports none of its listeners.

``hand_completed``
    Sent once per completed hand, **after** the transaction that completed it
    has committed (``transaction.on_commit``), from whichever process applied
    the last action (a web process, a Celery worker, an in-process timer).
    ``sender`` is the game code (a registry key, e.g. the room's ``game``);
    keyword arguments: ``room_id`` (int), ``hand_id`` (int), ``match_id``
    (int), ``summary`` (the engine's summary dict as stored in
    ``Hand.summary``; ``summary.get("voided")`` for a deal that scored
    nothing), ``players`` (``Hand.players``: per seat ``{"name", "user",
    "bot"}``) and ``match_finished`` (bool: the hand ended its match).
    Receivers are called with ``send_robust``: an exception is logged and
    never undoes the hand; a receiver that writes opens its own transaction.
    For listeners that only need to know after the fact (events, statistics).

``hand_scored``
    Sent by :mod:`games.services` *inside* the transaction that completes a hand
    (after its summary, tribute rows and ledger credits are written), with
    ``sender`` the game code and the keyword arguments ``room`` (the locked
    :class:`~games.models.Room`), ``hand`` (the completed
    :class:`~games.models.Hand`, ``summary`` set) and ``rules`` (the engine's
    rules object).  It is sent with ``send_robust``: a failing receiver is
    logged and never stops the table.  A receiver that writes must do so in a
    savepoint of its own (``transaction.atomic()``), so that its failure rolls
    back only its own rows; its rows then commit (or roll back) with the hand,
    and the table's next render (same version) already shows them.  (A
    listener that only needs to know after the fact should rather run after
    the commit.)

``seat_left``
    Sent by :func:`games.services.leave_seat` *inside* its transaction,
    after the seat was handed to the bot or emptied, with ``sender`` the
    game code and the keyword arguments ``room`` (the locked room, its
    status as before the leave), ``user`` (who left) and ``hand`` (the
    room's latest hand, or None).  Sent with ``send_robust``; a receiver
    that writes does so in its own savepoint (e.g. reputation for leaving a
    match before its end).

``page_links``
    Asked by the room page (``hand`` None) and a hand's replay page, with
    ``sender`` the game code and the keyword arguments ``room``, ``hand``
    and ``user`` (the viewer).  A receiver answers a list of ``{"key",
    "label", "url"}`` (e.g. "report a player"); the page shows them as
    links in its menu.  A room page's link with ``"follow": True`` is where
    a seated player is taken when the room closes while they watch it (a
    countdown they may stop; e.g. an arena's next table).

``result_notes``
    Asked by :func:`games.render.tables.table_snapshot` for the completed hand a
    table shows in its result panel: ``sender`` the game code, keyword
    argument ``hand``.  A receiver answers None or a dict ``{"key": str,
    "label": str, "seats": {seat index: short text}}`` (e.g. the rating change ``"+12"``)
    and optionally ``"marks": {seat index: a word}`` shown as a tag after that
    seat's text (e.g. "暂定", a provisional rating; labels and marks may be
    lazy, rendered in each reader's language);
    the answers are shown under the result, one line per note, the same for
    every viewer (a receiver must return only public information).

``room_committed``
    Sent by the services after the commit of every change to a room
    (:func:`games.services.frame.after_commit`): ``sender`` the game code,
    keyword arguments ``room_id``, ``version`` (the new one), ``deadline``
    (when the server acts next, or None) and ``lobby`` (whether the lobby's
    room list changed).  The live layer pushes the version to the room's
    sockets, this process's turn runner learns the next deadline.  Sent robustly: a failing
    receiver is logged and the others still run.

``turn_due``
    Sent by :func:`games.services.turns.play_turn` when it ran before the
    room's deadline: ``room_id``, ``version``, ``delay_s`` (seconds until the
    deadline).  The turn runner claims the room again then.

``review_due``
    Sent after the commit that asked for a completed hand's review
    (:func:`games.services.reviews.request_review`): ``hand_id``.  The runtime
    computes it at low priority (:mod:`games.runtime.reviewing`).

The last three are how the services reach the layers above them without
importing them: those layers connect their receivers when Django starts
(``GamesConfig.ready``).
"""

from __future__ import annotations

import logging

from django.dispatch import Signal

log = logging.getLogger(__name__)

hand_completed = Signal()
hand_scored = Signal()
result_notes = Signal()
room_committed = Signal()
turn_due = Signal()
review_due = Signal()
seat_left = Signal()
page_links = Signal()


def send_robustly(signal, sender, what: str, **kwargs) -> list:
    """Send ``signal`` with ``send_robust``: a failing receiver is logged with
    its traceback (``what`` names the occasion in the line) and the others
    still run.  Returns the receivers' answers that are not empty, in order."""
    answers = []
    for receiver, response in signal.send_robust(sender=sender, **kwargs):
        if isinstance(response, Exception):
            log.error("%s: receiver %r failed", what, receiver,
                      exc_info=(type(response), response, response.__traceback__))
        elif response:
            answers.append(response)
    return answers


def send_room_committed(game: str, **kwargs) -> None:
    """Send :data:`room_committed`; a failing receiver is logged, the others still run."""
    send_robustly(room_committed, game, f"room {kwargs.get('room_id')} version {kwargs.get('version')} committed",
                  **kwargs)


def collect_page_links(game: str, room, hand, user) -> list[dict]:
    """The :data:`page_links` answers (failures logged, skipped)."""
    return [link for links in send_robustly(page_links, game, "page_links", room=room, hand=hand, user=user)
            for link in links]


def send_seat_left(room, user, hand) -> None:
    """Send :data:`seat_left`; a failing receiver is logged, not raised."""
    send_robustly(seat_left, room.game, f"room {room.pk} seat left", room=room, user=user, hand=hand)


def send_hand_scored(room, hand, rules) -> None:
    """Send :data:`hand_scored`; a failing receiver is logged, not raised."""
    send_robustly(hand_scored, room.game, f"hand {hand.pk} scored", room=room, hand=hand, rules=rules)


def collect_result_notes(game: str, hand) -> list[dict]:
    """The :data:`result_notes` answers for ``hand`` (failures logged, skipped)."""
    return send_robustly(result_notes, game, f"result notes of hand {hand.pk}", hand=hand)
