"""Password validators beyond Django's own (``settings.AUTH_PASSWORD_VALIDATORS``)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


class NonBlankLengthValidator:
    """Refuses a password with fewer than ``min_length`` characters that are
    not whitespace (eight spaces passed Django's length check)."""

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


def text_problem(value, max_length: int | None = None) -> str | None:
    """Why ``value`` cannot be stored as user text, or None when it can.

    ``value``: the text as received (a ``str``).  Refused: a value
    that is not a string, contains NUL (PostgreSQL cannot store it) or a lone
    UTF-16 surrogate (it has no UTF-8 encoding; JSON's ``"\\ud800"`` makes one),
    or is longer than ``max_length`` characters.  The answer is a sentence for
    the user, in the active language.
    """
    if not isinstance(value, str):
        return _("内容格式不对")
    if "\x00" in value:
        return _("内容不能包含空字符")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return _("内容包含无效的字符")
    if max_length is not None and len(value) > max_length:
        return _("内容太长了（最多 %(n)d 个字）") % {"n": max_length}
    return None


def clean_text(value, max_length: int | None = None, *, required: bool = False) -> str:
    """``value`` stripped, once :func:`text_problem` finds nothing wrong.

    ``None`` counts as empty.  Raises :class:`ValidationError` (code
    ``"text"``, or ``"required"`` when ``required`` and the stripped text is
    empty) with the sentence for the user.  The limit applies to the stripped
    text, as stored."""
    text = "" if value is None else value
    problem = text_problem(text)
    if problem is None:
        text = text.strip()
        problem = text_problem(text, max_length)
    if problem is not None:
        raise ValidationError(problem, code="text")
    if required and not text:
        raise ValidationError(_("请填写内容"), code="required")
    return text


#: The largest value of a 64-bit id column (PostgreSQL's ``bigint``).
MAX_ID = 2**63 - 1


def id_number(value, minimum: int = 1) -> int | None:
    """An id or count received from a client, or None for anything else.

    ``value``: a JSON integer or a string of ASCII digits (a form field);
    accepted when ``minimum ≤ value ≤`` :data:`MAX_ID`, the id column's range.
    None for a bool, a float, ``"²"``, ``"-1"``, ``" 7"`` or a number past
    the column (which the database would refuse with an error).

    >>> id_number("42"), id_number(7), id_number("0"), id_number("0", minimum=0)
    (42, 7, None, 0)
    >>> id_number(True), id_number("²"), id_number(str(2**63))
    (None, None, None)
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        if not (0 < len(value) <= 19 and value.isascii() and value.isdigit()):
            return None
        value = int(value)
    if not isinstance(value, int) or not minimum <= value <= MAX_ID:
        return None
    return value
