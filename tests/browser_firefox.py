"""The studio page in Debian's Firefox ESR, driven over WebDriver BiDi (optional).

Playwright drives only its own patched Firefox, which ``playwright install`` would download,
so this test speaks the browser's standard WebDriver BiDi protocol itself. Firefox takes about
10 s to start and drive, too slow for every run, so the file is outside the suite's
``test_*.py`` pattern and runs when named: ``python -m pytest tests/browser_firefox.py``
(needs ``firefox-esr`` and the ``websockets`` package). CI runs Chromium only
(tests/test_studio_e2e.py).
"""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import subprocess
from pathlib import Path

import pytest

FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
if FIREFOX is None:
    pytest.skip("no Firefox (apt-get install firefox-esr)", allow_module_level=True)
websockets = pytest.importorskip("websockets", reason="WebDriver BiDi needs pip websockets")

from tests.studio_server import Server  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


class Bidi:
    """Just enough WebDriver BiDi: commands, script evaluation, pointer and key input."""

    def __init__(self, ws) -> None:
        self.ws, self.n, self.ctx = ws, 0, None

    async def cmd(self, method: str, params: dict) -> dict:
        self.n += 1
        await self.ws.send(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            msg = json.loads(await self.ws.recv())
            if msg.get("id") == self.n:
                assert msg.get("type") != "error", msg
                return msg["result"]

    async def js(self, expr: str):
        res = await self.cmd(
            "script.evaluate",
            {"expression": expr, "target": {"context": self.ctx}, "awaitPromise": True},
        )
        return res["result"].get("value")

    async def until(self, expr: str, timeout: float = 10.0):
        for _ in range(int(timeout / 0.05)):
            value = await self.js(expr)
            if value:
                return value
            await asyncio.sleep(0.05)
        raise AssertionError(f"never true: {expr}")

    async def centre(self, selector: str) -> tuple[int, int]:
        x, y = json.loads(
            await self.js(
                "JSON.stringify((r => [r.x + r.width / 2, r.y + r.height / 2])"
                f"(document.querySelector('{selector}').getBoundingClientRect()))"
            )
        )
        return int(x), int(y)

    async def pointer(self, *steps: dict) -> None:
        actions = [{"type": "pointer", "id": "mouse", "actions": list(steps)}]
        await self.cmd("input.performActions", {"context": self.ctx, "actions": actions})

    async def click(self, x: int, y: int) -> None:
        await self.pointer(
            {"type": "pointerMove", "x": x, "y": y},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0},
        )

    async def key(self, value: str) -> None:
        keys = [{"type": "keyDown", "value": value}, {"type": "keyUp", "value": value}]
        actions = [{"type": "key", "id": "keyboard", "actions": keys}]
        await self.cmd("input.performActions", {"context": self.ctx, "actions": actions})


async def _drive(url: str, port: int, shot: Path) -> dict:
    for _ in range(200):
        try:
            ws = await websockets.connect(f"ws://127.0.0.1:{port}/session", max_size=2**26)
            break
        except OSError:
            await asyncio.sleep(0.05)
    b = Bidi(ws)
    await b.cmd("session.new", {"capabilities": {}})
    b.ctx = (await b.cmd("browsingContext.getTree", {}))["contexts"][0]["context"]
    viewport = {"width": 1400, "height": 900}
    await b.cmd("browsingContext.setViewport", {"context": b.ctx, "viewport": viewport})
    await b.cmd("browsingContext.navigate", {"context": b.ctx, "url": url, "wait": "complete"})
    await b.until("document.body.dataset.ready === '1'")
    seen = {
        "sheet_stations": await b.js("document.querySelectorAll('#sheet-layer .station').length")
    }
    await b.key("s")
    x, y = await b.centre('[data-handle="e"]')
    await b.click(x + 120, y)
    await b.key("l")
    await b.click(*await b.centre('[data-handle="s6"]'))
    await b.click(x, y)
    await b.key("\ue007")  # Enter
    seen["lines"] = await b.js("S.doc.lines.map(l => l.id + ':' + l.stops.join('-')).join(' ')")
    await b.key("v")
    hx, hy = await b.centre('[data-handle="hub"]')
    nx, ny = await b.centre('[data-handle="n"]')
    await b.pointer(
        {"type": "pointerMove", "x": nx, "y": ny},
        {"type": "pointerDown", "button": 0},
        {"type": "pointerMove", "x": hx + 5, "y": hy - 5, "duration": 150},
        {"type": "pointerUp", "button": 0},
    )
    seen["after_drag"] = await b.until(
        "Array.from(document.querySelectorAll('[data-testid=diagnostic]'))"
        ".map(li => li.dataset.code).join(',')"
    )
    await b.click(*await b.centre('[data-testid="cmd-undo"]'))
    await b.until("document.querySelectorAll('[data-testid=diagnostic]').length === 0")
    png = await b.cmd("browsingContext.captureScreenshot", {"context": b.ctx})
    shot.write_bytes(base64.b64decode(png["data"]))
    await ws.close()
    return seen


def test_draw_drag_and_undo_in_firefox(tmp_path):
    path = tmp_path / "minimal.json"
    shutil.copy(ROOT / "examples" / "minimal.json", path)
    server = Server(path)
    profile = tmp_path / "profile"
    profile.mkdir()
    port = Server.free_port()
    firefox = subprocess.Popen(
        [FIREFOX, "--headless", "--no-remote", "--profile", str(profile),
         f"--remote-debugging-port={port}", "about:blank"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        seen = asyncio.run(asyncio.wait_for(_drive(server.url, port, tmp_path / "firefox.png"), 60))
    finally:
        firefox.terminate()
        firefox.wait(10)
        server.stop()
    assert seen["sheet_stations"] == 5
    assert seen["lines"] == "A:w-hub-e B:n-hub-s C:s6-e"
    assert "GEO002" in seen["after_drag"].split(",")
    assert (tmp_path / "firefox.png").stat().st_size > 10_000
