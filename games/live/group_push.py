"""The base of every socket that follows one channel group and pushes a
fragment it renders itself: a game's lobby (``ws/lobby/<game>/``), the
notice badge (``ws/notices/``), the quick-play queue (``ws/quickplay/``) and an
event page (``ws/events/<id>/``).

The channel layer carries only that something changed (a message type with no
text); each connection renders its own fragment, in its own language
(:func:`games.live.socket_scope.scope_language`), in a worker thread, and sends
it.  A subclass says which group it follows (:meth:`GroupPushConsumer.group_for`),
what it renders (:meth:`GroupPushConsumer.render`, given the root's
``hx-swap-oob``) and which message types
push it again (one ``async def <type>(self, message): await self.push()`` per
type, as channels dispatches them).  The table sockets are not built on it: the
process's hub follows a room's group for all of them (:mod:`games.live.fanout`).

A pushed fragment is morphed into the page, not swapped: its root says
``hx-ext="morph"`` and, in a push, ``hx-swap-oob`` with :data:`PUSH_SWAP`
(the base passes :attr:`GroupPushConsumer.push_swap` to the subclass's
:meth:`GroupPushConsumer.render`, which hands it to its render function, the
template's ``swap_oob``; the page itself renders the same fragment with
none).  The page loads idiomorph's htmx extension
(``static/vendor/idiomorph-ext.min.js``) and ``static/games/morph.js``, the
one script of the morph's rules for these pages: an open ``<details>`` and a
control the viewer edited keep what the viewer chose.  The page keeps its
elements, so a click that spans a push still lands on its button; the old
``outerHTML`` swap replaced them all, and a click pressed on a button and
released after a push sent no form.  The quick-play page applies its pushes
itself (``quickplay/static/quickplay/queue.js``) and morphs when the root
says so.  The notice badge (notifications) keeps a plain out-of-band swap: a
count, with no control to press or fill.
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import notify
from .socket_scope import scope_language, scope_user

UNAUTHORIZED = 4401
FORBIDDEN = 4403
NOT_FOUND = 4404

#: How a page applies a pushed fragment (its root's ``hx-swap-oob``): one
#: word for every page built on :class:`GroupPushConsumer` that shows
#: controls (the lobby's room list, the quick-play status, an arena's and an
#: event's live fragment) and for the room page's ``#table``, pushed by the
#: table sockets (:func:`games.live.snapshots.render_seat`).  ``"true"`` would
#: be htmx's plain ``outerHTML`` swap, which loses a click spanning a push and
#: what the viewer typed.
PUSH_SWAP = "morph"


class GroupPushConsumer(AsyncWebsocketConsumer):
    """Accept, check the user, join :meth:`group_for`'s group, push once; push
    again on the subclass's message types; leave the group on disconnect.

    ``login_required``: an anonymous connection is accepted and then closed
    with ``refused_code`` (a refused handshake is an HTTP 403 the browser logs
    as an error, and the page's script never sees the code that stops its
    reconnecting).  After :meth:`connect` a connection has ``self.user`` (the
    scope's user, possibly anonymous), ``self.language`` and ``self.group``.
    """

    login_required = True
    refused_code = UNAUTHORIZED
    #: The root's ``hx-swap-oob`` in this socket's frames, given to
    #: :meth:`render` by :meth:`fragment`: a morph unless the subclass says
    #: otherwise (the notice badge's plain ``"true"``).
    push_swap = PUSH_SWAP

    async def connect(self):
        notify.register_loop(asyncio.get_running_loop())
        self.user = scope_user(self.scope)
        self.language = scope_language(self.scope)
        await self.accept()
        if self.login_required and (self.user is None or not self.user.is_authenticated):
            await self.close(code=self.refused_code)
            return
        group = await self.group_for()
        if group is None:  # group_for closed the socket with its reason
            return
        self.group = group
        await self.channel_layer.group_add(group, self.channel_name)
        await self.joined()

    async def group_for(self) -> str | None:
        """The channel group this connection follows, or None after closing
        the socket with a code (e.g. :data:`NOT_FOUND`)."""
        raise NotImplementedError

    async def joined(self):
        """Called once the group is joined: the first push."""
        await self.push()

    async def disconnect(self, code):
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing to receive (a subclass that takes commands overrides it)."""

    def render(self, swap: str) -> str:
        """This connection's fragment (HTML) whose root's ``hx-swap-oob`` is
        ``swap`` (:attr:`push_swap`), rendered in a worker thread: it may read
        the database.  Called through :meth:`fragment`."""
        raise NotImplementedError

    def fragment(self) -> str:
        """:meth:`render` with :attr:`push_swap`: what a frame of this socket
        carries (a subclass sending a frame of its own calls this too)."""
        return self.render(self.push_swap)

    async def push(self):
        """Render this connection's fragment and send it."""
        await self.send(text_data=await database_sync_to_async(self.fragment)())
