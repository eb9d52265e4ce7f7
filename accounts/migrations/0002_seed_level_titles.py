"""Seed the title ladder of ruling C4 for both games.

The 18 rows of the shengji rule text's 遊戲等級 table (level number, name,
threshold), written exactly as the text writes them.  Baohuang has no table of
its own; C4 gives one ladder, so both games start with the same rows and admins
can edit each game's ladder separately.
"""

from django.db import migrations

GAMES = ("shengji", "baohuang")

#: (等級數, 等級名, 分數) from shengji-4deck.zh-Hant.txt.
LADDER = [
    (1, "幼兒班", 0),
    (2, "學前班", 20),
    (3, "小學生", 40),
    (4, "國中生", 80),
    (5, "高中生", 160),
    (6, "大學生", 320),
    (7, "學士", 530),
    (8, "研究生", 776),
    (9, "碩士", 1040),
    (10, "博士生", 2080),
    (11, "助教", 4160),
    (12, "講師", 8320),
    (13, "副教授", 19704),
    (14, "教授", 35396),
    (15, "博導", 63716),
    (16, "院士", 114688),
    (17, "院長", 206440),
    (18, "校長", 371572),
]


def seed(apps, schema_editor):
    LevelTitle = apps.get_model("accounts", "LevelTitle")
    for game in GAMES:
        for level_no, name, threshold in LADDER:
            LevelTitle.objects.update_or_create(
                game=game, level_no=level_no, defaults={"name": name, "threshold": threshold}
            )


def unseed(apps, schema_editor):
    LevelTitle = apps.get_model("accounts", "LevelTitle")
    LevelTitle.objects.filter(game__in=GAMES, level_no__in=[row[0] for row in LADDER]).delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
