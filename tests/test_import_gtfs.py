"""mapkit import gtfs: reading feeds, merging patterns, thinning, and the draft map."""

from __future__ import annotations

import functools
import io
import json
import zipfile

import pytest
from typer.testing import CliRunner

from mapkit.checks import validate_source
from mapkit.cli import app
from mapkit.importers import ImportConfig, ImportFailure, Selection, network_to_map, read_gtfs
from mapkit.importers.city import city_name, place_part
from mapkit.importers.draft import draft_lines
from mapkit.importers.gtfs import route_types
from mapkit.importers.network import Network
from mapkit.importers.patterns import Piece, merge_patterns
from mapkit.importers.stations import merge_nearby, short_names
from mapkit.mapfile import load_source, writer
from mapkit.notices import Severity
from tests.conftest import ROOT
from tests.feeds import CROSS_ROUTES, CROSS_STATIONS, at, cross_feed, feed_files, table, zipped

LA = ROOT / "tests" / "data" / "la-metro-rail.zip"
FLAT = ImportConfig(layout=False)


def _read(data: bytes, selection: Selection | None = None):
    return read_gtfs(io.BytesIO(data), selection)


def _import(data: bytes, cfg: ImportConfig = FLAT, selection: Selection | None = None):
    return network_to_map(_read(data, selection), cfg)


@functools.cache
def _la_flat():
    """LA imported without layout, once per test process (the tests only read it)."""
    return network_to_map(read_gtfs(LA), FLAT)


def _problems(doc: dict) -> list[str]:
    report = validate_source(writer.dumps(doc), "<test>")
    return [d.code for d in report.diagnostics if d.severity is not Severity.INFO]


# -- the real feed ---------------------------------------------------------------------------


def test_la_routes_and_stations_are_read_with_platforms_merged_into_parents():
    net = read_gtfs(LA)
    assert net.name == "Los Angeles"  # agency.txt says "Metro - Los Angeles"
    assert [r.name for r in net.routes] == [
        "Metro A Line (Blue)", "Metro B Line (Red)", "Metro C Line (Green)",
        "Metro D Line (Purple)", "Metro E Line (Expo)", "Metro K Line (Crenshaw)",
        "Metro L Line (Gold)",
    ]  # fmt: skip
    assert len(net.places) == 99
    assert all(pid.endswith("S") for pid in net.places)  # parent stations, not platforms
    assert net.places["80214S"].name == "Union Station"


def test_la_l_line_comes_in_whole_from_its_patterns_not_its_longest_trip():
    route = next(r for r in read_gtfs(LA).routes if r.id == "804")
    assert max(len(p) for p in route.patterns) == 19
    merged = merge_patterns(list(route.patterns))
    assert [len(p.stops) for p in merged.pieces] == [19, 7]
    assert len({s for p in merged.pieces for s in p.stops}) == 26
    assert merged.pieces[0].stops[0] in ("80214S", "80427S")  # Union Station ... APU
    # the East LA piece (run apart in 2022) joins the rest at its nearest end: one line
    places = read_gtfs(LA).places
    (drawn,) = draft_lines(Network("LA", places, (route,)), [])
    line = drawn.stops
    names = [places[s].name for s in line]
    assert len(line) == 26 and names[0] == "Atlantic Station"
    assert names[6:8] == ["Pico / Aliso Station", "Union Station"]
    assert names[-1] == "APU / Citrus College Station"


def test_la_expo_crenshaw_two_parents_46_m_apart_become_one_interchange():
    net = merge_nearby(read_gtfs(LA), 150)
    assert len(net.places) == 98
    e_line = next(r for r in net.routes if r.id == "806")
    k_line = next(r for r in net.routes if r.id == "807")
    shared = {s for p in e_line.patterns for s in p} & {s for p in k_line.patterns for s in p}
    assert [net.places[s].name for s in shared] == ["Expo / Crenshaw Station"]


