"""Recurring events and the site's arena schedule, as pure functions.

* :func:`occurrences`: the starts of an RFC 5545 recurrence rule (``RRULE``,
  read by python-dateutil's ``rrulestr``) in a window, computed on the wall
  clock of the rule's IANA time zone and only then made aware, so "every
  Tuesday 19:30 Europe/Berlin" stays at 19:30 across a change of summer time
  (RFC 5545 §3.3.10: a rule's DTSTART with a TZID repeats in local time).
* :func:`arena_slots` + :func:`prune`: the site's arena slots (hourly, daily,
  weekly) and how conflicting ones are dropped: as lichess's
  ``TournamentScheduler`` does (``pruneConflicts``), the plans are taken by
  importance (weekly over daily over hourly), and a plan is dropped when it
  overlaps one already kept on the same track (the same game).

No Django: times are ``datetime`` values, zones ``zoneinfo`` names.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import datetime, time, timedelta, timezone

from dateutil.rrule import rrulestr


class RuleError(ValueError):
    """A recurrence rule that cannot be read, or that repeats too often."""


#: The shortest gap a club's recurring event may repeat at.
MIN_GAP = timedelta(hours=1)


def _zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as exc:
        raise RuleError(f"unknown time zone {name!r}") from exc


def check_rule(rule: str, first: datetime) -> None:
    """Raise :class:`RuleError` unless ``rule`` is an RRULE (with or without
    the ``RRULE:`` prefix) that dateutil reads from the naive wall-clock
    ``first`` and whose first two starts are at least :data:`MIN_GAP` apart."""
    text = rule.strip()
    if text.upper().startswith("RRULE:"):
        text = text[6:]
    if not text or any(c in text for c in "\r\n") or "DTSTART" in text.upper():
        raise RuleError("one RRULE line, without DTSTART")
    try:
        r = rrulestr(text, dtstart=first.replace(tzinfo=None))
        starts = [d for _, d in zip(range(2), r)]
    except (ValueError, TypeError) as exc:
        raise RuleError(str(exc)) from exc
    if len(starts) == 2 and starts[1] - starts[0] < MIN_GAP:
        raise RuleError("repeats more often than hourly")


def occurrences(rule: str, first: datetime, zone: str, after: datetime, before: datetime,
                limit: int = 500) -> list[datetime]:
    """The starts (aware, UTC) of ``rule`` from the wall-clock ``first``
    (naive, in ``zone``) that fall in ``[after, before)`` (aware), at most
    ``limit``.  A wall-clock time a summer-time change skips is moved on by
    the gap (``zoneinfo``'s fold 0: 02:30 on a spring-forward night is 03:30);
    a repeated one is its first instance.  Raises :class:`RuleError`."""
    check_rule(rule, first)
    tz = _zone(zone)
    text = rule.strip()
    if text.upper().startswith("RRULE:"):
        text = text[6:]
    r = rrulestr(text, dtstart=first.replace(tzinfo=None))
    lo = after.astimezone(tz).replace(tzinfo=None) - timedelta(days=1)
    out = []
    for local in r.xafter(lo, inc=True) if hasattr(r, "xafter") else r:
        at = _aware(local, tz)
        if at >= before:
            break
        if at >= after:
            out.append(at)
            if len(out) >= limit:
                break
    return out


def _aware(local: datetime, tz: zoneinfo.ZoneInfo) -> datetime:
    """``local`` (naive wall clock in ``tz``) in UTC, with ``fold=0``
    (PEP 495): a time in a spring-forward gap is read with the offset before
    the gap, so it lands after it; a repeated time is its first instance."""
    return local.replace(tzinfo=tz, fold=0).astimezone(timezone.utc)


# ------------------------------------------------------------------ the site's arenas

#: Importance of a slot by its frequency (lichess: Hourly < Daily < Weekly).
IMPORTANCE = {"hourly": 1, "daily": 2, "weekly": 3}


@dataclass(frozen=True)
class ArenaPlan:
    """One line of the admin's arena schedule: ``frequency`` (hourly, daily,
    weekly), at ``minute`` past the hour (daily: at ``hour``; weekly: on
    ``weekday``, 0 Monday), lasting ``minutes``, on ``track`` (the game),
    ``key`` naming the line."""

    key: str
    track: str
    frequency: str
    minutes: int
    minute: int = 0
    hour: int = 0
    weekday: int = 0
    zone: str = "UTC"


@dataclass(frozen=True, order=True)
class Slot:
    """A planned arena: ``start``/``end`` aware, ``importance``, ``track``, ``key``."""

    start: datetime
    end: datetime
    importance: int
    track: str
    key: str

    def overlaps(self, other: "Slot") -> bool:
        """Same track and the intervals ``[start, end)`` intersect."""
        return self.track == other.track and self.start < other.end and other.start < self.end


def arena_slots(plans: list[ArenaPlan], after: datetime, before: datetime) -> list[Slot]:
    """Every slot of ``plans`` starting in ``[after, before)``, by start
    (wall-clock times in each plan's zone, made aware as :func:`occurrences`)."""
    out = []
    for p in plans:
        if p.frequency not in IMPORTANCE:
            raise RuleError(f"unknown frequency {p.frequency!r}")
        freq = {"hourly": "HOURLY", "daily": "DAILY", "weekly": "WEEKLY"}[p.frequency]
        tz = _zone(p.zone)
        local_after = after.astimezone(tz).replace(tzinfo=None)
        day = local_after.date() - timedelta(days=7)
        if p.frequency == "hourly":
            first = datetime.combine(day, time(0, p.minute))
        elif p.frequency == "daily":
            first = datetime.combine(day, time(p.hour, p.minute))
        else:
            day += timedelta(days=(p.weekday - day.weekday()) % 7)
            first = datetime.combine(day, time(p.hour, p.minute))
        for start in occurrences(f"FREQ={freq}", first, p.zone, after, before, limit=10_000):
            out.append(Slot(start, start + timedelta(minutes=p.minutes), IMPORTANCE[p.frequency], p.track, p.key))
    return sorted(out)


def prune(slots: list[Slot]) -> list[Slot]:
    """The slots kept when conflicting ones are dropped, by start: taken by
    importance (highest first; then the earlier start, then the key), a slot
    is kept unless it overlaps (same track) one already kept.  Source:
    lichess ``TournamentScheduler.pruneConflicts`` (a daily arena replaces the
    hourly arenas it overlaps, a weekly one the daily)."""
    kept: list[Slot] = []
    for s in sorted(slots, key=lambda s: (-s.importance, s.start, s.key)):
        if not any(s.overlaps(k) for k in kept):
            kept.append(s)
    return sorted(kept)
