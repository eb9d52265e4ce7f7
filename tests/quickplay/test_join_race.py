"""Two joins of the same user at once (a double click that reached
two server threads, the page's form and its socket) gave a 500,
``UniqueViolation queue_one_active_entry``: both saw no active entry, both
inserted, the constraint refused the second.  Now the loser answers with the
winner's entry (same game) or the usual refusal (another game).

The race is reproduced by committing the competing join, from another
thread and database connection, between the loser's check and its insert (a
``pre_save`` receiver waits for it: the moment two requests interleave); and
by eight threads posting at once.  Both need PostgreSQL (the production
topology): SQLite's shared in-memory test database locks the table for the
other connection, so there the requests cannot interleave at all.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.db.models.signals import pre_save
from django.test import Client

from quickplay import services
from quickplay.models import QueueEntry

ACTIVE = (QueueEntry.Status.FORMING, QueueEntry.Status.WAITING)


@pytest.fixture(autouse=True)
def _postgresql_only(db):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (the production topology); SQLite's test database serialises them")


class Interleave:
    """While connected, the first save of a new entry of ``user`` is preceded
    by a complete join of ``user`` for ``game`` (the other request)."""

    def __init__(self, user, game: str, invite: bool = False):
        self.user, self.game, self.invite, self.done = user, game, invite, False

    def __call__(self, sender, instance, **kwargs):
        if self.done or instance.pk or instance.user_id != self.user.pk:
            return
        self.done = True
        failures = []

        def other_request():
            try:
                (services.invite if self.invite else services.join)(self.user, self.game, 30)
            except Exception as exc:  # reported in the test's thread
                failures.append(exc)
            finally:
                connections.close_all()

        thread = threading.Thread(target=other_request)
        thread.start()
        thread.join(30)
        assert not thread.is_alive() and not failures, failures

    def __enter__(self):
        pre_save.connect(self, sender=QueueEntry, weak=False)
        return self

    def __exit__(self, *exc):
        pre_save.disconnect(self, sender=QueueEntry)


@pytest.mark.django_db(transaction=True)
def test_a_join_that_loses_the_race_answers_with_the_winners_entry(alice, multipliers):
    with Interleave(alice, "baohuang") as race:
        entry = services.join(alice, "baohuang", 10)
    assert race.done
    rows = list(QueueEntry.objects.filter(user=alice, status__in=ACTIVE))
    assert len(rows) == 1 and entry.pk == rows[0].pk and rows[0].bot_wait_s == 30


@pytest.mark.django_db(transaction=True)
def test_a_join_racing_a_join_for_another_game_is_refused(alice, multipliers):
    with Interleave(alice, "shengji"):
        with pytest.raises(services.QueueError):
            services.join(alice, "baohuang", 10)
    assert list(QueueEntry.objects.filter(user=alice, status__in=ACTIVE).values_list("game", flat=True)) == ["shengji"]


@pytest.mark.django_db(transaction=True)
def test_an_invite_that_loses_the_race_answers_with_the_winners_pair(alice, multipliers):
    with Interleave(alice, "shengji", invite=True):
        entry = services.invite(alice, "shengji", 10)
    rows = list(QueueEntry.objects.filter(user=alice, status__in=ACTIVE))
    assert len(rows) == 1 and rows[0].pk == entry.pk and rows[0].status == QueueEntry.Status.FORMING


@pytest.mark.django_db(transaction=True)
def test_the_join_page_answers_a_raced_join_with_its_redirect(client, alice, multipliers):
    client.force_login(alice)
    with Interleave(alice, "baohuang"):
        response = client.post("/play/baohuang/join", {"bots": "10"})
    assert response.status_code == 302
    assert QueueEntry.objects.filter(user=alice, status__in=ACTIVE).count() == 1


@pytest.mark.django_db(transaction=True)
def test_parallel_joins_on_postgresql_give_no_500(alice, multipliers):
    """Eight threads POST "play now" for one user at once, ten rounds."""
    statuses: list[int] = []
    lock = threading.Lock()
    for _round in range(10):
        QueueEntry.objects.filter(user=alice).delete()
        barrier = threading.Barrier(8, timeout=30)

        def post():
            try:
                c = Client(raise_request_exception=False)
                c.force_login(alice)
                # hand the login's connection back first: in the production topology this
                # process has a bounded pool (DB_POOL_MAX_SIZE) and eight threads
                # holding theirs at the barrier would starve the eighth's login
                connections.close_all()
                barrier.wait()
                code = c.post("/play/baohuang/join", {"bots": "10"}).status_code
                with lock:
                    statuses.append(code)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=post) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert QueueEntry.objects.filter(user=alice, status__in=ACTIVE).count() == 1
    assert len(statuses) == 80 and set(statuses) == {302}