def test_la_imports_to_a_map_that_passes_strict_validation():
    result = _la_flat()
    doc = result.doc
    assert result.stations == 70 and result.lines == 7
    assert [ln["id"] for ln in doc["lines"]] == list("ABCDEFG")
    assert [ln["name"] for ln in doc["lines"]][-1] == "Metro L Line (Gold)"
    assert doc["name"] == "Los Angeles" and doc["id"] == "los-angeles"
    assert _problems(doc) == []
    assert result.diagnostics == validate_source(writer.dumps(doc), "<x>").diagnostics
    assert result.notes == [
        "route Metro A Line (Blue): left out Pacific Ave Station (on a one-way variant)",
        "27 of 97 stations left out to fit --max-stations 70 (termini and interchanges kept)",
        "line D: colour #b82e95 (#a05da5 is too close to a line it meets)",
        "line F: colour #d65c99 (#fc74fd is outside what a press prints)",
    ]
    names = {s["id"]: s["name"] for s in doc["stations"]}
    assert names["union"] == "Union"
    assert names["allen"] == "Allen" and names["pico"] == "Pico"
    assert names["westlake-macarthur-park"] == "Westlake / MacArthur Park"
    assert not [n for n in names.values() if n.casefold().endswith("station")]
    assert names["downtown-long-beach"] == "Downtown Long Beach"


def test_la_every_wagon_sits_at_a_terminus_of_its_line():
    doc = _la_flat().doc
    pos = {s["id"]: (s["x"], s["y"]) for s in doc["stations"]}
    for ln in doc["lines"]:
        first = pos[ln["stops"][0]]
        d = ((ln["depot"]["x"] - first[0]) ** 2 + (ln["depot"]["y"] - first[1]) ** 2) ** 0.5
        assert d < 35, ln["id"]


def test_la_cli_writes_a_map_validate_strict_passes(tmp_path):
    out = tmp_path / "la.json"
    runner = CliRunner()
    res = runner.invoke(app, ["import", "gtfs", str(LA), "-o", str(out), "--no-layout"])
    assert res.exit_code == 0, res.output
    assert "wrote" in res.stdout and "70 stations, 7 lines (A-G)" in res.stdout
    assert "validate: 0 errors, 0 warnings" in res.stdout
    doc = json.loads(out.read_text())
    assert doc["id"] == "la"
    res = runner.invoke(app, ["validate", "--strict", str(out)])
    assert res.exit_code == 0, res.output


# -- merging patterns ------------------------------------------------------------------------


def test_a_branching_route_comes_in_as_trunk_and_branch_from_the_junction():
    merged = merge_patterns([tuple("NPCHS"), tuple("NPCHDQ"), tuple("SHCPN")])
    assert merged.pieces == (Piece(tuple("NPCHDQ")), Piece(tuple("HS")))


def test_short_turns_and_express_runs_add_nothing():
    merged = merge_patterns([tuple("ABCDEF"), tuple("BCD"), tuple("ACEF"), tuple("FEDCBA")])
    assert merged.pieces == (Piece(tuple("ABCDEF")),) and not merged.left_out


def test_a_pattern_that_runs_on_past_a_terminus_extends_the_line():
    merged = merge_patterns([tuple("ABCDE"), tuple("CDEFGHI")])
    assert merged.pieces == (Piece(tuple("ABCDEFGHI")),)


def test_a_ring_pattern_is_a_loop_line():
    merged = merge_patterns([tuple("ABCDA"), tuple("BXY")])
    assert merged.pieces == (Piece(tuple("ABCD"), loop=True), Piece(tuple("BXY")))


def test_a_one_station_variant_that_rejoins_is_left_out_and_reported():
    merged = merge_patterns([tuple("ABCDE"), tuple("EDXB")])
    assert merged.pieces == (Piece(tuple("ABCDE")),) and merged.left_out == {"X"}


# -- small feeds -----------------------------------------------------------------------------


def test_the_cross_feed_imports_its_branch_as_a_line_of_its_own():
    result = _import(cross_feed())
    doc = result.doc
    assert [(ln["id"], ln["name"]) for ln in doc["lines"]] == [("A", "1"), ("B", "2"), ("C", "2")]
    stops = {ln["id"]: ln["stops"] for ln in doc["lines"]}
    assert set(stops["A"]) == {"west-end", "mill", "centre", "market", "east-end"}
    assert stops["C"] in (["south-end", "harbour"], ["harbour", "south-end"])
    assert len(doc["stations"]) == 11
    assert doc["name"] == "Tiny"  # agency "Tiny Transit"
    # the route's screen blue #0022ee is beyond what a press prints (DES007): the nearest
    # printable shade instead
    assert [ln["color"] for ln in doc["lines"][:2]] == ["#cc0044", "#2e50b8"]
    assert "line B: colour #2e50b8 (#0022ee is outside what a press prints)" in result.notes
    assert _problems(doc) == []


