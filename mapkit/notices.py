"""Every diagnostic mapkit can emit: a documented notice with a code and a severity.

The registry is the single list that ``docs/rules.md``, ``--select``/``--ignore``
and the SARIF rule table are checked against.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Notice:
    code: str
    severity: Severity
    layer: str
    title: str
    hint: str


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


LAYERS = ("syntax", "schema", "references", "topology", "geometry", "design")

_E, _W, _I = Severity.ERROR, Severity.WARNING, Severity.INFO

NOTICES: dict[str, Notice] = {
    n.code: n
    for n in [
        # syntax
        Notice(
            "JSON001",
            _E,
            "syntax",
            "Invalid JSON",
            "Fix the syntax at the given position (a missing comma or quote is the usual cause).",
        ),
        Notice(
            "JSON002",
            _E,
            "syntax",
            "Duplicate key",
            "Remove one of the two keys: JSON tools disagree on which value wins.",
        ),
        Notice(
            "JSON003",
            _E,
            "syntax",
            "Non-finite number",
            "Use a finite number: NaN, Infinity and overflowing numbers are not JSON.",
        ),
        Notice("JSON004", _E, "syntax", "File is not UTF-8", "Save the file with UTF-8 encoding."),
        Notice(
            "JSON005",
            _E,
            "syntax",
            "Nesting too deep",
            "A map is at most a few levels deep; check for runaway brackets.",
        ),
        Notice(
            "JSON006",
            _E,
            "syntax",
            "File too large",
            "A map is at most 1 MiB; check that this is the right file.",
        ),
        # schema
        Notice(
            "SCH001", _E, "schema", "Unsupported format version", 'Set "format" to "mapkit-map/1".'
        ),
        Notice(
            "SCH002",
            _E,
            "schema",
            "Missing required property",
            "Add the property; the schema's description says what it means.",
        ),
        Notice(
            "SCH003",
            _E,
            "schema",
            "Unknown property",
            "Remove it or fix its spelling; core objects allow no extra keys.",
        ),
        Notice("SCH004", _E, "schema", "Wrong type", "Use the JSON type the schema asks for."),
        Notice(
            "SCH005", _E, "schema", "Value out of range", "Use a value inside the allowed range."
        ),
        Notice(
            "SCH006",
            _E,
            "schema",
            "Malformed value",
            "Follow the pattern: ids are slugs or capital letters, colours are #rrggbb.",
        ),
        Notice("SCH007", _E, "schema", "Schema violation", "Compare the value with the schema."),
        # references and identity
        Notice(
            "REF001",
            _E,
            "references",
            "Stop names no station",
            'Add the station to "stations" or fix the id in "stops".',
        ),
        Notice(
            "REF002", _E, "references", "Duplicate station id", "Give every station its own id."
        ),
        Notice("REF003", _E, "references", "Duplicate line id", "Give every line its own letter."),
        Notice(
            "REF004",
            _E,
            "references",
            "Repeated stop on a line",
            'A line visits each station once; for a circle, set "loop": true.',
        ),
        Notice(
            "REF005",
            _E,
            "references",
            "Too few stops",
            "A line needs at least 2 stops, a loop line at least 3.",
        ),
        Notice(
            "REF006",
            _E,
            "references",
            "First-finisher bonus below the others' bonus",
            "Make points.first at least points.others.",
        ),
        Notice(
            "REF007",
            _E,
            "references",
            "Shape does not follow the line",
            "A shape starts at the depot and passes through every stop in order "
            "(and back to the first stop for a loop).",
        ),
        Notice(
            "REF008",
            _E,
            "references",
            "Id with a trailing line break",
            "Remove the line break: an id is one line of letters, digits and _ . -.",
        ),
        Notice(
            "REF009",
            _W,
            "references",
            "Station ids differ only by case",
            "Rename one of them: players, game records and `mapkit play` cannot tell them apart.",
        ),
        # topology
        Notice(
            "TOP001",
            _E,
            "topology",
            "Station with no line",
            "Add the station to a line's stops, or delete it: only a free ride could mark it.",
        ),
        Notice(
            "TOP002",
            _W,
            "topology",
            "Network not connected",
            "Connect the parts with a shared station, unless separate networks are intended.",
        ),
        Notice(
            "TOP003",
            _E,
            "topology",
            "Special station with no line",
            "Put the special station on a line; a free ride alone never triggers it.",
        ),
        # geometry at print scale
        Notice(
            "GEO001",
            _E,
            "geometry",
            "Line runs through another line's station",
            'Bend the line with "shape" or move the station: players would mark it '
            "as belonging to the line.",
        ),
        Notice(
            "GEO002",
            _E,
            "geometry",
            "Station circles overlap",
            "Move the stations apart; at print scale they must not touch.",
        ),
        Notice(
            "GEO003",
            _E,
            "geometry",
            "Station off the printable area",
            "Move the station inside the map area.",
        ),
        Notice(
            "GEO004",
            _E,
            "geometry",
            "Wagon off the printable area",
            "Move the depot so that the whole wagon is printed.",
        ),
        Notice(
            "GEO005",
            _E,
            "geometry",
            "Wagon overlaps a station or another wagon",
            "Move the depot to free space.",
        ),
        Notice(
            "GEO006",
            _E,
            "geometry",
            "Wagon too small for its windows",
            "Allow a longer wagon (depot.max_width_mm) or use fewer windows.",
        ),
        Notice(
            "GEO007",
            _W,
            "geometry",
            "Line passes very close to a station",
            "Leave more room between the line and the station circle, or bend the line.",
        ),
        Notice(
            "GEO008",
            _W,
            "geometry",
            "Another line crosses a wagon",
            "Move the depot so that no other line runs over its boxes.",
        ),
        Notice(
            "GEO009",
            _E,
            "geometry",
            "Scoring panel does not fit",
            "Use fewer lines, or a larger paper size.",
        ),
        Notice(
            "GEO010",
            _E,
            "geometry",
            "Printed within the margin",
            "Move the element inward, away from the paper's edge: printers and trimming "
            "leave nothing within 5 mm of it.",
        ),
        # game design
        Notice(
            "DES001",
            _W,
            "design",
            "Line cannot be completed by its windows",
            "Add windows or shorten the line; only a free ride could still complete it.",
        ),
        Notice(
            "DES002",
            _W,
            "design",
            "Completing the line needs near-perfect draws",
            "Add a window, shorten the line or let more lines share its stations.",
        ),
        Notice(
            "DES003",
            _W,
            "design",
            "Line colours hard to tell apart",
            "Pick colours that differ in lightness as well as hue.",
        ),
        Notice(
            "DES004",
            _W,
            "design",
            "Colour too light to print",
            "Use a darker colour: it must stand out on the sheet colour.",
        ),
        Notice(
            "DES005",
            _I,
            "design",
            "Bonus does not grow with difficulty",
            "Longer and harder lines should pay more.",
        ),
        Notice(
            "DES006",
            _I,
            "design",
            "Line off the eight directions or unevenly spaced",
            "Move its stations so each stretch runs horizontal, vertical or diagonal, "
            "at similar distances.",
        ),
    ]
}


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
