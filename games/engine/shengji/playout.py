"""The play phase of a 升級 hand with the heuristic bot at every seat, fast.

:func:`heuristic_playout` plays a :class:`~.state.HandState` in the play phase
to the end exactly as stepping would (``RULES.bot_action(state, seat,
"heuristic")`` then ``RULES.apply`` until the hand is complete), but on
mutable lists: the seats' hands, the current trick, the completed tricks, the
cards played in them (``played``) and the voids shown (``voids``).  Each
decision is made by the heuristic's own :class:`.bots.Heuristic` on one
:class:`_PlayView` kept up to date (what it reads of a
:class:`~.view.SeatView` in play: the seat, its hand, the trick so far, the
kitty for the dealer, ``played`` and ``voids``) with the same candidate plays
as :meth:`.rules.ShengjiRules.play_choices` (:func:`.tricks.candidate_leads`,
:func:`.tricks.candidate_follows`), instead of a new ``SeatView`` and a new
immutable state per card.

The rules applied per play are those of :func:`.state._play`: a lead's throw
stands or fails (S11/S12, :func:`.tricks.resolve_throw`; a failed throw plays
its lowest card and logs the attempt), the trick's winner (S10,
:func:`.tricks.trick_winner`), its points and the voids it shows; the hand is
settled once by :func:`.state._settle` (S15–S17, kitty points included).  The
heuristic's plays are legal by construction (S8, S9), so they are not checked
again here.  The final state is built once, with the same actions and the
same end state as stepping; ``tests/engine/test_shengji_playout.py`` compares
the two.
"""

from __future__ import annotations

from ..base import Action
from ..cards import remove_cards
from .bots import Heuristic
from .state import HandState, Trick, _replace_trick, _settle
from .tricks import candidate_follows, candidate_leads, check_lead, resolve_throw, trick_winner
from .trumps import CARD_POINTS

#: Follows offered by ``legal_actions`` and to the heuristic (a representative
#: set, never empty; :meth:`.rules.ShengjiRules.play_choices`).
FOLLOW_LIMIT = 40


class _PlayView:
    """The parts of a :class:`~.view.SeatView` the heuristic reads in play,
    set in place before each decision: ``seat``, ``phase`` (``"play"``),
    ``hand`` (card tuple), ``plays`` (the trick so far, ``(seat, cards)``),
    ``kitty`` (the buried cards for the dealer, else None), ``played`` (card
    -> count in completed tricks), ``voids`` (per seat, frozensets of suits of
    play), ``ctx`` (the trump context)."""

    __slots__ = ("seat", "phase", "hand", "plays", "kitty", "played", "voids", "ctx")


class _PlayLegal:
    """The ``legal`` object the heuristic is given: ``play_args()`` is the
    candidate plays of :meth:`.rules.ShengjiRules.play_choices` for the view's
    seat (card tuples); calling it is never needed in play."""

    __slots__ = ("view", "follow")

    def __init__(self, view: _PlayView, follow: str):
        self.view, self.follow = view, follow

    def play_args(self) -> list:
        v = self.view
        if not v.plays:
            return candidate_leads(v.hand, v.ctx)  # a new list of card tuples
        return [tuple(c) for c in candidate_follows(
            v.hand, v.plays[0][1], v.ctx, self.follow, limit=FOLLOW_LIMIT)]


def heuristic_playout(st: HandState, observe=None) -> HandState:
    """The completed hand after playing ``st`` (phase ``"play"``) to the end
    with the heuristic policy at every seat.

    Returns a new :class:`~.state.HandState` (phase ``"done"``, ``result``
    settled) equal to the one stepping through :func:`.state.apply` gives, with
    the same action log; ``st`` is not changed.  ``observe(view, action)``, if
    given, is called at every decision with the deciding seat's
    :class:`_PlayView` and the heuristic's action (tests).  Raises
    ``ValueError`` if ``st`` is not in the play phase.
    """
    if st.phase != "play":
        raise ValueError(f"a play-out starts in the play phase, not {st.phase!r}")
    ctx = st.ctx
    info = ctx._t.info
    points = CARD_POINTS
    dealer = st.dealer
    kitty = st.kitty
    hands = list(st.hands)
    plays = st.plays
    attempt = st.lead_attempt
    tricks = list(st.tricks)
    played = st.played
    voids = st.voids
    leader = st.leader
    view = _PlayView()
    view.phase = "play"
    view.ctx = ctx
    legal = _PlayLegal(view, st.match.follow)
    actions = []
    s = st.to_act
    while True:
        hand = hands[s]
        view.seat = s
        view.hand = hand
        view.plays = plays
        view.kitty = kitty if s == dealer else None
        view.played = played or {}
        view.voids = voids
        action = Heuristic(view, legal, None).play()
        if observe is not None:
            observe(view, action)
        actions.append(action)
        cards = action.arg
        if not plays:
            attempt = ()
            if len(cards) > 1:
                stands, got = resolve_throw(
                    check_lead(hand, cards, ctx), s, dict(enumerate(hands)), ctx)
                if not stands:
                    attempt = cards
                    cards = tuple(got)
        hands[s] = remove_cards(hand, cards)
        plays = plays + ((s, cards),)
        if len(plays) < 4:
            s = (s + 1) % 4
            continue
        winner = trick_winner(plays, ctx)
        win_cards = next(c for p, c in plays if p == winner)
        tricks.append(Trick(
            leader=leader,
            plays=plays,
            winner=winner,
            points=sum(points[c] for _, cs in plays for c in cs),
            failed_throw=bool(attempt),
            attempted=attempt,
            winner_all_trumps=all(ctx.is_trump(c) for c in win_cards),
        ))
        played = dict(played or {})
        led = info[plays[0][1][0]][0]
        new_voids = list(voids)
        first = plays[0][0]
        for p, cs in plays:
            for c in cs:
                played[c] = played.get(c, 0) + 1
            if p != first and led not in new_voids[p] and any(info[c][0] != led for c in cs):
                new_voids[p] = new_voids[p] | {led}
        voids = tuple(new_voids)
        plays = ()
        attempt = ()
        s = leader = winner
        if not any(hands):
            break
    new = _replace_trick(st, tuple(hands), (), (), tuple(tricks), leader, leader,
                         played, voids)
    object.__setattr__(new, "log", st.log + tuple(actions))
    return _settle(new)
