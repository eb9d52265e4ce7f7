"""rank_counts sums each rank's run of kinds (order.py): it must give the
same 16 counts as adding every kind's count to its rank value (B2)."""

import random

from games.engine.baohuang.order import KIND_RANK, NKINDS, NRANKS, rank_counts


def _by_kind(counts):
    rc = [0] * NRANKS
    for k, n in enumerate(counts):
        rc[KIND_RANK[k]] += n
    return tuple(rc)


def test_rank_counts_equals_the_kind_by_kind_sum():
    rng = random.Random(7)
    for _ in range(500):
        counts = [rng.choice((0, 0, 0, 1, 2, 4)) for _ in range(NKINDS)]
        assert rank_counts(counts) == _by_kind(counts)
        assert rank_counts(tuple(counts)) == _by_kind(counts)
    one = [0] * NKINDS
    one[0] = 1  # 4H* alone
    assert rank_counts(one) == (0,) * 15 + (1,)