def test_route_types_select_routes_and_the_extended_types_count():
    assert route_types("metro") == (1, 400, 401, 402, 403, 404)
    assert route_types("tram,7") == (0, *range(900, 907), 7)
    net = _read(cross_feed(), Selection(route_types=route_types("metro")))
    assert [r.id for r in net.routes] == ["r1"]
    with pytest.raises(ImportFailure, match="unknown route type 'boat'") as exc:
        route_types("boat")
    assert exc.value.exit_code == 2


def test_routes_by_id_or_short_name():
    assert [r.id for r in _read(cross_feed(), Selection(routes=("2",))).routes] == ["r2"]
    with pytest.raises(ImportFailure, match=r"has no route 9 \(its routes: r1, r2\)") as exc:
        _read(cross_feed(), Selection(routes=("9",)))
    assert exc.value.exit_code == 2


def test_no_route_of_the_chosen_types_says_what_the_feed_has():
    with pytest.raises(ImportFailure) as exc:
        _read(cross_feed(), Selection(route_types=route_types("bus")))
    assert str(exc.value) == (
        "the feed has no route of the chosen types; it has light-rail (1), metro (1): "
        "choose others with --route-types"
    )


def test_a_feed_without_parent_stations_merges_platforms_by_distance():
    stations = dict(CROSS_STATIONS)
    stations["Centre north platform"] = (
        CROSS_STATIONS["Centre"][0] + 0.0002,
        CROSS_STATIONS["Centre"][1],
    )
    routes = [
        CROSS_ROUTES[0],
        ("r2", "2", 0, None, [["North End", "Park", "Centre north platform", "Harbour"]]),
    ]
    files = feed_files(stations, routes, parents=False)
    doc = _import(zipped(files)).doc
    assert len(doc["stations"]) == 8
    assert doc["lines"][1]["stops"][2] == "centre"


def test_routes_without_colours_get_palette_colours_told_apart():
    routes = [(rid, short, kind, None, runs) for rid, short, kind, _c, runs in CROSS_ROUTES]
    result = _import(zipped(feed_files(CROSS_STATIONS, routes)))
    colours = [ln["color"] for ln in result.doc["lines"]]
    assert colours == ["#333333", "#333377", "#6677aa"]  # the palette's first three
    assert "line A: colour #333333 (it had none)" in result.notes
    assert _problems(result.doc) == []


def test_two_lines_that_meet_in_the_same_colour_are_told_apart():
    routes = [(rid, short, kind, "cc0044", runs) for rid, short, kind, _c, runs in CROSS_ROUTES]
    result = _import(zipped(feed_files(CROSS_STATIONS, routes)))
    colours = [ln["color"] for ln in result.doc["lines"]]
    assert colours[0] == "#cc0044" and len(set(colours)) == 3
    assert "line B: colour #cc0044" not in " ".join(result.notes)
    assert _problems(result.doc) == []


def test_a_route_with_one_station_is_left_out_or_refused_when_alone():
    lonely = ("r3", "3", 1, None, [["Mill"]])
    result = _import(zipped(feed_files(CROSS_STATIONS, [*CROSS_ROUTES, lonely])))
    assert "route 3: left out, it has fewer than two stations" in result.notes
    with pytest.raises(ImportFailure, match="no chosen route has two stations or more"):
        _import(zipped(feed_files(CROSS_STATIONS, [lonely])))


def test_thinning_keeps_termini_and_interchanges_and_drops_the_densest_first():
    stations = {f"S{i}": at(x, 0) for i, x in enumerate([0, 1, 1.5, 2, 4, 6, 6.4, 8, 10])}
    stations["Cross"] = at(4, 2)
    stations["Top"] = at(4, -2)
    run = [f"S{i}" for i in range(9)]
    routes = [("a", "A", 1, "cc0044", [run]), ("b", "B", 1, "0022ee", [["Top", "S4", "Cross"]])]
    doc = _import(zipped(feed_files(stations, routes)), ImportConfig(layout=False, max_stations=8))
    kept = doc.doc["lines"][0]["stops"]
    assert kept == ["s0", "s3", "s4", "s5", "s7", "s8"]  # 0, 2, 4, 6, 8, 10 km
    assert len(doc.doc["stations"]) == 8
    assert {"s0", "s8", "s4", "top", "cross"} <= {s["id"] for s in doc.doc["stations"]}


