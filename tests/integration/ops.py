"""Database-side steps of the integration tests, run as a separate process.

``python -m tests.integration.ops OP '{"json": "params"}'`` with the stack's
environment sets Django up against the stack's own database, does one thing
through ``games.services`` (as another machine of the site would) and prints
one JSON line; ``python -m tests.integration.ops --serve`` does the same for
one op per line of its input, in one process (what ``LiveStack.ops`` runs:
:func:`serve`).  Keeping this out of the pytest process
means the test process never needs the stack's database.

Operations:

* ``bot_room``: ``{game, humans, bot_delay_ms, turn_seconds, autoplay, ready,
  prefix, names}`` → ``{room_id, version, users: [{username, seat, cookie}]}``:
  users (named ``names``, unique on the site, or prefix + a random tag +
  ``u<i>``) seated from seat 0, the other seats filled with heuristic bots;
  when ``ready`` the humans say ready, which deals the first hand.
* ``new_user``: ``{prefix}`` → ``{username, id, cookie}``: a fresh user, logged in.
* ``ready``: ``{room_id, username}`` → ``{version}``: that user says ready.
* ``cookie``: ``{username}`` → ``{cookie}``: a logged-in session.
* ``hand_log``: ``{room_id}`` → the room's version/status and, per hand, its
  actions (seq, seat, actor, payload), ``complete``, and the engine's verdict
  when the stored log is replayed from the stored deal (``rebuild``).
* ``legal``: ``{room_id, seat}`` → ``{version, actions}``: the engine's legal
  actions (record form) for ``seat`` in the hand in play.
* ``bot_delay``: ``{room_id, ms}`` → ``{bot_delay_ms}``: the room's delay before a
  bot's or a 托管 seat's move (the next deadline set uses it).
* ``close``: ``{room_id}`` → ``{version}``: the owner closes the room.
* ``players``: ``{n, prefix, ratings}`` → ``{users: [{username, id, cookie}]}``:
  ``n`` new accounts, logged in, optionally with a displayed rating each.
* ``finished_hands``: ``{count, game}`` → ``{hands}``: completed hands with a human
  seat, played out in-process (their reviews are asked for).
* ``review_status``: ``{hand_id}`` → ``{status, decisions, cpu_ms}`` of its review.
* ``moderator``: ``{prefix}`` → ``{username, id, cookie}``: a fresh user in
  the moderators' group, logged in.
* ``ladder_board``: ``{game, prefix}`` → ``{long_name, eleven, cookie, longest}``:
  one rated player per row of ``game``'s title ladder (holding that row's
  threshold in game points), a player with a 30-character name (highest
  rating, holding the title longest in English) and one with an
  11-character name; ``cookie`` signs the 30-character one in; ``longest``
  maps each language code to the ladder's longest title in it.
* ``tables``: ``{usernames}`` → per user his queue entries (status, game,
  room) and, per room they name, its seats (user or bot level) and status.
"""

from __future__ import annotations

import json
import os
import sys


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def login_cookie(user) -> str:
    """A session cookie value for ``user`` (Django's own login machinery)."""
    from django.test import Client

    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    from django.conf import settings

    return client.cookies[settings.SESSION_COOKIE_NAME].value


def bot_room(game="baohuang", humans=1, bot_delay_ms=100, turn_seconds=30, autoplay=True,
             ready=False, prefix="it", names=None) -> dict:
    import secrets

    from django.contrib.auth import get_user_model

    from games import services

    User = get_user_model()
    tag = secrets.token_hex(3)
    # ``names``: the humans' usernames (unique on the site), else prefix + tag + u<i>
    names = list(names) if names else [f"{prefix}{tag}u{i}" for i in range(humans)]
    users = [User.objects.create_user(name, password=None) for name in names[:humans]]
    room = services.create_room(users[0], game, f"{prefix}-{tag}", turn_seconds=turn_seconds,
                                bot_delay_ms=bot_delay_ms)
    for i, user in enumerate(users[1:], start=1):
        services.take_seat(room, user, i)
    if autoplay:
        for user in users:
            services.set_autoplay(room, user, True)
    if humans < services.get_rules(game).seats:
        services.fill_bots(room, users[0], "heuristic")
    if ready:
        for user in users:
            services.set_ready(room, user, True)
    room.refresh_from_db()
    return {
        "room_id": room.pk,
        "version": room.version,
        "status": room.status,
        "users": [
            {"username": u.get_username(), "seat": i, "cookie": login_cookie(u)}
            for i, u in enumerate(users)
        ],
    }


def bot_delay(room_id, ms) -> dict:
    """Set room ``room_id``'s bot delay to ``ms`` (the next deadline set for a
    bot's or a 托管 seat's decision uses it)."""
    from games.models import Room

    Room.objects.filter(pk=room_id).update(bot_delay_ms=int(ms))
    return {"bot_delay_ms": int(ms)}


