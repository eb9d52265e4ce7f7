"""``make audit-pages``: Lighthouse at mobile settings on the lobby,
a live table and an event page mid-round, printing the four category scores.

The site runs as production serves it (DEBUG off, WhiteNoise's compressed
static files after ``collectstatic``) in the embedded topology: one daphne on
a free loopback port, a temporary SQLite database (tests.integration.stack).
The table is a 升级 room of one human and three bots, opened as that human
(session cookie sent by Lighthouse) while the bots play the 比牌 auction up to
the human's turn (a player looking at the table; ``AUDIT_AUTOPLAY=1`` puts the
human on 托管, and the bots then push a new table every 1.5 s during the audit:
each push was a new largest paint, performance 86 at a5a8d99, until pushes
were morphed into the page instead of replacing it, see docs/performance.md);
the event is a club event of four bot entries whose round 1 is playing.

Lighthouse is npm's ``lighthouse`` (pinned in tools/lighthouse/package.json,
installed there with ``npm ci``), driving Debian's Chromium through
``CHROME_PATH`` (default /usr/bin/chromium).  Reports: tmp/lighthouse-*.json.

    python scripts/audit_pages.py [--min 90]

Exit status 1 when performance, accessibility or best practices of a page is
under ``--min`` (SEO is printed, not held to it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.integration.stack import LiveStack, running  # noqa: E402

LIGHTHOUSE = REPO / "tools" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
HELD = ("performance", "accessibility", "best-practices")


def lighthouse(url: str, name: str, cookie: str | None) -> dict:
    """Run Lighthouse (mobile form factor, its default throttling) on ``url``;
    returns ``{category: score 0-100}`` and writes tmp/lighthouse-NAME.json."""
    out = REPO / "tmp" / f"lighthouse-{name}.json"
    cmd = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
           "--only-categories=" + ",".join(CATEGORIES), "--form-factor=mobile",
           "--chrome-flags=--headless=new --no-sandbox --disable-gpu"]
    if cookie:
        cmd.append("--extra-headers=" + json.dumps({"Cookie": f"sessionid={cookie}"}))
    env = dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium"))
    subprocess.run(cmd, check=True, env=env, timeout=300)
    report = json.loads(out.read_text())
    return {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min", type=int, default=90)
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        print(f"missing {LIGHTHOUSE}: cd tools/lighthouse && npm ci", file=sys.stderr)
        return 2
    (REPO / "tmp").mkdir(exist_ok=True)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=REPO, check=True)
    failed = []
    with tempfile.TemporaryDirectory(dir=REPO / "tmp") as work:
        stack = LiveStack.embedded(Path(work), debug=False)
        with running(stack):
            base = stack.web_url
            room = stack.ops("bot_room", game="shengji", humans=1, autoplay=os.environ.get("AUDIT_AUTOPLAY") == "1",
                             ready=True, bot_delay_ms=1500, turn_seconds=300, prefix="audit")
            event = stack.ops("event_round", game="shengji", bots=4, bot_delay_ms=1500, prefix="audit")
            pages = [
                ("lobby", base + "/", None),
                ("table", f"{base}/rooms/{room['room_id']}/", room["users"][0]["cookie"]),
                ("event", f"{base}/clubs/events/{event['event_id']}/", event["user"]["cookie"]),
            ]
            print(f"{'page':8} " + " ".join(f"{c:>15}" for c in CATEGORIES))
            for name, url, cookie in pages:
                scores = lighthouse(url, name, cookie)
                print(f"{name:8} " + " ".join(f"{scores[c]:>15}" for c in CATEGORIES), flush=True)
                failed += [(name, c, scores[c]) for c in HELD if scores[c] < args.min]
    if failed:
        print("under", args.min, ":", failed)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
