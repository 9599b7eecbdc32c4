"""Every diagnostic mapkit can emit: a documented notice with a code and a severity.

The registry is the one text of every rule: ``mapkit rules`` prints it, ``docs/rules.md``
is generated from it (``mapkit rules --markdown > docs/rules.md``, see
:mod:`mapkit.rules_doc`), and ``--select``/``--ignore`` and the SARIF rule table read it.
A new code is a new :class:`Notice` here, then a regenerated page.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Notice:
    """A rule: what it finds (``about``, Markdown), a map fragment that triggers it
    (``example``) and how to fix it (``hint``, shown under every diagnostic of the code)."""

    code: str
    severity: Severity
    layer: str
    title: str
    hint: str
    about: str
    example: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding, located by JSON pointer and (when known) line and column."""

    code: str
    severity: Severity
    message: str
    pointer: str = ""
    line: int | None = None
    column: int | None = None
    hint: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": str(self.severity),
            "message": self.message,
            "pointer": self.pointer,
            "line": self.line,
            "column": self.column,
            "hint": self.hint,
        }


_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFO

NOTICES: dict[str, Notice] = {
    n.code: n
    for n in [
        Notice(
            "JSON001",
            _E,
            "syntax",
            "Invalid JSON",
            hint=(
                "Correct the JSON at the given position: a missing comma, quote or bracket is "
                "the usual cause."
            ),
            about=(
                "The file is not valid JSON (RFC 8259): a missing comma, quote or bracket, a "
                "trailing comma, a comment, or the file ends early. The position is where the "
                "parser gave up."
            ),
            example='{"id": "b", "x": 10 "y": 0}',
        ),
        Notice(
            "JSON002",
            _E,
            "syntax",
            "Duplicate key",
            hint="Remove one of the two keys: JSON tools disagree on which value wins.",
            about=(
                "An object holds the same key twice. Python keeps the last value, other tools "
                "the first: the map would mean different things to different tools."
            ),
            example=('"name": "Base",\n"name": "Base again"'),
        ),
        Notice(
            "JSON003",
            _E,
            "syntax",
            "Non-finite number",
            hint="Write a finite number: NaN, Infinity and overflowing numbers are not JSON.",
            about=(
                "`NaN`, `Infinity`, `-Infinity`, or a number too large for a double (such as "
                "`1e400`). None of these is JSON."
            ),
            example='{"id": "b", "x": NaN, "y": 0}',
        ),
        Notice(
            "JSON004",
            _E,
            "syntax",
            "File is not UTF-8",
            hint="Save the file as UTF-8 (every editor offers it).",
            about=(
                "The file's bytes are not UTF-8, typically a file saved as Latin-1 or "
                "Windows-1252 with an accented name. The example file "
                "`examples/broken/JSON004.json` holds the byte `0xfc` (ü in Latin-1)."
            ),
            example='"name": "Z\\xfcrich"   (the raw byte 0xfc)',
        ),
        Notice(
            "JSON005",
            _E,
            "syntax",
            "Nesting too deep",
            hint="Remove the runaway brackets: a map is five levels deep.",
            about=(
                "Arrays or objects nested more than 128 levels deep. A map is five levels deep; "
                "this is a runaway bracket or a hostile file."
            ),
            example='"description": [[[[ ... 200 levels ... ]]]]',
        ),
        Notice(
            "JSON006",
            _E,
            "syntax",
            "File too large",
            hint="Check that this is the right file; remove what does not belong in a map.",
            about=(
                "The file holds more than 1 MiB (1,048,576 bytes). The schema bounds every list "
                "(400 stations, 26 lines, 100 stops and 400 shape points a line), so a real map "
                "at those bounds is a few hundred kilobytes; a larger file is the wrong file or "
                "a hostile one. mapkit reads no more than 1 MiB and one byte of any map or game "
                "record, so `mapkit validate /dev/zero` answers at once."
            ),
            example=(
                '{"format": "mapkit-map/1", "description": "... 2 million characters ...", ...}'
            ),
        ),
        Notice(
            "SCH001",
            _E,
            "schema",
            "Unsupported format version",
            hint=(
                'Set `"format": "mapkit-map/1"`, or use the mapkit version that reads your format.'
            ),
            about=(
                'The `format` is not `"mapkit-map/1"`. The message names the supported version. '
                "The schema layer stops here: other schema messages would be noise for a "
                "different format."
            ),
            example='"format": "mapkit-map/2"',
        ),
        Notice(
            "SCH002",
            _E,
            "schema",
            "Missing required property",
            hint="Add the property; the schema's description says what it means.",
            about=(
                "A required property is missing: at the top `format`, `id`, `name`, `stations`, "
                "`lines`; in a station `id`, `x`, `y`; in a line `id`, `color`, `windows`, "
                "`points`, `depot`, `stops`."
            ),
            example=(
                '{"format": "mapkit-map/1", "id": "base", "stations": [...], "lines": [...]}   '
                '(no "name")'
            ),
        ),
        Notice(
            "SCH003",
            _E,
            "schema",
            "Unknown property",
            hint="Fix the spelling or remove the key: core objects allow no extra keys.",
            about=(
                "A property the schema does not know, in an object that allows no extras (top "
                "level, `sheet`, stations, lines, `points`, `depot`). Usually a typo."
            ),
            example='{"id": "B", "colour": "#1344ad", ...}',
        ),
        Notice(
            "SCH004",
            _E,
            "schema",
            "Wrong type",
            hint=(
                "Write the value with the JSON type the schema asks for (a number is `2`, not "
                '`"2"`).'
            ),
            about=(
                "A value of the wrong JSON type: a number written as a string, a string where "
                "an object belongs."
            ),
            example='"windows": "2"',
        ),
        Notice(
            "SCH005",
            _E,
            "schema",
            "Value out of range",
            hint="Use a value inside the range the message gives.",
            about=(
                "A number or a length outside its range: `windows` outside 1..8, negative "
                "points, fewer than 2 stations or stops, an empty line list, a too long name, "
                "`max_width_mm` not above 0."
            ),
            example='"windows": 9',
        ),
        Notice(
            "SCH006",
            _E,
            "schema",
            "Malformed value",
            hint="Follow the pattern: ids are slugs or capital letters, colours are `#rrggbb`.",
            about=(
                "A string that does not match its pattern: colours are `#rrggbb`; the map id is "
                "a lower-case slug; station ids are letters, digits, `_ . -`; line ids are a "
                "capital letter and up to two letters or digits."
            ),
            example='"color": "orange"',
        ),
        Notice(
            "SCH007",
            _E,
            "schema",
            "Schema violation",
            hint="Compare the value with the schema's description of the property.",
            about=(
                "Any other schema violation (a catch-all for schema keywords without their own "
                "code). The current schema has none left, so no map triggers it today; it "
                "exists so that a future schema keyword never goes unreported."
            ),
            example="(none with the current schema)",
        ),
        Notice(
            "REF001",
            _E,
            "references",
            "Stop names no station",
            hint="Add the station to `stations` or fix the id in `stops`.",
            about="A line's `stops` names a station id that is not in `stations`.",
            example='"stops": ["h", "f", "j"]   (no station "j")',
        ),
        Notice(
            "REF002",
            _E,
            "references",
            "Duplicate station id",
            hint=(
                "Rename one station (and the stops that mean it): every station needs its own id."
            ),
            about="Two stations share an id: stops would be ambiguous.",
            example=('{"id": "a", "x": 0, "y": 0},\n{"id": "a", "x": 0, "y": 30}'),
        ),
        Notice(
            "REF003",
            _E,
            "references",
            "Duplicate line id",
            hint="Give every line its own letter.",
            about="Two lines share an id (the letter printed at the wagon and in the panel).",
            example='{"id": "B", ...}, {"id": "B", ...}',
        ),
        Notice(
            "REF004",
            _E,
            "references",
            "Repeated stop on a line",
            hint='Remove the repeat; for a circle set `"loop": true` and list each station once.',
            about=(
                "A line lists the same station twice. A line is a path; a circle line is "
                'written once with `"loop": true`.'
            ),
            example='"stops": ["a", "b", "c", "d", "b"]',
        ),
        Notice(
            "REF005",
            _E,
            "references",
            "Too few stops",
            hint="Add stops (a line needs at least 2, a loop line at least 3), or drop `loop`.",
            about=(
                "Too few stops: a loop line needs at least 3 (a line needs 2; fewer is already "
                "SCH005)."
            ),
            example='"stops": ["h", "f"], "loop": true',
        ),
        Notice(
            "REF006",
            _E,
            "references",
            "First-finisher bonus below the others' bonus",
            hint="Make `points.first` at least `points.others`.",
            about=(
                "`points.first` is below `points.others`: the first finisher would earn less "
                "than later ones."
            ),
            example='"points": {"first": 1, "others": 3}',
        ),
        Notice(
            "REF007",
            _E,
            "references",
            "Shape does not follow the line",
            hint=(
                "Put a shape point on every stop, in stop order, from the depot (and back to "
                "the first stop for a loop)."
            ),
            about=(
                "A `shape` does not start at the depot, or does not pass through every stop in "
                "order (and back to the first stop for a loop), within a tolerance of 1/10000 "
                "of the map's extent."
            ),
            example=(
                '"shape": [[38, 10], [30, 10], [10, 10], [20, 10]]   (reaches stop "i" at '
                '(10,10) before "f" at (20,10))'
            ),
        ),
        Notice(
            "REF008",
            _E,
            "references",
            "Id with a trailing line break",
            hint="Remove the line break: an id is one line of letters, digits and _ . -.",
            about=(
                'A map, station or line id ends in a line break (`"a\\n"`). JSON Schema searches '
                "a `pattern` rather than matching it in full, and `$` matches before a final "
                'line break, so the schema alone lets `"a\\n"` through; this check matches the '
                "schema's own id patterns against the whole id. Such an id cannot be typed in "
                "`mapkit play` and looks like `a` everywhere it is printed."
            ),
            example='{"id": "i\\n", "x": 10, "y": 10}',
        ),
        Notice(
            "REF009",
            _W,
            "references",
            "Station ids differ only by case",
            hint=(
                "Rename one of them: players, game records and `mapkit play` cannot tell them "
                "apart."
            ),
            about=(
                "Two station ids are equal but for upper and lower case (`i` and `I`). The "
                "engine tells them apart, but people cannot: a player typing a free ride, a "
                "person reading a game record or a sheet cannot. `mapkit play` matches an exact "
                "id before ignoring case, so both stay reachable, but the map is confusing."
            ),
            example=('{"id": "i", "x": 10, "y": 10},\n{"id": "I", "x": 0, "y": 20}'),
        ),
        Notice(
            "REF012",
            _E,
            "references",
            "All-lines bonus first below others",
            hint="Give the first to run every line at least what later ones get.",
            about=(
                "The map's `all_lines_bonus` pays `others` more than `first`: the race for it "
                "would reward coming late. As for a line's points (REF006), `first` is what "
                "the first player (or all of them in the same round) scores, `others` what "
                "those who follow score."
            ),
            example='"all_lines_bonus": {"first": 2, "others": 5}',
        ),
        Notice(
            "REF013",
            _E,
            "references",
            "Branching line the rules cannot play",
            hint=(
                "Give `branches` only to a plain line (no `loop`, `both_ends` or `shape`), and "
                "`branch_scoring` only with `branches`; keep a map within 63 scoring units."
            ),
            about=(
                "A branching line runs from its wagon along the trunk (`stops`, ending at the "
                "fork) into one of its `branches` (rules-notes 23). A loop has no trunk to fork, "
                "a two-ended line would need a wagon at every branch end, and a `shape` is one "
                "polyline where a fork needs two; `branch_scoring` means nothing on a line "
                "with no branches. Each line, and each branch of a branching line, is a scoring "
                "unit with its own race: the rules engine plays at most 63 on a map."
            ),
            example=(
                '{"id": "C", "loop": true, "stops": ["a", "b"], '
                '"branches": [{"stops": ["c"]}, {"stops": ["d"]}]}'
            ),
        ),
        Notice(
            "REF011",
            _E,
            "references",
            "Loop line startable from both ends",
            hint="Remove `both_ends` from the loop: a loop is already travelled either way round.",
            about=(
                "A line has both `loop` and `both_ends`. A loop has no ends: its cards already "
                "start at its first stop and go either way round it (rules-notes 7), so a "
                "two-ended loop has no meaning in the rules."
            ),
            example='{"id": "C", "loop": true, "both_ends": true, "stops": ["a", "b", "c"]}',
        ),
        Notice(
            "REF010",
            _E,
            "references",
            "Ruleset that cannot be played",
            hint=(
                "Give the deck at least one number or express card and a copy of its reshuffle "
                'card, or name a published ruleset (`"ruleset": "metro-x"`).'
            ),
            about=(
                "The map's `ruleset` names no published ruleset, or its object changes a named "
                "ruleset into one no game can be played under: a deck with no number or "
                "express card (no line could ever be crossed), a reshuffle card the deck does "
                "not hold (the pile would run out "
                "before the windows), a penalty table out of order, or a player range outside "
                "1 to 6. `mapkit rules --rulesets` lists the published rulesets."
            ),
            example='"ruleset": {"base": "metro-x", "deck": {"3": 4, "+": 2}}',
        ),
        Notice(
            "TOP001",
            _E,
            "topology",
            "Station with no line",
            hint=(
                "Add the station to a line's `stops`, or delete it: only a free ride could mark it."
            ),
            about=(
                "A station (not special) that no line stops at. Only a free ride could ever "
                "mark it, and it costs every player a penalty at the end."
            ),
            example='{"id": "z", "x": 0, "y": 20}   (in no line\'s stops)',
        ),
        Notice(
            "TOP002",
            _W,
            "topology",
            "Network not connected",
            hint="Share a station between the parts, unless two networks are intended.",
            about=(
                "The stations and lines fall into separate networks: no station is shared "
                "between the parts. The message lists the parts by line, e.g. `2 separate "
                "networks (by line): {A,B,C} and {D}`; the pointer is the first line of the "
                "smallest part. Stations on no line are left out (they are TOP001/TOP003)."
            ),
            example='{"id": "D", "stops": ["x1", "x2"], ...}   (x1, x2 on no other line)',
        ),
        Notice(
            "TOP003",
            _E,
            "topology",
            "Special station with no line",
            hint=(
                "Put the special station on a line (ideally a busy one): a free ride alone "
                "never triggers it."
            ),
            about=(
                'A special station (`"special": true`) that no line stops at: a free ride could '
                "mark it but never triggers its extra action, so the special rule can never "
                "apply."
            ),
            example='{"id": "z", "x": 0, "y": 20, "special": true}',
        ),
        Notice(
            "GEO001",
            _E,
            "geometry",
            "Line runs through another line's station",
            hint=(
                "Bend the line with a `shape` around the station, or move the station: players "
                "would mark it as belonging to the line."
            ),
            about=(
                "A printed line's ink touches or crosses the circle of a station that is not "
                "one of its stops: the centreline of the drawn route (`sheet.drawn_routes`, "
                "including the side-by-side offsets of shared segments) comes closer to the "
                "station's centre than circle radius (3.175 mm) + half the line width (0.75 "
                "mm). Players would take the station for one of the line's. The pointer is the "
                "segment: `/lines/i/depot` for the segment from the wagon, `/lines/i/stops/k` "
                "for the segment that ends at stop k, `/lines/i/shape/j` for the shape segment "
                "that ends at point j. One diagnostic per (line, station)."
            ),
            example=(
                '"stops": ["h", "f", "i"],\n'
                '"shape": [[38, 10], [30, 10], [20, 20], [20, 10], [10, 10]]   '
                '(passes over station "g" of line B)'
            ),
        ),
        Notice(
            "GEO002",
            _E,
            "geometry",
            "Station circles overlap",
            hint=(
                "Move the stations apart, or spread the whole map (its scale is set by its extent)."
            ),
            about=(
                "Two station marks overlap or come closer than `metrics.min_station_distance` "
                "(2 x 3.175 mm + 0.8 mm clearance = 7.15 mm, centre to centre; the radius 3.175 "
                "mm leaves the 5.6 mm writing room `Metrics.station_inside` inside the thickest "
                "ring) at print scale on the chosen paper. A station where parallel lines pass "
                "side by side is printed as a pill (`SheetLayout.station_mark`), so the "
                "distance is measured between the marks as printed: centre to centre for "
                "circles, from the pill's centre line otherwise (GEO001 and GEO005 measure "
                "pills the same way). Crowded stations are grouped: one diagnostic per cluster, "
                "naming its stations and the closest pair, pointing at the later station of "
                "that pair."
            ),
            example='{"id": "a", "x": 0, "y": 0}, {"id": "b", "x": 1.2, "y": 0}',
        ),
        Notice(
            "GEO003",
            _E,
            "geometry",
            "Station off the printable area",
            hint="Move the station inside the map area.",
            about=(
                "A station circle lies outside the map area (between title band, footer and "
                "scoring panel) or its printed position is not a finite number. The layout "
                "scales every map to fit its map area, so no map triggers this today; the check "
                "guards the renderer against a layout change (the tests use a shifted layout)."
            ),
            example="(no map triggers it with the auto-fitting layout)",
        ),
        Notice(
            "GEO004",
            _E,
            "geometry",
            "Wagon off the printable area",
            hint="Move the depot so that the whole wagon is printed.",
            about=(
                "A wagon (letter cell plus window boxes) reaches outside the map area, or "
                "cannot be placed. Like GEO003, a guard: the auto-fitting layout keeps every "
                "wagon inside."
            ),
            example="(no map triggers it with the auto-fitting layout)",
        ),
        Notice(
            "GEO005",
            _E,
            "geometry",
            "Wagon overlaps a station or another wagon",
            hint="Move the depot to free space, usually beside the first stop.",
            about=(
                "A wagon covers (part of) a station circle, or two wagons overlap. One "
                "diagnostic per wagon for the stations it covers, one per overlapping pair of "
                "wagons; the pointer is the depot."
            ),
            example='"depot": {"x": 31.5, "y": 10}   (on top of station "h" at (30, 10))',
        ),
        Notice(
            "GEO006",
            _E,
            "geometry",
            "Wagon too small for its windows",
            hint="Raise `depot.max_width_mm`, remove it, or use fewer windows.",
            about=(
                "The window boxes leave less than `Metrics.min_window_inside` (6.5 mm, inside "
                "the printed outline) to write in: `depot.max_width_mm` is too small for the "
                "number of windows, so the boxes shrank. A window cell is its inside plus a "
                "0.35 mm inset on each side and the 0.3 mm outline, so at least 7.5 mm. The "
                "message gives the width needed (letter 6.5 mm + windows x 7.5 mm + padding)."
            ),
            example='"depot": {"x": -8, "y": 0, "max_width_mm": 14}   (2 windows need 22.9 mm)',
        ),
        Notice(
            "GEO007",
            _W,
            "geometry",
            "Line passes very close to a station",
            hint="Bend the line a little further away, or move the station.",
            about=(
                "A line passes a station that is not one of its stops with less than "
                "`metrics.near_line` (0.6 mm) of paper between its ink and the circle (without "
                "touching it: that is GEO001). A warning: readable, but a player may hesitate."
            ),
            example=(
                '"shape": [[38, 10], [30, 10], [20.9, 20], [20, 10], [10, 10]]   (grazes '
                'station "g")'
            ),
        ),
        Notice(
            "GEO008",
            _W,
            "geometry",
            "Another line crosses a wagon",
            hint="Move the depot so that no other line runs over its boxes.",
            about=(
                "The ink of another line runs over a wagon's rectangle (its letter or window "
                "boxes). Each wagon is reported once, naming every line that crosses it; its "
                "own line (which starts at the wagon) is not counted."
            ),
            example='"depot": {"x": 15, "y": 0}   (line B\'s wagon placed on line A)',
        ),
        Notice(
            "GEO009",
            _E,
            "geometry",
            "Scoring panel does not fit",
            hint="Use fewer lines, or a larger paper size.",
            about=(
                "The scoring panel cannot give every line a row of at least "
                "`metrics.min_panel_row_h` (8 mm) above the four score boxes: on A4 at most 14 "
                "lines fit, on letter 15. The message gives the room and the number of lines."
            ),
            example="15 lines in `lines`",
        ),
        Notice(
            "GEO010",
            _E,
            "geometry",
            "Printed within the margin",
            hint=(
                "Move the element inward, away from the paper's edge: printers and trimming "
                "leave nothing within 5 mm of it."
            ),
            about=(
                "A printed element of the map comes within `metrics.margin` (5 mm) of the "
                "paper's edge, where home printers cannot print and a print shop's trim may "
                "cut. Checked on **both papers** (A4 and Letter, whatever `--paper` says: a "
                "sheet is printed on either), each on its own layout, with the element's full "
                "ink: a station's ring, terminus halo or special star around its pill, a line's "
                "stroke (and casing) around its drawn route with the side-by-side offsets of a "
                "bundle, a wagon's outline, a loop's arrows. The layout fits every station's "
                "ring, halo, star and arrows and every wagon's outline into the map area, so "
                "what can still reach the margin is what a bundle adds: a pill across lines "
                "that run together, wider than the station it marks, at the edge of the map. "
                "One diagnostic per element, at the paper and edge where it comes closest."
            ),
            example=(
                'three lines share the stretch from station "a" (the leftmost point of the '
                'map) to "b"'
            ),
        ),
        Notice(
            "GEO011",
            _W,
            "geometry",
            "Branch tag has no room",
            hint=(
                "Give the branch's end room on one side: move the terminus, or the station, "
                "line or wagon beside it, a few millimetres away."
            ),
            about=(
                "Beside each branch's end the sheet prints the branch's name (`A1`, the name of "
                "its row in the scoring panel) in a small box, so a player knows which branch "
                "is which. The box goes straight on past the branch's end or turned either way "
                "in steps of 22.5°, up to 2 mm further out, to the first spot with "
                "`metrics.near_line` (0.6 mm) of paper to every printed mark (stations with "
                "their halos and stars, lines, wagons, loop arrows, the other tags) inside the "
                "map area. Where no spot has that room it is printed at the roomiest one, "
                "against what is there: this warning names the tag, the paper it found and "
                "the branch's end."
            ),
            example=(
                "a line's shape drawn round branch A2's end \"k\", 7 mm from it on every side"
            ),
        ),
        Notice(
            "DES001",
            _W,
            "design",
            "Line cannot be completed by its windows",
            hint=(
                "Add windows, shorten the line, or let other lines share more of its stops; "
                "only a free ride could still complete it."
            ),
            about=(
                "The line cannot be completed by its own windows even with the best cards and "
                "the best help from other lines. Help: every stop another line also serves may "
                "be marked by that line at any time; only the line's own (unshared) stops must "
                "be crossed by its cards, which start at the first empty stop from the wagon. A "
                "number card (at most 6; a 6 recurs after every reshuffle) crosses a contiguous "
                "run of stops and stops at a marked stop; an express card (at most 3) skips "
                "marked stops; an interchange marks one. The fewest windows is a covering "
                "problem over the unshared stops (loops: each card picks a direction, starting "
                "from the first stop), solved exactly by breadth-first search. A warning: a "
                "free ride could still complete the line."
            ),
            example=(
                '"windows": 1, "stops": ["a", "b", "c", "d", "j", "k", "l", "m"]   (7 own stops '
                "need a 6 and another card)"
            ),
        ),
        Notice(
            "DES002",
            _W,
            "design",
            "Completing the line needs near-perfect draws",
            hint=(
                "Add a window, shorten the line, or share more of its stations with other lines."
            ),
            about=(
                "Completing the line needs near-perfect draws: the exact probability that the "
                "line's next `windows` window-filling cards, from a freshly shuffled real deck "
                "(numbers 3,3,4,4,4,5,5,6; express 2,2,3; interchange x2; the free ride fills "
                "no window and is left out; after the 6 all cards are reshuffled), complete it "
                "with the best help (as in DES001, each card crossing as many own stops as it "
                "can, loops choosing the better direction) is below **5%**. Computed exactly by "
                "recursion over (line progress, cards left in the pile), cached per line shape. "
                "For scale: on the Metro X benchmark sheets every line is between 8.2% (Tube "
                "Town M) and 100%."
            ),
            example=(
                '"windows": 2, "stops": [12 stops in a row, 11 of them on no other line]   '
                "(needs two 6s: 0.6%)"
            ),
        ),
        Notice(
            "DES003",
            _W,
            "design",
            "Line colours hard to tell apart",
            hint=(
                "Pick colours that differ in lightness as well as hue; `mapkit rules DES003` "
                "lists a palette in which every pair passes."
            ),
            about=(
                "Two lines have colours that are hard to tell apart. Lines meet when they share "
                "a station (lines drawn side by side always do) or their printed lines come "
                "within 10 mm. Colours are compared in CIELAB with CIEDE2000 (ΔE00), under "
                "normal vision and under simulated protanopia, deuteranopia and tritanopia "
                "(Machado et al. 2009, severity 1). For lines that meet the check warns when "
                "ΔE00 < **15** under normal vision, or < **10** under any of the three "
                "dichromacies: the figure the shipped cities keep. Lines that never meet are "
                "also told apart by the letter at the wagon and in the panel, so they warn only "
                "below **5** (normal) or **3** (dichromacies). Same colours always warn."
            ),
            example=(
                '{"id": "A", "color": "#dd001f", ...}, {"id": "B", "color": "#c8102e", ...}   '
                '(ΔE00 6.0; they share station "c")'
            ),
        ),
        Notice(
            "DES004",
            _W,
            "design",
            "Colour too light to print",
            hint=(
                "Use a darker or more saturated colour, or a lighter sheet: it must stand out "
                "on the sheet colour."
            ),
            about=(
                "A line colour will not stand out on the sheet: ΔE00 against the sheet colour "
                "(`sheet.color`, white by default) < **20** under normal vision, or < **15** "
                "under any simulated dichromacy, or CIELAB lightness L* > **88** (pale colours "
                "vanish at 1.5 mm width)."
            ),
            example='"color": "#fff176"   (light yellow: ΔE00 12.2 from white under tritanopia)',
        ),
        Notice(
            "DES005",
            _I,
            "design",
            "Bonus does not grow with difficulty",
            hint=(
                "Raise the harder line's bonus, or make it easier: longer and harder lines "
                "should pay more."
            ),
            about=(
                "Bonus points do not grow with length and difficulty: a line that has more "
                "stops and a completion chance (as in DES002) at least 5 points lower than "
                "another line pays a smaller first-finisher bonus. One diagnostic per line, "
                "against the line that makes the gap largest, with both lines' numbers."
            ),
            example='"A": 4 stops, 1 window (53.8%), points 2/1;  "C": 3 stops (84.6%), points 3/1',
        ),
        Notice(
            "DES006",
            _I,
            "design",
            "Line off the eight directions or unevenly spaced",
            hint=(
                "Move the stations so each stretch runs horizontal, vertical or at 45°, or bend "
                "the line with `shape`; spread crowded stops and pull in lonely ones."
            ),
            about=(
                "Transit maps, and the published pad, draw every stretch of line horizontal, "
                "vertical or diagonal (octilinear) with stops at similar distances, so the eye "
                "follows a line from its wagon to its terminus. The check measures each line's "
                "route from its first to its last stop (its `shape` when it has one; the "
                "wagon's lead-in is free) and reports the share of its length that runs more "
                "than **3°** from a multiple of 45°, when above **25%**, or a stop spacing "
                "whose longest gap is more than **3** times its shortest. The message gives "
                "both figures, the spacing in mm at print scale. Every shipped city is clean: "
                "Amsterdam, and Berlin, Paris and Madrid redrawn on the eight directions (share "
                "off them, mean per line: 51 % to 12 %, 72 % to 8 %, 77 % to 4 %; longest stop "
                "gap at most 2.8 times the shortest on every line). `validate` treats it as "
                "information only."
            ),
            example=(
                '{"id": "b", "x": 10, "y": 4}   (line A a(0,0) - b - c(20,0): 68% of its length '
                "at 22°)"
            ),
        ),
        Notice(
            "DES007",
            _W,
            "design",
            "Colour outside what a press prints",
            hint=(
                "Pick a less saturated colour of the same hue, or one of the recommended "
                "palette (DES003), every one of which a press prints."
            ),
            about=(
                "The line's colour lies outside the gamut of a CMYK press, so a print shop "
                "(or `mapkit render --cmyk`) prints it duller than the screen shows, and two "
                "lines DES003 tells apart on screen may no longer be apart on paper. The gamut "
                "is the hull, in CIELAB, of ISO 12647-2 coated paper's (FOGRA39) white, black "
                "and six solid primaries and secondaries; the real gamut bulges beyond this "
                "hull, so a colour is reported only when its CIEDE2000 to the printable colour "
                "of the same lightness and hue (its chroma cut until it is inside) exceeds "
                "**8**. It is a warning, like DES003 and DES004, because a sheet is made to be "
                "printed: a home inkjet prints most of these colours, but the published pads "
                "and any print shop print CMYK. Every shipped colour is within 5.9, every "
                "colour of the recommended palette inside the hull."
            ),
            example='"color": "#00dd00"   (a screen green: 17 from the nearest press green)',
        ),
    ]
}


def unknown_codes(patterns: Iterable[str]) -> list[str]:
    """Entries of --select/--ignore (or ``mapkit rules``) that match no registered code."""
    return [
        p
        for p in patterns
        if p.strip() and not any(c.startswith(p.strip().upper()) for c in NOTICES)
    ]


def make(
    code: str,
    message: str,
    pointer: str = "",
    line: int | None = None,
    column: int | None = None,
) -> Diagnostic:
    """A diagnostic for a registered code, carrying its severity and hint."""
    notice = NOTICES[code]
    return Diagnostic(code, notice.severity, message, pointer, line, column, notice.hint)
