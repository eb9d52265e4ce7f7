"""Room options as a user may send them: parsed, bounded and checked against
the game's schema (``rules.option_schema``, :mod:`games.engine.options`).

Options used to be any JSON object: unknown keys of any size were
stored and re-sent with every lobby page, ``NaN`` and deeply nested JSON
answered 500.  Now :func:`parse` refuses, with a message a player can act
on, anything but a small flat object of known keys with allowed values.
Every refusal raises :class:`OptionsError` (a ``ValueError``) before
anything is stored.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

from games.engine import get_rules

#: Longest accepted options text (characters); the real ones are < 40.
MAX_OPTIONS_CHARS = 500
#: Most keys in one options object.
MAX_OPTIONS_KEYS = 8


class OptionsError(ValueError):
    """Options refused; ``str(exc)`` is the (translated) message."""


def _no_constant(name: str):
    raise OptionsError(_("选项里不能有 %(value)s，只能用普通数字、文字或 true/false") % {"value": name})


def loads(raw: str) -> dict:
    """``raw`` (JSON text) as a flat dict; :class:`OptionsError` when it is too
    long, not JSON, not an object, or holds NaN/Infinity or nested values."""
    raw = (raw or "").strip() or "{}"
    if len(raw) > MAX_OPTIONS_CHARS:
        raise OptionsError(_("选项太长（最多 %(n)d 个字符）") % {"n": MAX_OPTIONS_CHARS})
    try:
        value = json.loads(raw, parse_constant=_no_constant)
    except OptionsError:
        raise
    except (json.JSONDecodeError, RecursionError):
        raise OptionsError(_("选项必须是 JSON 对象")) from None
    if not isinstance(value, dict):
        raise OptionsError(_("选项必须是 JSON 对象"))
    return value


def validate(game: str, options) -> dict:
    """``options`` (a dict) checked against ``game``'s schema; returns a copy
    without ``multiplier`` (the room's own field).  Raises :class:`OptionsError`
    for a non-dict, too many keys, an unknown key, a nested or non-finite
    value, or a value the schema does not allow."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise OptionsError(_("选项必须是 JSON 对象"))
    options = dict(options)
    options.pop("multiplier", None)
    if len(options) > MAX_OPTIONS_KEYS:
        raise OptionsError(_("选项太多（最多 %(n)d 个）") % {"n": MAX_OPTIONS_KEYS})
    schema = get_rules(game).option_schema
    for key, value in options.items():
        spec = schema.get(key)
        if spec is None:
            known = ", ".join(sorted(schema)) or _("（无）")
            raise OptionsError(
                _("未知的选项“%(key)s”；这个游戏可用的选项：%(known)s")
                % {"key": str(key)[:40], "known": known}
            )
        if isinstance(value, (dict, list)):
            raise OptionsError(_("选项“%(key)s”不能是嵌套的对象或列表") % {"key": key})
        if isinstance(value, float) and value != value or value in (float("inf"), float("-inf")):
            raise OptionsError(_("选项里不能有 %(value)s，只能用普通数字、文字或 true/false") % {"value": value})
        if not spec.allows(value):
            allowed = ", ".join(json.dumps(c, ensure_ascii=False) for c in spec.choices)
            raise OptionsError(
                _("选项“%(key)s”只能是：%(allowed)s") % {"key": key, "allowed": allowed}
            )
    return options


def parse(game: str, raw: str) -> dict:
    """:func:`loads` then :func:`validate` (the create-room form's path)."""
    return validate(game, loads(raw))
