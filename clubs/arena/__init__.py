"""Arenas: timed events players join and leave at will, re-seated
as soon as their table ends, scored per hand with streaks.

In layers, as the rest of ``clubs`` (a contract in pyproject.toml):
``pairing`` and ``scoring`` are pure Python (grouping the waiting pool into
tables; points, streaks, berserk, the clock, team battle totals);
``pool`` is every change (create, join, leave, seat, score, sweep), one
transaction each; ``pages`` the arena page and its POST endpoints;
``live`` its websocket.  Rules: docs/tournaments.md, "Arena".
"""
