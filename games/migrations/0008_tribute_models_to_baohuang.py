"""``TributeRecord`` and ``TributeSettlement`` leave ``games``' state (#23):
``baohuang.0001`` took them over on the same tables, so no SQL runs here."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0007_room_pending"),
        ("baohuang", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="TributeRecord"),
                migrations.DeleteModel(name="TributeSettlement"),
            ],
            database_operations=[],
        ),
    ]
