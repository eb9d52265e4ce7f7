"""The review governor (games/runtime/governor.py): a review sleeps while
the other processes keep the machine's CPUs busy, measured from /proc/stat.

The service's use of it (a review paused, then stored) is in
tests/site/test_hand_review.py; a governed Celery review worker on the
production topology is in tests/integration/test_review_governor.py."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.runtime import governor
from games.runtime.governor import Governor, cpu_times, parse_idle_below


@pytest.mark.parametrize("value, share", [
    ("0.25", 0.25), (0.5, 0.5), ("off", None), ("OFF", None), ("", None), (None, None),
    ("none", None), ("1", None), (2, None),
])
def test_the_setting_is_a_share_or_off(value, share):
    assert parse_idle_below(value) == share


@pytest.mark.parametrize("value", ["0", "-0.1", "quarter"])
def test_a_share_that_would_never_review_or_is_not_a_number_is_refused(value):
    with pytest.raises(ValueError):
        parse_idle_below(value)


class Machine:
    """A scripted /proc/stat: each window's busy share in turn (then idle),
    100 jiffies a window; and a clock that the sleeps advance."""

    def __init__(self, shares):
        self.shares = list(shares)
        self.busy = self.total = 0
        self.now = 0.0
        self.sleeps: list[float] = []

    def read(self):
        return self.busy, self.total

    def sleep(self, seconds):
        share = self.shares.pop(0) if self.shares else 0.0
        self.busy += round(100 * share)
        self.total += 100
        self.now += seconds
        self.sleeps.append(seconds)

    def clock(self):
        return self.now

    def governor(self, idle_below=0.25, **kw):
        return Governor(idle_below, read=self.read, sleep=self.sleep, clock=self.clock, **kw)


def test_work_waits_while_the_others_are_busy_with_windows_doubling_to_the_cap():
    m = Machine([0.9, 0.8, 0.7, 0.6, 0.5, 0.3, 0.1])
    g = m.governor(window_s=0.05, max_window_s=0.4)
    g.pause()
    assert m.sleeps == [0.05, 0.1, 0.2, 0.4, 0.4, 0.4, 0.4]  # six busy windows, then one idle
    assert g.waits == 6 and g.last_share == pytest.approx(0.1)
    assert g.paused_s == pytest.approx(sum(m.sleeps))


def test_a_machine_busy_just_at_the_threshold_is_busy():
    m = Machine([0.25, 0.24])
    g = m.governor(0.25)
    g.pause()
    assert g.waits == 1 and len(m.sleeps) == 2


def test_within_a_slice_of_work_there_is_no_measurement():
    m = Machine([])
    g = m.governor(slice_s=0.2, window_s=0.05)
    g.pause()  # the first call measures (an idle window)
    assert len(m.sleeps) == 1
    for _ in range(10):  # work that takes no time on the scripted clock
        g.pause()
    assert len(m.sleeps) == 1
    m.now += 0.2  # a slice of work later
    g.pause()
    assert len(m.sleeps) == 2


def test_with_nothing_to_measure_the_governor_switches_itself_off():
    sleeps = []
    g = Governor(0.25, read=lambda: None, sleep=sleeps.append, clock=lambda: 0.0)
    g.pause()
    g.pause()
    assert not g.enabled and sleeps == [0.05]  # one window, then never again


def test_pauses_are_logged_once_with_the_share_and_the_resume(caplog):
    m = Machine([0.9, 0.9, 0.0])
    with caplog.at_level("INFO", logger="games.runtime.governor"):
        m.governor(label="review of hand 7").pause()
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["review of hand 7 paused: the other processes use 90 % of the CPUs "
                     "(it runs below 25 %)", "review of hand 7 resumes after 0.35 s paused"]


def test_cpu_times_reads_the_cpu_line(tmp_path):
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal guest guest_nice
    stat.write_text("cpu  100 5 50 800 40 1 2 3 0 0\ncpu0 1 1 1 1 1 1 1 1 0 0\n")
    assert cpu_times(str(stat)) == (100 + 5 + 50 + 1 + 2 + 3, 1001)
    assert cpu_times(str(tmp_path / "missing")) is None
    stat.write_text("intr 1 2 3\n")
    assert cpu_times(str(stat)) is None


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="Linux only")
def test_the_real_machine_reads_busy_while_every_cpu_spins():
    """Real processes: one spinning burner per CPU (nice 19, each bounded to
    20 s and killed at the end) make the measured share of the others nearly
    all of the machine."""
    import os

    burn = "import time\nend = time.monotonic() + 20\nwhile time.monotonic() < end: pass\n"
    burners = [subprocess.Popen(["nice", "-n", "19", sys.executable, "-c", burn])
               for _ in range(os.cpu_count() or 1)]
    try:
        time.sleep(0.3)  # started
        g = Governor(0.25)
        share = g.measure(1.0)
    finally:
        for b in burners:
            b.kill()
            b.wait(timeout=10)
    assert share is not None and share >= 0.8
    busy, total = cpu_times()
    assert 0 < busy < total


def test_a_pause_longer_than_max_pause_s_defers_the_work():
    """Busy for ever: the windows double to the cap, and once the seconds
    slept in all reach ``max_pause_s`` the governor raises Deferred instead
    of sleeping on (the review task must end, and be acknowledged, before the
    broker's consumer_timeout)."""
    m = Machine([1.0] * 50)
    g = m.governor(max_pause_s=3.0)
    with pytest.raises(governor.Deferred, match=r"stayed busy for 4 s \(at most 3 s\)"):
        g.pause()
    # 0.05 + 0.1 + 0.2 + 0.4 + 0.8 + 1 + 1 = 3.55 s: the first window ending past 3 s
    assert m.sleeps == pytest.approx([0.05, 0.1, 0.2, 0.4, 0.8, 1.0, 1.0])
    assert g.paused_s == pytest.approx(3.55)
    # without a bound it waits until the machine is idle (here: when the script ends)
    m = Machine([1.0] * 10)
    m.governor().pause()
    assert len(m.sleeps) == 11


def test_max_pause_s_counts_the_pauses_of_the_whole_review():
    """The bound is on all the pauses of one piece of work: short busy spells
    between slices add up."""
    m = Machine([1.0, 0.0] * 20)
    g = m.governor(max_pause_s=0.5, slice_s=0.0)
    with pytest.raises(governor.Deferred):
        for _ in range(20):
            g.pause()  # each: a busy 50 ms window, then an idle 100 ms one
    assert g.paused_s == pytest.approx(0.5)  # 3 x (0.05 busy + 0.1 idle), then 0.05 busy


def test_review_paced_reports_its_pauses(monkeypatch):
    """The function the service runs (in the review process or thread): the
    review's JSON plus what the governor slept."""
    seen = {}

    def fake_review(*args, pause=None):
        seen["args"] = args
        for _ in range(3):
            if pause is not None:
                pause()
        return {"cpu_ms": 1.0}

    m = Machine([0.9, 0.0])
    monkeypatch.setattr(governor, "review_inputs_json", fake_review)
    monkeypatch.setattr(governor, "cpu_times", m.read)
    monkeypatch.setattr(governor.time, "sleep", m.sleep)
    out = governor.review_paced(0.25, "review of hand 1", "baohuang", {}, {}, [], 10.0, 1)
    assert seen["args"] == ("baohuang", {}, {}, [], 10.0, 1)
    assert out["governor"] == 0.25 and out["paused_ms"] == pytest.approx(150.0)
    m.sleeps.clear()
    out = governor.review_paced(None, "review of hand 1", "baohuang", {}, {}, [],
                                10.0, 1)
    assert out["governor"] is None and out["paused_ms"] == 0 and m.sleeps == []
