"""保皇 (baohuang), five players: the rules engine (rulings B1–B14) and bots.

``RULES`` satisfies :class:`games.engine.base.GameRules`.  One module per
concept: :mod:`.order` (B2), :mod:`.sets` (B3, B4, B6), :mod:`.deal` (B1),
:mod:`.buy3` (B7), :mod:`.crown` (B8–B10), :mod:`.play` (B5, B6, B11),
:mod:`.scoring` (B12), :mod:`.tribute` (B13, B14), :mod:`.state`, :mod:`.view`,
:mod:`.bots`, :mod:`.rules`.  No Django imports.
"""

from .rules import RULES, BaohuangRules
from .tribute import leave_settlement

__all__ = ["RULES", "BaohuangRules", "leave_settlement"]
