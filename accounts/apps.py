from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("账户")

    def ready(self):
        """After every ``migrate``: seed the default title ladder of each game
        that has none (:func:`accounts.ladders.seed_missing_ladders`)."""
        from django.db.models.signals import post_migrate

        post_migrate.connect(_seed_ladders, sender=self, dispatch_uid="accounts.seed_ladders")


def _seed_ladders(sender, using="default", **kwargs):
    from .ladders import seed_missing_ladders

    seed_missing_ladders(using=using)
