"""``python manage.py run_event``: run a whole club event with bot-only entries.

It goes through the real path: :mod:`clubs.running.events` creates the club, event,
entries and rounds; starting a round creates rooms and seats through
:mod:`games.services`; the bots' turns run on the games' turn runner (an
in-process thread in the embedded topology, the Celery worker in production); tables
finish and rounds end through :func:`clubs.running.rounds.sweep_rounds` (run here in
the embedded topology, by Celery beat in production: ``DATABASE_URL`` /
``REDIS_URL`` set).  Prints each round's pairing, each round's results, and
the final standings under a line ``Standings``; exits 0 when the event
finished, 1 on a timeout.  ``--format arena`` runs an arena of ``--minutes``
with ``--entries`` bot players (``--hands`` per table; ``--teams N``: a team
battle of N clubs), see :mod:`clubs.arena.command`.
"""

from __future__ import annotations

import secrets
import time
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q
from django.utils import timezone

from clubs.arena.command import run_arena
from clubs import formats, services
from clubs.models import Event, Round
from clubs.results.standings import standings
from clubs.running import events
from clubs.running.rounds import sweep_rounds
from clubs.schedule import scheduling as club_schedule
from clubs.schedule_models import EventSchedule
from clubs.teams import results as team_results
from clubs.tournament.round_robin import rounds_needed
from games.runtime import runner as turn_runner
from notifications.models import Kind, Notification


