"""Engine fingerprint: a hash of every hand's action log and summary for fixed
seeds (all-heuristic, mixed and random-policy hands of both games), to prove an
engine or bot optimisation behaviour-preserving.

    python scripts/engine_fingerprint.py before.json   # on the old commit
    python scripts/engine_fingerprint.py after.json    # on the new one
    cmp before.json after.json                         # identical = same play

Prints one combined hash per run and its CPU seconds on stderr.
"""
import hashlib, json, random, sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
from games.engine import get_rules

def run(game, hands, seed, policies):
    rules = get_rules(game)
    master = random.Random(seed)
    bot_rng = random.Random(master.getrandbits(63))
    match = rules.new_match(None, None)
    hashes = []
    for _ in range(hands):
        deal = rules.deal(match, master.getrandbits(63))
        state = rules.start_hand(match, deal)
        while not rules.is_complete(state):
            seat = rules.to_act(state)
            action = rules.bot_action(state, seat, policies[seat], bot_rng)
            state = rules.apply(state, action)
        log = [a.to_record() for a in rules.actions(state)]
        summ = rules.summary(state)
        hashes.append(hashlib.sha1(json.dumps([log, summ], sort_keys=True, default=str).encode()).hexdigest()[:12])
        match = rules.next_match(match, state)
        if rules.match_winner(match) is not None:
            match = rules.new_match(None, None)
    return hashes

jobs = [
    ("baohuang", 300, 7, ["heuristic"] * 5),
    ("baohuang", 100, 11, ["random", "heuristic", "random", "heuristic", "random"]),
    ("shengji", 60, 7, ["heuristic"] * 4),
    ("shengji", 30, 13, ["random", "heuristic", "random", "heuristic"]),
    ("shengji", 20, 17, ["random"] * 4),
]
out = {}
for game, n, seed, pol in jobs:
    t = time.process_time()
    h = run(game, n, seed, pol)
    key = f"{game}-{seed}-{','.join(pol)}"
    out[key] = h
    print(key, hashlib.sha1("".join(h).encode()).hexdigest()[:16], f"{time.process_time()-t:.1f}s cpu", file=sys.stderr)
json.dump(out, open(sys.argv[1], "w"), indent=0)
