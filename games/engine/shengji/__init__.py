"""Four-deck 升級 with 比牌 bidding and 參謀 (code name ``shengji``).

The package's module-level ``RULES`` satisfies :class:`games.engine.base.GameRules`
(``get_rules("shengji")``).  Modules, one concept each:

- ``trumps``, ``shapes``, ``tricks``: card order (S3/S4), units and tractors
  (S5/S6), shape strength (S7), leads, following, trick winner, throws (S8–S12).
- ``deal`` (S1, S13 shown card), ``auction`` (S13 比牌), ``give`` (S14 還牌),
  ``state`` (the hand's state machine, S15), ``scoring`` (S16–S18),
  ``match`` (levels and dealer carried from hand to hand, S2/S15),
  ``view`` (what one seat may know), ``bots`` (random and heuristic policies),
  ``rules`` (the ``GameRules`` object).
"""

from __future__ import annotations

from .rules import RULES

__all__ = ["RULES"]
