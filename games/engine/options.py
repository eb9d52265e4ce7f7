"""Room-option schemas: which engine options a room may set, and their values.

Each game's rules object has ``option_schema``: a mapping from option name to
an :class:`Option` (the allowed values).  The site validates a room's options
against it (:mod:`games.services.room_options`) before they reach ``new_match``, so an
unknown key, a nested value or an oversized payload is refused with a clear
message instead of being stored.  ``multiplier`` is not in any
schema: the room's multiplier is its own field (C4).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Option:
    """One option: ``choices`` (allowed scalar values, compared with ``==``
    and by type), ``label`` (short English description for messages/docs)."""

    choices: tuple
    label: str = ""

    def allows(self, value) -> bool:
        """True when ``value`` is one of ``choices`` (same type: ``True`` is not ``1``)."""
        return any(type(value) is type(c) and value == c for c in self.choices)


#: Largest room multiplier (C4): what the site's ``RoomMultiplier.value``, a
#: positive 32-bit integer, can hold.  A record asking for more (10^30)
#: is refused rather than scored into points no ledger can store.
MAX_MULTIPLIER = 2**31 - 1


def multiplier_problem(value) -> str | None:
    """Why ``value`` is not a room multiplier (C4: an integer, not a bool,
    1 ≤ value ≤ :data:`MAX_MULTIPLIER`), as a sentence for a RecordError; None
    when it is one."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_MULTIPLIER:
        shown = repr(value) if not isinstance(value, int) or value.bit_length() < 64 else f"an integer of {len(str(value))} digits"
        return f"multiplier must be an integer from 1 to {MAX_MULTIPLIER}, got {shown}"
    return None