def test_too_many_termini_and_interchanges_for_max_stations_is_refused():
    with pytest.raises(ImportFailure, match="the network has 7 termini and interchanges"):
        _import(cross_feed(), ImportConfig(layout=False, max_stations=5))


def test_max_lines_keeps_the_longest_and_letters_follow_the_route_order():
    routes = [
        ("x", "10", 1, None, [["West End", "Mill", "Centre", "Market", "East End"]]),
        ("y", "2", 1, None, [["North End", "Park", "Centre"]]),
        ("z", "3", 1, None, [["Centre", "Harbour", "South End", "Docks"]]),
    ]
    result = _import(
        zipped(feed_files(CROSS_STATIONS, routes)), ImportConfig(layout=False, max_lines=2)
    )
    assert [(ln["id"], ln["name"]) for ln in result.doc["lines"]] == [("A", "3"), ("B", "10")]
    assert result.notes[0] == "line 2 (3 stations from North End) left out: --max-lines 2 reached"


def test_the_city_name_falls_back_to_the_feed_publisher_with_several_agencies():
    files = feed_files(CROSS_STATIONS, CROSS_ROUTES)
    files["agency.txt"] = table(["agency_id", "agency_name"], [["a", "One"], ["b", "Two"]])
    files["feed_info.txt"] = table(
        ["feed_publisher_name", "feed_lang"], [["Springfield Transit", "en"]]
    )
    assert _read(zipped(files)).name == "Springfield"


def test_a_city_name_is_the_place_an_operator_name_holds():
    assert place_part("Metro - Los Angeles") == "Los Angeles"
    assert place_part("Los Angeles County Metropolitan Transportation Authority") == (
        "Los Angeles County"
    )
    assert place_part("City of Detroit Department of Transportation") == "Detroit"
    assert place_part("Winston-Salem Transit Authority") == "Winston-Salem"
    assert place_part("SEPTA") == "SEPTA"
    assert place_part("Regional Transportation District") is None
    assert place_part("City Transit") is None
    assert city_name(["Metro Transit", "Twin Cities Metro"], [], "x") == "Twin Cities"
    assert city_name(["Regional Transportation District"], ["America/Denver"], "x") == "Denver"
    assert city_name(["Transit Authority"], ["UTC"], "feed") == "feed"


def test_the_city_name_falls_back_to_the_time_zone_when_the_agency_names_no_place():
    files = feed_files(CROSS_STATIONS, CROSS_ROUTES, agency="Regional Transit Authority")
    assert _read(zipped(files)).name == "Berlin"  # its agency_timezone is Europe/Berlin


def test_name_overrides_the_derived_city_name():
    result = _import(cross_feed(), ImportConfig(layout=False, name="Metro - Anytown"))
    assert result.doc["name"] == "Metro - Anytown"


def test_station_suffixes_go_unless_two_names_would_then_be_one():
    assert short_names(
        ["Allen Station", "Mill Station", "Mill Metro Station", "Park station", "Park",
         "Station", "Dock Metro station", "Union Station"]
    ) == [
        "Allen", "Mill Station", "Mill Metro Station", "Park station", "Park",
        "Station", "Dock", "Union",
    ]  # fmt: skip


def test_a_feed_whose_stripped_station_names_collide_keeps_their_suffix():
    renamed = {"Mill": "Mill Station", "Centre": "Centre Station", "Park": "Mill Metro Station"}
    stations = {renamed.get(n, n): xy for n, xy in CROSS_STATIONS.items()}
    routes = [
        (rid, short, kind, colour, [[renamed.get(n, n) for n in run] for run in runs])
        for rid, short, kind, colour, runs in CROSS_ROUTES
    ]
    doc = _import(zipped(feed_files(stations, routes))).doc
    names = sorted(s["name"] for s in doc["stations"])
    assert "Centre" in names and "Centre Station" not in names
    assert "Mill Station" in names and "Mill Metro Station" in names and "Mill" not in names
    assert len(set(names)) == len(names)


# -- bad input -------------------------------------------------------------------------------


def _failure(data: bytes) -> str:
    with pytest.raises(ImportFailure) as exc:
        _import(data)
    assert exc.value.exit_code == 1
    return str(exc.value)


def test_missing_files_are_named():
    assert (
        _failure(cross_feed(stops_txt=None)) == "the feed has no stops.txt: it is not a GTFS feed"
    )
    assert _failure(cross_feed(stop_times_txt=None)) == (
        "the feed has no stop_times.txt: it is not a GTFS feed"
    )


