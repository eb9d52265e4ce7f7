"""Table chat as a reader sees it: the lines rendered for one viewer, in the
viewer's language (a quick phrase is stored by key), leaving out the users the
viewer muted and the lines an admin hid; the sender's own refusal.  What is
stored, and the limits, are :mod:`games.services.chat`'s."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone

from games.models import ChatMessage
from games.services.chat import QUICK_PHRASES, line_report_url


def _line(msg: ChatMessage) -> dict:
    return {
        "id": msg.pk,
        "user_id": msg.user_id,
        "name": msg.user.get_username(),
        "text": str(QUICK_PHRASES[msg.quick]) if msg.quick in QUICK_PHRASES else msg.text,
        "quick": bool(msg.quick),
        "time": timezone.localtime(msg.created).strftime("%H:%M"),
    }


def render_lines(messages, viewer, muted: set[int], replace: bool = False) -> str:
    """The chat lines for ``viewer`` as an out-of-band fragment: appended to
    ``#chat-log`` (``replace``: the whole log, on connect)."""
    lines = [_line(m) for m in messages if m.user_id not in muted and not m.hidden]
    if not lines and not replace:
        return ""
    return render_to_string(
        "games/_chat_lines.html",
        {"lines": lines, "replace": replace, "viewer_id": getattr(viewer, "pk", None),
         "report_url": line_report_url()},
    )


def render_error(message: str) -> str:
    """The sender's own refusal, shown under the chat box."""
    return render_to_string("games/_chat_error.html", {"message": message})
