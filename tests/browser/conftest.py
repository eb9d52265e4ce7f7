"""Browser fixtures: Debian's Chromium driven by Playwright against a real server.

pytest-django's ``live_server`` is WSGI (no websockets), so ``site_server``
starts ``daphne`` as a subprocess in the embedded topology (temporary SQLite
file, in-memory channel layer, in-process timers), exactly what ``make run``
serves.  A failing test gets the server's log in its report.

Without Chromium the browser tests skip, and the run's summary says so in a
section of its own with the way to get it (``apt-get install chromium``), so
a green run without them cannot pass for a full one.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.integration.stack import REPO, LiveStack, running

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
#: Start of the skip reason when Chromium is missing (the summary counts these).
NO_CHROMIUM = "no Chromium"
#: Screenshots for humans to look at (gitignored).
SHOTS = REPO / "tmp"


def chromium_found() -> bool:
    return Path(CHROMIUM).exists() or bool(shutil.which(CHROMIUM))


def pytest_collection_modifyitems(config, items):
    """Without Chromium, skip the browser tests before any server starts."""
    if chromium_found():
        return
    skip = pytest.mark.skip(reason=f"{NO_CHROMIUM} at {CHROMIUM} (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    """One daphne, embedded topology, on a free loopback port."""
    with running(LiveStack.embedded(tmp_path_factory.mktemp("browser-site"))) as stack:
        yield stack


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium (Debian's package; Playwright cannot download one here),
    one for the whole run: each test opens and closes its own contexts, and a
    launch a module cost a second or two of CPU some 60 times a run."""
    if not chromium_found():
        pytest.skip(f"{NO_CHROMIUM} at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=60_000)
        yield chromium
        chromium.close()


@pytest.fixture
def phone_page(browser):
    """A fresh browser context the size of a phone (375×800), zh-Hans."""
    SHOTS.mkdir(exist_ok=True)
    context = browser.new_context(viewport={"width": 375, "height": 800}, locale="zh-CN",
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    yield page
    context.close()


def pytest_terminal_summary(terminalreporter):
    """After the short summary: a loud section when browser tests were skipped
    for lack of Chromium (or of WebKitGTK), with how to install it."""
    from .webkit import NO_WEBKIT

    no_webkit = [
        report for report in terminalreporter.stats.get("skipped", [])
        if NO_WEBKIT in str(getattr(report, "longrepr", ""))
    ]
    if no_webkit:
        terminalreporter.write_sep("=", f"{len(no_webkit)} WebKit test(s) SKIPPED: no WebKitGTK",
                                   yellow=True, bold=True)
        terminalreporter.write_line("Get it with:  apt-get install webkit2gtk-driver xvfb   (Debian)")
    skipped = [
        report for report in terminalreporter.stats.get("skipped", [])
        if NO_CHROMIUM in str(getattr(report, "longrepr", ""))
    ]
    if not skipped:
        return
    tr = terminalreporter
    tr.write_sep("=", f"{len(skipped)} browser test(s) SKIPPED: no Chromium", yellow=True, bold=True)
    tr.write_line(f"The browser tests drive headless Chromium at {CHROMIUM} and it is not there.")
    tr.write_line("Get it with:  apt-get install chromium   (Debian/Ubuntu; Playwright cannot "
                  "download browsers here)")
    tr.write_line("or point CHROMIUM=/path/to/chromium at another build; then run make test again.")
