"""The 升級 heuristic's lead scoring against its earlier version, kept here as
the reference: ``Heuristic._lead_scores`` now scores tractors (S6) and throws
(S11/S12) inline from its per-suit tables instead of through
``_lead_win_chance``; every candidate's score must be the same float, and so
the lead chosen (the first best).  Seeded positions at every level and trump
suit: hands of every length, void and trump-rich hands, cards already played,
the kitty known to the dealer, opponents' and partner's voids, and besides
``candidate_leads`` random one-suit plays of the hand (more throw and tractor
shapes)."""

import random
from bisect import bisect_right

from games.engine.cards import shuffled, standard_deck, tally
from games.engine.shengji import bots
from games.engine.shengji import movegen as M
from games.engine.shengji.movegen import candidate_leads
from games.engine.shengji.shapes import decompose
from games.engine.shengji.trumps import CARD_POINTS, LEVELS, TrumpContext

DECK = standard_deck() * 4


# --- the reference: the earlier code, unchanged -------------------------------

def ref_lead_scores(self, cands):
    """main's ``Heuristic._lead_scores`` before the throws and tractors were
    scored inline (unchanged but for the names it imports)."""
    v = self.v
    info = v.ctx._t.info
    partner = (self.seat + 2) % 4
    lengths: dict[str, int] = {}
    for c in v.hand:
        s = info[c][0]
        lengths[s] = lengths.get(s, 0) + 1
    hand_trumps = lengths.get("T", 0)
    unseen_trumps = self._unseen_in("T")
    unseen_n = self._unseen_n
    trump_rich = hand_trumps * 2 >= unseen_trumps
    partner_voids = v.voids[partner]
    win_chance = self._lead_win_chance
    tables = self._higher
    higher_unseen = self._higher_unseen
    cut_of = self._cut
    cut_factor = self._cut_factor
    points = CARD_POINTS
    scores: list[float] = []
    push = scores.append
    # per suit of play, set when the suit changes (candidates come grouped
    # by suit): its unseen count, whether it is trumps, the partner's void
    # in it, its short-suit bonus factor and its cut memo
    cur = None
    unseen_suit = denom = 0
    is_t = pvoid = cut = False
    bonus = 0.0
    for cards in cands:
        c0 = cards[0]
        suit, top, _ = info[c0]
        if suit != cur:
            cur = suit
            unseen_suit = unseen_n[suit]
            denom = unseen_suit if unseen_suit > 1 else 1  # max(unseen_suit, 1)
            is_t = suit == "T"
            if not is_t:
                cut = cut_of.get(suit)
                if cut is None:
                    cut_factor(suit, unseen_suit, 1)  # fills the memo
                    cut = cut_of[suit]
                pvoid = suit in partner_voids
                bonus = 0.2 * max(0, 8 - lengths.get(suit, 0))
        n = len(cards)
        if n == 1 or cards.count(c0) == n:
            pts = points[c0] * n
            tab = tables.get((suit, n))
            if tab is None:
                higher_unseen(suit, n, top)
                tab = tables[(suit, n)]
            higher = tab[1][bisect_right(tab[0], top)]
            # _unit_chance(higher, n, unseen_suit)
            if higher == 0:
                p = 1.0
            elif n > 1:
                p = 0.55 / (1 + higher / 4)
            else:
                q = 1 - higher / denom
                p = (q if q > 0.05 else 0.05) ** 2  # max(0.05, q) ** 2, no call
            # times _cut_factor(suit, unseen_suit, n) (1 for trumps)
            if not is_t:
                if cut:
                    p = p * 0.25
                else:
                    p = p * (0.7 if unseen_suit < 6 * n else 1.0)
            jokers = top >= 44
        else:
            pts = 0
            for c in cards:
                pts += points[c]
            p = win_chance(cards)
            jokers = None
        win_value = 8 + 3 * n + pts
        loss = pts * 1.5 + 2 * n
        if is_t:
            score = p * win_value - (1 - p) * loss
            score -= (0.5 if trump_rich else 2.0) * n * (0.3 + (1 - p))
            if p < 1:
                if jokers is None:  # any joker or 比牌 (a loop: no closure once compiled)
                    jokers = False
                    for c in cards:
                        if info[c][1] >= 44:
                            jokers = True
                            break
                if jokers:
                    score -= 4  # keep jokers and 比牌 unless they win
        else:
            if pvoid and p < 0.5:
                p = max(p, 0.5)  # the partner can trump it
            score = p * win_value - (1 - p) * loss
            score += bonus * (1 - p)
        push(score)
    return scores


