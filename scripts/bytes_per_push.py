"""Bytes per push: what one player's socket receives per move.

Starts the embedded site (one daphne, tests.integration.stack), makes for each
game a room of one human on 托管 and bots (they play on their own, bot delay
``--bot-delay-ms``), opens the human's table socket and records every message
of ``--pushes`` pushes: its size as sent today (UTF-8 bytes of the fragment)
the bytes that reached the socket for it (frames as sent: compressed when the
server agreed to permessage-deflate, which the client offers as browsers do),
and what permessage-deflate (RFC 7692) would carry for it: the same bytes
through one raw-deflate stream per socket (context takeover, sync flush,
the 4-byte tail dropped, as the extension frames them), and without context
takeover (each message compressed alone).  Prints p50 / p95 / max per game.

Whether the server negotiates the extension is printed too (the response's
``Sec-WebSocket-Extensions``, the client offering permessage-deflate).

Since the socket sends only the regions that changed (:mod:`games.render.regions`), a message is smaller than the table it leaves
on the page: ``page`` is that whole fragment (the stubs replaced by what the
socket sent before, :class:`tests.table_pages.PageCopy`), ``partial`` how
many messages carried stubs.

    python scripts/bytes_per_push.py [--pushes 150] [--games baohuang shengji] [--seed 1]

``--seed N`` makes the deals the same from run to run (and from commit to
commit): every process of the stack imports a ``sitecustomize`` (first on its
``PYTHONPATH``) that replaces the engine's ``new_seed`` with the n-th seed
of ``N`` (n counted in a file of the stack's work directory, so the hands
dealt by the ops subprocesses and by daphne follow one sequence).  Without
it the deals are random (C3), as on the site.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.integration.stack import LiveStack, running  # noqa: E402
from tests.table_pages import PageCopy  # noqa: E402


def percentile(values: list[int], q: float) -> int:
    """Nearest-rank ``q`` quantile (0..1) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


async def record(stack: LiveStack, room_id: int, cookie: str, pushes: int,
                 username: str = "") -> tuple[list[bytes], list[int], str]:
    """``(fragments, wire bytes per fragment, extensions agreed)`` for
    ``pushes`` messages on the human's socket.  A hand's result waits for the
    player ("next hand": the result stays until the player continues): after 5 s without a push the
    human says ready again, as the player would, once per silence.  The client offers
    permessage-deflate as browsers do; the wire bytes are counted where the
    socket's bytes arrive (frame headers included), per message."""
    from websockets.asyncio.client import connect

    base = stack.web_url
    url = "ws" + base.removeprefix("http") + f"/ws/rooms/{room_id}/"
    headers = {"Cookie": f"sessionid={cookie}"}
    out, wire = [], []
    async with connect(url, origin=base, additional_headers=headers, compression="deflate",
                       open_timeout=15, proxy=None, max_size=None) as ws:
        agreed = ws.response.headers.get("Sec-WebSocket-Extensions", "") or "(none)"
        received = [0]
        original = ws.data_received

        def counting(data: bytes) -> None:
            received[0] += len(data)
            original(data)

        ws.data_received = counting
        seen = 0
        asked = False
        while len(out) < pushes:
            try:
                msg = await asyncio.wait_for(ws.recv(), 5 if username and not asked else 30)
            except asyncio.TimeoutError:
                if username and not asked:  # the result waits for "next hand"
                    asked = True
                    # the next hand, on 托管 again (a hand's end clears it)
                    await asyncio.to_thread(stack.ops, "ready", room_id=room_id, username=username)
                    await asyncio.to_thread(stack.ops, "autoplay", room_id=room_id, username=username)
                    continue
                print(f"  (no push for 30 s after {len(out)})", flush=True)  # the table stopped
                break
            asked = False
            out.append(msg.encode() if isinstance(msg, str) else msg)
            wire.append(received[0] - seen)
            seen = received[0]
    return out, wire, agreed


