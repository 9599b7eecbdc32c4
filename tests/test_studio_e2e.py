"""The studio page in a real headless Chromium (Debian's /usr/bin/chromium), via Playwright.

Each test starts the server in-process on a free port (uvicorn in a thread) and
drives the page as a designer would: mouse and keyboard on the drawing, then checks
what the server holds and what ``mapkit validate`` says about the saved file.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.studio_browser import centre, press, require_chromium, settle, tid

require_chromium()
from typer.testing import CliRunner  # noqa: E402

from mapkit.cli import app as cli  # noqa: E402
from mapkit.mapfile import writer  # noqa: E402
from tests.studio_server import Server  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def test_draw_a_line_drag_undo_redo_save_validate(studio, tmp_path):
    path = tmp_path / "new-town.json"
    page, server = studio(path)
    canvas = page.locator("#canvas").bounding_box()
    ox, oy = canvas["x"], canvas["y"]

    tid(page, "tool-station").click()
    for x in (200, 400, 600, 800):
        page.mouse.click(ox + x, oy + 300)
    assert [s["id"] for s in page.evaluate("S.doc.stations")] == ["s1", "s2", "s3", "s4"]
    settle(page)  # a stations-only draft: checked, and no error for having no lines yet
    assert tid(page, "diagnostics-count").inner_text() == "none"
    assert page.locator("#sheet-layer .station[data-station='s4']").count() == 1
    page.keyboard.press("l")
    for sid in ("s1", "s2", "s3", "s4"):
        page.mouse.click(*centre(page, f'[data-handle="{sid}"]'))
    page.keyboard.press("Enter")
    settle(page)
    doc = server.get("/api/map")["map"]
    (line,) = doc["lines"]
    assert line["id"] == "A" and line["stops"] == ["s1", "s2", "s3", "s4"]
    assert doc["stations"][0]["y"] == doc["stations"][3]["y"]  # snapped to one grid row
    # a draft: the line has no windows or points yet, and that is no error
    assert page.locator('[data-testid="diagnostic"]').count() == 0
    assert page.locator(".line[data-line='A']").count() >= 1  # drawn by the renderer

    tid(page, "line-windows").fill("4")
    tid(page, "line-windows").press("Enter")
    tid(page, "line-first").fill("5")
    tid(page, "line-first").press("Enter")
    tid(page, "line-others").fill("3")
    tid(page, "line-others").press("Enter")
    settle(page)
    # the last stop moves off the row; with 45-degree bends the shape follows it
    tid(page, "line-shape").select_option("octilinear")
    tid(page, "tool-select").click()
    page.mouse.click(*centre(page, '[data-handle="s4"]'))
    for _ in range(4):
        page.keyboard.press("ArrowDown")
    shape = page.evaluate("S.doc.lines[0].shape")
    s3, s4 = page.evaluate("[S.doc.stations[2], S.doc.stations[3]]")
    assert shape[-1] == [s4["x"], s4["y"]] and s4["y"] == s3["y"] + 2
    bend = shape[-2]
    assert bend[1] == s3["y"] and bend[0] - s3["x"] == pytest.approx(s4["x"] - s3["x"] - 2)
    settle(page)

    # drag s3 next to s2 (Shift: no snapping): stations too close
    tid(page, "tool-select").click()
    x2, y2 = centre(page, '[data-handle="s2"]')
    page.mouse.move(*centre(page, '[data-handle="s3"]'))
    page.keyboard.down("Shift")
    page.mouse.down()
    page.mouse.move(x2 + 9, y2, steps=6)
    page.mouse.up()
    page.keyboard.up("Shift")
    crowded = page.locator('[data-testid="diagnostic"][data-code="GEO002"]')
    crowded.wait_for()
    pointer = crowded.get_attribute("data-pointer")
    assert pointer in ("/stations/1", "/stations/2")
    tid(page, "tool-station").click()  # clicking a problem selects, whatever the tool
    crowded.click()
    assert (
        tid(page, "station-id").input_value() == {"/stations/1": "s2", "/stations/2": "s3"}[pointer]
    )

    tid(page, "cmd-undo").click()
    crowded.wait_for(state="detached")
    page.keyboard.press("Control+Shift+Z")
    crowded.wait_for()
    page.keyboard.press("Control+z")
    crowded.wait_for(state="detached")
    settle(page)

    assert tid(page, "unsaved-marker").is_visible()
    page.keyboard.press("Control+s")
    tid(page, "unsaved-marker").wait_for(state="hidden")
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved == server.get("/api/map")["map"]
    assert saved["lines"][0]["windows"] == 4
    assert saved["lines"][0]["points"] == {"first": 5, "others": 3}
    assert saved["lines"][0]["shape"][-1] == [saved["stations"][3]["x"], saved["stations"][3]["y"]]
    assert path.read_text(encoding="utf-8") == writer.dumps(saved)
    res = CliRunner().invoke(cli, ["validate", "--format", "json", str(path)])
    assert json.loads(res.output)["files"][0]["valid"] is True, res.output


def test_hover_undo_playtest_heatmap_and_autosave(studio, tmp_path):
    path = tmp_path / "minimal.json"
    shutil.copy(ROOT / "examples" / "minimal.json", path)
    page, server = studio(path)
    page.mouse.move(*centre(page, '[data-handle="hub"]'))
    tip = tid(page, "tooltip")
    tip.wait_for()
    assert "lines: A, B" in tip.inner_text() and "intersections: 2" in tip.inner_text()

    # undo and redo keep more than a hundred steps
    tid(page, "line-list").locator("[data-line-item='A']").click()
    page.mouse.click(*centre(page, '[data-handle="n"]'))
    start = page.evaluate("JSON.stringify(S.doc)")
    page.keyboard.press("ArrowRight")
    press(page, "ArrowRight", 119)
    assert page.evaluate("S.doc.stations.find(s => s.id === 'n').x") == pytest.approx(1 + 60)
    press(page, "z", 119, ctrlKey=True)
    page.keyboard.press("Control+z")
    assert page.evaluate("JSON.stringify(S.doc)") == start
    assert tid(page, "cmd-undo").is_disabled()
    press(page, "y", 119, ctrlKey=True)
    page.keyboard.press("Control+y")
    assert page.evaluate("S.doc.stations.find(s => s.id === 'n').x") == pytest.approx(61)
    settle(page)
    assert server.get("/api/map")["map"]["stations"][3]["x"] == pytest.approx(61)
    press(page, "z", 120, ctrlKey=True)

    tid(page, "playtest-games").fill("20")
    page.keyboard.press("p")  # ignored while typing in the field
    tid(page, "cmd-playtest").click()
    # drawing goes on while the games run
    page.mouse.click(*centre(page, '[data-handle="e"]'))
    page.keyboard.press("ArrowDown")
    tid(page, "playtest-mean").wait_for(timeout=30000)
    assert tid(page, "playtest-reference").locator("div").count() == 5
    rows = tid(page, "playtest-lines").locator("tr")
    assert rows.count() == 3  # header, A, B
    tid(page, "toggle-heatmap").check()
    page.locator("#sheet-layer .heat-value").first.wait_for()

    # autosave: the server is stopped before saving and started again on the same port
    # (a new session token); the new tab finds the old tab's edit and offers it back
    settle(page)
    edited = page.evaluate("S.doc")
    assert edited != json.loads(path.read_text(encoding="utf-8"))
    server.stop()
    again = Server(path, port=server.port)
    studio.servers.append(again)
    assert again.token != server.token
    fresh, _ = studio(path, server=again, context=page.context)
    # the old tab's next poll (1.5 s) is refused by the new server: its edit is kept as an
    # orphan; the new tab looks again 2 s after loading and offers it
    page.clock.run_for(1500)
    page.wait_for_function("() => S.orphan")
    fresh.clock.run_for(2000)
    tid(fresh, "restore-autosave").click(timeout=15000)
    settle(fresh)
    assert again.get("/api/map")["map"] == edited
    assert tid(fresh, "unsaved-marker").is_visible()
    assert tid(page, "banner").inner_text().startswith("refused: wrong session token")


def test_shipped_city_is_read_only(studio):
    from mapkit.resources import resolve_map

    page, _ = studio(resolve_map("berlin"), readonly=True)
    assert tid(page, "readonly-badge").is_visible()
    assert tid(page, "cmd-save").is_disabled()
    assert page.locator("#sheet-layer .station[data-station='alex']").count() == 1
    # a click on a drawn line (half-way between two of its stops) selects that line
    x, y = page.evaluate(
        """() => {
          const l = S.doc.lines.find(l => l.id === 'C');
          const a = S.doc.stations.find(s => s.id === l.stops[0]);
          const b = S.doc.stations.find(s => s.id === l.stops[1]);
          const c = document.querySelector('#canvas');
          const p = c.createSVGPoint(); p.x = (a.x + b.x) / 2; p.y = (a.y + b.y) / 2;
          const q = p.matrixTransform(c.getScreenCTM()); return [q.x, q.y];
        }"""
    )
    page.mouse.click(x, y)
    assert page.evaluate("S.sel") == {"kind": "line", "id": "C"}
    assert "LINE C" in tid(page, "inspector").inner_text().upper()


EVIL = '<img src=x onerror="window.pwned=1">'


@pytest.mark.parametrize("bypass_csp", [False, True], ids=["with-csp", "escaping-alone"])
def test_a_hostile_map_cannot_run_script(studio, tmp_path, tiny_doc, bypass_csp):
    """Names with markup are shown as text; with the CSP switched off the text still holds."""
    tiny_doc["name"] = EVIL + "<script>window.pwned=2</script>"
    tiny_doc["author"] = EVIL
    tiny_doc["sheet"] = {"subtitle": EVIL}
    for st in tiny_doc["stations"]:
        st["name"] = EVIL
    tiny_doc["lines"][0]["name"] = EVIL
    path = tmp_path / "hostile.json"
    path.write_text(writer.dumps(tiny_doc), encoding="utf-8")
    page, _ = studio(path, bypass_csp=bypass_csp)
    page.mouse.move(*centre(page, '[data-handle="a"]'))
    tid(page, "tooltip").wait_for()
    assert EVIL in tid(page, "tooltip").inner_text()
    assert tid(page, "map-author").input_value() == EVIL
    page.mouse.click(*centre(page, '[data-handle="a"]'))
    assert tid(page, "station-name").input_value() == EVIL
    tid(page, "line-list").locator("[data-line-item='A']").click()
    assert EVIL in tid(page, "inspector").inner_text()
    assert EVIL in tid(page, "line-list").inner_text()
    tid(page, "toggle-labels").check()
    page.locator("#sheet-layer .label").first.wait_for()
    assert EVIL in page.locator("#sheet-layer").inner_html().replace("&lt;", "<").replace(
        "&gt;", ">"
    )
    tid(page, "playtest-games").fill("4")
    tid(page, "cmd-playtest").click()
    tid(page, "playtest-mean").wait_for(timeout=30000)
    assert EVIL in tid(page, "playtest-reference").inner_text()
    assert page.locator("img").count() == 0 and page.locator("#sheet-layer script").count() == 0
    assert page.evaluate("window.pwned") is None


def test_save_as_outside_the_folder_is_refused(studio, tmp_path, tiny_doc):
    folder = tmp_path / "work"
    folder.mkdir()
    path = folder / "tiny.json"
    path.write_text(writer.dumps(tiny_doc), encoding="utf-8")
    page, _ = studio(path)
    answers = iter(["../escaped.json", "/tmp/escaped.json", "copy.json"])
    page.on("dialog", lambda d: d.accept(next(answers)))
    tid(page, "cmd-save-as").click()
    banner = tid(page, "banner")
    banner.wait_for()
    assert f"save as: ../escaped.json leads out of {folder}" in banner.inner_text()
    tid(page, "banner-ok").click()
    tid(page, "cmd-save-as").click()
    banner.wait_for()
    assert "save as: /tmp/escaped.json is an absolute path" in banner.inner_text()
    tid(page, "banner-ok").click()
    tid(page, "cmd-save-as").click()
    page.wait_for_function("() => S.path.endsWith('copy.json')")
    assert tid(page, "file-path").inner_text().endswith("copy.json")
    assert not (tmp_path / "escaped.json").exists() and not Path("/tmp/escaped.json").exists()
    assert sorted(p.name for p in folder.iterdir()) == ["copy.json", "tiny.json"]


def _saved(tmp_path, doc, name="tiny.json") -> Path:
    path = tmp_path / name
    path.write_text(writer.dumps(doc), encoding="utf-8")
    return path


def test_two_tabs_follow_each_other_and_never_revert(studio, tmp_path, tiny_doc):
    path = _saved(tmp_path, tiny_doc)
    one, server = studio(path)
    two, _ = studio(path, server=server, context=one.context)
    one.mouse.click(*centre(one, '[data-handle="b"]'))
    one.keyboard.press("ArrowDown")
    settle(one)
    two.clock.run_for(1500)  # the other tab's next poll
    two.wait_for_function("() => S.doc.stations[1].y === 0.5")  # the other tab follows
    assert tid(two, "status").inner_text() == "updated from another tab"
    two.mouse.click(*centre(two, '[data-handle="c"]'))
    two.keyboard.press("ArrowUp")
    settle(two)
    one.clock.run_for(1500)
    one.wait_for_function("() => S.doc.stations[2].y === -0.5")
    two.reload()
    two.wait_for_selector("body[data-ready='1']")
    two.clock.run_for(2500)  # past the autosave offer's second look (2 s after loading)
    assert tid(two, "restore-autosave").count() == 0  # nothing to restore: the server has it
    stations = server.get("/api/map")["map"]["stations"]
    assert (stations[1]["y"], stations[2]["y"]) == (0.5, -0.5)


def test_the_file_changed_on_disk(studio, tmp_path, tiny_doc):
    path = _saved(tmp_path, tiny_doc)
    page, _ = studio(path)
    theirs = json.loads(path.read_text(encoding="utf-8"))
    theirs["name"] = "Theirs"
    path.write_text(writer.dumps(theirs), encoding="utf-8")
    page.clock.run_for(1500)  # the next poll sees the change
    tid(page, "disk-reload").wait_for(timeout=10000)
    assert (
        tid(page, "banner-text").inner_text() == "tiny.json was changed on disk by another program."
    )
    tid(page, "disk-diff").click()
    diff = tid(page, "disk-diff-text")
    diff.wait_for()
    assert '-  "name": "Theirs",' in diff.inner_text() and '+  "name": "Tiny",' in diff.inner_text()
    tid(page, "disk-reload").click()
    page.wait_for_function("() => S.doc.name === 'Theirs'")
    tid(page, "banner").wait_for(state="hidden")
    assert tid(page, "unsaved-marker").is_hidden()
    # changed again, and this time the studio's map wins
    theirs["name"] = "Theirs again"
    path.write_text(writer.dumps(theirs), encoding="utf-8")
    page.clock.run_for(1500)
    tid(page, "disk-keep").click(timeout=10000)
    tid(page, "unsaved-marker").wait_for()
    page.keyboard.press("Control+s")
    tid(page, "unsaved-marker").wait_for(state="hidden")
    assert json.loads(path.read_text(encoding="utf-8"))["name"] == "Theirs"
    assert tid(page, "banner").is_hidden()


def test_double_click_f2_and_enter_rename(studio, tmp_path, tiny_doc):
    path = _saved(tmp_path, tiny_doc)
    page, server = studio(path)
    focused = "() => document.activeElement.dataset.testid"
    for sid in ("a", "b", "c", "d"):
        page.mouse.dblclick(*centre(page, f'[data-handle="{sid}"]'))
        assert page.evaluate(focused) == "station-name"
        page.keyboard.type(f"Station {sid.upper()}")
        page.keyboard.press("Enter")
    assert [s.get("name") for s in page.evaluate("S.doc.stations")] == [
        "Station A", "Station B", "Station C", "Station D"
    ]  # fmt: skip
    page.mouse.click(*centre(page, '[data-handle="a"]'))
    page.keyboard.press("Enter")
    assert page.evaluate(focused) == "station-name"
    page.keyboard.press("Escape")
    tid(page, "line-list").locator("[data-line-item='B']").click()
    page.keyboard.press("F2")
    assert page.evaluate(focused) == "line-name"
    page.keyboard.type("Ring")
    page.keyboard.press("Enter")
    settle(page)
    assert server.get("/api/map")["map"]["lines"][1]["name"] == "Ring"


def test_problems_name_stations_and_lines(studio, tmp_path, tiny_doc):
    tiny_doc["stations"][0]["name"] = "Alpha Square"
    tiny_doc["stations"][1]["name"] = "Beta Road"
    tiny_doc["stations"][1]["x"] = 0.05  # too close to a at print scale: GEO002
    path = _saved(tmp_path, tiny_doc)
    page, _ = studio(path)
    item = page.locator('[data-testid="diagnostic"][data-code="GEO002"]')
    item.wait_for()
    text = item.inner_text()
    assert "'a' (Alpha Square)" in text and "'b' (Beta Road)" in text
    # the list stays in view with a line selected (its inspector is the tallest)
    tid(page, "line-list").locator("[data-line-item='A']").click()
    assert item.is_visible()
    box, view = item.bounding_box(), page.viewport_size
    assert box["y"] + box["height"] <= view["height"]


def test_half_a_character_typed_into_a_name(studio, tmp_path, tiny_doc):
    path = _saved(tmp_path, tiny_doc)
    page, server = studio(path)
    page.mouse.click(*centre(page, '[data-handle="a"]'))
    page.evaluate(
        """() => { const f = document.querySelector('[data-testid="station-name"]');
                   f.value = 'Zoo \\ud83d'; f.dispatchEvent(new Event('change')); }"""
    )
    settle(page)
    assert "half character" in tid(page, "banner-text").inner_text()
    assert page.evaluate("S.doc.stations[0].name") == "Zoo \ufffd"
    assert server.get("/api/map")["map"]["stations"][0]["name"] == "Zoo \ufffd"
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("S.doc.stations[0].name") == "Zoo \ufffd"
    page.keyboard.press("Control+s")
    tid(page, "unsaved-marker").wait_for(state="hidden")
    assert json.loads(path.read_text(encoding="utf-8"))["stations"][0]["name"] == "Zoo \ufffd"


def test_the_unsaved_marker_tells_the_truth(studio, tmp_path, tiny_doc):
    path = _saved(tmp_path, tiny_doc)
    page, _ = studio(path)
    marker = tid(page, "unsaved-marker")
    assert marker.is_hidden()
    page.mouse.click(*centre(page, '[data-handle="b"]'))
    assert marker.is_hidden()  # a click that moves nothing changes nothing
    page.keyboard.press("ArrowRight")
    assert marker.is_visible()
    page.keyboard.press("Control+z")
    settle(page)
    assert marker.is_hidden()  # back to the file: nothing to save
    new, _ = studio(tmp_path / "fresh.json")
    assert tid(new, "unsaved-marker").is_hidden()


def test_the_map_inspector_sets_the_ruleset_the_bonus_and_two_ended_lines(
    studio, tmp_path, tiny_doc
):
    path = _saved(tmp_path, tiny_doc)
    page, server = studio(path)
    names = [
        o.get_attribute("value") for o in page.locator('[data-testid="map-ruleset"] option').all()
    ]
    assert names == ["voll-verplant", "metro-x", "metro-x-okazu"]
    tid(page, "map-ruleset").select_option("metro-x")
    settle(page)
    tid(page, "map-bonus-first").fill("6")
    tid(page, "map-bonus-first").dispatch_event("change")
    settle(page)
    tid(page, "map-bonus-condition").select_option("every_line_completed")
    settle(page)
    page.locator('[data-line-item="A"]').click()
    tid(page, "line-both-ends").check()
    settle(page)
    doc = server.get("/api/map")["map"]
    assert doc["ruleset"] == "metro-x"
    assert doc["all_lines_bonus"] == {"first": 6, "others": 0, "condition": "every_line_completed"}
    assert doc["lines"][0]["both_ends"] is True
    page.keyboard.press("Control+z")
    settle(page)
    assert "both_ends" not in server.get("/api/map")["map"]["lines"][0]


def test_a_branching_line_is_drawn_and_edited_with_its_branches(studio, tmp_path):
    """examples/gabel.json: line A forks at s4 into s5 s6 s7 and s8 s9 s10 (rules-notes 23)."""
    path = tmp_path / "gabel.json"
    shutil.copy(ROOT / "examples" / "gabel.json", path)
    page, server = studio(path)
    item = tid(page, "line-list").locator("[data-line-item='A']")
    assert "10 stops, 2 branches" in item.inner_text()
    assert page.evaluate("linesAt('s9')") == ["A", "C", "D"]  # a branch's stop is the line's
    item.click()
    assert page.locator("#overlay polyline.line-sel").count() == 2  # one path per branch
    # the Line tool on a branch's end draws that branch on (s7 ends A1; s30 is east of it)
    page.keyboard.press("l")
    page.mouse.click(*centre(page, '[data-handle="s7"]'))
    assert "Branch A1: click its next stop" in page.locator("#hint").inner_text()
    page.mouse.click(*centre(page, '[data-handle="s30"]'))
    page.keyboard.press("Enter")
    settle(page)
    assert server.get("/api/map")["map"]["lines"][0]["branches"][0]["stops"] == [
        "s5", "s6", "s7", "s30",
    ]  # fmt: skip
    page.keyboard.press("Control+z")
    settle(page)
    # a third branch from the same fork (s4): add branch, then its stop (D's first, s21)
    assert page.evaluate("RULES.max_branches") == 4  # the map schema's limit
    tid(page, "line-branch").click()
    assert "Branch A3: click its first stop" in page.locator("#hint").inner_text()
    page.mouse.click(*centre(page, '[data-handle="s21"]'))
    page.keyboard.press("Escape")
    settle(page)
    assert server.get("/api/map")["map"]["lines"][0]["branches"][2] == {"stops": ["s21"]}
    tags = page.locator("#sheet-layer .branch-tag")
    assert [tags.nth(k).get_attribute("data-unit") for k in range(3)] == ["A1", "A2", "A3"]
    page.keyboard.press("Control+z")
    settle(page)
    # deleting a branch's every stop: the other branch continues the trunk
    page.keyboard.press("Escape")
    for sid in ("s8", "s9", "s10"):
        page.mouse.click(*centre(page, f'[data-handle="{sid}"]'))
        page.keyboard.press("Delete")
    settle(page)
    a = server.get("/api/map")["map"]["lines"][0]
    assert a["stops"] == ["s1", "s2", "s3", "s4", "s5", "s6", "s7"] and "branches" not in a


FORKABLE = {
    "format": "mapkit-map/1", "id": "forkable", "name": "Forkable",
    "stations": [{"id": f"s{i + 1}", "x": 2 * i, "y": 0} for i in range(4)],
    "lines": [{
        "id": "A", "color": "#dd3322", "windows": 3, "points": {"first": 5, "others": 3},
        "depot": {"x": -1.5, "y": 0}, "stops": ["s1", "s2", "s3", "s4"],
    }],
}  # fmt: skip


def test_a_fork_is_drawn_undone_redone_saved_and_removed(studio, tmp_path):
    """Line A s1..s4 forks at s3: s4 becomes branch A1, two clicks below s3 draw A2."""
    path = tmp_path / "forkable.json"
    path.write_text(json.dumps(FORKABLE), encoding="utf-8")
    page, server = studio(path)
    a = lambda: server.get("/api/map")["map"]["lines"][0]  # noqa: E731
    tid(page, "line-list").locator("[data-line-item='A']").click()
    tid(page, "line-branch").click()
    assert "click the stop where it forks" in page.locator("#hint").inner_text()
    page.mouse.click(*centre(page, '[data-handle="s4"]'))  # the end: no fork there
    assert "extend it, or fork at a stop before its end" in tid(page, "status").inner_text()
    page.mouse.click(*centre(page, '[data-handle="s3"]'))
    assert page.locator("#overlay .handle.pending[data-handle='s3']").count() == 1
    assert "Branch A2: click its first stop" in page.locator("#hint").inner_text()
    x2, _ = centre(page, '[data-handle="s2"]')
    x3, y3 = centre(page, '[data-handle="s3"]')
    unit = (x3 - x2) / 2  # pixels per map unit
    page.mouse.click(x3, y3 + 2 * unit)  # empty space: a new station s5 at (4, 2)
    settle(page)  # the server's answer says its counts in the status line: wait for it
    steps = page.evaluate("S.undo.length")
    page.mouse.click(*centre(page, '[data-handle="s2"]'))  # on the line: refused, no edit
    assert "a branch never comes back to its line" in tid(page, "status").inner_text()
    assert page.evaluate("S.undo.length") == steps
    page.mouse.click(x3 + 2 * unit, y3 + 2 * unit)  # s6 at (6, 2), east of s5
    page.keyboard.press("Enter")
    settle(page)
    forked = {
        "stops": ["s1", "s2", "s3"],
        "branches": [{"stops": ["s4"]}, {"stops": ["s5", "s6"]}],
    }
    assert {k: a()[k] for k in forked} == forked
    assert server.get("/api/map")["map"]["stations"][4:] == [
        {"id": "s5", "x": 4, "y": 2}, {"id": "s6", "x": 6, "y": 2},
    ]  # fmt: skip
    assert page.locator("#sheet-layer .branch-tag").count() == 2  # A1 and A2 at their ends
    assert [d["code"] for d in server.get("/api/diagnostics")["diagnostics"]] == []
    # one undo step per click: s6, then s5 with the fork itself
    page.keyboard.press("Control+z")
    settle(page)
    assert a()["branches"] == [{"stops": ["s4"]}, {"stops": ["s5"]}]
    page.keyboard.press("Control+z")
    settle(page)
    assert a()["stops"] == ["s1", "s2", "s3", "s4"] and "branches" not in a()
    assert len(server.get("/api/map")["map"]["stations"]) == 4
    page.keyboard.press("Control+Shift+Z")
    page.keyboard.press("Control+Shift+Z")
    settle(page)
    assert {k: a()[k] for k in forked} == forked
    # A2's own points, and each branch run pays (the line's choice)
    tid(page, "branch-first").nth(1).fill("7")
    tid(page, "branch-first").nth(1).press("Enter")
    tid(page, "line-branch-scoring").select_option("each")
    settle(page)
    assert a()["branches"][1]["points"] == {"first": 7, "others": 3}
    assert a()["branch_scoring"] == "each"
    assert tid(page, "line-branch").is_enabled() == (page.evaluate("RULES.max_branches") > 2)
    page.keyboard.press("Control+s")
    tid(page, "unsaved-marker").wait_for(state="hidden")
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["lines"][0]["branches"] == [
        {"stops": ["s4"]}, {"stops": ["s5", "s6"], "points": {"first": 7, "others": 3}},
    ]  # fmt: skip
    res = CliRunner().invoke(cli, ["validate", "--format", "json", str(path)])
    assert json.loads(res.output)["files"][0]["valid"] is True, res.output
    # removing A1 folds A2 back into the trunk, with A2's points
    tid(page, "branch-remove").nth(0).click()
    settle(page)
    plain = a()
    assert plain["stops"] == ["s1", "s2", "s3", "s5", "s6"] and "branches" not in plain
    assert plain["points"] == {"first": 7, "others": 3} and "branch_scoring" not in plain
    page.keyboard.press("Control+z")
    settle(page)
    assert a()["branches"][0] == {"stops": ["s4"]}
