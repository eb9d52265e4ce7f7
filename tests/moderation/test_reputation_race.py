"""Reputation under concurrent requests (PostgreSQL, the production
topology; SQLite's test database serialises writers): eight leave requests
of one player at once cost him once; the same event recorded by eight
threads at once is one row; two different events racing to make a new
player's row both count."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from moderation import reputation
from moderation.models import ReputationEvent


@pytest.fixture(autouse=True)
def _postgresql_only(db):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (the production topology); SQLite's test database serialises them")


def _at_once(n: int, work) -> list:
    barrier = threading.Barrier(n)
    results, failures = [], []

    def run(i):
        try:
            barrier.wait(10)
            results.append(work(i))
        except Exception as exc:  # reported in the test's thread
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures, failures
    return results


@pytest.mark.django_db(transaction=True)
def test_eight_leave_requests_at_once_cost_once(five_humans):
    room, users = five_humans
    quitter = users[1]
    clients = [Client() for _ in range(8)]
    for c in clients:
        c.force_login(quitter)
    codes = _at_once(8, lambda i: clients[i].post(reverse("room_leave", args=[room.pk])).status_code)
    assert sorted(codes).count(302) == 1, codes  # one leave; the others: not seated, or a stale version
    assert reputation.reputation(quitter) == 65
    assert ReputationEvent.objects.filter(user=quitter).count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_same_event_eight_times_at_once_is_one_row(five_humans):
    room, users = five_humans
    match_id = room.matches.get().pk
    made = _at_once(8, lambda i: reputation.record(users[2].pk, match_id, ReputationEvent.Reason.ABANDONED))
    assert sum(1 for m in made if m is not None) == 1
    assert reputation.reputation(users[2]) == 65


@pytest.mark.django_db(transaction=True)
def test_two_events_racing_for_a_new_players_row_both_count(five_humans, make_user, multipliers):
    from games import services as game_services

    room, users = five_humans
    other = game_services.create_room(users[3], "baohuang", "另一桌", bot_delay_ms=0)
    game_services.fill_bots(other, users[3], "heuristic")
    game_services.set_ready(other, users[3], True)
    matches = [room.matches.get().pk, other.matches.get().pk]
    reasons = [ReputationEvent.Reason.FINISHED, ReputationEvent.Reason.ABANDONED]
    _at_once(2, lambda i: reputation.record(users[3].pk, matches[i], reasons[i]))
    assert reputation.reputation(users[3]) == 75 + 1 - 10
