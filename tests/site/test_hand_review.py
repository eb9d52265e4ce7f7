"""Hand review on the site: asked for after a hand with a human ends,
computed once and stored, shown on the replay page (graph, flagged decisions
that jump to their step, the better move with its cards, accuracy per seat),
refused under an embargo (games.embargo), averaged on the profile.

Budgets are a few hundred CPU ms per hand (the reviewer's floor of two worlds
per decision decides most of it)."""

from __future__ import annotations

import re

import pytest

from games import embargo
from games.models import Hand, HandReview, SeatAccuracy
from games.runtime import reviewing
from games.services import reviews

pytestmark = pytest.mark.django_db

BUDGET = 200.0


@pytest.fixture
def finished(bot_room, driver, django_capture_on_commit_callbacks, settings):
    """alice's first 保皇 hand against four heuristic bots, played to the end
    (alice times out into 托管 moves), with the commit callbacks run."""
    settings.GAMES_REVIEW_BUDGET_MS = BUDGET
    with django_capture_on_commit_callbacks(execute=True):
        driver(bot_room, lambda r: Hand.objects.filter(match__room=r, complete=True).exists())
    return Hand.objects.filter(match__room=bot_room, complete=True).order_by("id").first()


class _Hide:
    def hand_embargo(self, hand, user):
        return "此牌正在比赛中，全部牌桌打完后公开。"


@pytest.fixture
def hidden():
    guard = _Hide()
    embargo.register(guard)
    yield guard
    embargo._guards.remove(guard)


def test_a_hand_with_a_human_gets_a_pending_review_then_one_stored_review(finished, alice):
    review = HandReview.objects.get(hand=finished)  # asked for by the hand_completed receiver
    if finished.summary.get("voided"):
        pytest.skip("deal voided")
    assert review.status == HandReview.Status.PENDING
    assert reviewing.run_review(finished.pk) == "done"
    review.refresh_from_db()
    assert review.status == "done" and review.data["game"] == "baohuang"
    assert len(review.data["decisions"]) == finished.actions.count()
    assert review.cpu_ms > 0 and review.budget_ms == BUDGET
    acc = SeatAccuracy.objects.get(review=review)  # alice only: the bots get no row
    assert acc.user == alice and acc.seat == 0 and 0 <= acc.accuracy <= 100
    before = review.data
    assert reviewing.run_review(finished.pk) == "already"  # never recomputed
    review.refresh_from_db()
    assert review.data == before and SeatAccuracy.objects.count() == 1


def test_the_review_samples_the_worlds_the_setting_names(finished, settings):
    """GAMES_REVIEW_WORLDS is the review's budget: with no CPU cap to reach,
    every unforced decision gets exactly that many worlds, none cut short."""
    if finished.summary.get("voided"):
        pytest.skip("deal voided")
    settings.GAMES_REVIEW_WORLDS = 3
    settings.GAMES_REVIEW_BUDGET_MS = 600_000
    reviews.request_review(finished)
    assert reviewing.run_review(finished.pk) == "done"
    data = HandReview.objects.get(hand=finished).data
    judged = [d for d in data["decisions"] if d["verdict"] != "forced"]
    assert judged and {d["worlds"] for d in judged} == {3}
    assert data["worlds"] == 3 and data["capped"] == 0


def test_bots_only_hand_gets_no_review(db, make_user, multipliers, driver, settings,
                                      django_capture_on_commit_callbacks):
    from games.services.reviews import on_hand_completed

    on_hand_completed("baohuang", hand_id=1, summary={}, players=[
        {"name": "机器人", "user": None, "bot": "heuristic"}] * 5)
    assert not HandReview.objects.exists()


def _done(finished):
    reviews.request_review(finished)
    assert reviewing.run_review(finished.pk) in ("done", "already")
    return HandReview.objects.get(hand=finished)


def _flag_one(review):
    """The stored ``review`` with at least one flagged decision: under the
    tests' 200 ms cap most decisions get two worlds, which are never flagged
    (FLAG_MIN_WORLDS), so unless one is, the first unforced decision with a
    better move named (else the first unforced one) is edited into a mistake."""
    data = review.data
    unforced = [d for d in data["decisions"] if d["verdict"] != "forced"]
    if unforced and not any(d["verdict"] != "fine" for d in unforced):
        d = next((d for d in unforced if d["best"] != d["played"]), unforced[0])
        d.update(verdict="mistake", loss=1.5, se=0.1)
        HandReview.objects.filter(pk=review.pk).update(data=data)
        review.refresh_from_db()
    return review


