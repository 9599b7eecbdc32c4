"""The studio's Tidy layout, Import GTFS and background image over HTTP (issue 16, point 4).

Tidy and import answer exactly what the library makes (``mapkit.layout``,
``mapkit.importers``) and change nothing on the server; uploads are untrusted: each
refusal is a 4xx with its reason, nothing is written to disk, and an image is served
back only as the image type its bytes are, under a policy that runs nothing.
"""

from __future__ import annotations

import copy
import io
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mapkit.checks.draft import complete_draft
from mapkit.importers import ImportConfig, network_to_map, read_gtfs
from mapkit.layout import LayoutConfig, layout
from mapkit.mapfile import writer
from mapkit.mapfile.model import build_map
from mapkit.studio.guard import DATA_CSP
from mapkit.studio.routes import tools as routes
from mapkit.studio.tools import TIDY_SECONDS
from tests.conftest import TINY
from tests.feeds import CROSS_ROUTES, CROSS_STATIONS, cross_feed, feed_files, zipped
from tests.test_studio_api import client_for

ZIP = {"Content-Type": "application/zip"}


def png(width: int = 3, height: int = 2) -> bytes:
    """A small valid PNG (grey pixels)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    rows = b"".join(b"\x00" + b"\x80\x80\x80" * width for _ in range(height))
    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", head)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


@pytest.fixture
def folder(tmp_path) -> Path:
    out = tmp_path / "work"
    out.mkdir()
    return out


def _open(folder: Path, doc: dict):
    path = folder / "tiny.json"
    path.write_text(writer.dumps(doc), encoding="utf-8")
    return client_for(path)


@pytest.fixture
def bent(tiny_doc) -> dict:
    """The tiny map with c off the row of a and b: the stretch b-c is 19° off east."""
    doc = copy.deepcopy(tiny_doc)
    doc["stations"][2]["y"] = 0.7
    return doc


def test_tidy_answers_the_layout_of_the_library_and_changes_nothing(folder, bent):
    with _open(folder, bent) as client:
        before = client.get("/api/map").json()
        res = client.post("/api/layout", json={"revision": before["revision"]})
        assert res.status_code == 200, res.text
        got = res.json()
        assert client.get("/api/map").json() == before  # the page applies it, as one edit
    city = build_map(bent)
    want = layout(city, LayoutConfig(time_limit=TIDY_SECONDS), complete_draft(bent)[0]).doc
    assert got["map"] == want
    assert got["revision"] == before["revision"] and got["moved"] == 3 and got["notes"] == []
    assert [(s["x"], s["y"]) for s in got["map"]["stations"]] == [(0, 0), (4, 0), (8, 0), (4, 4)]
    assert list(folder.iterdir()) == [folder / "tiny.json"]


def test_tidy_of_a_selection_pins_every_other_station(folder, bent):
    with _open(folder, bent) as client:
        res = client.post("/api/layout", json={"selection": ["c"]})
    got = res.json()
    assert got["moved"] == 1
    placed = {s["id"]: (s["x"], s["y"]) for s in got["map"]["stations"]}
    assert {k: v for k, v in placed.items() if k != "c"} == {"a": (0, 0), "b": (2, 0), "d": (2, 2)}
    assert placed["c"][1] == 0  # back on the row of a and b


def test_a_draft_stays_a_draft_when_tidied(folder, bent):
    del bent["lines"][0]["windows"]
    del bent["lines"][1]["points"]
    with _open(folder, bent) as client:
        lines = client.post("/api/layout", json={}).json()["map"]["lines"]
    assert "windows" not in lines[0] and lines[0]["points"] == {"first": 3, "others": 1}
    assert "points" not in lines[1] and lines[1]["windows"] == 1


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"revision": "r0"}, 409, "the map changed since this revision"),
        ({"selection": ["nowhere"]}, 400, "no station 'nowhere' in the map (selection)"),
        ({"selection": "c"}, 400, 'expected "selection": a list of station ids'),
        ({"selection": []}, 400, "the selection holds no station; select some, or tidy the map"),
        ([], 400, 'expected a JSON object like {"revision": "r7"} or '
                  '{"revision": "r7", "selection": ["s1"]}'),
    ],
)  # fmt: skip
def test_tidy_refusals(folder, bent, body, status, message):
    with _open(folder, bent) as client:
        res = client.post("/api/layout", json=body)
    assert (res.status_code, res.json()["error"]) == (status, message)


def test_tidy_needs_lines_and_waits_its_turn(folder, tiny_doc):
    tiny_doc["lines"] = []
    with _open(folder, tiny_doc) as client:
        res = client.post("/api/layout", json={})
        assert (res.status_code, res.json()["error"]) == (
            422,
            "nothing to tidy yet: the layout follows the lines, so draw one first",
        )
        studio = client.app.state.studio
        with studio.busy:
            res = client.post("/api/layout", json={})
        assert (res.status_code, res.json()["error"]) == (
            429,
            "a layout or an import is running; try again when it is done",
        )


def test_import_answers_the_importers_map_and_writes_nothing(folder, tiny_doc):
    data = cross_feed()
    with _open(folder, tiny_doc) as client:
        before = client.get("/api/map").json()
        res = client.post("/api/import/gtfs", content=data, headers=ZIP)
        assert res.status_code == 200, res.text
        assert client.get("/api/map").json() == before
    got = res.json()
    want = network_to_map(read_gtfs(io.BytesIO(data)), ImportConfig(map_id="tiny"))
    assert got["map"] == want.doc
    assert got["notes"] == want.notes
    assert (got["stations"], got["lines"], got["errors"], got["warnings"]) == (11, 3, 0, 0)
    assert got["map"]["id"] == "tiny" and got["map"]["name"] == want.doc["name"]
    assert list(folder.iterdir()) == [folder / "tiny.json"]


def test_import_options_are_the_commands(folder, tiny_doc):
    query = "?max_stations=8&max_lines=1&route_types=metro&layout=0"
    with _open(folder, tiny_doc) as client:
        got = client.post("/api/import/gtfs" + query, content=cross_feed(), headers=ZIP).json()
    assert (got["stations"], got["lines"]) == (5, 1)
    assert [s["name"] for s in got["map"]["stations"]] == [
        "West End", "Mill", "Centre", "Market", "East End",
    ]  # fmt: skip


BOMB = zipped({**feed_files(CROSS_STATIONS, CROSS_ROUTES), "stops.txt": b"0" * (4 << 20)})


@pytest.mark.parametrize(
    "query, body, status, message",
    [
        ("", b"", 415, "not a GTFS feed: a feed is a zip file (stops.txt, routes.txt, ...)"),
        ("", b"<html>", 415, "not a GTFS feed: a feed is a zip file (stops.txt, routes.txt, ...)"),
        ("", cross_feed()[:300], 422,
         "cannot import the feed: the feed is not a readable zip file (File is not a zip file)"),
        ("", BOMB, 422, "cannot import the feed: the feed: stops.txt unpacks 1027 times its "
                        "packed size (more than 100): refusing a zip bomb"),
        ("", cross_feed(stop_times_txt=None), 422,
         "cannot import the feed: the feed has no stop_times.txt: it is not a GTFS feed"),
        ("?route_types=bus", cross_feed(), 422,
         "cannot import the feed: the feed has no route of the chosen types; it has "
         "light-rail (1), metro (1): choose others with --route-types"),
        ("?route_types=zeppelin", cross_feed(), 400, "unknown route type 'zeppelin'; known: "
         "light-rail, metro, rail, bus, ferry, cable-tram, aerial, funicular, trolleybus, "
         "monorail or a number"),
        ("?max_stations=1", cross_feed(), 400, "max stations must be 2 to 400"),
        ("?max_lines=ten", cross_feed(), 400, "max_lines must be a whole number, not 'ten'"),
        ("?paper=a3", cross_feed(), 400, "unknown paper 'a3'; known: a4, letter"),
        ("?name=../../my%20feed%07.zip", cross_feed(stop_times_txt=None), 422,
         "cannot import the feed: my feed.zip has no stop_times.txt: it is not a GTFS feed"),
    ],
 ids=["empty", "html", "truncated", "bomb", "no-stop-times", "no-such-routes", "unknown-kind",
        "max-stations", "max-lines-word", "paper", "named"],
)  # fmt: skip
def test_import_refusals(folder, tiny_doc, query, body, status, message):
    with _open(folder, tiny_doc) as client:
        res = client.post("/api/import/gtfs" + query, content=body, headers=ZIP)
        assert (res.status_code, res.json()["error"]) == (status, message)
        assert client.get("/api/map").json()["map"] == writer.normalize(tiny_doc)
    assert list(folder.iterdir()) == [folder / "tiny.json"]


def test_an_upload_over_its_limit_is_refused_by_length_and_as_it_streams(
    folder, tiny_doc, monkeypatch
):
    feed_refusal = "the feed is over 64 MiB; import it with mapkit import gtfs"
    monkeypatch.setitem(routes.UPLOADS, "/api/import/gtfs", (1000, routes.tools.feed_too_large))
    with _open(folder, tiny_doc) as client:
        res = client.post("/api/import/gtfs", content=cross_feed(), headers=ZIP)
        assert (res.status_code, res.json()["error"]) == (413, feed_refusal)
        chunks = iter([b"PK" + b"\0" * 600, b"\0" * 600])  # no Content-Length: chunked
        res = client.post("/api/import/gtfs", content=chunks, headers=ZIP)
        assert (res.status_code, res.json()["error"]) == (413, feed_refusal)
        # a map's 1 MiB does not bind a feed, and a feed's limit does not bind a map
        assert client.put("/api/background", content=png()).status_code == 200
        res = client.post("/api/simulate", content=b"x" * (2 << 20), headers=ZIP)
        assert res.status_code == 413 and "a map is at most 1 MiB" in res.json()["error"]


def test_a_background_image_is_kept_in_memory_and_served_as_an_image(folder, tiny_doc):
    image = png()
    with _open(folder, tiny_doc) as client:
        assert client.get("/api/background").status_code == 404
        res = client.put("/api/background", content=image, headers={"Content-Type": "text/html"})
        assert res.json() == {"background": 1, "type": "image/png", "bytes": len(image)}
        got = client.get("/api/background?n=1")
        assert got.content == image and got.headers["content-type"] == "image/png"
        assert got.headers["content-security-policy"] == DATA_CSP  # sandbox: runs nothing
        assert got.headers["x-content-type-options"] == "nosniff"
        assert client.put("/api/background", content=image).json()["background"] == 2
        res = client.get("/api/background?n=1")
        assert (res.status_code, res.json()["error"]) == (404, "background 1 was replaced by 2")
        assert client.delete("/api/background").json() == {"background": None}
        res = client.get("/api/background")
        assert (res.status_code, res.json()["error"]) == (
            404,
            "no background image (PUT /api/background)",
        )
    assert list(folder.iterdir()) == [folder / "tiny.json"]


@pytest.mark.parametrize(
    "body",
    [
        b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        b"<!doctype html><script>alert(1)</script>",
        b"",
        b"GIF8",
        b"RIFF\0\0\0\0WAVE",
    ],
    ids=["svg", "html", "empty", "short-gif", "riff-not-webp"],
)
def test_a_background_that_is_no_raster_image_is_refused(folder, tiny_doc, body):
    with _open(folder, tiny_doc) as client:
        res = client.put("/api/background", content=body, headers={"Content-Type": "image/png"})
        assert (res.status_code, res.json()["error"]) == (
            415,
            "a background must be a PNG, JPEG, GIF or WebP image (not SVG or other)",
        )
        assert client.get("/api/background").status_code == 404


def test_a_background_over_16_mib_is_refused(folder, tiny_doc):
    with _open(folder, tiny_doc) as client:
        res = client.put("/api/background", content=png() + b"\0" * (16 << 20))
    assert (res.status_code, res.json()["error"]) == (
        413,
        "the image is over 16 MiB; scale it down",
    )


FEED = cross_feed()


@settings(max_examples=30, deadline=None)
@given(
    cuts=st.lists(st.tuples(st.integers(0, len(FEED) - 1), st.binary(min_size=1, max_size=8)),
                  min_size=1, max_size=4),
    image=st.binary(max_size=64),
)  # fmt: skip
def test_damaged_feeds_and_images_are_refused_never_a_server_error(tmp_path_factory, cuts, image):
    """A feed with bytes overwritten anywhere, and any bytes as an image: 200 or a 4xx."""
    damaged = bytearray(FEED)
    for at, junk in cuts:
        damaged[at : at + len(junk)] = junk
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "tiny.json"
    path.write_text(writer.dumps(TINY), encoding="utf-8")
    with client_for(path) as client:
        res = client.post("/api/import/gtfs?layout=0", content=bytes(damaged), headers=ZIP)
        assert res.status_code in (200, 400, 413, 415, 422), res.text
        assert "error" in res.json() or "map" in res.json()
        res = client.put("/api/background", content=image)
        assert res.status_code in (200, 415), res.text
    assert list(folder.iterdir()) == [path]
