"""``games.live.notify.flush``: a short-lived process waits for the
notifications its sender loop still has in flight before it exits (the loop is
a daemon thread; without the wait, a change committed just before the exit
could reach no browser until the next change)."""

from __future__ import annotations

import threading

from games.live import notify


def test_flush_is_false_while_a_send_is_in_flight_and_true_once_it_is_done():
    notify._backlog.acquire()  # one notification handed to the sender loop
    released = threading.Event()
    timer = threading.Timer(0.1, lambda: (notify._backlog.release(), released.set()))
    try:
        assert notify.flush(timeout=0.05) is False
        timer.start()
        assert notify.flush(timeout=10) is True  # waits for the send to finish
        assert released.is_set()
    finally:
        timer.cancel()
        if not released.is_set():
            notify._backlog.release()
    # every slot is free again afterwards
    assert notify.flush(timeout=0) is True
