"""Probe of a live 升级 table's first paint (the page audit): the main
thread's work and layout shifts under Lighthouse's mobile CPU throttle, the
quick way to compare a change before ``make audit-pages`` (minutes).

Same setup as scripts/audit_pages.py: the site as production serves it (DEBUG
off, WhiteNoise's compressed static files after ``collectstatic``) in the
embedded topology (tests.integration.stack), a 升级 room of one human and three
bots (bots every 1.5 s, the 比牌 auction up to the human's turn).  For each run
a fresh room (the deal and who bids first differ from run to run) and a fresh
Chromium page (Debian's /usr/bin/chromium through Playwright) at 412 × 823,
DPR 1.75, touch (Lighthouse's phone), with CDP ``Emulation.setCPUThrottlingRate``
4, opens the table as the human and waits ``--seconds`` (bots bidding).
Per run it prints:

* ``task``: CDP ``Performance.getMetrics`` TaskDuration (s of main-thread
  work, throttled) at the page's load event and at the end;
* ``style``/``layout``: RecalcStyleDuration and LayoutDuration at the end (s);
* ``long``: the 'longtask' entries (PerformanceObserver, buffered) as
  ``start+duration`` in ms (the median's "blocking" is their time over 50 ms
  summed, as Lighthouse's total blocking time but to the run's end);
* ``fcp``/``lcp`` (ms) and ``cls``: the sum of all 'layout-shift' values,
  each shift's sources (node, previous and current rect) with ``--shifts``;
  with ``--sizes`` the heights of the board's parts each time one changes
  (a shift's source is the part that grew above the shifted nodes).

Medians over the runs at the end (the machine is shared: compare medians).

    python scripts/probe_table_paint.py [--game shengji] [--runs 5] [--seconds 8] [--shifts]
        [--width 412 --height 823] [--shot tmp/probe.png]

``--inject CSS`` adds a stylesheet before the page's scripts run (to try a
change without editing the site's files).  Nothing is kept: the stack's
temporary directory goes with it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.integration.stack import LiveStack, running  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

#: registered before any of the page's scripts: buffered observers of long
#: tasks, layout shifts (with their sources) and paints, into window.__probe
OBSERVE = """
window.__probe = {long: [], shifts: [], lcp: 0, fcp: 0};
function desc(n) {
  if (!n) return null;
  if (n.nodeType !== 1) n = n.parentElement;
  if (!n) return null;
  var s = n.tagName.toLowerCase();
  if (n.id) s += "#" + n.id;
  if (n.className && typeof n.className === "string") s += "." + n.className.trim().split(/\\s+/).join(".");
  var p = n.parentElement;
  if (p && !n.id) s = (p.id ? "#" + p.id : p.tagName.toLowerCase() + (p.className && typeof p.className === "string" ? "." + p.className.trim().split(/\\s+/)[0] : "")) + " > " + s;
  return s;
}
window.__probeDesc = desc;
function r(x) { return [Math.round(x.x * 10) / 10, Math.round(x.y * 10) / 10, Math.round(x.width * 10) / 10, Math.round(x.height * 10) / 10]; }
new PerformanceObserver(function (l) { l.getEntries().forEach(function (e) {
  window.__probe.long.push([Math.round(e.startTime), Math.round(e.duration)]); }); }).observe({type: "longtask", buffered: true});
new PerformanceObserver(function (l) { l.getEntries().forEach(function (e) {
  window.__probe.shifts.push({t: Math.round(e.startTime), value: e.value, input: e.hadRecentInput,
    sources: (e.sources || []).map(function (s) { return {node: desc(s.node), prev: r(s.previousRect), cur: r(s.currentRect)}; })}); }); })
  .observe({type: "layout-shift", buffered: true});
new PerformanceObserver(function (l) { l.getEntries().forEach(function (e) {
  window.__probe.lcp = Math.round(e.startTime); window.__probe.lcpNode = desc(e.element); }); })
  .observe({type: "largest-contentful-paint", buffered: true});
new PerformanceObserver(function (l) { l.getEntries().forEach(function (e) {
  if (e.name === "first-contentful-paint") window.__probe.fcp = Math.round(e.startTime); }); })
  .observe({type: "paint", buffered: true});