def bot_rooms(count, **kw) -> dict:
    """``count`` rooms made as :func:`bot_room` makes one, in one process."""
    return {"rooms": [bot_room(**kw) for _ in range(int(count))]}


def new_user(prefix="it") -> dict:
    """A fresh user and a logged-in session for it (a spectator)."""
    import secrets

    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(f"{prefix}{secrets.token_hex(3)}", password=None)
    return {"username": user.get_username(), "id": user.pk, "cookie": login_cookie(user)}


def ready(room_id, username) -> dict:
    from django.contrib.auth import get_user_model

    from games import services

    user = get_user_model().objects.get(username=username)
    outcome = services.set_ready(room_id, user, True)
    return {"version": outcome.version, "applied": outcome.applied}


def autoplay(room_id, username, on=True) -> dict:
    """``username`` turns 托管 (C5) on or off at their seat of ``room_id``."""
    from django.contrib.auth import get_user_model

    from games import services

    user = get_user_model().objects.get(username=username)
    outcome = services.set_autoplay(room_id, user, bool(on))
    return {"version": outcome.version, "applied": outcome.applied}


def cookie(username) -> dict:
    from django.contrib.auth import get_user_model

    return {"cookie": login_cookie(get_user_model().objects.get(username=username))}


def hand_log(room_id) -> dict:
    from games.engine import get_rules
    from games.engine.base import Action, IllegalAction, RecordError, rebuild
    from games.models import Hand, Room

    room = Room.objects.get(pk=room_id)
    rules = get_rules(room.game)
    hands = []
    for hand in Hand.objects.filter(match__room=room).order_by("match__number", "number"):
        rows = list(hand.actions.order_by("seq").values("seq", "seat", "actor", "payload"))
        verdict = {"ok": True, "complete": None, "error": None, "summary_matches": None}
        try:
            match = rules.new_match(**hand.start)
            deal = rules.deal_from_record(match, hand.deal)
            state = rebuild(rules, match, deal,
                            [Action.from_record(r["payload"], rules.seats) for r in rows])
            verdict["complete"] = rules.is_complete(state)
            if hand.complete:
                verdict["summary_matches"] = (
                    json.loads(json.dumps(rules.summary(state))) == hand.summary
                )
        except (IllegalAction, RecordError) as exc:
            verdict.update(ok=False, error=str(exc))
        hands.append({
            "id": hand.pk,
            "number": hand.number,
            "complete": hand.complete,
            "actions": rows,
            "rebuild": verdict,
        })
    return {"room_id": room.pk, "version": room.version, "status": room.status,
            "deadline": room.deadline.isoformat() if room.deadline else None, "hands": hands}


def legal(room_id, seat) -> dict:
    from games import services
    from games.engine import get_rules
    from games.models import Room

    room = Room.objects.get(pk=room_id)
    hand = services.current_hand(room)
    if hand is None or hand.complete:
        return {"version": room.version, "actions": []}
    rules = get_rules(room.game)
    state = services.hand_state(hand)
    return {"version": room.version,
            "actions": [a.to_record() for a in rules.legal_actions(state, seat)]}


def close(room_id) -> dict:
    from games import services
    from games.models import Room

    room = Room.objects.select_related("owner").get(pk=room_id)
    return {"version": services.close_room(room, room.owner).version}


def room_options(room_id) -> dict:
    """A room's stored ``game``, ``name`` and engine ``options`` (the create form's test)."""
    from games.models import Room

    room = Room.objects.get(pk=room_id)
    return {"game": room.game, "name": room.name, "options": room.options}


def players(n, prefix="qp", ratings=None) -> dict:
    import secrets

    from django.contrib.auth import get_user_model

    from ratings import compute
    from ratings.models import PlayerRating

    User = get_user_model()
    tag = secrets.token_hex(3)
    out = []
    for i in range(n):
        user = User.objects.create_user(f"{prefix}{tag}u{i}", password=None)
        if ratings:
            game, value = ratings[i]
            mu = (value - 500) / 40
            PlayerRating.objects.create(user=user, game=game, mu=mu, rating=compute.display(mu),
                                        hands=20)
        out.append({"username": user.get_username(), "id": user.pk, "cookie": login_cookie(user)})
    return {"users": out}


