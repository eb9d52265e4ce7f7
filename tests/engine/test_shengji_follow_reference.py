"""The 升級 follow generator and S9 check against their earlier versions, kept
here as the reference: the same candidate follows in the same order (the
heuristic breaks ties by order), the same requirement and the same S9 verdicts
(ruling S9; S7's stronger shape; S11's decomposition of throws), on seeded
positions with leads of every shape (singles excluded: they take their own
path), trump and plain leads, void, short and long holdings and last tricks."""

import random
from collections import Counter

from games.engine.cards import shuffled, standard_deck, tally
from games.engine.shengji import follow as F
from games.engine.shengji import movegen as M
from games.engine.shengji.shapes import decompose, decompose_counts
from games.engine.shengji.trumps import LEVELS, TrumpContext

DECK = standard_deck() * 4


# --- the reference: the earlier code, unchanged -------------------------------

def ref_greedy(counts, plan, ctx, high=False):
    info = ctx._t.info
    counts = {c: n for c, n in counts.items() if n > 0}
    flags = []
    steps = []
    demands = list(plan.units)
    for k, m in plan.tractors:
        run = F._find_run(counts, info, k, m, high)
        if run is None:
            flags.append(0)
            demands.extend([k] * m)
        else:
            flags.append(1)
            used = []
            for card in run:
                counts[card] -= k
                used.extend((card,) * k)
            steps.append(F._step("tractor", k, tuple(used)))
    demands.sort(reverse=True)
    entries = []
    # (order, C6) or (-order, C6) per card: the key (n, -o if high else o,
    # C6) compared as (n, that pair), the same order
    okey = F._greedy_keys(ctx)[1 if high else 0]
    for d in demands:
        rem = d
        got = []
        while rem >= 2:
            mx = max(counts.values(), default=0)  # counts are never negative
            g = rem if rem < mx else mx
            if g < 2:
                break
            best = None
            bkey = None
            for card, n in counts.items():
                if n >= g:
                    key = (n, okey[card])
                    if bkey is None or key < bkey:
                        best, bkey = card, key
            counts[best] -= g
            rem -= g
            got.append(g)
            steps.append(F._step("unit", g, (best,) * g))
        entries.append(tuple(got))
    return (tuple(flags), tuple(entries)), steps, counts


def ref_take_lowest(counts, k, key):
    if k <= 1:
        if k <= 0:
            return []
        live = [c for c, n in counts.items() if n > 0]
        return [min(live, key=key)] if live else []
    out = []
    for c in sorted(counts, key=key):
        n = counts[c]
        if n <= 0:
            continue
        take = k - len(out)
        if n < take:
            take = n
        out.extend((c,) * take)
        if len(out) >= k:
            break
    return out


def ref_requirement(hand, lead_cards, ctx, follow="format", hand_counts=None):
    plan = F.lead_plan(lead_cards, ctx)
    info = ctx._t.info
    counts = hand_counts if hand_counts is not None else Counter(hand)
    s = plan.suit
    suit_counts = {c: n for c, n in counts.items() if n > 0 and info[c][0] == s}
    held = sum(suit_counts.values())
    if follow == "format" and held > plan.count:
        score, steps, _left = ref_greedy(suit_counts, plan, ctx)
    else:
        score, steps = None, []
    return F.Requirement(plan, plan.count, s, held, tuple(suit_counts.items()), score,
                         tuple(steps), follow)


