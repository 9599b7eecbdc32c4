"""The studio's HTTP API (docs/studio.md) through Starlette's test client.

Every route is compared with what the library and the CLI give for the same map,
so the page can never disagree with ``mapkit validate``, ``render`` or ``simulate``.
"""

from __future__ import annotations

import copy
import json
import re
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    # Starlette 1.x suggests httpx2 for its test client; httpx (the test extra) works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from typer.testing import CliRunner

from mapkit.cli import app as cli
from mapkit.intersections import intersections
from mapkit.mapfile import load_map, writer
from mapkit.render.svg import sheet_svg
from mapkit.resources import resolve_map, shipped_maps
from mapkit.studio.app import create_app
from mapkit.studio.session import Session

HOST = "127.0.0.1:8123"
BASE = f"http://{HOST}"
JSON = {"Content-Type": "application/json"}
ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


TOKEN = "test-token"


def client_for(path: Path, readonly: bool = False, root: Path | None = None) -> TestClient:
    """A test client that sends the session token with every request."""
    app = create_app(Session(path, readonly=readonly, root=root), [HOST], token=TOKEN)
    return TestClient(app, base_url=BASE, headers={"X-Mapkit-Token": TOKEN})


@pytest.fixture
def map_file(tmp_path, tiny_doc) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(writer.dumps(tiny_doc), encoding="utf-8")
    return path


@pytest.fixture
def client(map_file):
    with client_for(map_file) as c:
        yield c


def put(client: TestClient, doc: dict, revision: str | None = None):
    rev = revision or client.get("/api/map").json()["revision"]
    return client.put("/api/map", json={"revision": rev, "map": doc})


def test_get_map_is_the_file_with_a_revision(client, map_file):
    data = client.get("/api/map").json()
    assert data["map"] == json.loads(map_file.read_text(encoding="utf-8"))
    assert data["revision"] and data["exists"] and not data["dirty"] and not data["readonly"]
    assert data["path"] == str(map_file)


def test_put_replaces_the_session_map_not_the_file(client, map_file, tiny_doc):
    before = map_file.read_bytes()
    tiny_doc["name"] = "Renamed"
    res = put(client, tiny_doc)
    assert res.status_code == 200 and res.json()["dirty"] is True
    data = client.get("/api/map").json()
    assert data["map"]["name"] == "Renamed" and data["revision"] == res.json()["revision"]
    assert map_file.read_bytes() == before


def test_stale_revision_gets_409(client, tiny_doc):
    old = client.get("/api/map").json()["revision"]
    assert put(client, tiny_doc, old).status_code == 200
    res = put(client, tiny_doc, old)
    assert res.status_code == 409
    assert res.json()["revision"] == client.get("/api/map").json()["revision"] != old


@pytest.mark.parametrize(
    "body, headers, status, words",
    [
        (b'{"revision": "r1", "map": {', JSON, 400, "not valid JSON"),
        (b'{"revision": "r1", "map": {"x": NaN}}', JSON, 400, "NaN is not a number"),
        (b"\xff\xfe", JSON, 400, "not UTF-8"),
        (b'{"map": {}}', JSON, 400, '"revision"'),
        (b'{"revision": "r1", "map": [1, 2]}', JSON, 422, "must be a JSON object"),
        (b'{"revision": "r1", "map": {}}', {"Content-Type": "text/plain"}, 415, "as JSON"),
    ],
)
def test_bad_requests_get_a_clear_error(client, body, headers, status, words):
    res = client.put("/api/map", content=body, headers=headers)
    assert res.status_code == status
    assert words in res.json()["error"]


def test_bad_json_error_names_the_place(client):
    res = client.put("/api/map", content=b'{"revision": "r1",\n "map": }', headers=JSON)
    assert res.json()["error"] == (
        "request body is not valid JSON: Expecting value at line 2, column 9"
    )


def test_diagnostics_are_validates_json(client, map_file, tiny_doc):
    # line A now passes through station d without stopping there: GEO001; b moved: GEO002
    tiny_doc["stations"][3]["y"] = 0.1
    tiny_doc["lines"][1]["stops"] = ["b", "d"]
    tiny_doc["lines"][1]["depot"] = {"x": 2, "y": 3}
    assert put(client, tiny_doc).status_code == 200
    live = client.get("/api/diagnostics?draft=0").json()
    assert client.post("/api/save", json={}).status_code == 200
    res = runner.invoke(cli, ["validate", "--format", "json", str(map_file)])
    (expected,) = json.loads(res.output)["files"]
    assert live["diagnostics"] == expected["diagnostics"]
    assert live["valid"] is expected["valid"] is False
    assert {d["code"] for d in live["diagnostics"]} >= {"GEO002"}
    assert all(d["pointer"] for d in live["diagnostics"])


