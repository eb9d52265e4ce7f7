"""The play winning an unfinished 升级 trick (the mark on the felt):
``current_winner`` over the plays so far (S10: ties to the earlier play; a
trump beats a side suit; a throw is beaten only by an all-trump play of its
largest unit's shape), and the engine view's ``trick.winning``."""

from games.engine.cards import parse_cards
from games.engine.shengji.tricks import current_winner, trick_winner
from games.engine.shengji.trumps import TrumpContext

L7H = TrumpContext("7", "H")


def p(text):
    return parse_cards(text.split())


def prefix_winners(ctx, *plays, first=0):
    """The winner after each play, the lead first."""
    seq = [((first + i) % 4, p(t)) for i, t in enumerate(plays)]
    return [current_winner(seq[: i + 1], ctx) for i in range(len(seq))]


def test_no_lead_no_winner():
    assert current_winner([], L7H) is None


def test_the_lead_wins_until_beaten_and_the_last_word_is_trick_winner():
    # S10: ♣A beats ♣K; a side-suit ♦A cannot; a trump ♥2 beats everything led
    assert prefix_winners(L7H, "KC", "AC", "AD", "2H") == [0, 1, 1, 3]
    seq = [(i, p(t)) for i, t in enumerate(["KC", "AC", "AD", "2H"])]
    assert current_winner(seq, L7H) == trick_winner(seq, L7H)


def test_ties_stay_with_the_earlier_play():
    # two equal off-suit level cards: the first one played keeps the trick (S10)
    assert prefix_winners(L7H, "4H", "7D", "7C", "7S", first=1) == [1, 2, 2, 2]


def test_a_throw_is_beaten_only_by_trumps_of_its_largest_shape():
    throw = "AC KC 6C 6C 6C 6C 9C 9C"
    assert prefix_winners(L7H, throw, "2C 2C 3C 4C 5C 8C 10C JC") == [0, 0]
    assert prefix_winners(L7H, throw, "8H 9H 10H JH QH QH QH QH") == [0, 1]
    assert prefix_winners(L7H, throw, "8H 9H 10H JH QH QH KH KH") == [0, 0]


def test_the_view_says_who_is_winning_the_trick_on_the_table():
    from games.engine.shengji.rules import RULES

    match = RULES.new_match()
    state = RULES.start_hand(match, RULES.deal(match, 2024))
    while not (state.phase == "play" and len(state.plays) == 2):
        state = RULES.apply(state, RULES.auto_action(state, state.to_act))
    expected = current_winner(state.plays, state.ctx)
    for seat in (None, 0, 1, 2, 3):  # the same for every seat and a spectator: public
        assert RULES.view(state, seat)["trick"]["winning"] == expected
    assert expected in {s for s, _ in state.plays}
