"""An exact, randomized transportation solver for the search bots' world samplers.

The samplers (``shengji.search.sample_hands``, ``baohuang.search.sample_hands``)
deal the cards a seat has not seen to the other seats at random; a fast
randomized greedy deal usually succeeds, but under tight constraints (a seat
void in three suits, a payer capped by his tribute …) it can fail although a
consistent deal exists.  :func:`transport` is the constructive fallback: it
solves the *class × sink* transportation problem exactly as a maximum flow
(source → class, capacity its supply → every sink the class may go to → sink,
capacity its demand → target), so it finds a consistent deal whenever one
exists and reports None only when none does.

The graphs are tiny (a handful of card classes, at most six sinks, at most 108
cards), so a plain Ford–Fulkerson with breadth-first augmenting paths is
enough.  Each path carries a random part of its bottleneck and the edges are
explored in an order shuffled with ``rng`` before every search, so the amounts vary from call to
call among the feasible ones (the worlds stay varied; not uniformly: this is a
fallback for what the randomized greedy could not deal); the same ``rng``
state gives the same answer.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Hashable, Mapping, Sequence

from .cards import shuffle


def transport(supply: Mapping[Hashable, int], allowed: Mapping[Hashable, Sequence[Hashable]],
              demand: Mapping[Hashable, int],
              rng: random.Random) -> dict[tuple[Hashable, Hashable], int] | None:
    """Amounts ``{(class, sink): n}`` sending every class's whole ``supply``
    to the sinks it is ``allowed`` to reach, filling every sink's ``demand``
    exactly; None when no such amounts exist (or the totals differ).

    ``supply``: class -> number of cards (≥ 0); ``allowed``: class -> sinks
    (absent: none); ``demand``: sink -> number of cards still needed (≥ 0).
    Pure Python, no state kept; deterministic for a given ``rng`` state.
    """
    total = sum(supply.values())
    if total != sum(demand.values()):
        return None
    if total == 0:
        return {}
    classes = [c for c in supply if supply[c] > 0]
    sinks = [s for s in demand if demand[s] > 0]
    shuffle(classes, rng)
    shuffle(sinks, rng)
    src, dst = ("src",), ("dst",)
    cls_node = {c: ("c", i) for i, c in enumerate(classes)}
    sink_node = {s: ("s", i) for i, s in enumerate(sinks)}
    cap: dict = {}
    adj: dict = {src: [], dst: []}
    for n in list(cls_node.values()) + list(sink_node.values()):
        adj[n] = []

    def edge(a, b, c):
        if (a, b) not in cap:
            adj[a].append(b)
            adj[b].append(a)
            cap[(a, b)] = 0
            cap.setdefault((b, a), 0)
        cap[(a, b)] += c

    for c in classes:
        edge(src, cls_node[c], supply[c])
        targets = [s for s in allowed.get(c, ()) if s in sink_node]
        shuffle(targets, rng)
        for s in targets:
            edge(cls_node[c], sink_node[s], supply[c])
    for s in sinks:
        edge(sink_node[s], dst, demand[s])
    flow = 0
    while flow < total:
        prev = {src: None}
        queue = deque([src])
        while queue and dst not in prev:
            a = queue.popleft()
            nexts = adj[a]
            shuffle(nexts, rng)
            for b in nexts:
                if b not in prev and cap[(a, b)] > 0:
                    prev[b] = a
                    queue.append(b)
        if dst not in prev:
            return None
        push, b = total - flow, dst
        while prev[b] is not None:
            push = min(push, cap[(prev[b], b)])
            b = prev[b]
        push = 1 + rng.randrange(push)  # part of the bottleneck: the amounts mix
        b = dst
        while prev[b] is not None:
            cap[(prev[b], b)] -= push
            cap[(b, prev[b])] += push
            b = prev[b]
        flow += push
    out = {}
    for c in classes:
        for s in sinks:
            key = (cls_node[c], sink_node[s])
            if key in cap:
                sent = cap[(sink_node[s], cls_node[c])]  # the residual back edge
                if sent > 0:
                    out[(c, s)] = sent
    return out
