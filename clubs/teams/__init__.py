"""Team duplicate events (docs/tournaments.md, "Team duplicate"): teams of
four (two pairs of a match game, substitutes allowed) meet in two-table
matches with the same boards, scored in IMPs and victory points.

* :mod:`.lineup` - the team's players: registering a team, the pair each
  table seats (the player offset of a table's leg), substitutes;
* :mod:`.results` - matches, IMPs and VPs of the stored table results, team
  standings, score cards and travellers, with the board embargo.

The pure scoring is :mod:`clubs.tournament.teams`; the game says how a
board scores through its hook ``team_board_scores`` (or ``board_scores``).
"""
