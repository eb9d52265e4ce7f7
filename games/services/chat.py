"""Table chat: players and spectators of a room talk over the
room's websocket.

A browser sends ``{"chat": "text"}`` or ``{"quick": "<key>"}`` (快捷语) or
``{"mute": "<user id>"}`` / ``{"unmute": ...}`` on the table socket
(:class:`games.live.consumers.TableConsumer`).  :func:`post` checks the limits
(:data:`MAX_LENGTH` characters; :data:`BURST` messages per
:data:`BURST_SECONDS` and :data:`PER_MINUTE` per minute per user, counted in
the database so every process agrees), stores the line and returns it; the
channel layer then carries only ``{"type": "chat.posted", "id": N}`` and each
connection reads and renders the line itself (:mod:`games.render.chat`), in its reader's language,
skipping users its reader muted.  Text is escaped by the template; a quick
phrase is stored by key and shown in each reader's language.

Other apps have a say through *rules* registered at start-up
(:func:`register`), objects with any of ``chat_refusal(user) -> str | None``
(why ``user`` may not talk now: a chat mute or a suspension) and
``hidden_authors(viewer) -> set[int]`` (users whose lines ``viewer`` never
gets, a block; asked on connect and again for each new line) and
``line_report_url() -> str`` (a link to report a line: the line's id is
appended).
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.validators import id_number, text_problem
from hooks import Hooks

from games.models import ChatMessage, ChatMute, Room

#: Longest message, in characters.
MAX_LENGTH = 200
#: At most BURST messages in BURST_SECONDS, and PER_MINUTE in a minute, per user.
BURST = 3
BURST_SECONDS = 5
PER_MINUTE = 20
#: Lines sent to a socket when it connects.
HISTORY = 30

#: Quick phrases (快捷语), by key, in button order.
QUICK_PHRASES = {
    "hurry": gettext_lazy("快点吧，等得花儿都谢了"),
    "nice": gettext_lazy("打得好！"),
    "sorry": gettext_lazy("不好意思，出错牌了"),
    "thanks": gettext_lazy("谢谢搭档"),
    "again": gettext_lazy("再来一局！"),
    "bye": gettext_lazy("我先走了，下次再玩"),
}


#: The apps' chat rules (the site's one way to ask the apps above: hooks/__init__.py).
_rules = Hooks("chat rules")


def register(rule) -> None:
    """Add a chat rule (once); see the module docstring."""
    _rules.add(rule)


def _rule_refusal(user) -> str | None:
    return _rules.reason("chat_refusal", user)


def hidden_authors(viewer) -> set[int]:
    """Ids of the users whose lines the rules hide from ``viewer`` (each rule
    answers an iterable or a values query of ids)."""
    out: set[int] = set()
    for answer in _rules.answers("hidden_authors", viewer):
        out |= set(answer)
    return out


class ChatRefused(Exception):
    """A line the limits refuse; ``message`` is for the sender."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def post(room_id: int, user, text: str | None = None, quick: str | None = None) -> ChatMessage:
    """Store ``user``'s line at room ``room_id`` (``text``, or the quick
    phrase ``quick``).  Raises :class:`ChatRefused` for an empty or too long
    text, text holding NUL or a lone surrogate (PostgreSQL cannot store
    the one, UTF-8 cannot encode the other), an unknown phrase, a closed or
    missing room, too many lines, or a sender a rule refuses (a mute or a
    suspension)."""
    if quick:
        if quick not in QUICK_PHRASES:
            raise ChatRefused(_("没有这个快捷语"))
        text = ""
    else:
        text = text or ""
        problem = text_problem(text)
        if problem is not None:
            raise ChatRefused(problem)
        text = text.strip()
        if not text:
            raise ChatRefused(_("请输入内容"))
        if len(text) > MAX_LENGTH:
            raise ChatRefused(_("消息太长了（最多 %(n)d 个字）") % {"n": MAX_LENGTH})
    refusal = _rule_refusal(user)
    if refusal:
        raise ChatRefused(refusal)
    room = Room.objects.filter(pk=room_id).only("status").first()
    if room is None or room.status == Room.Status.CLOSED:
        raise ChatRefused(_("房间已关闭"))
    now = timezone.now()
    recent = ChatMessage.objects.filter(user=user, created__gte=now - timedelta(minutes=1))
    if recent.count() >= PER_MINUTE or recent.filter(
        created__gte=now - timedelta(seconds=BURST_SECONDS)
    ).count() >= BURST:
        raise ChatRefused(_("说得太快了，请稍等几秒"))
    return ChatMessage.objects.create(room_id=room_id, user=user, text=text, quick=quick or "")


def muted_ids(user) -> set[int]:
    """Ids of the users ``user`` muted, and those the rules hide from him."""
    return set(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True)) | hidden_authors(user)


def mute_target(value) -> int | None:
    """The user id a ``{"mute": …}`` message names (a JSON integer or a
    string of ASCII digits, :func:`accounts.validators.id_number`); None for
    anything else."""
    return id_number(value)


def set_mute(user, other_id: int, on: bool) -> bool:
    """Mute (or unmute) the user ``other_id`` for ``user``.  Muting oneself
    or a user who does not exist changes nothing (an unknown id broke the
    socket with a foreign-key error).  Returns whether a user ``other_id``
    exists (other than ``user``)."""
    if other_id == user.pk:
        return False
    if on:
        if not get_user_model().objects.filter(pk=other_id).exists():
            return False
        ChatMute.objects.get_or_create(user=user, muted_id=other_id)
    else:
        ChatMute.objects.filter(user=user, muted_id=other_id).delete()
    return True


def history(room_id: int):
    """The room's latest visible lines, oldest first."""
    rows = list(
        ChatMessage.objects.filter(room_id=room_id, hidden=False).select_related("user").order_by("-id")[:HISTORY]
    )
    return rows[::-1]


def line(message_id: int, viewer=None) -> ChatMessage | None:
    """The line ``message_id`` with its author, or None; None too when a
    rule hides its author from ``viewer`` (a block made after the socket
    connected)."""
    rows = ChatMessage.objects.filter(pk=message_id).select_related("user")
    if viewer is not None:  # one read: the rules' answers are folded into it
        for hidden in _rules.answers("hidden_authors", viewer):
            rows = rows.exclude(user_id__in=hidden)
    return rows.first()


def line_report_url() -> str:
    """The first rule's link to report a line (the line's id is appended), or ""."""
    return _rules.first("line_report_url") or ""