def test_corrupt_and_truncated_zips_are_refused():
    assert _failure(b"PK\x03\x04 not really a zip").startswith("the feed is not a readable zip")
    good = cross_feed()
    assert _failure(good[: len(good) // 2]).startswith("the feed is not a readable zip")
    damaged = bytearray(good)
    start = damaged.find(b"stop_times.txt") + 40
    damaged[start : start + 20] = b"\xff" * 20
    message = _failure(bytes(damaged))
    assert "stop_times.txt" in message or "not a readable zip" in message


def test_a_zip_of_a_version_zipfile_cannot_read_is_refused():
    """Found by the studio's upload fuzz: zipfile raises NotImplementedError, not BadZipFile."""
    damaged = bytearray(cross_feed())
    at = damaged.find(b"PK\x01\x02") + 6  # the central directory's "version needed"
    damaged[at : at + 2] = (64).to_bytes(2, "little")
    assert _failure(bytes(damaged)) == (
        "the feed is not a readable zip file (zip file version 6.4)"
    )


def test_a_zip_bomb_is_refused_before_it_is_unpacked():
    bomb = zipped({**feed_files(CROSS_STATIONS, CROSS_ROUTES), "stops.txt": b"0" * (4 << 20)})
    assert _failure(bomb) == (
        "the feed: stops.txt unpacks 1027 times its packed size (more than 100): "
        "refusing a zip bomb"
    )


def test_a_member_larger_than_the_cap_is_refused(monkeypatch):
    import mapkit.importers.gtfs as gtfs

    monkeypatch.setattr(gtfs, "MAX_MEMBER_BYTES", 200)
    assert _failure(cross_feed()) == (
        "the feed: stops.txt would unpack to 783 bytes, more than 200 bytes"
    )


def test_coordinates_out_of_range_and_missing_parents_are_named():
    files = feed_files({**CROSS_STATIONS, "Mill": (123.0, 11.0)}, CROSS_ROUTES)
    assert _failure(zipped(files)) == (
        "the feed: stops.txt line 4 (stop 'S1') has latitude 123, outside -90..90"
    )
    files = feed_files(CROSS_STATIONS, CROSS_ROUTES)
    files["stops.txt"] = files["stops.txt"].replace(",S0\n", ",S99\n", 1)
    assert _failure(zipped(files)) == (
        "the feed: stops.txt line 3: stop 'P0' names parent station 'S99', "
        "which is not in stops.txt"
    )


def test_unknown_stops_and_bad_numbers_in_stop_times_are_named():
    files = feed_files(CROSS_STATIONS, CROSS_ROUTES)
    files["stop_times.txt"] = files["stop_times.txt"].replace("r1-0,P0,1", "r1-0,P77,1")
    assert _failure(zipped(files)) == (
        "the feed: stop_times.txt line 2: stop 'P77' is not in stops.txt"
    )
    files = feed_files(CROSS_STATIONS, CROSS_ROUTES)
    files["stop_times.txt"] = files["stop_times.txt"].replace("r1-0,P0,1", "r1-0,P0,one")
    assert "stop_sequence 'one' is not a number" in _failure(zipped(files))


def test_not_utf8_and_missing_columns_are_named():
    assert _failure(cross_feed(routes_txt=b"route_id,route_type\n\xff\xfe,1\n")) == (
        "the feed: routes.txt is not UTF-8 text"
    )
    assert _failure(cross_feed(trips_txt="route_id,service_id\nr1,x\n")) == (
        "the feed: trips.txt has no trip_id column"
    )


def test_cli_bad_feed_exits_1_with_one_line_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.zip"
    bad.write_bytes(cross_feed(stops_txt=None))
    out = tmp_path / "out.json"
    res = CliRunner().invoke(app, ["import", "gtfs", str(bad), "-o", str(out)])
    assert res.exit_code == 1
    assert res.stderr == "mapkit: bad.zip has no stops.txt: it is not a GTFS feed\n"
    assert not out.exists()


def test_cli_usage_problems_exit_2(tmp_path):
    runner = CliRunner()
    feed = tmp_path / "f.zip"
    feed.write_bytes(cross_feed())
    cases = [
        (["import", "gtfs", str(tmp_path / "none.zip"), "-o", "x.json"], "no such file"),
        (["import", "gtfs", str(feed), "-o", str(feed)], "refusing to overwrite the input"),
        (["import", "gtfs", str(feed), "-o", "x.json", "--max-stations", "1"], "--max-stations"),
        (["import", "gtfs", str(feed), "-o", "x.json", "--route-types", "boat"], "boat"),
        (["import", "gtfs", str(feed), "-o", "x.json", "--id", "Bad Id"], "--id"),
        (["import", "gtfs", str(feed), "-o", "x.json", "--time-limit", "0"], "--time-limit"),
        (["import", "gtfs", str(feed), "-o", "x.json", "--max-lines", "27"], "--max-lines"),
    ]
    for args, words in cases:
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        assert words in res.stderr and res.stderr.count("\n") == 1


def test_windows_and_points_follow_line_length():
    from mapkit.importers.scoring import Bonus, bonus

    assert bonus([False] * 6 + [True] * 8, False) == Bonus(3, 6, 4)
    assert bonus([True] * 8, False) == Bonus(1, 3, 2)
    assert bonus([False] * 12 + [True], False) == Bonus(4, 5, 3)
    assert bonus([False, False, True], False) == Bonus(2, 2, 1)


def test_zip_in_a_folder_is_read():
    files = {f"feed/{k}": v for k, v in feed_files(CROSS_STATIONS, CROSS_ROUTES).items()}
    assert len(_read(zipped(files)).routes) == 2


def test_stored_members_are_read_too():
    data = zipped(feed_files(CROSS_STATIONS, CROSS_ROUTES), zipfile.ZIP_STORED)
    assert len(_read(data).places) == 11


def test_la_laid_out_is_octilinear_and_passes_strict_validation():
    result = network_to_map(read_gtfs(LA))
    assert result.problems == (0, 0)
    report = result.layout_report
    assert report.octilinear_share == 1.0
    assert report.topology_violations == 0 and report.hairpins == 0
    assert result.doc["description"].startswith("Imported by mapkit import from GTFS feed")


def test_a_network_the_layout_cannot_draw_keeps_its_projection(monkeypatch):
    import mapkit.layout

    def refuse(*_args, **_kwargs):
        raise mapkit.layout.LayoutError("station 'centre' has no room")

    monkeypatch.setattr(mapkit.layout, "layout", refuse)
    result = _import(cross_feed(), ImportConfig())
    assert result.layout_report is None and result.problems == (0, 0)
    assert "no layout (station 'centre' has no room): the stations stay where projected" in (
        result.notes
    )


def test_a_large_network_is_cut_to_a_connected_sheet():
    """A 40 x 40 grid of routes (1,600 stations): ten lines that meet, 70 stations, a map."""
    stations = {f"{r}-{c}": at(c * 0.6, r * 0.6) for r in range(40) for c in range(40)}
    rows = [(f"h{r}", f"h{r}", 1, None, [[f"{r}-{c}" for c in range(40)]]) for r in range(40)]
    cols = [(f"v{c}", f"v{c}", 1, None, [[f"{r}-{c}" for r in range(40)]]) for c in range(40)]
    result = _import(zipped(feed_files(stations, rows + cols)))
    assert result.lines == 10 and result.stations == 70
    names = [ln["name"] for ln in result.doc["lines"]]
    assert names[0] == "h0" and "v0" in names
    assert load_source(writer.dumps(result.doc)).map is not None


def test_the_import_is_deterministic():
    again = network_to_map(read_gtfs(LA), FLAT)
    assert writer.dumps(again.doc) == writer.dumps(_la_flat().doc)


def test_a_route_run_in_two_parts_joins_at_its_nearest_ends_and_separate_keeps_the_rest():
    stations = {f"A{c}": at(c * 2, 0) for c in range(1, 7)}
    stations |= {f"B{c}": at(c * 2, 8) for c in range(1, 4)}
    routes = [
        ("r1", "1", 1, None, [["A1", "A2", "A3"], ["A6", "A5", "A4"]]),  # A3 nearest A4
        ("r2", "2", 1, None, [["B1", "B2", "B3"]]),  # a network of its own
    ]
    files = feed_files(stations, routes)
    one = _import(zipped(files))
    assert [ln["stops"] for ln in one.doc["lines"]] == [["a1", "a2", "a3", "a4", "a5", "a6"]]
    assert one.notes[0] == "line 2 (3 stations from B1) left out: it meets no line kept"
    both = _import(zipped(files), ImportConfig(layout=False, separate=True))
    assert [len(ln["stops"]) for ln in both.doc["lines"]] == [6, 3]
    assert "TOP002" in _problems(both.doc)
