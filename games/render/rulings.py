"""What a player is told when the rules refuse a move.

The engine refuses with :class:`games.engine.base.IllegalAction`, whose
``message`` is written for developers (English and Chinese, ruling ids) and
whose ``rule`` is the ruling id of ``docs/spec/rules/RULINGS.md``.  Players see
one sentence in their own language per ruling (the game's
``GameSpec.rule_messages`` and the common ones in
:data:`games.render.tables.RULE_MESSAGES`, Django i18n) and a link to that rule on
the game's help page (:func:`rule_url`: ``/help/<game>/#rule-<id>``); never
the engine's text or the ruling id.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.render.paths import path

#: The sentence for a refusal without a known ruling.
GENERIC = _("这一步不符合规则。")


def rule_url(game: str, rule: str | None = None) -> str:
    """The help page of ``game``, at the anchor of ``rule`` when given."""
    url = path("help_game", game)
    return f"{url}#rule-{rule}" if rule else url

