"""Seed the title ladder of ruling C4 for every game.

Each game's default ladder comes from the game catalog
(:mod:`accounts.catalog`, filled by the games app from its registry: every
registered game's ``GameSpec.ladder``).  C4 gives one ladder (the 18 rows of
the 升級 rule text's 遊戲等級 table), so every game starts with the same rows
and admins can edit each game's ladder separately.  A game registered later
gets its ladder after ``migrate`` (``accounts.apps``: post_migrate).
"""

from django.db import migrations


def _ladders():
    from accounts import catalog

    return [(entry.code, entry.ladder) for entry in catalog.entries()]


def seed(apps, schema_editor):
    LevelTitle = apps.get_model("accounts", "LevelTitle")
    for game, ladder in _ladders():
        for level_no, name, threshold in ladder:
            LevelTitle.objects.update_or_create(
                game=game, level_no=level_no, defaults={"name": name, "threshold": threshold}
            )


def unseed(apps, schema_editor):
    LevelTitle = apps.get_model("accounts", "LevelTitle")
    for game, ladder in _ladders():
        LevelTitle.objects.filter(game=game, level_no__in=[row[0] for row in ladder]).delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
