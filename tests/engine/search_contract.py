"""What every game's search bot must satisfy, shared by the per-game tests
(tests/engine/test_<game>_search.py): each passes its rules, how to swap cards
the seat cannot see, and the seat's view of a state.

* :func:`advance` — a state ``steps`` heuristic decisions into a seeded hand;
* :func:`check_ignores_hidden` — two states that differ only in cards the seat
  cannot see give the same search decision with the same seed;
* :func:`check_legal` — the search's decision is legal (the engine applies it);
* :func:`check_reproducible` — a fixed seed gives the same decision again.
"""

from __future__ import annotations

import random


def advance(rules, seed: int, steps: int, match=None):
    """A state ``steps`` heuristic decisions into the hand dealt with ``seed``
    (fewer when the hand ends first)."""
    match = match or rules.new_match()
    state = rules.start_hand(match, rules.deal(match, seed))
    rng = random.Random(seed)
    for _ in range(steps):
        if rules.is_complete(state):
            break
        state = rules.apply(state, rules.bot_action(state, rules.to_act(state), "heuristic", rng))
    return state


def check_ignores_hidden(rules, state, swap_hidden, view, bot_seed: int, config) -> None:
    """The search's decision at ``state`` equals its decision at
    ``swap_hidden(state, seat, rng)``: a state with cards the seat to act
    cannot see moved, whose ``view(state, seat)`` is the same.  Nothing to
    check when the hand is over or no such swap exists."""
    if rules.is_complete(state):
        return
    seat = rules.to_act(state)
    other = swap_hidden(state, seat, random.Random(bot_seed))
    if other is None:
        return
    assert other.hands != state.hands
    assert view(other, seat) == view(state, seat)
    a = rules.bot_action(state, seat, "search", random.Random(bot_seed), search=config)
    b = rules.bot_action(other, seat, "search", random.Random(bot_seed), search=config)
    assert a == b


def check_reproducible(rules, state, rng_seed: int, config, repeats: int = 1):
    """The search's decision at ``state`` with ``random.Random(rng_seed)`` is
    the same every time; returns it."""
    seat = rules.to_act(state)
    first = rules.bot_action(state, seat, "search", random.Random(rng_seed), search=config)
    for _ in range(repeats):
        assert rules.bot_action(state, seat, "search", random.Random(rng_seed), search=config) == first
    return first


def check_legal(rules, state, bot_seed: int, config) -> None:
    """The search's decision for the seat to act at ``state`` is legal: the
    engine applies it (``IllegalAction`` otherwise).  Nothing to check when
    the hand is over."""
    if rules.is_complete(state):
        return
    seat = rules.to_act(state)
    rules.apply(state, rules.bot_action(state, seat, "search", random.Random(bot_seed), search=config))
