"""Statistics helpers of the simulate command."""

from games.engine.simulate import interval, percentile


def test_interval_of_constant_sample_has_zero_width():
    iv = interval([2.0, 2.0, 2.0])
    assert iv.mean == 2.0 and iv.half_width == 0.0 and iv.n == 3


def test_interval_width_shrinks_with_more_samples():
    small = interval([0.0, 1.0] * 5)
    large = interval([0.0, 1.0] * 500)
    assert large.half_width < small.half_width
    assert abs(large.mean - 0.5) < 1e-9


def test_percentile_nearest_rank():
    values = sorted(float(v) for v in range(1, 101))
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile(values, 1.0) == 100.0
    assert percentile([], 0.5) == 0.0
