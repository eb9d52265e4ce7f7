"""Table aids for one seat (the site's 升级 board), from what that seat may
know: its own cards and the public table (trump suit, level, the lead).
Nothing here reads another seat's cards except through the engine's own
completion helper for 还牌 (``give_can_complete``), which answers yes/no for
the auction winner's own cards (S14).

:func:`seat_aids` is ``ShengjiRules.seat_aids`` (the ``GameRules`` hook).
"""

from __future__ import annotations

from ..cards import Card
from . import auction
from .trumps import trump_order


def give_info(rules, state) -> dict:
    """The 还牌 (S14) aids for the auction winner, all from the engine's
    completion helper ``give_can_complete``:

    - ``blocked``: code -> reason for every distinct card that cannot be part
      of any legal give (a point card, the only card of a suit …);
    - ``caps``: suit of play -> how many cards of it may go at most (probed
      by adding the lowest allowed cards of that suit one by one);
    - ``hint``: the C5 give (``auto_action``), loser seat -> codes.
    """
    owed = dict(state.owed)
    first = next(iter(owed))
    ctx = state.ctx
    hand_codes = [c.code for c in state.hands[state.auction_winner]]
    blocked: dict[str, str] = {}
    for code in dict.fromkeys(hand_codes):
        ok, why = rules.give_can_complete(state, {first: [code]})
        if not ok:
            blocked[code] = why or ""
    needed = sum(owed.values())
    by_suit: dict[str, list[str]] = {}
    for code in hand_codes:
        if code not in blocked:
            by_suit.setdefault(ctx.suit_of(Card.parse(code)), []).append(code)
    caps: dict[str, int] = {}
    for suit, codes in by_suit.items():
        codes = sorted(codes, key=lambda c: ctx.order(Card.parse(c)))
        cap = 0
        for k in range(1, min(len(codes), needed) + 1):
            # distribute the probe over the losers so no loser is over-filled
            partial: dict[int, list[str]] = {}
            rest = codes[:k]
            for seat, n in owed.items():
                partial[seat], rest = rest[:n], rest[n:]
            ok, _why = rules.give_can_complete(state, {s: c for s, c in partial.items() if c})
            if not ok:
                break
            cap = k
        caps[suit] = cap
    auto = rules.auto_action(state, state.auction_winner)
    hint = {str(s): [c.code for c in cards] for s, cards in auto.arg}
    return {"blocked": blocked, "caps": caps, "hint": hint}


def seat_aids(rules, state, seat: int | None) -> dict:
    """JSON-able aids for ``seat`` (None: a spectator):

    - ``suit_of``: the seat's own card codes -> suit of play (``T`` trumps),
      empty before trumps are known;
    - ``led_suit``: the suit of play of the current trick's lead ("" if none);
    - ``trump_order``: ``[(code, off_suit_level)]`` from the highest trump
      down (public once trumps are known; ``off_suit_level`` marks a level
      card of another suit);
    - ``bid``: the cheapest 比牌 bid that exceeds the highest (S13), codes,
      when the seat is to act in the auction and may bid (else None);
    - ``give``: :func:`give_info` when the seat owes the 还牌 now (else None).
    """
    ctx = state.ctx
    out: dict = {"suit_of": {}, "led_suit": "", "trump_order": [], "bid": None, "give": None}
    if ctx is not None:
        if seat is not None:
            out["suit_of"] = {c.code: ctx.suit_of(c) for c in set(state.hands[seat])}
        out["trump_order"] = [
            (c.code, c.rank == ctx.level and c.suit != state.trump) for c in trump_order(ctx)
        ]
        trick = rules.view(state, None)["trick"]
        if trick is not None and trick["plays"]:
            out["led_suit"] = ctx.suit_of(Card.parse(trick["plays"][0]["cards"][0]))
    if seat is None or rules.to_act(state) != seat:
        return out
    phase = rules.phase(state)
    if phase == "auction" and "bid" in rules.legal_verbs(state, seat):
        bid = auction.cheapest_bid(state.hands[seat], state.piles[seat], state.highest, state.level)
        out["bid"] = [c.code for c in bid] if bid else []
    if phase == "give":
        out["give"] = give_info(rules, state)
    return out