def tables(usernames) -> dict:
    from games.models import Room, Seat
    from quickplay.models import QueueEntry

    entries = list(QueueEntry.objects.filter(user__username__in=usernames).values(
        "user__username", "partner__username", "game", "status", "room_id", "bot_wait_s",
        "joined", "matched"))
    rooms = {}
    for room_id in {e["room_id"] for e in entries if e["room_id"]}:
        room = Room.objects.get(pk=room_id)
        rooms[room_id] = {
            "game": room.game, "status": room.status,
            "seats": [{"index": s.index, "user": s.user.get_username() if s.user_id else None,
                       "bot": s.bot_policy}
                      for s in Seat.objects.filter(room=room).select_related("user").order_by("index")],
        }
    return {"entries": entries, "rooms": rooms}


def review_status(hand_id) -> dict:
    """``{status, decisions, flagged, cpu_ms}`` of hand ``hand_id``'s review
    (status None when none was asked for; ``flagged``: decisions whose
    verdict is a class, not fine or forced)."""
    from games.models import HandReview

    r = HandReview.objects.filter(hand_id=hand_id).first()
    if r is None:
        return {"status": None}
    decisions = (r.data or {}).get("decisions", [])
    return {"status": r.status, "decisions": len(decisions),
            "flagged": sum(1 for d in decisions if d.get("verdict") not in ("fine", "forced")),
            "cpu_ms": r.cpu_ms}


def finished_hands(count=10, game="baohuang", prefix="fh", review=True) -> dict:
    """``count`` completed hands, each in its own room with one human seat, played
    out in this process by the heuristic bot at every seat through the real
    services (``tests/site/ratings_fixtures.play_out``); the room is then
    closed.  A hand with a human asks for its review as the site does, so
    this gives the review worker work (``scripts/bench.py --reviews``).
    → ``{hands: [id, ...], rooms: [id, ...], cookies: [the human's session, ...]}``.
    ``review=False``: no review asked for (in the embedded topology this
    process would compute it, paced by the governor: minutes on a busy machine)."""
    if not review:
        from django.conf import settings

        settings.GAMES_REVIEW_AFTER_HAND = False
    from games import services
    from games.models import Room
    from tests.site.ratings_fixtures import play_out

    hands, rooms, cookies = [], [], []
    for _ in range(int(count)):
        # long delays: the stack's worker must not move these tables meanwhile
        made = bot_room(game=game, humans=1, bot_delay_ms=10_000, turn_seconds=600,
                        autoplay=False, ready=True, prefix=prefix)
        room = Room.objects.get(pk=made["room_id"])
        hands.append(play_out(room).pk)
        room.refresh_from_db()
        services.close_room(room, room.owner)
        rooms.append(room.pk)
        cookies.append(made["users"][0]["cookie"])
    return {"hands": hands, "rooms": rooms, "cookies": cookies}


def event_round(game="shengji", bots=4, bot_delay_ms=800, prefix="ev") -> dict:
    """A club event of ``bots`` bot entries with round 1 paired and started
    (its tables playing), for looking at the event page mid-round."""
    import secrets

    from django.contrib.auth import get_user_model

    from clubs import services
    from clubs.running import events

    tag = secrets.token_hex(3)
    user = get_user_model().objects.create_user(f"{prefix}{tag}org", password=None)
    club = services.create_club(user, f"{prefix}-club-{tag}")
    event = events.create_event(user, club, name=f"{prefix}-event-{tag}", game=game, rounds=3,
                                hands_per_round=2, bot_delay_ms=bot_delay_ms)
    events.add_bot_entries(user, event, int(bots))
    round_ = events.pair_round(user, event)
    events.start_round(user, round_)
    return {"event_id": event.pk, "club_id": club.pk, "user": {"username": user.get_username(),
            "cookie": login_cookie(user)}}


def turn_latency(room_id) -> dict:
    """How late the server's moves of the room's first hand came after their
    deadlines, in ms: ``first`` (the hand's first move, whose deadline the
    process that dealt it set: a runner found it by its poll) and ``chained``
    (each later move, whose deadline the runner's own previous move set)."""
    from games.models import Hand, Room

    room = Room.objects.get(pk=room_id)
    hand = Hand.objects.filter(match__room=room).order_by("match__number", "number").first()
    rows = list(hand.actions.order_by("seq").values_list("created", "actor"))
    delay = room.bot_delay_ms / 1000.0
    first = (rows[0][0] - hand.created).total_seconds() - delay if rows else None
    chained = [(b[0] - a[0]).total_seconds() - delay for a, b in zip(rows, rows[1:])
               if b[1] in ("bot", "auto")]
    return {"first_ms": None if first is None else round(first * 1000, 1),
            "chained_ms": sorted(round(x * 1000, 1) for x in chained)}


OPS = {"turn_latency": turn_latency, "room_options": room_options, "review_status": review_status, "finished_hands": finished_hands, "event_round": event_round, "bot_room": bot_room, "bot_rooms": bot_rooms, "bot_delay": bot_delay, "new_user": new_user, "players": players, "tables": tables, "ready": ready, "autoplay": autoplay,
       "cookie": cookie, "hand_log": hand_log,
       "legal": legal, "close": close}


