from django.apps import AppConfig


class BaohuangConfig(AppConfig):
    """The site side of the game: its ``spec`` module (found by
    :mod:`games.registry`), templates and static files."""

    name = "games.baohuang"
    label = "baohuang"
