"""WebKit for the browser tests: Debian's WebKitGTK driven over W3C WebDriver.

Playwright cannot download its WebKit here, but Debian ships WebKitGTK's own
driver (``webkit2gtk-driver``: ``WebKitWebDriver`` and ``MiniBrowser``), the
engine of Safari, which most phones in our players' hands run.  It needs an X
display, so :class:`WebKit` starts a private ``Xvfb`` (``xvfb``; the display
number it picks itself, ``-displayfd``) and the driver on a free loopback
port, and speaks the few WebDriver commands the tests use through
``urllib`` (no Selenium).

MiniBrowser's window has a toolbar and a minimum width: a window asked for
375 px wide gives a viewport of about 447 px, still under the phone layout's
30rem (480 px); the tests read ``innerWidth`` rather than assume it.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

DRIVER = "WebKitWebDriver"
XVFB = "Xvfb"
#: Start of the skip reason when WebKit is missing.
NO_WEBKIT = "no WebKitGTK"
#: Seconds a new session (a MiniBrowser started) may take before the test fails.
SESSION_TIMEOUT = 180


def minibrowser() -> str | None:
    """The MiniBrowser binary WebKitWebDriver starts (Debian's path, per ABI)."""
    for api in ("4.1", "4.0", "6.0"):
        path = Path(f"/usr/lib/x86_64-linux-gnu/webkit2gtk-{api}/MiniBrowser")
        if path.exists():
            return str(path)
    return None


def webkit_found() -> bool:
    return bool(shutil.which(DRIVER) and shutil.which(XVFB) and minibrowser())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebKitError(RuntimeError):
    """A WebDriver command failed: ``error`` and ``message`` of its answer."""


class WebKit:
    """A private X display, one WebKitWebDriver, and sessions on it.

    >>> with WebKit() as wk:                                 # doctest: +SKIP
    ...     s = wk.session(375, 812)
    ...     s.goto("http://127.0.0.1:8000/"); s.run("return innerWidth")
    """

    def __init__(self):
        self.xvfb = self.driver = None
        self.port = 0

    def __enter__(self) -> WebKit:
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", "1400x1000x24", "-nolisten", "tcp"],
            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        number = b""
        deadline = time.monotonic() + 20
        with os.fdopen(read, "rb") as pipe:
            while not number.endswith(b"\n") and time.monotonic() < deadline:
                chunk = pipe.read(1)
                if not chunk:
                    break
                number += chunk
        if not number.strip().isdigit():
            self.__exit__(None, None, None)
            raise WebKitError(f"Xvfb gave no display number ({number!r})")
        self.port = _free_port()
        env = dict(os.environ, DISPLAY=f":{number.decode().strip()}")
        self.driver = subprocess.Popen([DRIVER, f"--port={self.port}"], env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                self.call("GET", "/status")
                break
            except (OSError, WebKitError):
                if time.monotonic() > deadline:
                    self.__exit__(None, None, None)
                    raise
                time.sleep(0.2)
        return self

    def __exit__(self, *exc) -> None:
        for proc in (self.driver, self.xvfb):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)

    def call(self, method: str, path: str, body: dict | None = None, timeout: float = 60):
        """One WebDriver command; its ``value``.  Raises :class:`WebKitError`."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method, data=data,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as answer:
                return json.loads(answer.read() or b"{}").get("value")
        except urllib.error.HTTPError as err:
            value = json.loads(err.read() or b"{}").get("value") or {}
            raise WebKitError(f"{value.get('error')}: {value.get('message')}") from None

    def session(self, width: int, height: int) -> Session:
        """A new MiniBrowser window of about ``width`` × ``height`` (see the module)."""
        # Starting a MiniBrowser is the slowest command: under a loaded CI
        # machine (load 14 on 2 cores) it once took over 60 s, so it has
        # SESSION_TIMEOUT; every other command keeps ``call``'s 60 s.
        value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "MiniBrowser",
            "webkitgtk:browserOptions": {"binary": minibrowser(), "args": ["--automation"]},
        }}}, timeout=SESSION_TIMEOUT)
        session = Session(self, value["sessionId"])
        session.call("POST", "/window/rect", {"width": width, "height": height})
        return session


class Session:
    """One browser window: ``goto``, ``cookie``, ``run`` (a script's return
    value), ``wait_for`` (a script until it returns something truthy),
    ``click`` (a real click on an element found by CSS), ``type`` (keys into
    one), ``screenshot``."""

    def __init__(self, webkit: WebKit, sid: str):
        self.webkit, self.sid = webkit, sid

    def call(self, method: str, path: str, body: dict | None = None):
        return self.webkit.call(method, f"/session/{self.sid}{path}", body)

    def close(self) -> None:
        try:
            self.webkit.call("DELETE", f"/session/{self.sid}")
        except (OSError, WebKitError):
            pass

    def goto(self, url: str) -> None:
        self.call("POST", "/url", {"url": url})

    def cookie(self, name: str, value: str) -> None:
        """Set a cookie on the current page's site (go to the site first)."""
        self.call("POST", "/cookie", {"cookie": {"name": name, "value": value, "path": "/"}})

    def run(self, script: str, *args):
        """The value ``script`` (a function body: ``return …``) returns."""
        return self.call("POST", "/execute/sync", {"script": script, "args": list(args)})

    def wait_for(self, script: str, *args, timeout: float = 60, every: float = 0.3):
        """Run ``script`` until it returns something truthy, and return that;
        ``TimeoutError`` after ``timeout`` seconds (with the last value)."""
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            last = self.run(script, *args)
            if last:
                return last
            time.sleep(every)
        raise TimeoutError(f"waited {timeout} s; last value {last!r}")

    def _element(self, css: str) -> str:
        """The WebDriver id of the first element matching ``css`` (raises
        :class:`WebKitError`, ``no such element``, when none does)."""
        found = self.call("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(found.values()))

    def click(self, css: str) -> None:
        """Click the first element matching ``css`` (WebDriver's element click:
        scrolled into view, a real pointer event at its centre)."""
        self.call("POST", f"/element/{self._element(css)}/click", {})

    def type(self, css: str, text: str) -> None:
        """Type ``text`` into the first element matching ``css`` (WebDriver's
        element send keys: focus, then key events)."""
        self.call("POST", f"/element/{self._element(css)}/value", {"text": text})

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.call("GET", "/screenshot")))
