"""The studio in a real headless Chromium (Debian's /usr/bin/chromium) via Playwright: the
``browser`` (one per test process: a launch is about 1 s of CPU, 2-5 s of wall on a busy
machine) and ``studio`` fixtures (loaded by tests/conftest.py) and
the helpers the browser tests share. A module calls ``require_chromium()`` first."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # the server (uvicorn, the app) is imported by the tests that open one
    from tests.studio_server import Server

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync",
]  # fmt: skip


def require_chromium() -> None:
    """Skip the calling test module when Playwright for Python or the browser is missing."""
    pytest.importorskip(
        "playwright.sync_api", reason="Playwright for Python is missing (pip install -e '.[test]')"
    )
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no browser at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)


# Chromium's address bar of every window (a context is a window) preloads its popup as a
# WebUI page in a renderer process of its own, ~0.8 s of CPU per context: the tests' pages
# have no address bar to type into. (That CPU is not in the suite's user+sys by
# /usr/bin/time: Chromium's processes are not waited for by their parents.)
OFF = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]


def playwright_disabled_features() -> list[str] | None:
    """The features Playwright's driver disables in Chromium (``--disable-features=...``,
    its ``chromiumSwitches``), read from the installed driver; None when the list is not a
    plain list of names there. Chromium takes only the last ``--disable-features``, so ours
    must repeat Playwright's and replace it."""
    import re

    import playwright

    bundle = Path(playwright.__file__).parent / "driver/package/lib/coreBundle.js"
    try:
        text = bundle.read_text(encoding="utf-8")
    except OSError:
        return None
    m = re.search(r"\bdisabledFeatures = \[(.*?)\]\.filter\(Boolean\);", text, re.S)
    if m is None:
        return None
    body = re.sub(r"//[^\n]*", "", m.group(1))
    names = re.findall(r'"(\w+)"', body)
    if re.sub(r'"\w+"|[\s,]', "", body):  # anything but literal names: not understood
        return None
    return names or None


def launch_options() -> dict:
    """``args`` and ``ignore_default_args`` of the launch: ARGS, and OFF added to the
    features Playwright disables (Playwright's own flag left as it is when unreadable)."""
    theirs = playwright_disabled_features()
    if theirs is None:
        return {"args": ARGS}
    flag = "--disable-features=" + ",".join(theirs)
    return {"args": [*ARGS, f"{flag},{','.join(OFF)}"], "ignore_default_args": [flag]}


@pytest.fixture(scope="session")
def browser():
    """One Chromium for all the browser tests a process runs: each test opens its own
    context (a fresh profile: storage, cookies, cache) and closes it."""
    from playwright import sync_api

    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, **launch_options())
        yield b
        b.close()


@pytest.fixture
def studio(browser):
    """open(path) -> (page, server); ``server=`` opens another tab on a running server
    (``context=``: in the same browser profile). Everything is closed after the test."""
    from tests.studio_server import Server

    servers: list[Server] = []
    contexts: list = []
    errors: list[str] = []

    def open_(path: Path, readonly: bool = False, *, bypass_csp: bool = False, root=None,
              server: Server | None = None, context=None):  # fmt: skip
        if server is None:
            server = Server(path, readonly, root)
            servers.append(server)
        if context is None:
            context = browser.new_context(
                viewport={"width": 1400, "height": 850}, bypass_csp=bypass_csp
            )
            # the page's timers (the 1.5 s poll, the autosave offer's retries) run on
            # Playwright's clock: time flows as usual, and a test that waits for a timer
            # moves the clock on (``page.clock.run_for``) instead of sleeping
            context.clock.install()
            contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # a refused script or style would be an injection the page let through
        page.on(
            "console",
            lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
        )
        page.goto(server.url)
        page.wait_for_selector("body[data-ready='1']")
        return page, server

    open_.servers = servers
    yield open_
    for context in contexts:
        context.close()
    for server in servers:
        server.stop()
    assert not errors, errors


def tid(page, name: str):
    return page.locator(f'[data-testid="{name}"]')


def centre(page, selector: str) -> tuple[float, float]:
    """The centre of an element on screen, read in one step (the overlay is redrawn often)."""
    page.wait_for_selector(selector)
    return page.evaluate(
        """(sel) => {
          const r = document.querySelector(sel).getBoundingClientRect();
          return [r.x + r.width / 2, r.y + r.height / 2];
        }""",
        selector,
    )


def press(page, key: str, times: int, ctrlKey: bool = False) -> None:
    """Send a key ``times`` times in one round trip (the page's own key handler runs)."""
    page.evaluate(
        """([key, times, ctrlKey]) => {
          for (let i = 0; i < times; i++)
            document.body.dispatchEvent(
              new KeyboardEvent('keydown', {key, ctrlKey, bubbles: true}));
        }""",
        [key, times, ctrlKey],
    )


def settle(page) -> None:
    """Wait until the page has sent its last edit and shows the server's answer to it."""
    page.wait_for_function("() => !S.syncing && !S.needSync && S.sheetRevision === S.revision")