def moderator(prefix="mod") -> dict:
    """A fresh user in the moderators' group (版主), logged in."""
    from django.contrib.auth import get_user_model

    from moderation.services import moderators_group

    made = new_user(prefix)
    get_user_model().objects.get(pk=made["id"]).groups.add(moderators_group())
    return made


OPS["moderator"] = moderator


def ladder_board(game="shengji", prefix="lb") -> dict:
    """A leaderboard to read on a phone (C4's ladder): for each row of
    ``game``'s title ladder a rated player (rating 1500 down by 10, 40 hands,
    17 wins) holding that row's threshold in game points; a 30-character name
    (rating 2400, the title longest in English) and an 11-character one
    (1990, the first title).  Returns ``{long_name, eleven, cookie, longest}``:
    the two names, the 30-character player's session cookie, and per language
    code of ``settings.LANGUAGES`` the ladder's longest title in it."""
    import secrets

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.utils import translation

    from accounts import ledger
    from accounts.models import LevelTitle
    from ratings import compute
    from ratings.models import PlayerRating

    User = get_user_model()
    tag = f"{prefix}{secrets.token_hex(3)}"
    ladder = list(LevelTitle.objects.filter(game=game).order_by("threshold"))
    longest = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            longest[code] = max((row.display_name for row in ladder), key=len)
    with translation.override("en"):
        top_en = max(ladder, key=lambda row: len(row.display_name))

    def rated(name, rating, points):
        user = User.objects.create_user(name, password=None)
        mu = (rating - 500) / 40
        PlayerRating.objects.create(user=user, game=game, mu=mu, rating=compute.display(mu), hands=40,
                                    wins=17)
        if points:
            ledger.credit(user, game, points, reason="adjustment")
        return user

    for i, row in enumerate(ladder):
        rated(f"{tag}r{row.level_no}", 1500 - 10 * i, row.threshold)
    long_user = rated((tag + "w" * 30)[:30], 2400, top_en.threshold)
    eleven = rated((tag + "e" * 11)[:11], 1990, ladder[0].threshold)
    return {"long_name": long_user.get_username(), "eleven": eleven.get_username(),
            "cookie": login_cookie(long_user), "longest": longest}


OPS["ladder_board"] = ladder_board


def serve() -> int:
    """``--serve``: one op per line of standard input (``{"op": NAME, "params":
    {...}}``), one answer per line of standard output (``{"result": ...}`` or
    ``{"error": traceback}``), until standard input closes.  Django is set up
    once (about 1.4 s of CPU a process, which a process per op paid every
    time: a few hundred ops a CI run).  Each op starts and ends without a
    database connection and with the process's local-memory caches empty, and
    its notifications have left (``games.live.notify.flush``) before its answer
    is written, so an op sees and leaves the site as a fresh process would.
    Whatever an op prints goes to standard error."""
    import traceback

    _setup()
    from django.conf import settings
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache
    from django.db import connections

    from games.live import notify

    if settings.GAMES_INPROCESS_TASKS:
        # Embedded topology: the web process is the site's one process; it runs
        # the turns, reviews, matchmaking and round sweeps (its runner and
        # tickers poll the database).  This process starts none of them: what
        # it ran would push to its own in-memory channel layer, which no
        # browser hears (a one-shot op process's threads died with it, or ran
        # a turn unheard when a deadline fell due before it exited).
        settings.GAMES_SCHEDULING_DISABLED = True
    answers = sys.stdout
    sys.stdout = sys.stderr
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        for cache in caches.all():
            if isinstance(cache, LocMemCache):
                cache.clear()
        try:
            reply = {"result": OPS[request["op"]](**request.get("params", {}))}
        except BaseException:  # an op's failure is its answer; the server goes on
            reply = {"error": traceback.format_exc()}
        finally:
            connections.close_all()
        notify.flush()
        answers.write(json.dumps(reply, default=str) + "\n")
        answers.flush()
    return 0


def main(argv: list[str]) -> int:
    if argv == ["--serve"]:
        return serve()
    if len(argv) not in (1, 2) or argv[0] not in OPS:
        print(f"usage: python -m tests.integration.ops {{{'|'.join(OPS)}}} [JSON] | --serve", file=sys.stderr)
        return 2
    params = json.loads(argv[1]) if len(argv) == 2 else {}
    _setup()
    result = OPS[argv[0]](**params)
    # the op's notifications leave before the process exits: games.live.notify
    # waits for its sender loop at exit (atexit), as for any management command
    sys.stdout.write(json.dumps(result, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
