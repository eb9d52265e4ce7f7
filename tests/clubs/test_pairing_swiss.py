"""Swiss pairing of two-sided matches (clubs.tournament.swiss): property tests
over random histories, and the worked cases of docs/tournaments.md."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.tournament.swiss import PairingEntry, PairingError, can_avoid_repeats, swiss_pairs

pytestmark = pytest.mark.pure  # no topology: the embedded half runs it (Makefile)


@st.composite
def fields(draw):
    """A field of 2-24 entries with a random, symmetric history: opponents met,
    byes had, scores (match points, 0-2 per round) and a rank order."""
    n = draw(st.integers(2, 24))
    seed = draw(st.integers(0, 10**6))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8, 1.0]))
    rng = random.Random(seed)
    met = {i: set() for i in range(n)}
    for i in range(n):
        for j in range(i + 1, n):
            if rng.random() < density:
                met[i].add(j)
                met[j].add(i)
    byes = {i for i in range(n) if rng.random() < density / 2}
    scores = {i: rng.choice([0, 1, 2, 3, 4, 5, 6]) for i in range(n)}
    order = sorted(range(n), key=lambda i: (-scores[i], i))
    return [
        PairingEntry(i, scores[i], frozenset(met[i]), i in byes, rank)
        for rank, i in enumerate(order)
    ]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(), st.sampled_from([None, 2, 4, 16]))
def test_every_entry_exactly_once(entries, window):
    p = swiss_pairs(entries, window=window)
    ids = p.ids()
    assert sorted(ids) == sorted(e.id for e in entries)
    assert (p.bye is not None) == (len(entries) % 2 == 1)
    assert all(a != b for a, b in p.pairs)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(), st.sampled_from([None, 2, 4, 16]))
def test_no_repeat_while_avoidable(entries, window):
    p = swiss_pairs(entries, window=window)
    by_id = {e.id: e for e in entries}
    counted = sum(b in by_id[a].opponents for a, b in p.pairs) + int(
        p.bye is not None and by_id[p.bye].had_bye
    )
    assert p.repeats == counted
    if can_avoid_repeats(entries):
        assert p.repeats == 0


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_bye_at_most_once(entries):
    p = swiss_pairs(entries)
    if p.bye is not None and any(not e.had_bye for e in entries):
        assert not next(e for e in entries if e.id == p.bye).had_bye


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 21), st.integers(0, 10**6))
def test_whole_event_never_repeats_or_double_byes(n, seed):
    """A simulated event of up to five rounds with random results: each round
    repeats no opponent that could be avoided, and no entry has a second bye
    while another entry has had none."""
    rng = random.Random(seed)
    score = dict.fromkeys(range(n), 0)
    met = {i: set() for i in range(n)}
    byes: dict[int, int] = dict.fromkeys(range(n), 0)
    for _ in range(min(n - 1, 5)):
        order = sorted(range(n), key=lambda i: (-score[i], i))
        entries = [PairingEntry(i, score[i], frozenset(met[i]), byes[i] > 0, r) for r, i in enumerate(order)]
        avoidable = can_avoid_repeats(entries)
        p = swiss_pairs(entries)
        if avoidable:
            assert p.repeats == 0
        for a, b in p.pairs:
            met[a].add(b)
            met[b].add(a)
            x = rng.choice([0, 1, 2])
            score[a] += x
            score[b] += 2 - x
        if p.bye is not None:
            byes[p.bye] += 1
            score[p.bye] += 2
        assert max(byes.values()) <= 1 or min(byes.values()) >= 1


def test_score_groups_pair_inside_and_top_half_meets_bottom_half():
    """Eight entries, round 2: four on 2 points (ranks 0-3), four on 0.  Inside
    each group the top half meets the bottom half (1-3, 2-4; Dutch), and nobody
    crosses groups because no one has met."""
    entries = [PairingEntry(f"w{i}", 2, rank=i) for i in range(4)] + [
        PairingEntry(f"l{i}", 0, rank=4 + i) for i in range(4)
    ]
    p = swiss_pairs(entries)
    assert set(p.pairs) == {("w0", "w2"), ("w1", "w3"), ("l0", "l2"), ("l1", "l3")}
    assert p.bye is None and p.repeats == 0


def test_floats_down_instead_of_repeating():
    """A and B (the only 4-pointers) met already: A and B each meet a 2-pointer
    rather than each other, and the 2-pointers left meet each other."""
    entries = [
        PairingEntry("A", 4, frozenset({"B"}), rank=0),
        PairingEntry("B", 4, frozenset({"A"}), rank=1),
        PairingEntry("C", 2, rank=2),
        PairingEntry("D", 2, rank=3),
    ]
    p = swiss_pairs(entries)
    assert p.repeats == 0
    assert frozenset(("A", "B")) not in {frozenset(x) for x in p.pairs}


def test_bye_goes_to_lowest_entry_without_one():
    entries = [PairingEntry(i, 6 - i, rank=i, had_bye=(i == 4)) for i in range(5)]
    assert swiss_pairs(entries).bye == 3


def test_repeat_when_unavoidable_is_counted():
    """Two entries who met must meet again: the pairing says so (repeats 1)."""
    entries = [PairingEntry("A", 2, frozenset({"B"}), rank=0), PairingEntry("B", 0, frozenset({"A"}), rank=1)]
    p = swiss_pairs(entries)
    assert p.pairs == (("A", "B"),) and p.repeats == 1


def test_avoid_asks_for_another_pairing():
    entries = [PairingEntry(i, 0, rank=i) for i in range(4)]
    first = swiss_pairs(entries)
    again = swiss_pairs(entries, avoid=[frozenset(x) for x in first.pairs])
    assert not {frozenset(x) for x in first.pairs} & {frozenset(x) for x in again.pairs}


def test_refuses_bad_fields():
    import pytest

    with pytest.raises(PairingError):
        swiss_pairs([PairingEntry(1)])
    with pytest.raises(PairingError):
        swiss_pairs([PairingEntry(1), PairingEntry(1)])