def test_diagnostics_draft_mode_and_paper(client, tiny_doc):
    del tiny_doc["lines"][0]["windows"]
    put(client, tiny_doc)
    assert client.get("/api/diagnostics").json()["diagnostics"] == []
    strict = client.get("/api/diagnostics?draft=0").json()["diagnostics"]
    assert [(d["code"], d["pointer"]) for d in strict] == [("SCH002", "/lines/0")]
    assert client.get("/api/diagnostics?paper=legal").status_code == 400


def test_sheet_is_what_render_draws(client, map_file):
    res = client.get("/api/sheet.svg")
    assert res.status_code == 200 and res.headers["content-type"].startswith("image/svg+xml")
    assert res.text == sheet_svg(load_map(map_file)).svg
    layout = json.loads(res.headers["x-mapkit-layout"])
    assert layout["width"] == 297 and layout["height"] == 210 and layout["scale"] > 0
    labelled = client.get("/api/sheet.svg?labels=1").text
    assert labelled == sheet_svg(load_map(map_file), labels=True).svg
    assert 'class="label"' in labelled
    letter = client.get("/api/sheet.svg?paper=letter").text
    assert letter == sheet_svg(load_map(map_file), paper="letter").svg


def test_sheet_of_a_map_that_cannot_load_is_422(client, tiny_doc):
    tiny_doc["lines"][0]["stops"] = ["a", "nowhere"]
    put(client, tiny_doc)
    res = client.get("/api/sheet.svg")
    assert res.status_code == 422 and res.json()["codes"] == ["REF001"]


def test_intersections_match_the_library(client, map_file):
    data = client.get("/api/intersections").json()
    assert data.pop("revision")
    assert data == json.loads(json.dumps(intersections(load_map(map_file)).to_dict()))


def test_simulate_returns_the_cli_report_and_feeds_the_heatmap(client, map_file):
    assert client.get("/api/heatmap.svg").status_code == 404
    body = {"games": 6, "bots": ["greedy"], "seed": 3}
    res = client.post("/api/simulate", json=body)
    assert res.status_code == 200, res.text
    cli_out = runner.invoke(
        cli, ["simulate", str(map_file), "-n", "6", "--seed", "3", "--format", "json"]
    )
    studio = res.json()
    applied, settled = studio.pop("apply_points"), studio.pop("apply_settled")
    assert studio == json.loads(cli_out.output)
    assert set(applied) == {"A", "B"} and settled in (True, False)
    heat = client.get("/api/heatmap.svg")
    assert heat.status_code == 200 and 'class="heat-value"' in heat.text
    assert json.loads(heat.headers["x-mapkit-layout"])["scale"] > 0


@pytest.mark.parametrize(
    "body, words",
    [
        ({"games": 0}, "games must be"),
        ({"games": 10**6}, "games must be"),
        ({"bots": ["genius"]}, "unknown bot 'genius'"),
        ({"bots": []}, "1 to 6 bot"),
        ({"seed": "x"}, "seed must be"),
        ([1], "JSON object"),
    ],
)
def test_simulate_rejects_bad_settings(client, body, words):
    res = client.post("/api/simulate", json=body)
    assert res.status_code == 400 and words in res.json()["error"]


def test_reference_measures_the_shipped_cities_with_the_same_settings(client):
    res = client.post("/api/reference", json={"games": 2, "bots": ["random"], "seed": 5})
    cities = res.json()["cities"]
    assert [c["id"] for c in cities] == [p.stem for p in shipped_maps()]
    assert all(isinstance(c["mean"], float | int) for c in cities)


def test_save_writes_the_stable_layout(client, map_file, tiny_doc):
    doc = copy.deepcopy(tiny_doc)
    doc["stations"][0] = {"name": "Alpha", "x": 0, "id": "a", "y": 0}
    put(client, doc)
    res = client.post("/api/save", json={})
    assert res.status_code == 200 and res.json()["dirty"] is False
    text = map_file.read_text(encoding="utf-8")
    assert text == writer.dumps(doc)
    assert text.startswith('{\n  "$schema": "../schemas/map.schema.json",\n  "format"')
    assert '    {"id": "a", "x": 0, "y": 0, "name": "Alpha"},\n' in text
    assert [p.name for p in map_file.parent.iterdir()] == [map_file.name]