SEEDED = """\
import random
from pathlib import Path

import games.engine.cards as _cards

_COUNTER = Path({counter!r})


def _seeded() -> int:
    n = int(_COUNTER.read_text() or 0) if _COUNTER.exists() else 0
    _COUNTER.write_text(str(n + 1))
    return random.Random(f"{seed}-{{n}}").getrandbits(63)


_cards.new_seed = _seeded
"""


def seeded_path(work: Path, seed: int) -> str:
    """A directory holding the ``sitecustomize`` of ``--seed`` (see the module docstring)."""
    where = work / "seeded"
    where.mkdir()
    (where / "sitecustomize.py").write_text(SEEDED.format(counter=str(work / "deals"), seed=seed))
    return str(where)


def deflated_sizes(messages: list[bytes], takeover: bool, window_bits: int = 15) -> list[int]:
    """What each message weighs under permessage-deflate (payload bytes) with
    a compressor window of 2**window_bits bytes."""
    sizes, stream = [], None
    for m in messages:
        if stream is None or not takeover:
            stream = zlib.compressobj(6, zlib.DEFLATED, -window_bits, 5)  # as config.ws_deflate
        data = stream.compress(m) + stream.flush(zlib.Z_SYNC_FLUSH)
        sizes.append(len(data) - 4)
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pushes", type=int, default=150)
    parser.add_argument("--bot-delay-ms", type=int, default=150)
    parser.add_argument("--games", nargs="+", default=["baohuang", "shengji"])
    parser.add_argument("--dump", type=Path, default=None,
                        help="write each game's messages there (<game>-<n>.html)")
    parser.add_argument("--seed", type=int, default=None,
                        help="deal the same hands every run (default: random deals)")
    args = parser.parse_args()
    (REPO / "tmp").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=REPO / "tmp") as work:
        first = None if args.seed is None else seeded_path(Path(work), args.seed)
        with running(LiveStack.embedded(Path(work), pythonpath_first=first)) as stack:
            print(f"{'game':9} {'pushes':>6} | {'wire p50':>8} {'p95':>7} | {'raw p50':>8} {'p95':>7} {'max':>7} | "
                  f"{'deflate p50':>11} {'p95':>7} | {'window 2^12':>11} {'p95':>7} | "
                  f"{'no-takeover p50':>15} {'p95':>7} | {'page p50':>8} {'p95':>7} | partial | server agreed")
            for game in args.games:
                room = stack.ops("bot_room", game=game, humans=1, autoplay=True, ready=True,
                                 bot_delay_ms=args.bot_delay_ms, turn_seconds=60, prefix="bytes")
                msgs, wire, agreed = asyncio.run(record(stack, room["room_id"], room["users"][0]["cookie"],
                                                        args.pushes, room["users"][0]["username"]))
                raw = [len(m) for m in msgs]
                if args.dump:
                    args.dump.mkdir(parents=True, exist_ok=True)
                    for n, m in enumerate(msgs):
                        (args.dump / f"{game}-{n:03d}.html").write_bytes(m)
                ctx = deflated_sizes(msgs, takeover=True)
                small = deflated_sizes(msgs, takeover=True, window_bits=12)
                alone = deflated_sizes(msgs, takeover=False)
                copy = PageCopy()
                pages = [len(copy.apply(m.decode()).encode()) for m in msgs]
                partial = sum(1 for m in msgs if b"data-keep=" in m)
                print(f"{game:9} {len(raw):>6} | {percentile(wire, .5):>8} {percentile(wire, .95):>7} | "
                      f"{percentile(raw, .5):>8} {percentile(raw, .95):>7} "
                      f"{max(raw):>7} | {percentile(ctx, .5):>11} {percentile(ctx, .95):>7} | "
                      f"{percentile(small, .5):>11} {percentile(small, .95):>7} | "
                      f"{percentile(alone, .5):>15} {percentile(alone, .95):>7} | "
                      f"{percentile(pages, .5):>8} {percentile(pages, .95):>7} | {partial:>7} | {agreed}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
