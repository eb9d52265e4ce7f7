from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("账户")

    def ready(self):
        """After every ``migrate``: seed the default title ladder of each game
        that has none (:func:`accounts.ladders.seed_missing_ladders`).  On every
        log-in: store the request's language (:mod:`accounts.preferences`)."""
        from django.contrib.auth.signals import user_logged_in
        from django.db.models.signals import post_migrate

        from .preferences import remember_on_login

        post_migrate.connect(_seed_ladders, sender=self, dispatch_uid="accounts.seed_ladders")
        user_logged_in.connect(remember_on_login, dispatch_uid="accounts.remember_language")


def _seed_ladders(sender, using="default", **kwargs):
    from .ladders import seed_missing_ladders

    seed_missing_ladders(using=using)
