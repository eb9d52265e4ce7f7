"""An event from its entries to its last round: ``events`` (every organiser's and
entrant's command: create, register, withdraw, edit, pair, start, pause, end a
round, correct a result; one transaction each) and ``rounds`` (the round clock,
the no-show rule, finishing tables and rounds, the sweep, the dealing planner of
event tables)."""
