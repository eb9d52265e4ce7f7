"""Password validators beyond Django's own (``settings.AUTH_PASSWORD_VALIDATORS``)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


class NonBlankLengthValidator:
    """Refuses a password with fewer than ``min_length`` characters that are
    not whitespace (issue #8: eight spaces passed Django's length check)."""

    def __init__(self, min_length: int = 8):
        self.min_length = min_length

    def validate(self, password: str, user=None) -> None:
        if len("".join(password.split())) < self.min_length:
            raise ValidationError(
                _("密码至少要有 %(n)d 个非空白字符。") % {"n": self.min_length},
                code="password_blank",
            )

    def get_help_text(self) -> str:
        return _("密码至少要有 %(n)d 个非空白字符。") % {"n": self.min_length}
