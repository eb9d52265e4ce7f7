"""Both games' search bots decide from their seat's knowledge only: two states
that differ only in cards the seat cannot see (swapped between two other
seats' hands, each game's ``swap_hidden``) give the same decision with the same
seed.  Each game's own search tests (legal actions in every phase, sampled
worlds, reproducibility) are in tests/engine/test_<game>_search.py."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.baohuang import RULES as BAOHUANG
from games.engine.baohuang.search import infoset
from games.engine.shengji import RULES as SHENGJI
from games.engine.shengji.view import seat_view
from tests.engine import search_contract, test_baohuang_search, test_shengji_search

#: game -> (rules, swap of hidden cards, the seat's view, the search config, the longest advance)
GAMES = {
    "baohuang": (BAOHUANG, test_baohuang_search.swap_hidden, infoset, test_baohuang_search.TINY, 220),
    "shengji": (SHENGJI, test_shengji_search.swap_hidden, seat_view, test_shengji_search.TINY, 70),
}


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), fraction=st.floats(0, 1), bot_seed=st.integers(0, 2**32))
def test_decision_ignores_cards_the_seat_cannot_see(game, seed, fraction, bot_seed):
    rules, swap_hidden, view, config, longest = GAMES[game]
    state = search_contract.advance(rules, seed, int(fraction * longest))
    search_contract.check_ignores_hidden(rules, state, swap_hidden, view, bot_seed, config)