class Command(BaseCommand):
    help = "Run a whole event of bot-only entries through the real services, rooms and Celery path."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help="a game code with tournament hooks")
        parser.add_argument("--format", default="swiss", choices=[c for c, _ in Event.Format.choices])
        parser.add_argument("--movement", default="swiss", choices=[c for c, _ in Event.Movement.choices])
        parser.add_argument("--entries", type=int, default=8)
        parser.add_argument("--rounds", type=int, default=None, help="default 3 (round robin: all rounds)")
        parser.add_argument("--hands", type=int, default=1, help="hands per round (0: time limit only)")
        parser.add_argument("--minutes", type=float, default=None, help="round time limit in minutes")
        parser.add_argument("--round-seconds", action="append", default=[], metavar="R:S",
                            help="give round R a clock of S seconds (repeatable), e.g. 2:3")
        parser.add_argument("--bot-delay-ms", type=int, default=0, help="bot pace (default 0: fast)")
        parser.add_argument("--timeout", type=float, default=900.0, help="seconds before giving up")
        parser.add_argument("--no-migrate", action="store_true")
        parser.add_argument("--sweep", choices=["auto", "here", "beat"], default="auto",
                            help="who runs the round sweep: here (embedded default) or Celery beat")
        parser.add_argument("--start-in", type=float, default=None, metavar="S",
                            help="schedule the start S seconds ahead; with --auto nobody pairs or starts a round")
        parser.add_argument("--auto", action="store_true",
                            help="automatic rounds: the sweep starts every round (needs --start-in)")
        parser.add_argument("--gap", type=float, default=1.0, metavar="S",
                            help="with --auto: seconds between a round's end and the next start")
        parser.add_argument("--bot-policies", default=None, metavar="P,P",
                            help="the bot entries' policies in turn (heuristic, random, search); default "
                                 "heuristic, and heuristic,random for the formats that deal boards (duplicate, "
                                 "teams), since identical bots play a board identically at every table")
        parser.add_argument("--teams", type=int, default=0, metavar="N",
                            help="arena: a team battle of N clubs (the entries dealt round them)")
        parser.add_argument("--team-size", type=int, default=3, metavar="N",
                            help="arena team battle: each club's best N players count")
        parser.add_argument("--bot-fill", type=float, default=None, metavar="S",
                            help="arena: bots fill a waiting table after S seconds (default: never)")

    def handle(self, *args, **o):
        if not o["no_migrate"]:
            call_command("migrate", verbosity=0, interactive=False)
        game, fmt = o["game"], o["format"]
        try:
            hooks = formats.hooks(game)
        except formats.NoTournament:
            raise CommandError(f"no tournament hooks for game {game!r}") from None
        if fmt == Event.Format.ARENA:
            return run_arena(self.stdout, o)
        moving = o["movement"] if fmt in Event.BOARD_FORMATS else fmt
        rounds = o["rounds"] or (rounds_needed(o["entries"]) if moving == "round_robin" else 3)
        sweep_here = o["sweep"] == "here" or (o["sweep"] == "auto" and settings.GAMES_INPROCESS_TASKS)
        turn_runner.ensure_started()
        tag = secrets.token_hex(3)
        organiser = get_user_model().objects.create_user(
            f"td-{tag}", email=f"td-{tag}@example.org", password=secrets.token_urlsafe(16))
        club = services.create_club(organiser, f"Bots club {tag}")
        minutes = o["minutes"]
        try:
            clocks = {int(a): float(b) for a, b in (x.split(":", 1) for x in o["round_seconds"])}
        except ValueError:
            raise CommandError("--round-seconds takes ROUND:SECONDS") from None
        event = events.create_event(
            organiser, club, name=f"{game} {fmt} {tag}", game=game, format=fmt, movement=o["movement"],
            rounds=rounds, hands_per_round=o["hands"] or None, minutes_per_round=None,
            bot_delay_ms=o["bot_delay_ms"],
        )
        policies = o["bot_policies"]
        if policies is None:
            policies = "heuristic,random" if fmt in Event.BOARD_FORMATS else ""
        policies = tuple(p for p in policies.split(",") if p)
        try:
            events.add_bot_entries(organiser, event, o["entries"], policies)
        except events.Conflict as exc:
            raise CommandError(f"--bot-policies: {exc}") from None
        size = len(event.entries.first().players.all()) if o["entries"] else hooks.ENTRY_SIZE
        names = {e.pk: f"{e.name}{'·' + e.bot_policy if e.bot_policy else ''}" for e in event.entries.all()}
        out = self.stdout
        out.write(f"Event {event.name}: {game}, {fmt}, {o['entries']} entries "
                  f"({size} player(s) each), {rounds} rounds, "
                  f"{o['hands'] or '-'} hand(s) per round, topology "
                  f"{'embedded' if settings.GAMES_INPROCESS_TASKS else 'production'}")
        deadline = time.monotonic() + o["timeout"]
        t0 = time.monotonic()
        if o["auto"] or o["start_in"] is not None:
            return self._scheduled(o, organiser, event, names, hooks, sweep_here, deadline, t0)
        for number in range(1, rounds + 1):
            r = events.pair_round(organiser, event)
            out.write(f"Round {number} pairing")
            for k, ids in enumerate(r.pairing["tables"], start=1):
                sep = " v " if hooks.SHAPE == "match" else ", "
                out.write(f"  T{k}: " + sep.join(names.get(i, "[bot]") if i else "[bot]" for i in ids))
            if r.pairing.get("bye"):
                out.write(f"  bye: {names[r.pairing['bye']]}")
            if r.pairing.get("bots"):
                out.write(f"  bots: {r.pairing['bots']} at T{r.pairing['bot_table'] + 1}")
            events.start_round(organiser, r)
            seconds = clocks.get(number, minutes * 60 if minutes else None)
            if seconds:  # the round clock, counted from the start (sub-minute for demos and tests)
                Round.objects.filter(pk=r.pk).update(deadline=timezone.now() + timedelta(seconds=seconds))
            started = time.monotonic()
            while True:
                if sweep_here:
                    sweep_rounds()
                r.refresh_from_db()
                if r.status == Round.Status.FINISHED:
                    break
                if time.monotonic() > deadline:
                    out.write(f"Timed out in round {number}")
                    raise SystemExit(1)
                time.sleep(0.5)
            self._results(r, names, time.monotonic() - started)
        self._standings(event, names, t0)

    def _results(self, r, names, seconds: float) -> None:
        out = self.stdout
        out.write(f"Round {r.number} results ({seconds:.1f} s"
                  f"{', ended by its time limit' if r.ended_by_clock else ''})")
        for t in r.tables.order_by("number"):
            parts = []
            for i, res in zip(t.entries, (t.result or {}).get("entries", [])):
                shown = ", ".join(f"{k} {v}" for k, v in res.items() if k != "hands")
                parts.append(f"{names.get(i, '[bot]') if i else '[bot]'} ({shown})")
            out.write(f"  T{t.number} [{(t.result or {}).get('hands', 0)} hand(s)]: " + "; ".join(parts))
        if r.event.is_teams:
            self._matches(r, names)

    def _matches(self, r, names) -> None:
        """Team duplicate: per match the two tables, each board's swing (team
        A's levels at both tables) and IMPs, the IMP totals and both VPs."""
        out = self.stdout
        for m in team_results.round_matches(r, organiser=True):
            tables = f"T{m.first.number}+T{m.second.number}" if m.first and m.second else "?"
            head = f"  Match {m.number} ({tables}): {names.get(m.a, m.a)} v {names.get(m.b, m.b)}"
            if m.score is None:
                out.write(head + ": not scored")
                continue
            boards = " ".join("-" if im is None else f"{sw:+.2f}→{im:+d}"
                              for sw, im in zip(m.score.swings, m.score.board_imps))
            va, vb = m.vps()
            out.write(f"{head}: IMPs {m.score.imps_a}-{m.score.imps_b}, VPs {va:.2f}-{vb:.2f}"
                      + (f" (absent: {', '.join(names.get(x, str(x)) for x in sorted(m.absent))})" if m.absent else ""))
            out.write(f"    boards (swing in levels → IMPs for the first team): {boards}")

    def _scheduled(self, o, organiser, event, names, hooks, sweep_here, deadline, t0) -> None:
        """A scheduled event: the start ``--start-in`` seconds ahead; with
        ``--auto`` the sweep (here, or Celery beat) pairs and starts every
        round; this only watches, then prints the notifications sent (per
        kind) and the standings.  Exit 1 on a timeout."""
        out = self.stdout
        start_in = o["start_in"] if o["start_in"] is not None else 5.0
        if not o["auto"]:
            raise CommandError("--start-in without --auto: the organiser would start the rounds; add --auto")
        starts = timezone.now() + timedelta(seconds=start_in)
        club_schedule.schedule_event(organiser, event, starts_at=starts, auto_rounds=True, gap_minutes=o["gap"] / 60)
        out.write(f"Scheduled start {club_schedule.local_time(event, starts):%Y-%m-%d %H:%M:%S %Z} "
                  f"(in {start_in:g} s), automatic rounds {o['gap']:g} s apart; nobody starts a round from here")
        seen: dict[int, str] = {}
        began: dict[int, float] = {}
        while True:
            if sweep_here:
                sweep_rounds()
            for r in event.round_set.exclude(status=Round.Status.PREVIEW).order_by("number"):
                if seen.get(r.number) is None:
                    began[r.number] = time.monotonic()
                    late = (r.started - starts).total_seconds() if r.number == 1 else None
                    out.write(f"Round {r.number} started by the sweep"
                              + (f" {late:.1f} s after the scheduled start" if late is not None else "")
                              + f": {r.tables.count()} table(s)")
                    for k, ids in enumerate(r.pairing["tables"], start=1):
                        sep = " v " if hooks.SHAPE == "match" else ", "
                        out.write(f"  T{k}: " + sep.join(names.get(i, "[bot]") if i else "[bot]" for i in ids))
                    seen[r.number] = "running"
                if r.status == Round.Status.FINISHED and seen[r.number] != "finished":
                    self._results(r, names, time.monotonic() - began[r.number])
                    seen[r.number] = "finished"
            event.refresh_from_db()
            announced = EventSchedule.objects.filter(pk=event.pk, results_announced=True).exists()
            if event.status == Event.Status.FINISHED and announced:
                break
            if time.monotonic() > deadline:
                out.write(f"Timed out (rounds seen: {sorted(seen)})")
                raise SystemExit(1)
            time.sleep(0.5)
        numbers = list(event.round_set.order_by("number").values_list("number", flat=True))
        out.write(f"Rounds played: {' '.join(map(str, numbers))}")
        out.write("Notifications")
        rows = Notification.objects.filter(Q(key=f"event:{event.pk}") | Q(key__startswith=f"event:{event.pk}:"))
        for code, label in Kind.choices:
            kind = rows.filter(kind=code)
            out.write(f"  {code}: {kind.count()} ({kind.filter(emailed__isnull=False).count()} e-mailed)")
        self._standings(event, names, t0)

    def _standings(self, event, names, t0) -> None:
        out = self.stdout
        event.refresh_from_db()
        out.write("Standings")
        for s in standings(event):
            tb = ", ".join(f"{k} {v:g}" if isinstance(v, (int, float)) else f"{k} {v}" for k, v in s.tiebreaks.items())
            out.write(f"  {s.rank:>3}. {names[s.entry]:<12} {s.score:g}   ({tb})")
        out.write(f"Event status: {event.status}; {time.monotonic() - t0:.1f} s")
        if event.status != Event.Status.FINISHED:
            raise SystemExit(1)
