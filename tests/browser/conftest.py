"""Browser fixtures: Debian's Chromium driven by Playwright against a real server.

pytest-django's ``live_server`` is WSGI (no websockets), so ``site_server``
starts ``daphne`` as a subprocess in the embedded topology (temporary SQLite
file, in-memory channel layer, in-process timers), exactly what ``make run``
serves.  A failing test gets the server's log in its report.
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
#: Screenshots for humans to look at (gitignored).
SHOTS = REPO / "tmp"


@pytest.fixture(scope="module")
def site_server(tmp_path_factory):
    """One daphne, embedded topology, on a free loopback port."""
    with running(LiveStack.embedded(tmp_path_factory.mktemp("browser-site"))) as stack:
        yield stack


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (Debian's package; Playwright cannot download one here)."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
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