def test_replay_page_shows_graph_accuracy_and_the_flagged_decisions(client, alice, finished):
    review = _flag_one(_done(finished))
    client.force_login(alice)
    page = client.get(f"/hands/{finished.pk}/replay/").content.decode()
    assert 'id="review-graph"' in page and "<polyline" in page
    for s in range(5):
        assert f'data-review-seat="{s}"' in page
    for seat in review.data["seats"]:  # accuracy and its 95 % range, rounded
        if seat["accuracy"] is None:
            continue
        row = page.split(f'data-review-seat="{seat["seat"]}"')[1].split("</tr>")[0]
        low, high = seat["accuracy_range"]
        assert f'{seat["accuracy"]:.1f}' in row
        assert f"data-accuracy-range" in row and f"({low:.0f}–{high:.0f})" in row, row
    flagged = [d for d in review.data["decisions"] if d["verdict"] not in ("fine", "forced")]
    links = re.findall(r'data-jump-decision="(\d+)"', page)
    assert sorted(set(int(x) for x in links)) == sorted(set(d["index"] for d in flagged))
    if not flagged:
        assert "没有标记的决定" in page
        return
    d = flagged[0]
    at = client.get(f"/hands/{finished.pk}/replay/?step={d['index']}").content.decode()
    assert f'id="review-current" data-decision="{d["index"]}"' in at
    assert f'data-verdict="{d["verdict"]}"' in at
    if d["best"] != d["played"]:
        better = at.split('id="review-better"')[1].split("</p>")[0]
        best = next(v for k, v in d["best"].items() if k != "seat")
        assert better.strip()
        for code in best if isinstance(best, list) else []:
            assert f'data-c="{code}"' in better


