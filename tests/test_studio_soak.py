"""Soak: tabs editing at once and hostile requests between them, for a few seconds; the
server answers every request (no 5xx), and the file ends intact and valid.

A longer run against a real process: ``python benchmarks/soak_studio.py``.
"""

from __future__ import annotations

import json
import time

from typer.testing import CliRunner

from mapkit.cli import app as cli
from mapkit.mapfile import writer
from tests.studio_server import Server
from tests.studio_soak import soak


def test_soak_ends_with_the_file_intact_and_the_server_responsive(tmp_path, tiny_doc):
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "folder.json").mkdir()
    path = folder / "tiny.json"
    path.write_text(writer.dumps(tiny_doc), encoding="utf-8")
    before = path.read_bytes()
    server = Server(path)
    try:
        result = soak(server.port, server.token, tabs=3, seconds=3, edits=100)
        assert result.edits >= 30, result
        assert not [s for s in result.statuses if s >= 500], result.statuses
        assert {s for s in result.statuses if s >= 400} >= {400, 403, 409, 413}
        assert path.read_bytes() == before  # no hostile save touched it
        start = time.monotonic()
        status, state = server.request("api/map")
        assert status == 200 and time.monotonic() - start < 1
        assert server.request("api/save", {})[0] == 200
        saved = json.loads(path.read_text(encoding="utf-8"))
        assert saved == state["map"]
    finally:
        server.stop()
    assert sorted(p.name for p in folder.iterdir()) == ["folder.json", "tiny.json"]
    # intact: a whole map file (random moves may well have made it a bad design: GEO codes)
    res = CliRunner().invoke(cli, ["validate", "--format", "json", str(path)])
    codes = {d["code"] for d in json.loads(res.output)["files"][0]["diagnostics"]}
    assert not {c for c in codes if c.startswith(("JSON", "SCH", "REF"))}, codes
