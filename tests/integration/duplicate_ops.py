"""Database-side steps of the duplicate production test, run as a separate
process against a stack's database (like ``tests.integration.ops``):

``python -m tests.integration.duplicate_ops OP '{"json": "params"}'``

* ``start``: ``{}`` → ``{event, human_entry, organiser_cookie}``: an
  organiser's club, a 保皇 duplicate event (1 round, 1 board, no-show rule
  机器人代打，缺席者判负, no grace), one human member registered (he never
  comes), nine bot entries; round 1 paired and started through
  :mod:`clubs.running.events` (the worker and beat do the rest).
* ``status``: ``{event}`` → the round's status and, per table, its number,
  entries, finished, result.
* ``form``: ``{table}`` → the correction form's pre-filled values.
* ``standings``: ``{event}`` → ``[[entry, rank, score]]`` and the corrections
  in words.
"""

from __future__ import annotations

import json
import sys

from .ops import _setup, login_cookie


def start() -> dict:
    import secrets

    from django.contrib.auth import get_user_model

    from clubs import services
    from clubs.models import Event
    from clubs.running import events

    tag = secrets.token_hex(3)
    User = get_user_model()
    olga = User.objects.create_user(f"olga{tag}", password=None)
    mike = User.objects.create_user(f"mike{tag}", password=None)
    club = services.create_club(olga, f"复式俱乐部{tag}")
    services.join_club(mike, club.join_code)
    event = events.create_event(olga, club, name="保皇复式", game="baohuang", format="duplicate", rounds=1,
                                hands_per_round=1, bot_delay_ms=0, grace_minutes=0,
                                no_show=Event.NoShow.BOT_VOID)
    entry = events.register(mike, event)
    events.add_bot_entries(olga, event, 9)
    events.start_round(olga, events.pair_round(olga, event))
    return {"event": event.pk, "human_entry": entry.pk, "organiser_cookie": login_cookie(olga)}


def status(event: int) -> dict:
    from clubs.models import Round

    r = Round.objects.get(event_id=event, number=1)
    return {
        "status": r.status,
        "tables": [
            {"id": t.pk, "number": t.number, "entries": t.entries, "finished": bool(t.finished), "result": t.result}
            for t in r.tables.order_by("number")
        ],
    }


def form(table: int) -> dict:
    from clubs.models import EventTable
    from clubs.pages.context import entry_names
    from clubs.results.corrections import CorrectionForm

    t = EventTable.objects.select_related("round__event").get(pk=table)
    f = CorrectionForm(t, entry_names(t.round.event))
    return {name: f[name].value() for name in f.fields}


def standings(event: int) -> dict:
    from clubs.models import Correction, Event
    from clubs.pages.context import entry_names
    from clubs.results.corrections import describe
    from clubs.results.standings import standings as table

    e = Event.objects.get(pk=event)
    names = entry_names(e)
    return {
        "standings": [[s.entry, s.rank, s.score] for s in table(e)],
        "corrections": [
            {"by": c.by.get_username(), "reason": c.reason, "changes": describe(c, names, e.game)}
            for c in Correction.objects.filter(table__round__event=e)
        ],
    }


OPS = {"start": start, "status": status, "form": form, "standings": standings}


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2) or argv[0] not in OPS:
        print(f"usage: python -m tests.integration.duplicate_ops {{{'|'.join(OPS)}}} [JSON]", file=sys.stderr)
        return 2
    params = json.loads(argv[1]) if len(argv) == 2 else {}
    _setup()
    sys.stdout.write(json.dumps(OPS[argv[0]](**params), default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
