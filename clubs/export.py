"""CSV export of an event (tablib): standings, pairings, results per round."""

from __future__ import annotations

import tablib

from .models import Event
from .pages import TIEBREAK_LABELS, entry_names
from .results import standings


def standings_csv(event: Event) -> str:
    """Rank, entry, score and every tiebreak, best first."""
    names = entry_names(event)
    rows = standings(event)
    keys = list(rows[0].tiebreaks) if rows else []
    data = tablib.Dataset(headers=["rank", "entry", "score", *keys, "rounds"])
    for s in rows:
        data.append([s.rank, names.get(s.entry, s.entry), s.score, *[s.tiebreaks[k] for k in keys], s.played])
    return data.export("csv")


def rounds_csv(event: Event) -> str:
    """One line per table of every round: round, table, entries, each entry's
    result, forfeits, whether corrected."""
    names = entry_names(event)
    data = tablib.Dataset(headers=["round", "table", "entry", "result", "forfeit", "corrected"])
    for r in event.round_set.order_by("number"):
        if r.pairing.get("bye"):
            data.append([r.number, "", names.get(r.pairing["bye"]), "bye", "", ""])
        for t in r.tables.order_by("number"):
            results = (t.result or {}).get("entries") or [None] * len(t.entries)
            absent = set((t.result or {}).get("forfeit") or [])
            for i, res in zip(t.entries, results):
                shown = "" if res is None else " ".join(
                    f"{TIEBREAK_LABELS.get(k, k)}={v}" for k, v in res.items() if k != "hands"
                )
                data.append([
                    r.number, t.number, names.get(i, "bot") if i else "bot", shown,
                    "yes" if i in absent else "", "yes" if (t.result or {}).get("corrected") else "",
                ])
    return data.export("csv")
