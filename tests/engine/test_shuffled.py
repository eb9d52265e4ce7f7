"""cards.shuffled writes random.shuffle's algorithm out (C3): the permutation
must be exactly random.Random(seed).shuffle's, or every seeded deal (and every
stored replay) would change."""

import random

from games.engine.cards import shuffled


def test_shuffled_equals_random_shuffle_for_many_seeds_and_lengths():
    lengths = (0, 1, 2, 3, 17, 108, 205)
    for seed in range(400):
        big = seed * 0x9E3779B97F4A7C15 % (1 << 63)
        for n in lengths:
            for s in (seed, big):
                items = list(range(n))
                expected = list(items)
                random.Random(s).shuffle(expected)
                assert shuffled(items, s) == expected, (s, n)


def test_shuffled_copies_and_keeps_the_multiset():
    items = list(range(205))
    out = shuffled(items, 12345)
    assert items == list(range(205))
    assert sorted(out) == items
    assert out != items


def test_shuffle_in_place_equals_random_shuffle_and_leaves_the_same_state():
    """cards.shuffle(items, rng): rng.shuffle's permutation, and the generator
    left where rng.shuffle leaves it (a deal's shown card and a search's next
    draws come from the same generator after its shuffle)."""
    from games.engine.cards import shuffle

    for seed in range(300):
        for n in (0, 1, 2, 5, 33, 216):
            mine, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(n)), list(range(n))
            shuffle(a, mine)
            theirs.shuffle(b)
            assert a == b, (seed, n)
            assert mine.getstate() == theirs.getstate(), (seed, n)
