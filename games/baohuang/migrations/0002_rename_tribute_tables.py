"""The tribute tables take this app's names, rows kept (#23):
``games_tributerecord`` → ``baohuang_tributerecord`` and
``games_tributesettlement`` → ``baohuang_tributesettlement`` (``ALTER TABLE …
RENAME``), and their content types move to ``baohuang`` so the permissions
granted on them and the admin's history follow.  Reversible."""

from django.db import migrations

MODELS = ("tributerecord", "tributesettlement")


def _move_content_types(apps, source: str, target: str) -> None:
    ContentType = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not ContentType.objects.filter(app_label=target, model=model).exists():
            ContentType.objects.filter(app_label=source, model=model).update(app_label=target)


def forwards(apps, schema_editor):
    _move_content_types(apps, "games", "baohuang")


def backwards(apps, schema_editor):
    _move_content_types(apps, "baohuang", "games")


class Migration(migrations.Migration):

    dependencies = [
        ("baohuang", "0001_initial"),
        ("games", "0008_tribute_models_to_baohuang"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelTable(name="tributerecord", table=None),
        migrations.AlterModelTable(name="tributesettlement", table=None),
        migrations.RunPython(forwards, backwards),
    ]
