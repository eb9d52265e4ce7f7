"""simulate --duplicate: every deal is replayed with the policies' seats
rotated (teams swapped in shengji, each seat in turn in baohuang), and the
difference between two policies is reported per deal with a 95% interval."""

from games.engine.simulate import format_duplicate, rotations, run_duplicate


def test_rotations_swap_teams_in_shengji_and_visit_every_seat_in_baohuang():
    assert rotations("shengji", ["search", "heuristic", "search", "heuristic"]) == [
        ["search", "heuristic", "search", "heuristic"],
        ["heuristic", "search", "heuristic", "search"],
    ]
    rots = rotations("baohuang", ["search"] + ["heuristic"] * 4)
    assert len(rots) == 5
    assert sorted(r.index("search") for r in rots) == [0, 1, 2, 3, 4]


def test_duplicate_shengji_plays_each_deal_twice_and_prints_the_difference():
    report = run_duplicate("shengji", 3, 7, ["heuristic", "random", "heuristic", "random"])
    assert report.deals == 3 and report.hands == 6
    assert len(report.levels["heuristic"]) == 3
    # per deal both teams played both seatings: the two policies' results are
    # each a mean over the two seatings
    text = format_duplicate(report)
    assert "difference heuristic − random:" in text and "levels per hand" in text
    assert "n=3 deals" in text
    d = report.difference("heuristic", "random")
    assert d.n == 3


def test_duplicate_baohuang_is_reproducible_and_zero_sum():
    pol = ["random", "heuristic", "heuristic", "heuristic", "heuristic"]
    a = run_duplicate("baohuang", 2, 3, pol)
    b = run_duplicate("baohuang", 2, 3, pol)
    assert a.points == b.points and a.hands == 10
    for i in range(a.deals):
        # one random seat and four heuristic seats: the table sums to zero (B12)
        assert abs(a.points["random"][i] + 4 * a.points["heuristic"][i]) < 1e-9
    assert "game points per hand" in format_duplicate(a)


def test_duplicate_with_worker_processes_gives_the_same_figures():
    pol = ["heuristic", "random", "heuristic", "random"]
    one = run_duplicate("shengji", 2, 5, pol, jobs=1)
    two = run_duplicate("shengji", 2, 5, pol, jobs=2)
    assert one.levels == two.levels and one.points == two.points and two.deals == 2
