"""Round robin by the circle method (Berger tables), with a bye for an odd count.

Entries are placed on a circle of ``m`` positions (``m = n`` for an even count,
``n + 1`` with a bye slot for an odd one).  Position 0 stays; the others turn
one step each round; in round ``r`` position ``i`` meets position ``m - 1 - i``.
After ``m - 1`` rounds every two entries have met exactly once and each entry
had the bye (if any) exactly once.  The fixed entry alternates sides so that no
entry is always "first" (the side that, in a two-sided game, is listed first).

Source: the circle method as in the FIDE Berger tables (FIDE Handbook C.05,
Annex 1); see ``docs/tournaments.md``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from .swiss import PairingError


def rounds_needed(n: int) -> int:
    """Rounds of a complete round robin of ``n`` entries (n - 1, or n if odd)."""
    return n - 1 if n % 2 == 0 else n


def round_robin_round(
    entries: Sequence[Hashable], round_index: int
) -> tuple[list[tuple[Hashable, Hashable]], Hashable | None]:
    """``(pairs, bye)`` of round ``round_index`` (0-based, ``< rounds_needed(n)``)
    for ``entries`` in seeding order.  Raises :class:`PairingError` for fewer
    than two entries, duplicate ids or a round out of range."""
    entries = list(entries)
    n = len(entries)
    if n < 2:
        raise PairingError("at least two entries are needed")
    if len(set(entries)) != n:
        raise PairingError("duplicate entry ids")
    if not 0 <= round_index < rounds_needed(n):
        raise PairingError(f"a round robin of {n} entries has {rounds_needed(n)} rounds")
    slots: list[Hashable | None] = entries + ([None] if n % 2 else [])
    m = len(slots)
    rest = slots[1:]
    k = round_index % (m - 1)
    rest = rest[-k:] + rest[:-k] if k else rest
    circle = [slots[0]] + rest
    pairs = []
    bye = None
    for i in range(m // 2):
        a, b = circle[i], circle[m - 1 - i]
        if i == 0 and round_index % 2 == 1:
            a, b = b, a
        if a is None or b is None:
            bye = b if a is None else a
            continue
        pairs.append((a, b))
    return pairs, bye


def round_robin_schedule(entries: Sequence[Hashable]) -> list[tuple[list[tuple[Hashable, Hashable]], Hashable | None]]:
    """Every round of a complete round robin: a list of ``(pairs, bye)``."""
    return [round_robin_round(entries, r) for r in range(rounds_needed(len(list(entries))))]
