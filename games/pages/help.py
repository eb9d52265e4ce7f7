"""Rules and help pages: one page per game, written for players
from ``docs/spec/rules/`` and ``RULINGS.md``, in the reader's language.

Each game's page is one template, ``games/<game>/rules.html`` (in the game's
package, ``games/<game>/templates/``), written in Simplified Chinese with
``{% translate %}`` / ``{% blocktranslate %}`` (message context ``"<game> rules"``,
and ``"<game> rules contents"`` for its table of contents): the English and
Traditional texts are entries of ``locale/*/django.po``, so the page renders in
the reader's language like every other page.  A section per ruling carries the
anchor ``rule-<id>`` that refusals link to (:func:`games.render.rulings.rule_url`).
The title ladder is read from the admin-managed table (C4), never written out.
"""

from __future__ import annotations

from django.apps import apps
from django.http import Http404
from django.shortcuts import render

from games import registry


def help_index(request):
    """The help page: what the site is, how to start, links to each game's rules."""
    return render(request, "games/help_index.html", {"games": _games()})


def _games() -> list[tuple[str, object]]:
    return [(spec.code, spec.label) for spec in registry.specs()]


def help_game(request, game: str):
    """One game's rules for players; the ladder from :class:`LevelTitle`."""
    spec = registry.find(game)
    if spec is None:
        raise Http404
    # the accounts app's ladder, looked up by name (games does not import accounts)
    ladder = list(apps.get_model("accounts", "LevelTitle").objects.filter(game=game).order_by("threshold"))
    return render(
        request,
        "games/help_game.html",
        {"game": game, "game_name": spec.label, "body_template": f"games/{game}/rules.html", "ladder": ladder,
         "games": _games()},
    )
