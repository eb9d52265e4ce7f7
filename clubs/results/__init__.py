"""What the tables add up to (read-only): ``standings`` (pairing history,
standings, duplicate travellers, the embargo of running boards in every figure),
``corrections`` (the correction form and its audit trail in words), ``export``
(CSV) and ``scorecards`` (a player's score card)."""
