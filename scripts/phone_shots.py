"""Screenshots and measurements of the lobby (signed in as a player of a
12-character name, and not) and the leaderboard on phones, for a person to look at and for docs/table.md's
before/after figures: each page at 320 × 568 and 360 × 640 (``--sizes``) in
中文 and English (``--langs``), PNG files under ``tmp/phone/`` (not
committed), and one line of figures per page on stdout:

* lobby: per 立即开始 (Play now) button the lines its words stand on, the
  first button's bottom edge in CSS px (above the fold when ≤ the
  viewport's height), per game card the rows its links stand in;
* leaderboard (a board made by the ``ladder_board`` op: every title of the
  ladder, a 30-character and an 11-character name): how far the page and the
  table's box scroll sideways (px), the titles cut inside a word, the lines
  of the 11-character name.

    python scripts/phone_shots.py [--sizes 320x568 360x640] [--langs zh-hans en]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.browser.helpers import BROKEN_WORDS, TEXT_LINES  # noqa: E402
from table_shots import page_for, shot_site  # noqa: E402  (scripts/ is on sys.path when run as a script)

#: The visible title of each row: its own element, or the sixth cell of the
#: markup before the title moved under the name.
TITLES = """() => [...document.querySelectorAll('[data-title], table.leaderboard tbody td:nth-child(6)')]
  .filter(e => e.getClientRects().length)"""


def lobby(page) -> str:
    """The lobby's figures as one line of text (see the module's docstring)."""
    buttons = page.locator('[data-action="play-now"]')
    lines = [b.evaluate(TEXT_LINES) for b in buttons.all()]
    bottom = page.evaluate("() => { const b = document.querySelector('[data-action=\"play-now\"]');"
                           " return b ? Math.round(b.getBoundingClientRect().bottom) : null; }")
    rows = page.locator(".game-links").evaluate_all(
        "els => els.map(e => new Set([...e.querySelectorAll('a, button, .muted')]"
        ".filter(x => x.getClientRects().length).map(x => Math.round(x.getBoundingClientRect().top"
        " + x.getBoundingClientRect().height / 2) >> 3)).size)")
    return f"button lines {lines} first bottom {bottom}px, rows of links {rows}"


def board(page, eleven) -> str:
    """The leaderboard's figures as one line; ``eleven``: the 11-character name."""
    page_x = page.evaluate("document.scrollingElement.scrollWidth - document.documentElement.clientWidth")
    box_x = page.evaluate("(() => { const w = document.querySelector('.table-wrap');"
                          " return w.scrollWidth - w.clientWidth; })()")
    broken = page.evaluate(f"() => ({TITLES})().map(e => ({BROKEN_WORDS})(e)).flat()")
    name = page.locator(f'tr[data-user="{eleven}"] a').first.evaluate(TEXT_LINES)
    heads = page.locator("table.leaderboard thead th").evaluate_all(
        f"els => els.map(e => ({BROKEN_WORDS})(e)).flat()")
    return (f"page scrolls {page_x}px, box scrolls {box_x}px, titles cut {sorted(set(broken))}, "
            f"headers cut {heads}, 11-char name lines {name}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["320x568", "360x640"])
    parser.add_argument("--langs", nargs="+", default=["zh-hans", "en"])
    parser.add_argument("--out", type=Path, default=REPO / "tmp" / "phone")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with shot_site() as (stack, browser):
        base = stack.web_url
        made = stack.ops("ladder_board", game="shengji", prefix="ps")
        player = stack.ops("new_user", prefix="player")
        for size in args.sizes:
            for lang in args.langs:
                tag = f"{size}-{lang}"
                for who, cookie in (("in", player["cookie"]), ("out", None)):
                    ctx, page = page_for(browser, base, cookie, size, lang=lang)
                    page.goto(base + "/")
                    page.screenshot(path=str(args.out / f"lobby-{who}-{tag}.png"), full_page=True)
                    print(f"lobby signed-{who} {tag}: {lobby(page)}", flush=True)
                    ctx.close()
                ctx, page = page_for(browser, base, made["cookie"], size, lang=lang)
                page.goto(base + "/ratings/shengji/")
                page.screenshot(path=str(args.out / f"board-{tag}.png"), full_page=True)
                print(f"leaderboard {tag}: {board(page, made['eleven'])}", flush=True)
                ctx.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
