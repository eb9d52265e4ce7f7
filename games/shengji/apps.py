from django.apps import AppConfig


class ShengjiConfig(AppConfig):
    """The site side of the game: its ``spec`` module (found by
    :mod:`games.registry`), templates and static files."""

    name = "games.shengji"
    label = "shengji"
