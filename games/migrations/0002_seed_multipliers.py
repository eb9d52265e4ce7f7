"""Seed the allowed room multipliers (C4): 1 (default), 2, 5, 10."""

from django.db import migrations

VALUES = [(1, True), (2, False), (5, False), (10, False)]


def seed(apps, schema_editor):
    RoomMultiplier = apps.get_model("games", "RoomMultiplier")
    for value, is_default in VALUES:
        RoomMultiplier.objects.get_or_create(value=value, defaults={"is_default": is_default})


def unseed(apps, schema_editor):
    RoomMultiplier = apps.get_model("games", "RoomMultiplier")
    RoomMultiplier.objects.filter(value__in=[v for v, _d in VALUES]).delete()


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