def ref_satisfies(req, cards, ctx):
    n = req.count
    if len(cards) != n:
        return f"S9: 必须出 {n} 张牌 (play exactly {n} cards)"
    info = ctx._t.info
    s = req.suit
    in_suit = [c for c in cards if info[c][0] == s]
    if req.held >= n:
        if len(in_suit) != n:
            return (f"S9: 必须跟{F.SUIT_NAMES[s]}：你还有 {req.held} 张 "
                    f"(must follow {F.SUIT_NAMES_EN[s]}: you hold {req.held})")
    else:
        if len(in_suit) != req.held:
            return (f"S9: {F.SUIT_NAMES[s]}不足 {n} 张，必须全部出完 {req.held} 张，再补其他牌 "
                    f"(you hold only {req.held} {F.SUIT_NAMES_EN[s]}: play them all, then any)")
        return None
    if req.score is None:
        return None
    pc = tally(in_suit)
    score, _steps, _left = ref_greedy(pc, req.plan, ctx)
    if score >= req.score:
        return None
    single = req.plan.single
    if single is not None:
        comps = decompose_counts(pc, ctx)
        if len(comps) == 1 and comps[0].size > single.size:
            return None
    return F._explain(req, score)


def ref_follow_variants(hand, lead_cards, ctx, follow, counts, req):
    info = ctx._t.info
    n, s = req.count, req.suit
    plan = req.plan
    keys = M._keys(ctx)
    low = keys.low.__getitem__
    high = keys.high.__getitem__
    nopoints = keys.nopoints.__getitem__
    points = keys.points.__getitem__
    take = ref_take_lowest
    suit_counts = dict(req.suit_cards)
    if req.held > n:
        if follow == "format":
            steps = req.steps
            left = {c: k for c, k in suit_counts.items() if k > 0}
            for st in steps:
                for c in st.cards:
                    left[c] -= 1
            struct = [c for st in steps for c in st.cards]
            rest = n - len(struct)
            yield struct + take(left, rest, low), False
            yield struct + take(left, rest, nopoints), False
            yield struct + take(left, rest, points), False
            _score, steps_h, left_h = ref_greedy(suit_counts, plan, ctx, high=True)
            struct_h = [c for st in steps_h for c in st.cards]
            yield struct_h + take(left_h, n - len(struct_h), low), False
            yield struct_h + take(left_h, n - len(struct_h), high), False
        else:
            yield take(suit_counts, n, low), True
            yield take(suit_counts, n, nopoints), True
            yield take(suit_counts, n, points), True
            yield take(suit_counts, n, high), True
        single = plan.single
        if single is not None:
            comps = M._shaped(suit_counts, ctx, single.size, single.length, n)
            if comps:
                for comp in comps:
                    if len(set(comp)) * single.size < n or info[comp[0]][1] > single.top:
                        yield list(comp), True
                        break
                yield list(comps[-1]), True
    else:
        base = []
        for c, k in req.suit_cards:
            base.extend((c,) * k)
        rest = n - req.held
        if rest == 0:
            yield base, True
            return
        others = {c: k for c, k in counts.items() if info[c][0] != s and k > 0}
        yield base + take(others, rest, low), True
        yield base + take(others, rest, nopoints), True
        side = {c: k for c, k in others.items() if info[c][0] != "T"}
        if sum(side.values()) >= rest:
            yield base + take(side, rest, points), True
        if req.held == 0 and s != "T":
            trumps = {c: k for c, k in others.items() if info[c][0] == "T"}
            if sum(trumps.values()) >= n:
                yield take(trumps, n, low), True
                if plan.single is not None:
                    comps = M._shaped(trumps, ctx, plan.single.size, plan.single.length, n)
                else:
                    d = max(decompose_counts(Counter(lead_cards), ctx),
                            key=lambda c: (c.count, c.size, c.top))
                    comps = [tuple(x) for x in M._shaped(trumps, ctx, d.size, d.length, d.count,
                                                         stronger=False)]
                if comps:
                    picks = [comps[0], comps[-1]] if len(comps) > 1 else [comps[0]]
                    for comp in picks:
                        left = M._minus(trumps, comp)
                        if len(comp) < n:
                            left_no = {c: k for c, k in left.items() if c not in comp}
                            fill = take(left_no, n - len(comp), low)
                            if len(fill) < n - len(comp):
                                fill = take(left, n - len(comp), low)
                            yield list(comp) + fill, True
                        else:
                            yield list(comp), True


