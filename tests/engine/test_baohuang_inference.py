"""保皇 inference (games/engine/baohuang/inference.py): a sampled world is
scored by the plays the heuristic would not have made in it, and the search
keeps the likelier of a few draws.

* the real deal of a hand played by the heuristic explains every play (B4,
  B5 rounds; B9/B10 what each seat saw of the roles at the time);
* a world where the leader held a lower group than the one he led is
  surprising (the heuristic leads its lowest group whole);
* only public plays are read: the crown and a secret declaration are not;
* kept worlds find a secret guard (B9) more often than plain draws.
"""

import random

from games.engine.baohuang import RULES
from games.engine.baohuang import inference as inference_module
from games.engine.baohuang.inference import PASS, PLAY, YIELD, pick, public_plays, surprise
from games.engine.baohuang.order import KIND_RANK, NKINDS, SJ, rank_counts
from games.engine.baohuang.search import infoset, infer_world, sample_world


def hand_states(seed: int):
    """Every state of a heuristic hand dealt with ``seed``, in order."""
    match = RULES.new_match()
    state = RULES.start_hand(match, RULES.deal(match, seed))
    rng = random.Random(seed)
    while not RULES.is_complete(state):
        yield state
        state = RULES.apply(state, RULES.bot_action(state, state.to_act, "heuristic", rng))
    yield state


def test_the_real_deal_explains_every_play_of_heuristic_players():
    checked = 0
    for seed in range(12):
        for state in hand_states(seed):
            if state.phase != "play":
                continue
            plays = public_plays(state.log)
            for me in range(5):
                assert surprise(state, me, plays) == 0.0
            checked += 1
    assert checked > 1000


def test_public_plays_are_the_play_phase_in_order_and_nothing_else():
    for state in hand_states(3):
        pass
    verbs = {a.verb for a in state.log}
    assert {"crown", "play", "pass", "yield"} <= verbs
    plays = public_plays(state.log)
    public = [a for a in state.log if a.verb in ("play", "pass", "yield")]
    assert len(plays) == len(public)
    for (seat, verb, shape), action in zip(plays, public):
        assert seat == action.seat
        assert verb == {"play": PLAY, "pass": PASS, "yield": YIELD}[action.verb]
        if verb == PLAY:
            assert sorted(shape, reverse=True) == list(shape)
            assert len(shape) == len(action.arg)
        else:
            assert shape is None


def _first_lead(seed: int):
    """The state just after the hand's first lead, with the leader and the
    rank he led, or None when that lead is not a plain group above the 4s."""
    for state in hand_states(seed):
        plays = public_plays(state.log)
        if len(plays) == 1:
            seat, _verb, shape = plays[0]
            r = shape[-1]
            if r <= 1 or r >= SJ or shape[0] != r:
                return None
            return state, seat, r
    return None


def test_a_world_where_the_leader_held_a_lower_group_is_surprising():
    found = 0
    for seed in range(120):
        got = _first_lead(seed)
        if got is None:
            continue
        state, leader, r = got
        me = next(s for s in range(5) if s != leader)
        # give the leader a card of a lower plain rank, from a seat that is not me
        for other in range(5):
            if other in (leader, me):
                continue
            low = [k for k in range(NKINDS) if state.hands[other][k] and 1 <= KIND_RANK[k] < r]
            back = [k for k in range(NKINDS) if state.hands[leader][k]
                    and r < KIND_RANK[k] < SJ]
            if low and back:
                break
        else:
            continue
        hands = [list(h) for h in state.hands]
        hands[other][low[0]] -= 1
        hands[leader][low[0]] += 1
        hands[leader][back[0]] -= 1
        hands[other][back[0]] += 1
        world = state.evolve(hands=tuple(tuple(h) for h in hands),
                             rcs=tuple(rank_counts(h) for h in hands))
        plays = public_plays(state.log)
        assert surprise(state, me, plays) == 0.0
        assert surprise(world, me, plays) >= 1.0
        # the leader's own view of himself is never scored
        assert surprise(world, leader, plays) == 0.0
        found += 1
    assert found >= 5


def test_pick_keeps_the_world_that_explains_the_plays():
    state, leader, _r = _first_lead(next(s for s in range(120) if _first_lead(s) is not None))
    me = (leader + 1) % 5
    plays = public_plays(state.log)
    info = infoset(state, me)
    worlds = [sample_world(info, random.Random(i)) for i in range(50)]
    unlikely = [w for w in worlds if surprise(w, me, plays) >= 1.0]
    assert unlikely and surprise(state, me, plays) == 0.0
    likely = [state]  # the real deal
    pair = [unlikely[0], likely[0]]

    def draw(_rng, it=iter(pair * 1000)):
        return next(it)

    rng = random.Random(5)
    kept = [pick(draw, me, plays, rng, draws=2) for _ in range(400)]
    share = sum(1 for w in kept if w is likely[0]) / len(kept)
    # weights 1 and at most e^-1: the likely world at least 73 % of the time
    assert share > 0.68
    # a single draw is kept as it is
    assert pick(lambda _r: pair[0], me, plays, rng, draws=1) is pair[0]
    assert pick(lambda _r: None, me, plays, rng) is None


def test_kept_worlds_find_a_secret_guard_more_often_than_plain_draws():
    plain = inferred = total = 0
    # 42 hands: since session 41's tuning the heuristic guard declares 明保
    # in most hands (open_guard 4.2), and only some hands keep a secret one
    for seed in range(200, 242):
        for k, state in enumerate(hand_states(seed)):
            if state.phase != "play" or k % 9:
                continue
            me = state.to_act
            info = infoset(state, me)
            if info.guard is not None or state.guard is None or me == state.guard:
                continue  # only where the guard is hidden from me (B9)
            for j in range(4):
                plain += sample_world(info, random.Random(j)).guard == state.guard
                inferred += infer_world(info, random.Random(j)).guard == state.guard
                total += 1
    assert total > 200
    # measured: 29 % of plain draws, 48 % of kept worlds (heuristic players;
    # 27 and 50 % with the hand-set PARAMS before session 41)
    assert inferred / total > plain / total + 0.1


def test_before_the_first_play_a_world_is_a_plain_draw():
    for state in hand_states(8):
        if state.phase == "play":
            break
        info = infoset(state, state.to_act)
        assert info.plays == ()
        a = infer_world(info, random.Random(4))
        b = sample_world(info, random.Random(4))
        assert a.hands == b.hands



def test_the_module_example_runs():
    import doctest

    result = doctest.testmod(inference_module)
    assert result.attempted >= 4 and result.failed == 0
