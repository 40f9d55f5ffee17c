"""The windows part's per-process figures: p50 and p99 by nearest rank, and
the mean, which shows a speed that differs by window (by script, say) where
the p50 does not."""

from bench.traffic import _percentiles


def test_mean_shows_what_the_median_hides():
    # 60 windows of 10 µs, 40 of 100 µs.
    p50, p99, mean = _percentiles([10_000] * 60 + [100_000] * 40)
    assert p50 == 10.0
    assert p99 == 100.0
    assert mean == 46.0


def test_order_of_the_samples_does_not_matter():
    assert _percentiles([3_000, 1_000, 2_000]) == (2.0, 3.0, 2.0)