# --- positions ----------------------------------------------------------------

class _View:
    """The parts of a seat view that a lead reads."""

    def __init__(self, seat, hand, kitty, played, voids, ctx):
        self.seat, self.hand, self.kitty = seat, hand, kitty
        self.played, self.voids, self.ctx = played, voids, ctx
        self.plays = ()
        self.phase = "play"


def _position(rng):
    """A seeded lead position: ``(view, candidates)``."""
    ctx = TrumpContext(rng.choice(LEVELS), rng.choice("SHDC"))
    info = ctx._t.info
    deck = shuffled(DECK, rng.getrandbits(32))
    size = rng.choice((1, 2, 3, 5, 8, 12, 17, 20, 25, 25, 25, 33))
    shape = rng.random()
    if shape < 0.15:  # void in one or two suits of play
        drop = set(rng.sample("SHDCT", rng.choice((1, 2))))
        pool = [c for c in deck if info[c][0] not in drop]
    elif shape < 0.3:  # trump-rich
        pool = sorted(deck, key=lambda c: (info[c][0] != "T", rng.random()))
    elif shape < 0.4:  # one side suit long (pairs, tractors, throws)
        s = rng.choice("SHDC")
        pool = sorted(deck, key=lambda c: (info[c][0] != s, rng.random()))
    else:
        pool = deck
    hand = tuple(pool[:size])
    rest = list(deck)
    for c in hand:
        rest.remove(c)
    rng.shuffle(rest)
    n_played = rng.choice((0, 0, 8, 20, 40, 80, 120, 150))
    if rng.random() < 0.2:  # the rest of one held suit all played (nothing unseen)
        s = info[rng.choice(hand)][0]
        rest.sort(key=lambda c: info[c][0] != s)
        n_played = max(n_played, sum(info[c][0] == s for c in rest))
    played = tally(rest[:n_played])
    kitty = tuple(rest[n_played:n_played + 8]) if rng.random() < 0.3 else None
    suits = "SHDCT"
    voids = tuple(frozenset(s for s in suits if rng.random() < 0.2) for _ in range(4))
    view = _View(rng.randrange(4), hand, kitty, played, voids, ctx)
    cands = [tuple(c) for c in candidate_leads(hand, ctx)]
    extra = []
    by_suit = {}
    for c in hand:
        by_suit.setdefault(info[c][0], []).append(c)
    for cs in by_suit.values():
        for _ in range(3):
            k = rng.randint(1, len(cs))
            extra.append(tuple(rng.sample(cs, k)))
    # grouped by suit as candidate_leads groups them is not required; mix
    # them in at random places
    for e in extra:
        cands.insert(rng.randrange(len(cands) + 1), e)
    return view, cands


def test_lead_scores_equal_the_reference_on_seeded_positions():
    """The same float for every candidate (``repr`` compared, so 0.0 and -0.0
    differ too) and the same chosen lead, with each shape of lead reached."""
    rng = random.Random(2411)
    seen = {"single": 0, "unit": 0, "tractor": 0, "throw": 0, "throw_unseen_none": 0,
            "trump": 0, "cut": 0, "pvoid": 0, "kitty": 0}
    for _ in range(1500):
        view, cands = _position(rng)
        ctx = view.ctx
        fast_h = bots.Heuristic(view, None, None)
        ref_h = bots.Heuristic(view, None, None)
        fast = fast_h._lead_scores(cands)
        ref = ref_lead_scores(ref_h, cands)
        assert [repr(x) for x in fast] == [repr(x) for x in ref]
        best = max(range(len(cands)), key=lambda i: (fast[i], -i))
        assert best == max(range(len(cands)), key=lambda i: (ref[i], -i))
        info = ctx._t.info
        for cards in cands:
            comps = decompose(cards, ctx)
            suit = info[cards[0]][0]
            if len(cards) == 1:
                seen["single"] += 1
            elif len(comps) == 1 and comps[0].length == 1:
                seen["unit"] += 1
            elif len(comps) == 1:
                seen["tractor"] += 1
            else:
                seen["throw"] += 1
                if fast_h._unseen_n[suit] == 0:
                    seen["throw_unseen_none"] += 1
            seen["trump"] += suit == "T"
            seen["cut"] += bool(fast_h._cut.get(suit))
            seen["pvoid"] += suit in view.voids[(view.seat + 2) % 4]
        seen["kitty"] += view.kitty is not None
    assert min(seen.values()) > 30, seen