def test_the_same_mistake_again_is_listed_under_the_first(client, alice, finished):
    """Two decisions of one seat with the same verdict and the same better
    move (the stored review edited so): the list shows the first, and the
    second as a step link under it ("the same mistake again"), not as an item
    of its own; both keep their jump links."""
    if finished.summary.get("voided"):
        pytest.skip("deal voided")
    review = _done(finished)
    data = review.data
    unforced = [d for d in data["decisions"] if d["verdict"] != "forced"]
    a = unforced[0]
    b = next(d for d in unforced[1:] if d["seat"] == a["seat"])
    for d in data["decisions"]:
        if d["index"] in (a["index"], b["index"]):
            d.update(verdict="blunder", loss=3.0, se=0.1, best={**a["best"], "seat": a["seat"]})
        elif d["seat"] == a["seat"] and d["verdict"] == "blunder":
            d["verdict"] = "mistake"  # no other blunder of the seat to group with
    HandReview.objects.filter(pk=review.pk).update(data=data)
    client.force_login(alice)
    page = client.get(f"/hands/{finished.pk}/replay/").content.decode()
    items = page.split('id="review-flagged"')[1].split("</ol>")[0].split("<li ")[1:]
    first = next(i for i in items if f'data-jump-decision="{a["index"]}"' in i.split("<br>")[0])
    repeats = first.split('class="muted review-repeats"')[1]
    assert 'data-repeats="1"' in repeats and f'data-jump-decision="{b["index"]}"' in repeats
    assert "同样的错误又出现" in repeats
    assert not any(f'data-jump-decision="{b["index"]}"' in i.split("<br>")[0] for i in items)
    en = client.get(f"/hands/{finished.pk}/replay/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The same mistake again:" in en


def test_group_repeats_docstring():
    import doctest

    from games.pages import review as review_page

    result = doctest.testmod(review_page)
    assert result.attempted > 0 and result.failed == 0


def test_replay_page_in_english_and_traditional_chinese(client, alice, finished):
    _done(finished)
    client.force_login(alice)
    en = client.get(f"/hands/{finished.pk}/replay/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Review" in en and "Accuracy" in en
    assert "95% confidence interval: the more deals sampled" in en
    hant = client.get(f"/hands/{finished.pk}/replay/",
                      HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "準確度" in hant


def test_unreviewed_hand_offers_the_button_and_the_post_asks_for_it(client, alice, finished):
    HandReview.objects.filter(hand=finished).delete()
    client.force_login(alice)
    page = client.get(f"/hands/{finished.pk}/replay/").content.decode()
    assert 'data-action="request-review"' in page
    response = client.post(f"/hands/{finished.pk}/review/")
    assert response.status_code == 302
    assert HandReview.objects.get(hand=finished).status == "pending"
    page = client.get(f"/hands/{finished.pk}/replay/").content.decode()
    assert 'data-review="pending"' in page


def test_embargo_refuses_the_review_and_the_replay(client, alice, finished, hidden):
    _done(finished)
    client.force_login(alice)
    page = client.get(f"/hands/{finished.pk}/replay/")
    assert page.status_code == 403 and "全部牌桌打完后公开" in page.content.decode()
    assert client.post(f"/hands/{finished.pk}/review/").status_code == 403
    review, reason = reviews.review_for(finished, alice)
    assert review is None and "公开" in reason


def test_profile_shows_average_accuracy_per_game(client, alice, finished):
    review = _done(finished)
    acc = SeatAccuracy.objects.get(review=review).accuracy
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert 'id="review-accuracy"' in page
    assert f"{acc:.1f}" in page


def test_profile_shows_accuracy_per_week_over_the_last_twelve(client, alice, finished):
    """ "average accuracy per game over time": the mean per calendar week,
    a dot per week with a reviewed hand (its Monday, mean and count in the
    dot's data and title), this week at the right; a week 13 weeks ago is
    outside the line but still in the overall mean."""
    import datetime

    from django.utils import timezone

    review = _done(finished)
    SeatAccuracy.objects.filter(review=review).delete()
    now = timezone.localtime()
    monday = now.date() - datetime.timedelta(days=now.weekday())

    def at(weeks_ago: int, seat: int, accuracy: float) -> None:
        when = timezone.make_aware(datetime.datetime.combine(
            monday - datetime.timedelta(weeks=weeks_ago), datetime.time(12)))
        row = SeatAccuracy.objects.create(review=review, user=alice, game="baohuang", seat=seat,
                                          accuracy=accuracy, decisions=10)
        SeatAccuracy.objects.filter(pk=row.pk).update(created=when)

    at(0, 0, 80.0)
    at(0, 1, 60.0)   # this week: 70 over 2 hands
    at(3, 2, 50.0)   # three weeks ago
    at(13, 3, 10.0)  # before the twelve weeks
    row = next(r for r in reviews.average_accuracy(alice) if r["game"] == "baohuang")
    assert row["hands"] == 4 and row["accuracy"] == pytest.approx(50.0)
    assert [(w["ago"], w["week"], w["hands"]) for w in row["weeks"]] == [
        (3, monday - datetime.timedelta(weeks=3), 1), (0, monday, 2)]
    assert [w["accuracy"] for w in row["weeks"]] == pytest.approx([50.0, 70.0])
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    spark = page.split('class="accuracy-spark"')[1].split("</svg>")[0]
    assert 'data-weeks="2"' in spark and "<polyline" in spark
    dots = re.findall(r'data-week="([\d-]+)" data-accuracy="([\d.]+)" cx="([\d.]+)" cy="([\d.]+)"',
                      spark)
    assert [(w, a) for w, a, _x, _y in dots] == [
        ((monday - datetime.timedelta(weeks=3)).isoformat(), "50.0"), (monday.isoformat(), "70.0")]
    (_, _, x3, y3), (_, _, x0, y0) = dots
    assert float(x3) < float(x0) and float(y0) < float(y3)  # later is right, better is higher
    assert f"{monday.isoformat()} 这一周：70.0（2 局）" in spark


def test_play_this_deal_again_same_deal_and_start_bots_elsewhere_unscored(
        client, alice, finished, driver):
    from accounts.models import PointsEntry
    from games.models import DealReplay, Seat

    if finished.summary.get("voided"):
        pytest.skip("deal voided")
    client.force_login(alice)
    page = client.get(f"/hands/{finished.pk}/replay/").content.decode()
    assert 'data-action="play-again"' in page
    response = client.post(f"/hands/{finished.pk}/again/", {"seat": "2"})
    assert response.status_code == 302
    replay = DealReplay.objects.get(source=finished)
    room = replay.room
    assert response["Location"].endswith(f"/rooms/{room.pk}/")
    seats = {s.index: s for s in Seat.objects.filter(room=room)}
    assert seats[2].user == alice
    assert all(seats[i].bot_policy == "search" and seats[i].user is None for i in (0, 1, 3, 4))
    again = Hand.objects.get(match__room=room)
    assert again.seed == finished.seed and again.start == finished.start
    assert again.deal == finished.deal  # the very same cards
    credits_before = PointsEntry.objects.filter(user=alice).count()
    driver(room, lambda r: Hand.objects.filter(match__room=r, complete=True).exists())
    again.refresh_from_db()
    assert again.complete
    assert PointsEntry.objects.filter(user=alice).count() == credits_before  # unscored
    assert not PointsEntry.objects.filter(hand=again).exists()
    room.refresh_from_db()
    from games.services.deadlines import can_start

    assert not can_start(room, list(Seat.objects.filter(room=room)))  # one deal only
    page = client.get(f"/hands/{again.pk}/replay/").content.decode()
    then = finished.summary["game_points"]["2"]
    now = again.summary["game_points"]["2"]
    assert f'data-then="{then}" data-now="{now}"' in page
    page = client.get(f"/hands/{finished.pk}/replay/").content.decode()
    assert f'data-again-room="{room.pk}"' in page


def test_play_again_refused_under_embargo_and_for_a_bad_seat(client, alice, finished, hidden):
    client.force_login(alice)
    assert client.post(f"/hands/{finished.pk}/again/", {"seat": "0"}).status_code == 403
    embargo._guards.remove(hidden)
    try:
        assert client.post(f"/hands/{finished.pk}/again/", {"seat": "9"}).status_code == 400
    finally:
        embargo.register(hidden)


from tests.site.test_third_game import hc_room, highcard  # noqa: E402,F401  (fixtures)


def test_a_game_without_a_reviewer_asks_for_no_review(hc_room, alice, client, driver,
                                                     django_capture_on_commit_callbacks):
    from games import services

    with django_capture_on_commit_callbacks(execute=True):
        driver(hc_room, lambda r: services.current_hand(r).complete, max_steps=50)
    hand = Hand.objects.get(match__room=hc_room, number=1)
    assert not HandReview.objects.filter(hand=hand).exists()
    client.force_login(alice)
    page = client.get(f"/hands/{hand.pk}/replay/").content.decode()
    assert 'data-review="unavailable"' in page and 'data-action="request-review"' not in page
    assert client.post(f"/hands/{hand.pk}/review/").status_code == 404


class _BusyThenIdle:
    """A /proc/stat reader for the governor: the first ``busy`` windows it
    measures are all busy, the rest idle (reads come in pairs, one each side
    of a window)."""

    def __init__(self, busy: int):
        self.left, self.busy, self.total, self.reads = busy, 0, 0, 0

    def __call__(self):
        self.reads += 1
        if self.reads % 2 == 0:
            self.busy += 100 if self.left > 0 else 0
            self.total += 100
            self.left -= 1
        return self.busy, self.total


def test_the_review_waits_while_the_machine_is_busy_then_is_stored(finished, settings,
                                                                   monkeypatch, caplog):
    """The governor (games/runtime/governor.py) under ``run_review``: two busy
    windows (50 + 100 ms slept), then the review runs and is stored, with
    what it slept."""
    from games.runtime import governor

    if finished.summary.get("voided"):
        pytest.skip("deal voided")
    settings.GAMES_REVIEW_IDLE_BELOW = "0.25"
    reader = _BusyThenIdle(busy=2)
    monkeypatch.setattr(governor, "cpu_times", reader)
    with caplog.at_level("INFO", logger="games.runtime.governor"):
        assert reviewing.run_review(finished.pk) == "done"
    review = HandReview.objects.get(hand=finished)
    assert review.status == "done" and review.data["governor"] == 0.25
    assert review.data["paused_ms"] >= 150 + 50  # two busy windows, then an idle one
    assert reader.reads >= 6
    assert f"review of hand {finished.pk} paused: the other processes use 100 %" in caplog.text


def test_a_review_busy_for_max_pause_s_is_deferred_and_asked_again(finished, settings,
                                                                    monkeypatch):
    """The machine never idle: after GAMES_REVIEW_MAX_PAUSE_S of pauses the
    review gives up for now (the Celery task must end before RabbitMQ's
    consumer_timeout drops its unacknowledged delivery): it stays pending and
    is scheduled again; once the machine is idle it is stored."""
    from games.runtime import governor

    if finished.summary.get("voided"):
        pytest.skip("deal voided")
    reviews.request_review(finished)
    settings.GAMES_REVIEW_IDLE_BELOW = "0.25"
    settings.GAMES_REVIEW_MAX_PAUSE_S = 0.3
    asked = []
    monkeypatch.setattr(reviewing, "schedule_review", asked.append)
    monkeypatch.setattr(governor, "cpu_times", _BusyThenIdle(busy=10 ** 6))
    assert reviewing.run_review(finished.pk) == "deferred"
    assert HandReview.objects.get(hand=finished).status == "pending"
    assert asked == [finished.pk]
    monkeypatch.setattr(governor, "cpu_times", _BusyThenIdle(busy=0))
    assert reviewing.run_review(finished.pk) == "done"
    assert HandReview.objects.get(hand=finished).status == "done" and asked == [finished.pk]


def test_a_bad_governor_setting_fails_the_review_with_its_reason(finished, settings):
    if finished.summary.get("voided"):
        pytest.skip("deal voided")
    settings.GAMES_REVIEW_IDLE_BELOW = "often"
    assert reviewing.run_review(finished.pk) == "failed"
    assert "often" in HandReview.objects.get(hand=finished).error


def test_review_in_english_names_its_axis_and_says_played_and_better(client, alice, finished):
    """The review in English: the graph's x-axis counts tricks (its numbers
    are the replay's trick marks, thinned, in order; its title says so) and
    its y-values carry the unit; a flagged decision reads "played ♥8, better
    ♥10" (the cards, no "Play" before them, no Chinese punctuation); the
    seats' table scrolls inside its own box (the page never wider than a phone)."""
    review = _flag_one(_done(finished))
    client.force_login(alice)
    client.cookies["django_language"] = "en"
    page = client.get(f"/hands/{finished.pk}/replay/").content.decode()
    if 'id="review-graph"' not in page:
        pytest.skip("no graph (every decision forced)")
    axis = page.split('id="review-x-axis"')[1].split("</g>")[0]
    ticks = [int(t) for t in re.findall(r'data-tick="(\d+)"', axis)]
    assert ticks and ticks[0] == 1 and ticks == sorted(ticks)
    xs = [float(x) for x in re.findall(r'<text x="([\d.]+)" y="[\d.]+" font-size="10" text-anchor="middle" fill="#222" data-tick', axis)]
    assert all(b - a >= 22 for a, b in zip(xs, xs[1:]))
    assert ">Trick<" in axis
    assert re.search(r'>-?[\d.]+ points</text>', page, re.I)  # the unit named on the y-values
    assert '<div class="scroll-x"><table class="review-seats"' in page
    flagged = [d for d in review.data["decisions"] if d["verdict"] not in ("fine", "forced")]
    if not flagged:
        return
    items = page.split('id="review-flagged"')[1].split("</ol>")[0]
    assert "played " in items and ", better " in items
    assert "Played Play" not in items and "Better Play" not in items
    assert not re.search(r"[\u3000-\u303f\uff00-\uffef]", re.sub(r"<[^>]+>", "", items))


def test_graph_ticks_are_thinned_and_follow_the_steps():
    """:func:`games.pages.review._graph`: a tick per trick mark at its step's x,
    none closer than TICK_GAP to the previous one kept."""
    from games.pages.review import TICK_GAP, _graph

    decisions = [{"index": i, "seat": i % 4, "verdict": "fine", "expected": float(i % 3)} for i in range(100)]
    ticks = [{"step": 2 * k, "label": k + 1} for k in range(50)]
    g = _graph(decisions, 100, 4, ticks)
    xs = [t["x"] for t in g["ticks"]]
    assert g["ticks"][0]["label"] == 1 and all(b - a >= TICK_GAP for a, b in zip(xs, xs[1:]))
    assert 1 < len(xs) < 50  # 50 tricks in 592 units: thinned
    assert g["bottom"] < g["tick_y"] < g["height"] and g["ticks"][-1]["x"] <= g["right"]
