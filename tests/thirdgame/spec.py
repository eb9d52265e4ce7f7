"""The test game's :class:`~games.registry.GameSpec`: nothing but the code,
a label and the rules; every template, hook and wording is the default."""

from games.registry import GameSpec

from .rules import RULES

SPEC = GameSpec(code="highcard", label="High card", rules=RULES)
