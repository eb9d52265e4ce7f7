"""Screenshots of both games' live table, result and replay, for a
person to look at: each page at 375 × 812, 812 × 375 and 1280 × 800, in the
light and the dark theme, in 中文 and English, as PNG files under
``tmp/shots/`` (``<game>-<page>-<w>x<h>-<theme>-<lang>.png``; not committed).

Starts the embedded site (tests.integration.stack), Debian's Chromium
through Playwright.  The live table: a room of one human on 托管 and bots,
shot once a play lies on the felt; the result: a hand played out by the
bots in the stack's process, its closed room; the replay: that hand at
``--step`` (default: the first step at which a whole round lies on the
felt, found through the page's own links).

    python scripts/table_shots.py [--games shengji baohuang] [--pages table result replay]
        [--sizes 375x812 812x375 1280x800] [--themes light dark] [--langs zh-hans en]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.integration.stack import LiveStack, running  # noqa: E402

CHROMIUM = "/usr/bin/chromium"


@contextmanager
def shot_site():
    """``(stack, browser)``: the embedded site (tests.integration.stack) in a
    throwaway folder under ``tmp/``, and Debian's Chromium through Playwright,
    both stopped on exit."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(dir=REPO / "tmp") as work:
        stack = LiveStack.embedded(Path(work))
        with running(stack), sync_playwright() as pw:
            yield stack, pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])


def page_for(browser, base, cookie, size, theme="light", lang="zh-hans"):
    """A page of ``size`` ("WxH", a phone's touch context under 500 px), ``theme``
    light/dark and ``lang``, signed in with the session ``cookie`` (None: a visitor)."""
    w, h = (int(x) for x in size.split("x"))
    phone = min(w, h) < 500
    ctx = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=1, is_mobile=phone,
                              has_touch=phone, color_scheme=theme, locale="en-US" if lang == "en" else "zh-CN")
    cookies = [{"name": "django_language", "value": lang, "url": base}]
    if cookie:
        cookies.append({"name": "sessionid", "value": cookie, "url": base})
    ctx.add_cookies(cookies)
    ctx.set_default_timeout(30_000)
    return ctx, ctx.new_page()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["shengji", "baohuang"])
    parser.add_argument("--pages", nargs="+", default=["table", "result", "replay"])
    parser.add_argument("--sizes", nargs="+", default=["375x812", "812x375", "1280x800"])
    parser.add_argument("--themes", nargs="+", default=["light", "dark"])
    parser.add_argument("--langs", nargs="+", default=["zh-hans", "en"])
    parser.add_argument("--step", type=int, default=None)
    parser.add_argument("--wait", type=float, default=45, help="seconds to wait for a play on the live felt")
    parser.add_argument("--out", type=Path, default=REPO / "tmp" / "shots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with shot_site() as (stack, browser):
        base = stack.web_url
        for game in args.games:
            done = stack.ops("finished_hands", count=1, game=game, prefix="shot", review=False)
            hand, room_id, cookie = done["hands"][0], done["rooms"][0], done["cookies"][0]
            live = None
            if "table" in args.pages:
                live = stack.ops("bot_room", game=game, humans=1, autoplay=True, ready=True,
                                 bot_delay_ms=700, turn_seconds=60, prefix="shotl")
            step = args.step
            for size in args.sizes:
                for theme in args.themes:
                    for lang in args.langs:
                        tag = f"{size}-{theme}-{lang}"
                        if "replay" in args.pages:
                            ctx, page = page_for(browser, base, cookie, size, theme, lang)
                            if step is None:
                                page.goto(f"{base}/hands/{hand}/replay/?step=0")
                                jump = page.locator('[data-jump-trick="2"]')
                                step = int(jump.get_attribute("href").split("step=")[1]) - 1
                            page.goto(f"{base}/hands/{hand}/replay/?step={step}")
                            page.screenshot(path=str(args.out / f"{game}-replay-{tag}.png"), full_page=False)
                            page.screenshot(path=str(args.out / f"{game}-replay-{tag}-full.png"), full_page=True)
                            ctx.close()
                        if "result" in args.pages:
                            ctx, page = page_for(browser, base, cookie, size, theme, lang)
                            page.goto(f"{base}/rooms/{room_id}/")
                            panel = page.locator("#result-panel")
                            if panel.count():
                                panel.scroll_into_view_if_needed()
                            page.screenshot(path=str(args.out / f"{game}-result-{tag}.png"), full_page=False)
                            ctx.close()
                        if live is not None:
                            ctx, page = page_for(browser, base, live["users"][0]["cookie"], size, theme, lang)
                            page.goto(f"{base}/rooms/{live['room_id']}/")
                            deadline = time.monotonic() + args.wait
                            while time.monotonic() < deadline and not page.locator("#felt .played").count():
                                page.wait_for_timeout(500)
                            page.screenshot(path=str(args.out / f"{game}-table-{tag}.png"), full_page=False)
                            ctx.close()
                        print(game, tag, flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
