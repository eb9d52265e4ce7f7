"""Seat rules: another app may say who may take a seat of a room.

A club event's table seats only the players of the entry the pairing put at
that seat, or a substitute the organiser named.  The games app
does not know about events: apps register a *rule* at start-up
(``AppConfig.ready``), an object with

``seat_refusal(room, user, index) -> str | None``
    None: nothing of this app's stops ``user`` taking seat ``index`` (0-based)
    of ``room`` (a ``games.models.Room``); otherwise a sentence (translated)
    saying why not.

``play_refusal(user) -> str | None`` (optional)
    None, or why ``user`` may not play at all now (a suspension): asked
    by :func:`play_refusal` for what is no seat yet (a club event's entry).

``seat_annotations() -> {name: expression}`` and ``seat_note(seat) -> str | Note | None`` (optional)
    what a seated player's name shows beside it on the table (a
    reputation): the expressions are annotated on the seats' query of the
    table snapshot (:func:`annotate_seats`: the same single query, no new
    one), ``seat_note`` reads them from a seat row (no query).  A
    :class:`Note` also gives the note's short form, what a phone's narrow
    seat shows of it ("75" for "信誉 75").

:func:`seat_refusal` asks every rule; the first sentence wins.
:func:`games.services.take_seat` asks it inside the room's lock and raises
``Forbidden`` (403) with the sentence.  Nothing here names a game or an app.
"""

from __future__ import annotations

from hooks import Hooks

#: The apps' seating rules (the site's one way to ask the apps above: hooks/__init__.py).
_rules = Hooks("seating")


def register(rule) -> None:
    """Add ``rule`` (once): an object with ``seat_refusal(room, user, index)``."""
    _rules.add(rule)


def seat_refusal(room, user, index: int) -> str | None:
    """Why ``user`` may not take seat ``index`` of ``room``, or None."""
    return _rules.reason("seat_refusal", room, user, index)


def play_refusal(user) -> str | None:
    """Why ``user`` may not play anywhere now (the rules that answer
    ``play_refusal``), or None."""
    return _rules.reason("play_refusal", user)


def annotate_seats(seats):
    """A queryset of ``Seat`` rows with every rule's ``seat_annotations``."""
    extra = {}
    for annotations in _rules.answers("seat_annotations"):
        extra.update(annotations)
    return seats.annotate(**extra) if extra else seats


class Note(str):
    """A seat's note: the text itself (what a wide seat shows and screen
    readers read, "信誉 75") and :attr:`short`, what a phone's narrow seat
    shows in its place ("75"; the text itself when not given)."""

    short: str

    def __new__(cls, text: str, short: str | None = None) -> "Note":
        note = super().__new__(cls, text)
        note.short = str(text) if short is None else str(short)
        return note


def seat_note(seat) -> Note:
    """The short texts the rules show beside ``seat``'s player (joined by a
    space; "" for none), with their short forms joined alike
    (:attr:`Note.short`).  Reads only the row's annotations."""
    if not seat.user_id:
        return Note("")
    notes = [note for note in _rules.answers("seat_note", seat) if note]
    return Note(" ".join(str(note) for note in notes), " ".join(getattr(note, "short", str(note)) for note in notes))
