"""Room-option schemas: which engine options a room may set, and their values.

Each game's rules object has ``option_schema``: a mapping from option name to
an :class:`Option` (the allowed values).  The site validates a room's options
against it (:mod:`games.pages.room_options`) before they reach ``new_match``, so an
unknown key, a nested value or an oversized payload is refused with a clear
message instead of being stored (issue #8).  ``multiplier`` is not in any
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
