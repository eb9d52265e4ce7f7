"""``run_event --format arena``: a whole arena of bot players through the real
services, rooms and Celery path (the command's arena half).

The arena's clock runs ``--minutes``; its ``--entries`` bot players (rated
1300-1700 at random, so the grouping has ranks to work with) join at the
start and are re-seated whenever their table ends; the sweep
(:func:`clubs.arena.pool.sweep_arenas`) runs here in the embedded topology, by
Celery beat in production.  ``--auto``: nobody acts once it is open (the
sweep seats, scores and ends it; always the case here, accepted for the
other formats' spelling).  Prints a line per new table, the leaderboard under
``Leaderboard`` (rank, points, wins, hands, marks: W win, F win on fire, D, L)
and, for ``--teams N``, the team battle under ``Teams``; then the check
``Hands: N completed before the end, N scored, N scored twice``.  Exit 1 on a
timeout or a hand scored twice or not at all.
"""

from __future__ import annotations

import secrets
import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Count, Max

from games.models import Hand, HandAction
from games.runtime import runner as turn_runner

from .. import services
from ..models import Arena, ArenaScore, ArenaTable, Event
from ..running.rounds import sweep_rounds
from . import pool


def run_arena(out, o: dict) -> None:
    """Run the arena described by the command's options ``o``; see the module."""
    game = o["game"]
    minutes = o["minutes"] or 3.0
    sweep_here = o["sweep"] == "here" or (o["sweep"] == "auto" and settings.GAMES_INPROCESS_TASKS)
    turn_runner.ensure_started()
    tag = secrets.token_hex(3)
    user_model = get_user_model()
    organiser = user_model.objects.create_user(f"td-{tag}", email=f"td-{tag}@example.org",
                                               password=secrets.token_urlsafe(16))
    club = services.create_club(organiser, f"Bots club {tag}")
    teams = [club]
    for k in range(1, max(0, o["teams"])):
        other = user_model.objects.create_user(f"td{k}-{tag}", password=secrets.token_urlsafe(16))
        teams.append(services.create_club(other, f"Bots club {k + 1} {tag}"))
    event = pool.create_arena(
        organiser, club, name=f"{game} arena {tag}", game=game, minutes=minutes,
        hands_per_table=o["hands"] or 1, bot_fill_seconds=o["bot_fill"], team_battle=o["teams"] > 1,
        team_size=o["team_size"], teams=teams[1:], bot_delay_ms=o["bot_delay_ms"], start=False,
    )
    pool.add_bots(organiser, event, o["entries"], teams=teams if o["teams"] > 1 else None, seed=7)
    arena = pool.open_arena(organiser, event)
    out.write(f"Arena {event.name}: {game}, {o['entries']} bot players, {minutes:g} min, "
              f"{arena.hands_per_table} hand(s) per table"
              + (f", team battle of {len(teams)} clubs (best {o['team_size']} count)" if o["teams"] > 1 else "")
              + f", topology {'embedded' if settings.GAMES_INPROCESS_TASKS else 'production'}")
    t0 = time.monotonic()
    deadline = t0 + minutes * 60 + o["timeout"]
    seen = 0
    while True:
        if sweep_here:
            sweep_rounds()
        for t in ArenaTable.objects.filter(arena=arena, number__gt=seen).order_by("number"):
            names = dict(arena.players.values_list("pk", "name"))
            out.write(f"  {time.monotonic() - t0:6.1f} s  table {t.number}: "
                      + ", ".join(names.get(p, "[bot]") if p else "[bot]" for p in t.players))
            seen = t.number
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        if time.monotonic() > deadline:
            out.write("Timed out")
            raise SystemExit(1)
        time.sleep(0.5)
    report(out, event)
    if not check(out, event):
        raise SystemExit(1)


def report(out, event: Event) -> None:
    """Print the leaderboard (and the team battle) of ``event``."""
    board = pool.leaderboard(event.pk)
    out.write("Leaderboard")
    for row in board:
        p = row["player"]
        team = f"  [{p.team.name}]" if p.team_id else ""
        out.write(f"  {row['rank']:>3}. {p.name:<10} {row['points']:>4} pts  {row['wins']:>3} wins "
                  f"{row['hands']:>3} hands  {row['marks']}{' (fire)' if row['fire'] else ''}{team}")
    teams = pool.team_standings(event.pk, board)
    if teams:
        out.write("Teams")
        for k, t in enumerate(teams, start=1):
            out.write(f"  {k}. {t['team'].name:<24} {t['total']:>4} pts  ("
                      + ", ".join(p.name for p in t["players"]) + ")")


def check(out, event: Event) -> bool:
    """Every hand of the arena's tables completed before the end scored once
    per seated player, none twice; prints the figures, True when so."""
    arena = Arena.objects.get(pk=event.pk)
    tables = list(ArenaTable.objects.filter(arena=arena))
    rooms = [t.room_id for t in tables]
    hands = [h for h in Hand.objects.filter(match__room_id__in=rooms, complete=True).values_list(
        "pk", "summary", "match__room_id") if not (h[1] or {}).get("voided")]
    room_of = {pk: room for pk, _, room in hands}
    ends = dict(HandAction.objects.filter(hand__in=list(room_of)).order_by().values("hand")
                .annotate(last=Max("created")).values_list("hand", "last"))
    before = {h for h, at in ends.items() if at <= arena.ends_at}
    seated = {t.room_id: sum(1 for p in t.players if p) for t in tables}
    per_hand = dict(ArenaScore.objects.filter(arena=arena, counted=True).order_by().values("hand")
                    .annotate(n=Count("id")).values_list("hand", "n"))
    missing = [h for h in before if per_hand.get(h, 0) != seated[room_of[h]]]
    twice = ArenaScore.objects.filter(arena=arena).order_by().values("hand", "player").annotate(n=Count("id")).filter(n__gt=1)
    out.write(f"Tables: {len(tables)}; hands: {len(before)} completed before the end, "
              f"{len(per_hand)} scored, {twice.count()} scored twice, {len(missing)} not scored; "
              f"{len(ends) - len(before)} completed after the end (not counted)")
    return not missing and not twice.exists() and set(per_hand) <= before
