"""``mapkit studio`` as a command: clear refusals, and a real server process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


@pytest.mark.parametrize(
    "arg, code, words",
    [
        ("{tmp}", 2, "is a folder"),
        ("{tmp}/missing/city.json", 2, "does not exist"),
        ("{tmp}/broken.json", 1, "cannot open"),
        ("{tmp}/nan.json", 1, "NaN"),
        ("{tmp}/list.json", 1, "not a map"),
    ],
)
def test_refusals(tmp_path, arg, code, words):
    (tmp_path / "broken.json").write_text('{"id": ', encoding="utf-8")
    (tmp_path / "list.json").write_text("[1, 2]", encoding="utf-8")
    (tmp_path / "nan.json").write_text('{"x": NaN}', encoding="utf-8")
    res = runner.invoke(app, ["studio", arg.format(tmp=tmp_path), "--no-browser"])
    assert res.exit_code == code
    assert words in res.output
    assert "Traceback" not in res.output


def test_bad_port_is_a_usage_error(tmp_path):
    res = runner.invoke(app, ["studio", str(tmp_path / "a.json"), "--port", "70000"])
    assert res.exit_code == 2 and "--port" in res.output


@pytest.mark.parametrize(
    "arg, note, readonly",
    [("fresh.json", "[new: nothing written until you save]", False),
     ("berlin", "[read-only (use save as)]", True)],
)  # fmt: skip
def test_the_command_serves_the_map_and_writes_nothing(tmp_path, arg, note, readonly):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mapkit", "studio", arg, "--no-browser", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    try:
        first = proc.stderr.readline() + proc.stderr.readline()
        url, token = re.search(r"(http://127\.0\.0\.1:\d+/)\?token=([\w-]+)", first).groups()
        assert note in first
        for _ in range(100):
            try:
                req = urllib.request.Request(url + "api/map", headers={"X-Mapkit-Token": token})
                with urllib.request.urlopen(req, timeout=5) as res:
                    data = json.loads(res.read())
                break
            except OSError:
                time.sleep(0.05)
        assert data["map"]["id"] == Path(arg).stem and data["readonly"] is readonly
        assert data["exists"] is readonly
    finally:
        proc.terminate()
        proc.wait(10)
    assert list(tmp_path.iterdir()) == []