def test_lead_scores_equal_the_reference_in_play():
    """At every lead of seeded heuristic hands from random match starts (the
    positions the bots reach), through the play-out's observer: the same
    scores for every candidate, and the lead played is the first best."""
    from games.engine.shengji import RULES
    from games.engine.shengji.playout import heuristic_playout
    from games.engine.simulate import random_start

    rng = random.Random(1129)
    compared = 0

    def observe(view, action):
        nonlocal compared
        if view.plays:
            return
        cands = candidate_leads(view.hand, view.ctx)
        got = bots.Heuristic(view, None, None)._lead_scores(cands)
        ref = ref_lead_scores(bots.Heuristic(view, None, None), cands)
        assert [repr(x) for x in got] == [repr(x) for x in ref]
        best = max(range(len(cands)), key=lambda i: (ref[i], -i))
        assert action.arg == cands[best]
        compared += len(cands)

    for i in range(8):
        match = random_start("shengji", rng)
        st = RULES.start_hand(match, RULES.deal(match, rng.getrandbits(32)))
        while st.phase != "play":
            seat = RULES.to_act(st)
            st = RULES.apply(st, RULES.bot_action(st, seat, "heuristic", rng))
        heuristic_playout(st, observe)
    assert compared > 1000


def ref_candidate_leads(hand, ctx):
    """main's ``movegen.candidate_leads`` before a throw's second sort was
    dropped (unchanged but for the module prefix of its helpers)."""
    info = ctx._t.info
    keys = ctx._t.sort_keys
    counts = tally(hand)
    out = []
    for card in sorted(counts, key=keys.__getitem__):
        for k in range(1, counts[card] + 1):
            out.append((card,) * k)
    most = max(counts.values(), default=0)
    for k in (2, 3, 4):
        if k > most:
            break
        out.extend(M.tractors_in(counts, ctx, k))
    by_suit = {}
    for c, n in counts.items():
        by_suit.setdefault(info[c][0], {})[c] = n
    for s, sc in by_suit.items():
        whole = None
        if M._several_components(sc, info):
            whole = M._display(M._expand(sc, keys.__getitem__), ctx)
        if s != "T":
            tops = ctx.ordinary_ranks(s)[-2:]
            tc = {c: n for c, n in sc.items() if c.rank in tops}
            if tc and M._several_components(tc, info):
                throw = M._display(M._expand(tc, keys.__getitem__), ctx)
                if throw != whole:
                    out.append(throw)
        if whole is not None:
            out.append(whole)
    return out


def test_candidate_leads_equal_the_reference():
    """The same candidate leads in the same order (the heuristic keeps the
    first of equal scores), on seeded hands of every length at every level
    and trump suit, with long suits (tractors, throws) and voids."""
    rng = random.Random(77)
    throws = tractors = 0
    for _ in range(1500):
        view, _cands = _position(rng)
        got = M.candidate_leads(view.hand, view.ctx)
        assert got == ref_candidate_leads(view.hand, view.ctx)
        assert all(type(c) is tuple for c in got)
        for c in got:
            comps = decompose(c, view.ctx)
            throws += len(comps) > 1
            tractors += len(comps) == 1 and comps[0].length > 1
    assert throws > 300 and tractors > 300
