"""The tournament core: pairing, standings and duplicate scoring.

Pure Python with no Django imports (like :mod:`games.engine`), so that every
rule here is a function of plain values and is tested on its own:

* :mod:`.swiss` - Swiss pairing of two-sided matches (entry against entry) by
  a maximum-weight matching (networkx);
* :mod:`.tables` - Swiss seating of individuals at tables of N (N = 5 for a
  five-player game), fewest tables with bots, rotating seats;
* :mod:`.round_robin` - the circle method, with a bye for an odd count;
* :mod:`.standings` - match standings (2/1/0 with tiebreaks) and table
  standings (totals with tiebreaks);
* :mod:`.duplicate` - matchpoints of a board compared across tables.

Nothing here names a game: a game's tournament behaviour (how many players an
entry has, how a round's hands become a result) lives with the game and is
reached through :mod:`clubs.formats`.  The rules and their sources are written
up in ``docs/tournaments.md``.
"""

from .duplicate import board_matchpoints, matchpoints, percentage
from .round_robin import round_robin_round, round_robin_schedule
from .standings import MatchResult, Standing, TableResult, match_standings, table_standings
from .swiss import Pairing, PairingEntry, PairingError, swiss_pairs
from .tables import Seating, TableEntry, swiss_tables

__all__ = [
    "MatchResult",
    "Pairing",
    "PairingEntry",
    "PairingError",
    "Seating",
    "Standing",
    "TableEntry",
    "TableResult",
    "board_matchpoints",
    "match_standings",
    "matchpoints",
    "percentage",
    "round_robin_round",
    "round_robin_schedule",
    "swiss_pairs",
    "swiss_tables",
    "table_standings",
]
