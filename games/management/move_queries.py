"""SQL statements of one served move, for ``manage.py bench_live``.

The bench prints, beside the CPU per served move, how many statements a move
sends to the database, measured on the stack's own database (PostgreSQL in
``make bench``) with Django's ``CaptureQueriesContext``:

* **a player's move**: the whole ``POST /rooms/<id>/act`` of the seat to act,
  through Django's test client (the session, the user, then
  :func:`games.services.do_move`'s one transaction); the answer is 204, the
  push renders the table;
* **a bot's turn**: :func:`games.services.turns.play_turn` (what the runner
  calls when a room's deadline comes) for a seat on 托管, the first turn of a
  chain (nothing kept in this process: room, hand and seats are read; a worker's
  next turn of the same room starts from what it kept, two statements fewer,
  ``tests/site/test_turn_cache.py``).

Transaction control is counted apart from the queries: ``BEGIN``/``COMMIT``
on PostgreSQL, ``SAVEPOINT``/``RELEASE`` where an outer transaction (the
tests') turns ``atomic()`` into them.  The measuring room is a fresh room
of human accounts with a long turn limit and bot delay, so nothing else plays
in it while it is measured, and it is closed afterwards.
``tests/site/test_query_counts.py`` pins the same shapes.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

#: Transaction control, counted apart from the queries: ``BEGIN``/``COMMIT`` on
#: PostgreSQL (psycopg sends them as statements), ``SAVEPOINT``/``RELEASE``
#: inside an outer transaction (the tests').
SAVEPOINTS = {"SAVEPOINT", "RELEASE", "ROLLBACK", "BEGIN", "COMMIT"}
#: The measuring room's delays: long enough that no timer or sweep plays in it
#: while it is measured.
TURN_SECONDS = 600
BOT_DELAY_MS = 10_000


def statements(captured, bare=frozenset(SAVEPOINTS)) -> list[str]:
    """``"VERB table"`` per statement of ``captured`` (``CaptureQueriesContext``'s
    ``captured_queries``); a statement whose verb is in ``bare`` (transaction
    control, by default) as the bare verb.

    >>> statements([{"sql": 'SELECT "a"."id" FROM "games_room" WHERE (x IN (SELECT 1 FROM "b"))'}])
    ['SELECT games_room']
    >>> statements([{"sql": 'SAVEPOINT "s1"'}, {"sql": "COMMIT"}])
    ['SAVEPOINT', 'COMMIT']

    A data-modifying CTE (``WITH ins AS (INSERT …) UPDATE …``, a move's two
    writes in one statement on PostgreSQL, :mod:`games.services.rows`) as
    its parts joined by ``+``:

    >>> statements([{"sql": 'WITH ins AS (INSERT INTO "a" ("x") VALUES (1) RETURNING "id") '
    ...                     'UPDATE "b" SET "y" = 2 WHERE "id" = 3 RETURNING (SELECT "id" FROM ins)'}])
    ['INSERT a + UPDATE b']
    """
    out = []
    for query in captured:
        sql = query["sql"].strip()
        verb = sql.split(None, 1)[0].upper()
        if verb in bare:
            out.append(verb)
            continue
        if verb == "WITH":
            cte = re.match(r"WITH\s+\w+\s+AS\s+\((.*)\)\s+((?:INSERT|UPDATE|DELETE|SELECT)\b.*)$",
                           sql, re.IGNORECASE | re.DOTALL)
            if cte:
                out.append(" + ".join(statements([{"sql": cte.group(1)}, {"sql": cte.group(2)}], bare)))
                continue
        outer = sql
        for _ in range(50):  # drop parenthesised parts (subqueries) down to the outer statement
            outer, n = re.subn(r"\([^()]*\)", "", outer)
            if not n:
                break
        match = re.search(r'(?:FROM|INTO|UPDATE)\s+"?(\w+)"?', outer, re.IGNORECASE)
        out.append(f"{verb} {match.group(1) if match else '?'}")
    return out


@dataclass
class Shape:
    """The statements of one measured operation: ``queries`` (transaction
    control apart, in order) and the number of transaction-control statements
    (``savepoints``: ``BEGIN``/``COMMIT`` or ``SAVEPOINT``/``RELEASE``)."""

    queries: list[str] = field(default_factory=list)
    savepoints: int = 0

    @classmethod
    def of(cls, lines: list[str]) -> "Shape":
        return cls([s for s in lines if s not in SAVEPOINTS], sum(1 for s in lines if s in SAVEPOINTS))

    def as_dict(self) -> dict:
        return {"queries": len(self.queries), "savepoints": self.savepoints, "shape": self.queries}


def _post_fields(record: dict) -> dict:
    """The table's POST fields (``verb``, ``cards``) of an action record
    without its seat."""
    (verb, value), = record.items()
    if isinstance(value, list):
        return {"verb": verb, "cards": " ".join(value)}
    if value is True:
        return {"verb": verb}
    return {"verb": f"{verb}-{value}"}


def _to_act(room_id: int, game: str) -> tuple[int, int, dict]:
    """``(version, seat to act, its C5 move without the seat)`` of the room now."""
    from games import services
    from games.engine import get_rules
    from games.models import Room

    room = Room.objects.get(pk=room_id)
    rules = get_rules(game)
    state = services.hand_state(services.current_hand(room))
    seat = rules.to_act(state)
    record = rules.auto_action(state, seat).to_record()
    record.pop("seat")
    return room.version, seat, record


def _host() -> str:
    """A host name the site accepts (the test client's own when allowed)."""
    hosts = [h for h in settings.ALLOWED_HOSTS if h and "*" not in h and not h.startswith(".")]
    return "testserver" if "testserver" in hosts or not hosts else hosts[0]


def measure(game: str = "baohuang", moves: int = 3) -> dict:
    """Measure ``moves`` player moves and ``moves`` bot turns in a fresh room
    of ``game`` (see the module docstring); returns ``{"player": Shape,
    "bot": Shape}`` with the largest of each (by query count).

    Raises ``RuntimeError`` if a POST is not answered 204 or a turn does not
    play (the room moved under the measure)."""
    from django.test import Client

    from games import services
    from games.engine import get_rules
    from games.models import Room
    from games.services import roomcache
    from games.services.turns import play_turn

    rules = get_rules(game)
    tag = secrets.token_hex(3)
    User = get_user_model()
    users = [User.objects.create_user(f"queries{tag}s{i}", password=None) for i in range(rules.seats)]
    room = services.create_room(users[0], game, f"queries {tag}", bot_delay_ms=BOT_DELAY_MS,
                                turn_seconds=TURN_SECONDS)
    try:
        for i, user in enumerate(users[1:], start=1):
            services.take_seat(room, user, i)
        for user in users:
            services.set_ready(room, user, True)
        player = _player_moves(room.pk, game, users, moves, Client(HTTP_HOST=_host()))
        for user in users:  # every seat on 托管: each next move is a bot's turn
            services.set_autoplay(room, user, True)
        bot = []
        for _ in range(moves):
            for _attempt in range(3):
                version = Room.objects.get(pk=room.pk).version
                Room.objects.filter(pk=room.pk).update(deadline=timezone.now() - timedelta(seconds=5))
                roomcache.forget(room.pk)  # the deadline moved behind the services' back
                with CaptureQueriesContext(connection) as ctx:
                    done = play_turn(room.pk, version)
                if done == "bot":
                    bot.append(Shape.of(statements(ctx.captured_queries)))
                    break
            else:
                raise RuntimeError(f"bot turn did not play: {done}")
    finally:
        services.close_room(room.pk, users[0])
    return {"player": max(player, key=lambda s: len(s.queries)),
            "bot": max(bot, key=lambda s: len(s.queries))}


def _player_moves(room_id: int, game: str, users: list, moves: int, client) -> list[Shape]:
    out = []
    for _ in range(moves):
        version, seat, record = _to_act(room_id, game)
        client.force_login(users[seat])
        with CaptureQueriesContext(connection) as ctx:
            response = client.post(f"/rooms/{room_id}/act", {**_post_fields(record), "version": version},
                                   HTTP_HX_REQUEST="true")
        if response.status_code != 204:
            raise RuntimeError(f"the move's POST answered {response.status_code}: {response.content[:200]!r}")
        out.append(Shape.of(statements(ctx.captured_queries)))
    return out
