"""Editing gestures of the studio in a real headless Chromium (issue 16, point 4): a box and
Shift-click select several stations and move them as one, a click on a stretch inserts a
stop, the lines are reordered (the scoring panel follows) and a station's name is dragged
to where the designer wants it. Each is one undo step. One browser for the test process."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests.studio_browser import centre, require_chromium, settle, tid

require_chromium()
from mapkit.importers import ImportConfig, network_to_map, read_gtfs  # noqa: E402
from mapkit.mapfile import writer  # noqa: E402
from tests.feeds import cross_feed  # noqa: E402


def _saved(tmp_path: Path, doc: dict, name: str = "tiny.json") -> Path:
    path = tmp_path / name
    path.write_text(writer.dumps(doc), encoding="utf-8")
    return path


def _unit(page) -> float:
    """Screen pixels per map unit (a and b are 2 units apart)."""
    (ax, _), (bx, _) = centre(page, '[data-handle="a"]'), centre(page, '[data-handle="b"]')
    return (bx - ax) / 2


def _xy(page) -> dict[str, list[float]]:
    return {s["id"]: [s["x"], s["y"]] for s in page.evaluate("S.doc.stations")}


def test_box_and_shift_click_select_and_move_a_group(studio, tmp_path, tiny_doc):
    page, server = studio(_saved(tmp_path, tiny_doc))
    u = _unit(page)
    (bx, by), (cx, cy) = centre(page, '[data-handle="b"]'), centre(page, '[data-handle="c"]')
    page.mouse.move(bx - u / 2, by - u / 2)
    page.mouse.down()
    page.mouse.move(cx + u / 2, cy + u / 2, steps=5)
    assert tid(page, "marquee").count() == 1
    page.mouse.up()
    assert page.evaluate("S.sel") == {"kind": "stations", "ids": ["b", "c"]}
    assert tid(page, "marquee").count() == 0
    assert page.locator("#overlay .handle.selected").count() == 2
    assert tid(page, "inspector").locator("h2").inner_text() == "2 STATIONS"
    page.keyboard.down("Shift")
    page.mouse.click(*centre(page, '[data-handle="a"]'))
    assert page.evaluate("S.sel.ids") == ["b", "c", "a"]
    page.mouse.click(*centre(page, '[data-handle="a"]'))
    page.keyboard.up("Shift")
    assert page.evaluate("S.sel.ids") == ["b", "c"]

    # drag c two units down: b goes along, a and d stay; the wagons of A and B stay (their
    # first stops a and d are not in the group); one undo step
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx, cy + 2 * u, steps=6)
    page.mouse.up()
    assert _xy(page) == {"a": [0, 0], "b": [2, 2], "c": [4, 2], "d": [2, 2]}
    page.keyboard.press("ArrowRight")
    assert _xy(page)["b"] == [2.5, 2] and _xy(page)["c"] == [4.5, 2]
    settle(page)
    assert server.get("/api/map")["map"]["stations"][1] == {"id": "b", "x": 2.5, "y": 2}
    tid(page, "cmd-undo").click()
    tid(page, "cmd-undo").click()
    assert _xy(page) == {"a": [0, 0], "b": [2, 0], "c": [4, 0], "d": [2, 2]}
    assert page.evaluate("S.sel.ids") == ["b", "c"]

    # a group that holds a line's first stop takes its wagon along; Delete removes the group
    page.keyboard.press("Control+a")
    assert page.evaluate("S.sel.ids") == ["a", "b", "c", "d"]
    page.keyboard.press("ArrowUp")
    depots = [ln["depot"] for ln in page.evaluate("S.doc.lines")]
    assert depots == [{"x": -2, "y": -0.5}, {"x": 2, "y": 3.5}]
    tid(page, "cmd-undo").click()
    settle(page)  # the sheet (and the view fitted to it) of the map as it is now
    page.keyboard.down("Shift")
    page.mouse.click(*centre(page, '[data-handle="a"]'))
    page.mouse.click(*centre(page, '[data-handle="d"]'))
    page.keyboard.up("Shift")
    page.keyboard.press("Delete")
    assert [s["id"] for s in page.evaluate("S.doc.stations")] == ["a", "d"]
    assert page.evaluate("S.doc.lines") == []  # each line was left with one stop
    tid(page, "cmd-undo").click()
    settle(page)
    assert server.get("/api/map")["map"] == writer.normalize(tiny_doc)


def test_a_click_on_a_stretch_inserts_a_stop_on_every_line_there(studio, tmp_path, tiny_doc):
    tiny_doc["lines"][1]["stops"] = ["d", "b", "c"]  # B shares the stretch b-c with A
    page, _ = studio(_saved(tmp_path, tiny_doc))
    tid(page, "tool-station").click()
    (ax, ay), (bx, by) = centre(page, '[data-handle="a"]'), centre(page, '[data-handle="b"]')
    page.mouse.click((ax + bx) / 2 + 3, ay + 2)  # near the middle of a-b, not exactly on it
    assert page.evaluate("S.doc.stations[4]") == {"id": "s5", "x": 1, "y": 0}
    assert [ln["stops"] for ln in page.evaluate("S.doc.lines")] == [
        ["a", "s5", "b", "c"],
        ["d", "b", "c"],
    ]
    assert page.evaluate("S.sel") == {"kind": "station", "id": "s5"}
    settle(page)
    (bx, by), (cx, _) = centre(page, '[data-handle="b"]'), centre(page, '[data-handle="c"]')
    page.mouse.click(bx + (cx - bx) * 0.3, by)  # snapped to the grid along the stretch
    assert page.evaluate("S.doc.stations[5]") == {"id": "s6", "x": 2.5, "y": 0}
    assert [ln["stops"] for ln in page.evaluate("S.doc.lines")] == [
        ["a", "s5", "b", "s6", "c"],
        ["d", "b", "s6", "c"],
    ]
    settle(page)
    codes = page.evaluate("S.diags.map((d) => d.code)")
    assert "GEO003" not in codes  # no line runs through a station without stopping
    tid(page, "cmd-undo").click()
    assert [ln["stops"] for ln in page.evaluate("S.doc.lines")] == [
        ["a", "s5", "b", "c"],
        ["d", "b", "c"],
    ]
    settle(page)
    (ax, ay), (bx, _) = centre(page, '[data-handle="a"]'), centre(page, '[data-handle="b"]')
    page.mouse.click((ax + bx) / 2, ay - 60)  # away from every line: a new lone station
    assert page.evaluate("S.doc.stations.length") == 6
    assert page.evaluate("S.doc.lines[0].stops") == ["a", "s5", "b", "c"]


def test_reordering_lines_reorders_the_scoring_panel(studio, tmp_path, tiny_doc):
    page, server = studio(_saved(tmp_path, tiny_doc))
    rows = "Array.from(document.querySelectorAll('#sheet-layer .panel-row')).map((g) => g.id)"
    assert page.evaluate(rows) == ["row-A", "row-B"]
    assert tid(page, "line-up").first.is_disabled()
    page.locator('[data-testid="line-down"][data-line="A"]').click()
    assert [ln["id"] for ln in page.evaluate("S.doc.lines")] == ["B", "A"]
    assert page.evaluate("S.sel") is None  # the arrows do not select the line
    settle(page)
    assert page.evaluate(rows) == ["row-B", "row-A"]
    assert [ln["id"] for ln in server.get("/api/map")["map"]["lines"]] == ["B", "A"]
    page.keyboard.press("Control+z")
    settle(page)
    assert page.evaluate(rows) == ["row-A", "row-B"]


def test_a_dragged_name_stays_where_the_designer_put_it(studio, tmp_path, tiny_doc):
    doc = copy.deepcopy(tiny_doc)
    page, server = studio(_saved(tmp_path, doc))
    tid(page, "toggle-labels").check()
    label = "#sheet-layer .label[data-station='a']"
    page.wait_for_selector(label)
    assert page.get_attribute(label, "data-at") == "ne"
    u = _unit(page)
    lx, ly = centre(page, label)
    ax, ay = centre(page, '[data-handle="a"]')
    page.mouse.move(lx, ly)
    page.mouse.down()
    page.mouse.move(ax, ay + u, steps=6)  # the name's centre below the station
    assert tid(page, "status").inner_text() == "name of Alpha: to the south"
    page.mouse.up()
    assert page.evaluate("S.doc.stations[0].label") == "s"
    settle(page)
    page.wait_for_selector(f"{label}[data-at='s']")
    assert tid(page, "station-label").input_value() == "s"
    assert server.get("/api/map")["map"]["stations"][0]["label"] == "s"

    # east of a is line A: the name goes to the first free spot, and the page says so
    tid(page, "station-label").select_option("e")
    settle(page)
    page.wait_for_selector(f"{label}[data-at='ne']")
    assert tid(page, "status").inner_text() == (
        "the east of Alpha is taken (a line, a station or a name): its name is to the north-east"
    )
    tid(page, "cmd-undo").click()
    tid(page, "cmd-undo").click()
    settle(page)
    assert "label" not in page.evaluate("S.doc.stations[0]")
    page.wait_for_selector(f"{label}[data-at='ne']")


def test_tidy_layout_the_map_or_a_selection_one_undo_each(studio, tmp_path, tiny_doc):
    tiny_doc["stations"][2]["y"] = 0.7  # b-c 19° off east
    page, server = studio(_saved(tmp_path, tiny_doc))
    tid(page, "cmd-tidy").click()
    page.wait_for_function("() => S.doc.stations[2].y === 0")
    assert _xy(page) == {"a": [0, 0], "b": [4, 0], "c": [8, 0], "d": [4, 4]}
    assert tid(page, "status").inner_text() == "tidied: 3 stations moved; undo takes it back"
    settle(page)
    assert server.get("/api/map")["map"]["stations"][2] == {"id": "c", "x": 8, "y": 0}
    page.keyboard.press("Control+z")
    assert _xy(page) == {"a": [0, 0], "b": [2, 0], "c": [4, 0.7], "d": [2, 2]}
    settle(page)

    # only the selection moves: c and d selected, a and b pinned
    page.mouse.click(*centre(page, '[data-handle="c"]'))
    page.keyboard.down("Shift")
    page.mouse.click(*centre(page, '[data-handle="d"]'))
    page.keyboard.up("Shift")
    tid(page, "selection-tidy").click()
    page.wait_for_function("() => S.doc.stations[2].y === 0")
    xy = _xy(page)
    assert xy["a"] == [0, 0] and xy["b"] == [2, 0] and xy["d"][0] == 2  # d below b still
    assert tid(page, "status").inner_text().endswith("moved (the rest pinned); undo takes it back")
    page.keyboard.press("Control+z")
    assert _xy(page)["c"] == [4, 0.7]


def test_import_gtfs_replaces_the_map_and_undo_brings_it_back(studio, tmp_path, tiny_doc):
    page, server = studio(_saved(tmp_path, tiny_doc))
    tid(page, "cmd-import").click()
    tid(page, "import-run").click()
    assert tid(page, "import-message").inner_text() == "choose a GTFS feed (a .zip file) first"
    tid(page, "import-file").set_input_files(str(tmp_path / "tiny.json"))
    tid(page, "import-run").click()
    tid(page, "import-message").get_by_text("not a GTFS feed").wait_for()
    assert tid(page, "import-message").inner_text() == (
        "not a GTFS feed: a feed is a zip file (stops.txt, routes.txt, ...)"
    )
    feed = tmp_path / "tiny-transit.zip"
    feed.write_bytes(cross_feed())
    tid(page, "import-file").set_input_files(str(feed))
    tid(page, "import-run").click()
    tid(page, "banner-notes").wait_for()
    want = network_to_map(read_gtfs(feed), ImportConfig(map_id="tiny"))
    assert (want.stations, want.lines, want.problems) == (11, 3, (0, 0))
    assert tid(page, "banner-text").inner_text() == (
        "Imported tiny-transit.zip: 11 stations, 3 lines; it validates clean. "
        "Undo brings back the map you had."
    )
    assert tid(page, "banner-notes").locator("li").all_inner_texts() == want.notes
    assert tid(page, "import-dialog").is_hidden()
    settle(page)
    assert server.get("/api/map")["map"] == want.doc
    assert page.locator("#sheet-layer .station").count() == 11
    tid(page, "cmd-undo").click()
    settle(page)
    assert server.get("/api/map")["map"] == writer.normalize(tiny_doc)


def test_a_background_to_trace_moves_scales_and_undoes(studio, tmp_path, tiny_doc):
    from tests.test_studio_tools import png

    image = tmp_path / "plan.png"
    image.write_bytes(png(40, 20))
    (tmp_path / "plan.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    page, server = studio(_saved(tmp_path, tiny_doc))
    tid(page, "background-file").set_input_files(str(tmp_path / "plan.svg"))
    tid(page, "banner-text").wait_for()
    assert tid(page, "banner-text").inner_text() == (
        "a background must be a PNG, JPEG, GIF or WebP image (not SVG or other)"
    )
    assert tid(page, "background").count() == 0
    tid(page, "banner-ok").click()

    tid(page, "background-file").set_input_files(str(image))
    tid(page, "background").wait_for(state="attached")
    bg = page.evaluate("S.bg")
    assert bg["n"] == 1 and bg["opacity"] == 0.45 and bg["h"] == pytest.approx(bg["w"] / 2, 1e-3)
    assert tid(page, "background").get_attribute("href").endswith("&n=1")
    assert page.evaluate("document.querySelector('[data-testid=background]').getBBox().width") > 0
    # move and scale: a drag moves the image, not the stations
    tid(page, "background-adjust").check()
    u = _unit(page)
    x, y = centre(page, '[data-handle="d"]')
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 2 * u, y, steps=4)
    page.mouse.up()
    assert page.evaluate("S.bg.x") == pytest.approx(bg["x"] + 2, abs=0.02)
    assert _xy(page)["d"] == [2, 2]
    page.mouse.wheel(0, -200)
    assert page.evaluate("S.bg.w") > bg["w"]
    tid(page, "cmd-undo").click()  # the scaling
    tid(page, "cmd-undo").click()  # the move
    assert page.evaluate("S.bg") == bg
    tid(page, "cmd-undo").click()  # the upload
    assert page.evaluate("S.bg") is None and tid(page, "background").count() == 0
    tid(page, "cmd-redo").click()
    assert page.evaluate("S.bg") == bg
    assert server.get("/api/map")["map"] == writer.normalize(tiny_doc)  # never in the map
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("S.bg") == bg  # kept by this browser while the server has the image
    tid(page, "background-remove").click()
    assert tid(page, "background").count() == 0 and tid(page, "background-panel").is_hidden()