def ref_candidate_follows(hand, lead_cards, ctx, follow="format", limit=None):
    counts = Counter(hand)
    req = ref_requirement(hand, lead_cards, ctx, follow, hand_counts=counts)
    keys = ctx._t.sort_keys
    seen = set()
    out = []
    for cand, proven in ref_follow_variants(hand, lead_cards, ctx, follow, counts, req):
        if len(cand) != req.count:
            continue
        play = tuple(sorted(cand, key=keys.__getitem__))
        if play in seen:
            continue
        seen.add(play)
        if proven or ref_satisfies(req, play, ctx) is None:
            out.append(play)
            if limit is not None and len(out) >= limit:
                break
    assert out
    return out


# --- positions -----------------------------------------------------------------

def _positions(count, seed):
    """``count`` seeded positions (trump context, four hands): a quarter from
    one or two suits of play (pairs, tractors, throws, voids), a quarter from
    the whole deck, a quarter from the whole deck with small hands (late
    tricks), a quarter with the leader in one suit and the others void in it."""
    rnd = random.Random(seed)
    for i in range(count):
        ctx = TrumpContext(rnd.choice(LEVELS), rnd.choice("SHDC"))
        if i % 4 == 3:
            suit = rnd.choice("SHDCT")
            mine = shuffled([c for c in DECK if ctx.suit_of(c) == suit], rnd.getrandbits(32))
            rest = shuffled([c for c in DECK if ctx.suit_of(c) != suit], rnd.getrandbits(32))
            size = rnd.randint(4, 30)
            yield ctx, rnd, [tuple(mine[:size])] + [
                tuple(rest[s * size:(s + 1) * size]) for s in range(3)]
            continue
        if i % 4 == 1:
            suits = rnd.sample("SHDCT", rnd.choice((1, 2)))
            pool = [c for c in DECK if ctx.suit_of(c) in suits]
            if len(pool) < 4:
                pool = list(DECK)
            size = max(1, min(rnd.randint(4, 30), len(pool) // 4))
        elif i % 4 == 2:
            pool = list(DECK)
            size = rnd.randint(2, 10)
        else:
            pool = list(DECK)
            size = rnd.randint(4, 52)
        pool = shuffled(pool, rnd.getrandbits(32))
        yield ctx, rnd, [tuple(pool[s * size:(s + 1) * size]) for s in range(4)]


def _kind(req, hand):
    if len(hand) == req.count:
        return "last"
    return "void" if req.held == 0 else "short" if req.held <= req.count else "long"


def test_candidate_follows_equal_the_reference():
    """Every multi-card lead candidate of 240 seeded positions against three
    followers (and each follower cut to the lead's size: a last trick), both
    follow rules, with and without the bots' limit: the same list."""
    kinds = Counter()
    shapes = Counter()
    for ctx, rnd, hands in _positions(240, 20261129):
        for lead in M.candidate_leads(hands[0], ctx):
            if len(lead) == 1:
                continue
            comps = decompose(lead, ctx)
            shapes["throw" if len(comps) > 1 else
                   "tractor" if comps[0].is_tractor else "unit"] += 1
            shapes["trump" if ctx.suit_of(lead[0]) == "T" else "plain"] += 1
            for seat in (1, 2, 3):
                hand = hands[seat]
                if len(hand) < len(lead):
                    continue
                cut = tuple(rnd.sample(hand, len(lead)))
                for h in (hand, cut):
                    for follow in ("format", "suit"):
                        ref = ref_candidate_follows(h, lead, ctx, follow)
                        kinds[_kind(ref_requirement(h, lead, ctx, follow), h)] += 1
                        assert M.candidate_follows(h, lead, ctx, follow) == ref, (
                            ctx, h, lead, follow)
                        assert M.candidate_follows(h, lead, ctx, follow, limit=2) == ref[:2]
    assert min(kinds.values()) > 300 and len(kinds) == 4, kinds
    assert min(shapes.values()) > 300 and len(shapes) == 5, shapes


def test_requirement_and_satisfies_equal_the_reference():
    """The requirement (its holding in the same order, score and steps) and the
    S9 verdict of random plays (random cards of the hand, and random cards of
    the led suit, where the format obligation decides) equal the reference's."""
    checked = Counter()
    for ctx, rnd, hands in _positions(150, 7):
        leads = [ld for ld in M.candidate_leads(hands[0], ctx) if len(ld) > 1]
        for lead in rnd.sample(leads, min(len(leads), 12)):
            for seat in (1, 2, 3):
                hand = hands[seat]
                if len(hand) < len(lead):
                    continue
                for follow in ("format", "suit"):
                    ref = ref_requirement(hand, lead, ctx, follow)
                    new = F.requirement(list(hand), lead, ctx, follow)
                    assert (new.suit_cards, new.held, new.score, new.steps) == (
                        ref.suit_cards, ref.held, ref.score, ref.steps)
                    info = ctx._t.info
                    in_suit = [c for c in hand if info[c][0] == ref.suit]
                    plays = [rnd.sample(hand, len(lead)) for _ in range(3)]
                    if len(in_suit) >= len(lead):
                        plays += [rnd.sample(in_suit, len(lead)) for _ in range(5)]
                    for play in plays:
                        want = ref_satisfies(ref, play, ctx)
                        checked["legal" if want is None else "illegal"] += 1
                        assert F._satisfies(new, play, ctx) == want, (ctx, hand, lead, play)
    assert min(checked.values()) > 1000, checked


def test_score_and_matcher_equal_the_reference():
    """``follow._score`` equals the reference matcher's score, and ``greedy``
    its result (score, steps, cards left; low and high), on random led-suit holdings
    (one or two suits of play, up to 30 cards) for every multi-card lead of a
    random hand, and leaves its argument unchanged."""
    rnd = random.Random(11)
    n = 0
    for _ in range(200):
        ctx = TrumpContext(rnd.choice(LEVELS), rnd.choice("SHDC"))
        suit = rnd.choice("SHDCT")
        pool = [c for c in DECK if ctx.suit_of(c) == suit] or list(DECK)
        pool = shuffled(pool, rnd.getrandbits(32))
        leads = [ld for ld in M.candidate_leads(tuple(pool[:rnd.randint(2, 30)]), ctx)
                 if len(ld) > 1]
        for lead in leads:
            plan = F.lead_plan(lead, ctx)
            held = tally(rnd.sample(pool, rnd.randint(1, min(len(pool), 30))))
            held = {c: k for c, k in held.items() if ctx.suit_of(c) == plan.suit}
            before = dict(held)
            want = ref_greedy(held, plan, ctx)
            assert F._score(held, plan, ctx._t.info) == want[0]
            assert held == before
            assert F.greedy(held, plan, ctx) == want
            assert F.greedy(held, plan, ctx, high=True) == ref_greedy(held, plan, ctx, high=True)
            assert held == before
            n += 1
    assert n > 2000, n


def test_take_lowest_equals_the_reference():
    """``movegen._take_lowest`` gives the reference's cards, in order, for
    every sort key of the follow generator and every count from 0 to one more
    than the multiset holds (zero entries included)."""
    rnd = random.Random(5)
    n = 0
    for _ in range(150):
        ctx = TrumpContext(rnd.choice(LEVELS), rnd.choice("SHDC"))
        keys = M._keys(ctx)
        counts = tally(rnd.sample(DECK, rnd.randint(0, 40)))
        for c in list(counts)[::3]:
            counts[c] = 0
        total = sum(counts.values())
        for key in (keys.low, keys.high, keys.nopoints, keys.points):
            for k in range(total + 2):
                assert M._take_lowest(counts, k, key.__getitem__) == ref_take_lowest(
                    counts, k, key.__getitem__)
                n += 1
    assert n > 5000, n