"""

#: with --sizes: each 50 ms, the heights of the board's parts (and of the
#: piles' and status line's), a line per change, into window.__probe.sizes
SIZES = """
window.__probe.sizes = []; var __seen = {};
setInterval(function () {
  var els = document.querySelectorAll(".board > *, #sj-piles > *, #status-line > *, .seat");
  for (var i = 0; i < els.length; i++) {
    var k = window.__probeDesc(els[i]) + (els[i].id ? "" : "[" + i + "]"), h = Math.round(els[i].getBoundingClientRect().height * 10) / 10;
    if (__seen[k] !== h) { window.__probe.sizes.push([Math.round(performance.now()), k, __seen[k] === undefined ? null : __seen[k], h]); __seen[k] = h; }
  }
}, 50);
"""


def metrics(cdp) -> dict:
    """CDP Performance.getMetrics as ``{name: value}`` (durations in s)."""
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def one_run(browser, stack, args) -> dict:
    """One fresh room, one fresh page: the figures listed in the module's docstring."""
    room = stack.ops("bot_room", game=args.game, humans=1, autoplay=False, ready=True,
                     bot_delay_ms=1500, turn_seconds=300, prefix="probe")
    url = f"{stack.web_url}/rooms/{room['room_id']}/"
    ctx = browser.new_context(viewport={"width": args.width, "height": args.height},
                              device_scale_factor=args.dpr, is_mobile=args.width < 800, has_touch=args.width < 800)
    host = stack.web_url.split("//", 1)[1].split(":")[0]
    ctx.add_cookies([{"name": "sessionid", "value": room["users"][0]["cookie"], "domain": host, "path": "/"}])
    page = ctx.new_page()
    page.add_init_script(OBSERVE)
    if args.sizes:
        page.add_init_script(SIZES)
    if args.inject:
        css = json.dumps(args.inject)
        page.add_init_script("document.addEventListener('DOMContentLoaded', function () {"
                             f"var s = document.createElement('style'); s.textContent = {css}; document.head.appendChild(s); }});")
    cdp = ctx.new_cdp_session(page)
    cdp.send("Performance.enable")
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
    page.goto(url, wait_until="load")
    at_load = metrics(cdp)["TaskDuration"]
    time.sleep(args.seconds)
    m = metrics(cdp)
    probe = page.evaluate("window.__probe")
    if args.shot:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        page.screenshot(path=args.shot, full_page=True)
        hand = page.locator("#my-hand")
        if hand.count():
            # one card raised (selected) too: its face shows whole
            page.locator("#my-hand .card").nth(5).click()
            page.wait_for_timeout(300)
            hand.screenshot(path=args.shot.replace(".png", "-hand.png"))
    ctx.close()
    # (all shifts: Chromium marks some hadRecentInput with no input at all
    # here, and Lighthouse's CLS counted the 0.028 of #sj-piles that was one)
    cls = sum(s["value"] for s in probe["shifts"])
    return {"task_load": at_load, "task": m["TaskDuration"], "style": m["RecalcStyleDuration"],
            "layout": m["LayoutDuration"], "long": probe["long"], "fcp": probe["fcp"], "lcp": probe["lcp"],
            "lcp_node": probe.get("lcpNode"), "cls": cls, "shifts": probe["shifts"], "sizes": probe.get("sizes", [])}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--game", default="shengji", help="the game's code (shengji, baohuang)")
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--throttle", type=float, default=4)
    parser.add_argument("--width", type=int, default=412)
    parser.add_argument("--height", type=int, default=823)
    parser.add_argument("--dpr", type=float, default=1.75)
    parser.add_argument("--shifts", action="store_true", help="print each layout shift's sources")
    parser.add_argument("--sizes", action="store_true", help="print the board's parts' heights as they change")
    parser.add_argument("--inject", default="", help="CSS added to the page (a try without editing files)")
    parser.add_argument("--shot", default="", help="screenshots of the last run's page (PNG path; and -hand.png: the fan, its 6th card raised)")
    parser.add_argument("--no-collect", action="store_true", help="skip collectstatic (already done)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    (REPO / "tmp").mkdir(exist_ok=True)
    if not args.no_collect:
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=REPO, check=True)
    runs = []
    with tempfile.TemporaryDirectory(dir=REPO / "tmp") as work:
        stack = LiveStack.embedded(Path(work), debug=False)
        with running(stack), sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, timeout=60_000)
            try:
                for i in range(args.runs):
                    r = one_run(browser, stack, args)
                    runs.append(r)
                    longs = " ".join(f"{s}+{d}" for s, d in r["long"])
                    print(f"run {i + 1}: task {r['task_load']:.2f}/{r['task']:.2f} s  style {r['style']:.2f}  "
                          f"layout {r['layout']:.2f}  fcp {r['fcp']}  lcp {r['lcp']} ({r['lcp_node']})  "
                          f"cls {r['cls']:.4f}  long [{longs}]", flush=True)
                    if args.shifts:
                        for s in r["shifts"]:
                            print(f"    shift t={s['t']} ms {s['value']:.4f}{' (input)' if s['input'] else ''}")
                            for src in s["sources"]:
                                print(f"      {src['node']}: {src['prev']} -> {src['cur']}")
                    first_t = r["sizes"][0][0] if r["sizes"] else 0
                    for t, k, was, h in r["sizes"]:
                        if was is not None or t > first_t:
                            print(f"    size t={t} ms {k}: {'new' if was is None else was} -> {h}")
            finally:
                browser.close()
    med = statistics.median
    longest = [max((d for _, d in r["long"]), default=0) for r in runs]
    tbt = [sum(max(0, d - 50) for _, d in r["long"]) for r in runs]
    print(f"median of {len(runs)}: task at load {med(r['task_load'] for r in runs):.2f} s, at end "
          f"{med(r['task'] for r in runs):.2f} s, style {med(r['style'] for r in runs):.2f} s, "
          f"layout {med(r['layout'] for r in runs):.2f} s, longest task {med(longest):.0f} ms, "
          f"blocking (sum of long tasks' time over 50 ms) {med(tbt):.0f} ms, "
          f"lcp {med(r['lcp'] for r in runs):.0f} ms, cls {med(r['cls'] for r in runs):.4f} (max {max(r['cls'] for r in runs):.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
