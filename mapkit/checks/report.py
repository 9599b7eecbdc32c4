"""Reporters: validate's results as text, JSON or SARIF 2.1.0."""

from __future__ import annotations

import json
from collections.abc import Sequence

from mapkit import __version__
from mapkit.checks import FileReport
from mapkit.notices import NOTICES, Severity

_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def to_text(reports: Sequence[FileReport], *, color: bool = False, strict: bool = False) -> str:
    """Grouped by file; each line ``file:line:col: severity CODE message`` then a hint.

    With ``strict`` a file with warnings is reported as failing, as the exit code says.
    """
    paint = {
        Severity.ERROR: ("\x1b[1;31m", "\x1b[0m"),
        Severity.WARNING: ("\x1b[1;33m", "\x1b[0m"),
        Severity.INFO: ("\x1b[1;36m", "\x1b[0m"),
    }
    out: list[str] = []
    totals = {s: 0 for s in Severity}
    for rep in reports:
        status = (
            "INVALID" if not rep.valid else "FAILED (--strict)" if strict and rep.warnings else "ok"
        )
        out.append(f"{rep.path}: {status} ({rep.errors} errors, {rep.warnings} warnings)")
        for d in rep.diagnostics:
            totals[d.severity] += 1
            where = f"{rep.path}:{d.line or 1}:{d.column or 1}"
            sev = str(d.severity)
            if color:
                sev = f"{paint[d.severity][0]}{sev}{paint[d.severity][1]}"
            out.append(f"  {where}: {sev} {d.code} {d.message}")
            if d.hint:
                out.append(f"      hint: {d.hint}")
    out.append(
        f"{len(reports)} file(s) checked: {totals[Severity.ERROR]} errors, "
        f"{totals[Severity.WARNING]} warnings, {totals[Severity.INFO]} infos"
    )
    return "\n".join(out) + "\n"


def to_json(reports: Sequence[FileReport]) -> str:
    return (
        json.dumps(
            {
                "files": [
                    {
                        "path": r.path,
                        "valid": r.valid,
                        "diagnostics": [d.to_dict() for d in r.diagnostics],
                    }
                    for r in reports
                ]
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )


def to_sarif(reports: Sequence[FileReport]) -> str:
    rules = [
        {
            "id": n.code,
            "name": "".join(w[:1].upper() + w[1:] for w in n.title.replace("-", " ").split()),
            "shortDescription": {"text": n.title},
            "fullDescription": {"text": n.about},
            "help": {"text": n.hint},
            "helpUri": f"docs/rules.md#{n.code.lower()}",
            "defaultConfiguration": {"level": _SARIF_LEVEL[n.severity]},
            "properties": {"layer": n.layer},
        }
        for n in NOTICES.values()
    ]
    index = {n: i for i, n in enumerate(NOTICES)}
    results = []
    for r in reports:
        for d in r.diagnostics:
            results.append(
                {
                    "ruleId": d.code,
                    "ruleIndex": index[d.code],
                    "level": _SARIF_LEVEL[d.severity],
                    "message": {"text": d.message},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": {"uri": r.path},
                                "region": {"startLine": d.line or 1, "startColumn": d.column or 1},
                            },
                            "logicalLocations": [{"fullyQualifiedName": d.pointer or "/"}],
                        }
                    ],
                }
            )
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "mapkit",
                        "version": __version__,
                        "informationUri": "https://mapkit.invalid/docs/rules.md",
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
