"""The tribute tables join their game's app (#23): state only.

``TributeRecord`` and ``TributeSettlement`` were ``games`` models; here they
enter ``baohuang``'s state on the same tables (``db_table`` as before), and
``games.0008`` removes them from ``games``' state.  No SQL runs: the tables and
their rows stay.  ``0002`` then renames the tables to this app's names.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("games", "0007_room_pending"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="TributeRecord",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("from_seat", models.PositiveSmallIntegerField(verbose_name="进贡座位")),
                        ("to_seat", models.PositiveSmallIntegerField(verbose_name="受贡座位")),
                        ("card", models.CharField(max_length=4, verbose_name="牌")),
                        ("created", models.DateTimeField(auto_now_add=True, verbose_name="时间")),
                        ("from_user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="tributes_paid", to=settings.AUTH_USER_MODEL)),
                        ("hand", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="tributes", to="games.hand")),
                        ("to_user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="tributes_received", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "verbose_name": "进贡记录",
                        "verbose_name_plural": "进贡记录",
                        "ordering": ["hand", "id"],
                        "db_table": "games_tributerecord",
                    },
                ),
                migrations.CreateModel(
                    name="TributeSettlement",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("seat", models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="离座座位")),
                        ("points", models.JSONField(default=list, verbose_name="积分")),
                        ("carry", models.JSONField(blank=True, null=True, verbose_name="下一局开局")),
                        ("created", models.DateTimeField(auto_now_add=True, verbose_name="时间")),
                        ("hand", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="settlements", to="games.hand")),
                        ("user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "verbose_name": "进贡结算",
                        "verbose_name_plural": "进贡结算",
                        "ordering": ["hand", "id"],
                        "db_table": "games_tributesettlement",
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
