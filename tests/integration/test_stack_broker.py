"""Which broker a test stack's processes get.

RabbitMQ (the README's production broker) when it answers at ``AMQP_URL``,
with the stack's own queue and control exchange (``CELERY_NAMESPACE``); the
stack's Redis when it does not (the throwaway-server path on a machine without
RabbitMQ); ``STACK_BROKER`` forces either.  No server is needed for the
fall-back cases: the "RabbitMQ" there is a loopback port nothing listens on.
"""

from __future__ import annotations

from .stack import LiveStack, amqp_answers, free_port, stack_broker_url


def test_no_rabbitmq_falls_back_to_redis(monkeypatch, tmp_path):
    monkeypatch.delenv("STACK_BROKER", raising=False)
    monkeypatch.setenv("AMQP_URL", f"amqp://guest:guest@127.0.0.1:{free_port()}//")
    assert stack_broker_url() is None
    stack = LiveStack.production(tmp_path, redis_url="redis://127.0.0.1:6399/9")
    env = stack.env
    assert "CELERY_BROKER_URL" not in env and "CELERY_NAMESPACE" not in env
    assert env["REDIS_URL"] == "redis://127.0.0.1:6399/9"


def test_stack_broker_redis_is_never_rabbitmq(monkeypatch):
    monkeypatch.setenv("STACK_BROKER", "redis")
    assert stack_broker_url() is None


def test_a_rabbitmq_stack_gets_its_own_namespace(monkeypatch, tmp_path):
    url = "amqp://guest:guest@127.0.0.1:5672//"
    monkeypatch.setenv("STACK_BROKER", "amqp")
    monkeypatch.setenv("AMQP_URL", url)
    assert stack_broker_url() == url, "forced, whether it answers or not"
    one = LiveStack.production(tmp_path / "one", redis_url="redis://127.0.0.1:6399/9")
    two = LiveStack.production(tmp_path / "two", redis_url="redis://127.0.0.1:6399/9")
    assert one.env["CELERY_BROKER_URL"] == url
    assert one.env["CELERY_NAMESPACE"] != two.env["CELERY_NAMESPACE"]
    assert "CELERY_BROKER_URL" not in LiveStack.embedded(tmp_path / "e").env


def test_amqp_answers_is_false_for_a_closed_port():
    assert amqp_answers(f"amqp://guest:guest@127.0.0.1:{free_port()}//", timeout=1) is False
