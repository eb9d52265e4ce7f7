"""What the apps above quick play say about who waits and who sits together.

Quick play knows nothing of reputation or blocks: an app registers a *rule*
at start-up (``AppConfig.ready``), an object with any of

``queue_refusal(user) -> str | None``
    a sentence (translated) saying why ``user`` may not queue now, or None;
``queue_excluded(user_ids) -> set[int]``
    the ids among ``user_ids`` the pass must not seat now (left waiting);
``queue_apart(user_ids) -> iterable of (id, id)``
    pairs of those users never to be seated at one table;
``queue_tier(user_ids) -> {id: int}``
    each user's tier (missing: 0); a table holds one tier only.

:func:`grouping` asks every rule once per pass for all the waiting users
(one or two queries per rule, whatever the queue's length).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hooks import Hooks

#: The apps' queue rules (the site's one way to ask the apps above: hooks/__init__.py).
_rules = Hooks("quick-play rules")


def register(rule) -> None:
    """Add ``rule`` (once)."""
    _rules.add(rule)


def queue_refusal(user) -> str | None:
    """Why ``user`` may not join the queue, or None (the first rule's sentence)."""
    return _rules.reason("queue_refusal", user)


@dataclass
class Grouping:
    """The rules' answer for one pass: ``excluded`` user ids, ``apart``
    pairs of user ids (frozensets), ``tier`` per user id (missing: 0)."""

    excluded: set = field(default_factory=set)
    apart: set = field(default_factory=set)
    tier: dict = field(default_factory=dict)


def grouping(user_ids) -> Grouping:
    """Ask every rule about the waiting ``user_ids``."""
    ids = list(user_ids)
    out = Grouping()
    if not ids:
        return out
    for excluded in _rules.answers("queue_excluded", ids):
        out.excluded |= set(excluded)
    for apart in _rules.answers("queue_apart", ids):
        out.apart |= {frozenset(pair) for pair in apart}
    for tiers in _rules.answers("queue_tier", ids):
        for uid, tier in tiers.items():
            out.tier[uid] = max(out.tier.get(uid, 0), tier)
    return out