def test_save_refuses_a_file_changed_on_disk_unless_told(client, map_file, tiny_doc):
    tiny_doc["name"] = "Mine"
    put(client, tiny_doc)
    map_file.write_text(map_file.read_text(encoding="utf-8").replace("Tiny", "Theirs"))
    res = client.post("/api/save", json={})
    assert res.status_code == 409 and res.json()["conflict"] is True
    assert "changed on disk" in res.json()["error"]
    assert "Theirs" in map_file.read_text(encoding="utf-8")
    assert client.post("/api/save", json={"overwrite": True}).status_code == 200
    assert json.loads(map_file.read_text(encoding="utf-8"))["name"] == "Mine"


def test_save_with_a_stale_revision_is_refused(client, tiny_doc):
    old = client.get("/api/map").json()["revision"]
    put(client, tiny_doc, old)
    assert client.post("/api/save", json={"revision": old}).status_code == 409


def test_shipped_city_is_read_only_with_save_as(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    berlin = resolve_map("berlin")
    before = berlin.read_bytes()
    with client_for(berlin, readonly=True) as c:
        assert c.get("/api/map").json()["readonly"] is True
        res = c.post("/api/save", json={})
        assert res.status_code == 403 and "read-only" in res.json()["error"]
        res = c.post("/api/save", json={"path": str(berlin)})
        assert res.status_code == 403 and "absolute path" in res.json()["error"]
        assert c.post("/api/save", json={"path": "notes.txt"}).status_code == 400
        res = c.post("/api/save", json={"path": "my-berlin.json"})
        assert res.status_code == 200, res.text
        assert res.json()["readonly"] is False
        assert res.json()["path"] == str(tmp_path / "my-berlin.json")
    assert berlin.read_bytes() == before
    assert (tmp_path / "my-berlin.json").read_bytes() == before


def test_save_as_does_not_replace_an_existing_file_unless_told(client, tmp_path):
    other = tmp_path / "other.json"
    other.write_text("{}", encoding="utf-8")
    res = client.post("/api/save", json={"path": "other.json"})
    assert res.status_code == 409 and other.read_text() == "{}"
    assert res.json() == {"error": f"{other} exists; say overwrite to replace it", "conflict": True}
    assert (
        client.post("/api/save", json={"path": "other.json", "overwrite": True}).status_code == 200
    )
    assert json.loads(other.read_text(encoding="utf-8"))["id"] == "tiny"


def test_new_map_writes_nothing_until_saved(tmp_path):
    path = tmp_path / "my-new_city.json"
    with client_for(path) as c:
        data = c.get("/api/map").json()
        assert data["exists"] is False
        assert data["map"] == {
            "format": "mapkit-map/1",
            "id": "my-new-city",
            "name": "My New City",
            "stations": [],
            "lines": [],
        }
        assert c.get("/api/diagnostics").json()["diagnostics"] == []
        assert c.get("/api/sheet.svg").status_code == 422
        assert not path.exists()
        assert c.post("/api/save", json={}).status_code == 200
    res = runner.invoke(cli, ["validate", "--draft", str(path)])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize(
    "headers",
    [
        {"Host": "evil.example:8123"},
        {"Host": "127.0.0.1:9999"},
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_foreign_host_or_origin_is_refused(client, map_file, tiny_doc, headers):
    before = map_file.read_bytes()
    assert client.get("/api/map", headers=headers).status_code == 403
    res = client.put("/api/map", json={"revision": "r1", "map": tiny_doc}, headers=headers)
    assert res.status_code == 403 and "refused" in res.json()["error"]
    assert client.post("/api/save", json={"overwrite": True}, headers=headers).status_code == 403
    assert map_file.read_bytes() == before
    assert client.get("/api/map", headers={"Origin": BASE}).status_code == 200
    assert client.get("/api/map", headers={"Sec-Fetch-Site": "same-origin"}).status_code == 200


def test_page_and_assets(client):
    page = client.get("/")
    assert page.status_code == 200 and "studio.js" in page.text
    assert client.get("/static/studio.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/studio.css").status_code == 200
    assert client.get("/static/../app.py").status_code == 404
    assert client.get("/static/session.py").status_code == 404
    assert client.get("/favicon.ico").status_code == 204


def test_docs_list_every_data_testid_of_the_page():
    static = ROOT / "mapkit" / "studio" / "static"
    page = (static / "index.html").read_text() + (static / "studio.js").read_text()
    used = set(re.findall(r'data-testid="([a-z-]+)"', page))
    used |= set(re.findall(r'q\("([a-z-]+)"\)', page))
    used |= set(re.findall(r'field\("[^"]*", "([a-z-]+)"', page))
    documented = set(re.findall(r"`([a-z-]+)`", (ROOT / "docs" / "studio.md").read_text()))
    missing = sorted(t for t in used if t not in documented)
    assert not missing, f"data-testid not in docs/studio.md: {missing}"
    for tool in ("tool-select", "tool-station", "tool-line", "cmd-delete", "cmd-undo",
                 "cmd-redo", "cmd-save", "cmd-playtest"):  # fmt: skip
        assert tool in used


@pytest.mark.parametrize("name", [p.stem for p in shipped_maps()])
def test_saving_a_shipped_map_unchanged_gives_the_same_bytes(name):
    text = resolve_map(name).read_text(encoding="utf-8")
    assert writer.dumps(json.loads(text)) == text


_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=40, deadline=None)
@given(doc=st.dictionaries(st.text(), _json, max_size=6))
def test_saved_text_reads_back_as_the_same_document(doc):
    text = writer.dumps(doc)
    assert json.loads(text) == doc
    assert writer.dumps(json.loads(text)) == text


_ids = st.sampled_from(["a", "b", "c", "d"]) | st.text(max_size=3)
_coord = st.integers(-50, 50) | st.floats(-1e6, 1e6, allow_nan=False) | st.just("x")
_station = st.fixed_dictionaries(
    {"id": _ids, "x": _coord, "y": _coord}, optional={"special": st.booleans()}
)
_line = st.fixed_dictionaries(
    {
        "id": st.sampled_from(["A", "B", "C", "a"]),
        "color": st.sampled_from(["#dd001f", "#1344ad", "#ffffff", "red"]),
        "depot": st.fixed_dictionaries({"x": _coord, "y": _coord}),
        "stops": st.lists(_ids, max_size=5),
    },
    optional={
        "windows": st.integers(-1, 9),
        "points": st.fixed_dictionaries(
            {"first": st.integers(-1, 9), "others": st.integers(-1, 9)}
        ),
        "loop": st.booleans(),
        "shape": st.lists(st.lists(_coord, min_size=2, max_size=2), max_size=4),
    },
)
_draft = st.fixed_dictionaries(
    {"format": st.just("mapkit-map/1"), "id": st.just("h"), "name": st.just("H")},
    optional={"stations": st.lists(_station, max_size=6), "lines": st.lists(_line, max_size=3)},
)


@settings(max_examples=20, deadline=None)
@given(doc=_draft)
def test_any_map_the_page_sends_gets_an_answer_never_a_crash(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("h") / "h.json"
    with client_for(path) as c:
        assert put(c, doc).status_code == 200
        for draft in ("1", "0"):
            res = c.get(f"/api/diagnostics?draft={draft}")
            assert res.status_code == 200, res.text
        assert c.get("/api/sheet.svg").status_code in (200, 422)
        assert c.get("/api/intersections").status_code in (200, 422)


def test_new_lines_take_the_recommended_palette_of_the_rules(tmp_path):
    from mapkit.checks.colour import PALETTE

    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = rules[rules.index("### Recommended palette") : rules.index("## DES004")]
    documented = re.findall(r"\| `(#[0-9a-f]{6})` \|", section)
    assert documented == list(PALETTE.values())
    with client_for(tmp_path / "new.json") as c:
        assert c.get("/api/palette").json() == {"palette": documented}


def test_the_rules_say_how_many_branches_a_line_may_have_as_the_schema_does(client):
    """The page's *add branch* stops at the map schema's limit, read from the schema."""
    schema = json.loads((ROOT / "schemas" / "map.schema.json").read_text(encoding="utf-8"))
    limit = schema["definitions"]["line"]["properties"]["branches"]["maxItems"]
    got = client.get("/api/rulesets").json()
    assert (got["max_branches"], got["branch_scoring"]) == (limit, ["best", "each"])


def test_suggested_points_settle_and_bring_no_new_problem(tmp_path):
    """Applying the points the studio suggests adds no warning, and the same play-test
    (same seed) on the map with them applied suggests them again."""
    path = tmp_path / "tutorial.json"
    path.write_text((ROOT / "examples" / "tutorial.json").read_text(encoding="utf-8"))
    body = {"games": 200, "bots": ["greedy"], "seed": 1}
    with client_for(path) as c:
        doc = c.get("/api/map").json()["map"]
        before = {
            (d["code"], d["pointer"]) for d in c.get("/api/diagnostics").json()["diagnostics"]
        }
        first = c.post("/api/simulate", json=body).json()
        raw = {ln["line"]: ln["suggested"] for ln in first["lines"]}
        assert first["apply_settled"] is True and first["apply_points"] != raw  # DES005 kept out
        for ln in doc["lines"]:
            ln["points"] = first["apply_points"][ln["id"]]
        put(c, doc)
        after = {(d["code"], d["pointer"]) for d in c.get("/api/diagnostics").json()["diagnostics"]}
        assert after <= before
        again = c.post("/api/simulate", json=body).json()
        assert again["apply_points"] == first["apply_points"] and again["apply_settled"] is True
