"""The players' page in a real headless Chromium, as a 375-px phone: it renders, the countdown runs,
links point at the posts, nothing scrolls sideways. Writes tests/artifacts/site-375.png for a person
to look at.

Chromium is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: fd 3 in, fd 4
out, NUL-separated JSON), so no port is opened and no websocket library is needed. The page is
served by ``assistant.output.site.make_server`` on loopback, with its Content-Security-Policy.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path
from threading import Thread

import pytest
from test_site import build_fixture_site, url_of

from assistant.output.site import make_server, write_site

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PHONE = {"width": 375, "height": 800, "deviceScaleFactor": 2, "mobile": True}

# CI (.ci/run) installs chromium and sets VOTAL_REQUIRE_BROWSER, so there a missing browser fails
# the run instead of quietly skipping the only test of the page as a phone shows it.
if CHROMIUM is None and os.environ.get("VOTAL_REQUIRE_BROWSER"):
    raise RuntimeError(
        "VOTAL_REQUIRE_BROWSER is set but chromium is not installed (Debian package 'chromium')"
    )
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (Debian package 'chromium')"
)


class DevTools:
    """A headless Chromium and one page of it, spoken to over the DevTools pipe."""

    def __init__(self, profile: Path):
        to_child, self._writer = os.pipe()
        self._reader, from_child = os.pipe()
        # moved above 10 so that placing them at 3 and 4 in the child cannot overwrite one another
        child_in, child_out = (fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_child, from_child))
        os.close(to_child)
        os.close(from_child)

        def place_pipes() -> None:
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                f"--user-data-dir={profile}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            pass_fds=(3, 4),
            preexec_fn=place_pipes,
            env={"TZ": "UTC", "HOME": str(profile), "LANG": "en_US.UTF-8"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(child_in)
        os.close(child_out)
        self._buffer = b""
        self._id = 0
        self._events: list[dict] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]

    def _message(self) -> dict:
        while b"\0" not in self._buffer:
            chunk = os.read(self._reader, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, session: str | None = None, **params) -> dict:
        self._id += 1
        request = {"id": self._id, "method": method, "params": params}
        if session:
            request["sessionId"] = session
        os.write(self._writer, json.dumps(request).encode("utf-8") + b"\0")
        while True:
            message = self._message()
            if message.get("id") == self._id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
            self._events.append(message)

    def page(self, method: str, **params) -> dict:
        return self.call(method, self.session, **params)

    def wait_for(self, event: str) -> dict:
        for i, message in enumerate(self._events):
            if message.get("method") == event:
                return self._events.pop(i)
        while True:
            message = self._message()
            if message.get("method") == event:
                return message
            self._events.append(message)

    def evaluate(self, expression: str):
        result = self.page(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._writer)
        os.close(self._reader)


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("site")
    write_site(build_fixture_site(), folder)
    server = make_server(folder, port=0)
    Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}/index.html"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def phone(site_url, tmp_path_factory):
    browser = DevTools(tmp_path_factory.mktemp("chromium"))
    try:
        browser.page("Emulation.setDeviceMetricsOverride", **PHONE)
        browser.page("Page.enable")
        browser.page("Page.navigate", url=site_url)
        browser.wait_for("Page.loadEventFired")
        yield browser
    finally:
        browser.close()


def test_page_renders_the_votal(phone):
    assert phone.evaluate("document.title") == "Mini <Normal> & Co — Day 2 votal"
    assert phone.evaluate(
        "[...document.querySelectorAll('section.current .who')].map(e => e.textContent)"
    ) == [
        "<i>Carol</i>",
        "=Dave",
        "No elimination",
    ]
    # escaped names stay text: no element was made from a player's name
    assert phone.evaluate("document.querySelectorAll('i').length") == 0


def test_wagon_bars_are_drawn_to_scale(phone):
    shares = phone.evaluate(
        """[...document.querySelectorAll('section.current .bar')].map(
             bar => Math.round(100 * bar.firstElementChild.getBoundingClientRect().width
                               / bar.getBoundingClientRect().width))"""
    )
    assert shares == [67, 33, 33]  # 2, 1 and 1 of the 3 votes a majority needs


def test_countdown_runs_in_the_browser(phone):
    before, after, text = phone.evaluate(
        """new Promise(done => {
             const clock = document.querySelector('.countdown');
             const first = clock.dataset.ticks;
             const wait = setInterval(() => {
               if (clock.dataset.ticks === first) return;
               clearInterval(wait);
               done([first, clock.dataset.ticks, clock.textContent]);
             }, 50);
           })"""
    )
    assert int(after) > int(before) >= 1
    assert text.endswith(" left") and text != "2099-01-01 22:00 UTC"
    days, clock = text[: -len(" left")].split("d ")
    assert int(days) > 0 and len(clock.split(":")) == 3
    # the script also writes times in the reader's zone (UTC here), keeping the server's text as a
    # tooltip
    shown, tooltip = phone.evaluate(
        "(t => [t.textContent, t.title])(document.querySelector('header time'))"
    )
    assert shown != tooltip == "2026-11-02 09:30 UTC"


def test_links_point_at_the_posts(phone):
    log = phone.evaluate(
        "[...document.querySelectorAll('section.current ol.actions a.post')].map(a => a.href)"
    )
    assert log == [url_of(n) for n in (11, 12, 13, 14, 15, 16)]
    voters = phone.evaluate(
        "[...document.querySelectorAll('section.current .voters a')].map(a => a.href)"
    )
    assert voters == [url_of(n) for n in (11, 13, 16, 12)]


def test_page_fits_a_phone_screen(phone):
    # open every folded section too: nothing inside may be wider than the phone either
    was_open = phone.evaluate("[...document.querySelectorAll('details')].map(d => d.open)")
    phone.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    width, client = phone.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert client == PHONE["width"]
    assert width <= PHONE["width"], "the page scrolls sideways on a phone"
    phone.evaluate(
        f"document.querySelectorAll('details').forEach((d, i) => d.open = {json.dumps(was_open)}[i])"
    )


def test_screenshot_for_review(phone):
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / "site-375.png"
    height = phone.evaluate("document.documentElement.scrollHeight")
    clip = {"x": 0, "y": 0, "width": PHONE["width"], "height": height, "scale": 1}
    data = phone.page(
        "Page.captureScreenshot", format="png", captureBeyondViewport=True, clip=clip
    )["data"]
    shot.write_bytes(base64.b64decode(data))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
