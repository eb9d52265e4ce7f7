"""Sets (ruling B3), beating (B4) and the rule of the 3 (B6).

A set is written here as its **shape**: the tuple of its rank values
(:mod:`.order`) sorted high to low.  Suits never matter (B2), so every
question about sets is answered on shapes.

B3: one or more cards of one rank (4 … 2) with any number of SJ, BJ and ``4H*``
attached; or jokers only (any mix of SJ and BJ, ``4H*`` may be attached); or
``4H*`` alone.  A 3 is never part of a set: it is played alone, as the
player's last card, when he leads (B6).

B4: shape T beats shape S when both have the same length and every card of T is
strictly higher than the card of S in the same position.

>>> from .order import H4, BJ, SJ
>>> beats((BJ, BJ, 9, 9, 9), (SJ, SJ, 7, 7, 7))   # 2 BJ + 3 J over 2 SJ + 3 nine
True
>>> beats((BJ, BJ, BJ, 9, 9), (SJ, SJ, 7, 7, 7))  # 3 BJ + 2 J also does
True
>>> beats((BJ, 11, 11), (SJ, 9, 9))
True
>>> beats((BJ, BJ, 11), (BJ, 9, 9))              # a BJ attached needs 4H*
False
>>> beats((H4, 10, 10), (BJ, 9, 9))
True
"""

from __future__ import annotations

from .order import BJ, H4, SJ, THREE, rank_label

Shape = tuple[int, ...]


def shape_error(shape: Shape) -> str | None:
    """Why ``shape`` is not a B3 set (a message), or None if it is one.

    The 3 is not judged here (see :func:`three_error`).
    """
    if not shape:
        return "a play needs at least one card"
    body = None
    for r in shape:
        if r == THREE:
            if len(shape) > 1:
                return "a 3 is never part of a set: it is played alone (B6)"
            continue
        if r >= SJ:
            continue
        if body is None:
            body = r
        elif r != body:
            return (
                "a set is cards of one rank with jokers or 4H* attached (B3): "
                f"{rank_label(body)} and {rank_label(r)} cannot go together"
            )
    return None


def three_error(shape: Shape, leading: bool, hand_size: int) -> str | None:
    """B6: a 3 may only be played alone, as the last card, when leading."""
    if THREE not in shape:
        return None
    if len(shape) != 1:
        return "a 3 is never part of a set: it is played alone (B6)"
    if hand_size != 1:
        return "the 3 can only be played as your last card (B6)"
    if not leading:
        return "the 3 can only be played when you lead, as your last card (B6)"
    return None


def beats(new: Shape, top: Shape) -> bool:
    """B4: same length and every card of ``new`` strictly higher position by position."""
    if len(new) != len(top):
        return False
    for a, b in zip(new, top):
        if a <= b:
            return False
    return True


def describe(shape: Shape) -> str:
    """A short label such as ``"BJ SJ 9 9"``."""
    return " ".join(rank_label(r) for r in shape)


def _make(z: int, y: int, x: int, r: int, n: int) -> Shape:
    return (H4,) * z + (BJ,) * y + (SJ,) * x + (r,) * n


def lead_shapes(rc) -> list[Shape]:
    """Every distinct set the hand with rank counts ``rc`` may lead (B3, B6).

    A hand holding only its 3 leads the 3.  Order: by body rank low to high,
    then by size, then with fewer attachments first; jokers-only sets last.
    """
    total = sum(rc)
    if total == 1 and rc[THREE] == 1:
        return [(THREE,)]
    zmax, ymax, xmax = rc[H4], rc[BJ], rc[SJ]
    out: list[Shape] = []
    for r in range(1, SJ):
        c = rc[r]
        for n in range(1, c + 1):
            for z in range(zmax + 1):
                for y in range(ymax + 1):
                    for x in range(xmax + 1):
                        out.append(_make(z, y, x, r, n))
    for z in range(zmax + 1):
        for y in range(ymax + 1):
            for x in range(xmax + 1):
                if x + y + z:
                    out.append(_make(z, y, x, 0, 0))
    return out


def beating_shapes(rc, top: Shape) -> list[Shape]:
    """Every distinct set from rank counts ``rc`` that beats ``top`` (B4).

    Works on compositions ``4H*×z + BJ×y + SJ×x + rank r × n``: with ``top``
    sorted high to low, the attachments must each beat the card in their
    position and the body rank must beat the highest card left after them.
    """
    k = len(top)
    out: list[Shape] = []
    zmax = min(rc[H4], k)
    ymax_all = rc[BJ]
    xmax_all = rc[SJ]
    for z in range(zmax + 1):
        if z and top[0] >= H4:
            break
        for y in range(min(ymax_all, k - z) + 1):
            if y and top[z] >= BJ:
                break
            for x in range(min(xmax_all, k - z - y) + 1):
                if x and top[z + y] >= SJ:
                    break
                n = k - z - y - x
                if n == 0:
                    out.append(_make(z, y, x, 0, 0))
                    continue
                lo = top[z + y + x] + 1
                for r in range(max(lo, 1), SJ):
                    if rc[r] >= n:
                        out.append(_make(z, y, x, r, n))
    return out


def can_beat(rc, top: Shape) -> bool:
    """True if some set from ``rc`` beats ``top`` (cheaper than listing them)."""
    k = len(top)
    zmax = min(rc[H4], k)
    for z in range(zmax + 1):
        if z and top[0] >= H4:
            break
        for y in range(min(rc[BJ], k - z) + 1):
            if y and top[z] >= BJ:
                break
            for x in range(min(rc[SJ], k - z - y) + 1):
                if x and top[z + y] >= SJ:
                    break
                n = k - z - y - x
                if n == 0:
                    return True
                for r in range(max(top[z + y + x] + 1, 1), SJ):
                    if rc[r] >= n:
                        return True
    return False

