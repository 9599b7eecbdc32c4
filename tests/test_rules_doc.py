"""docs/rules.md documents every registered code, with an example, under `## CODE: Title`."""

from __future__ import annotations

import re
from pathlib import Path

from mapkit.notices import NOTICES

DOC = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def _sections() -> dict[str, tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## ([A-Z]+[0-9]+): (.+)$", text, flags=re.M)
    return {parts[i]: (parts[i + 1].strip(), parts[i + 2]) for i in range(1, len(parts), 3)}


def test_every_code_has_a_section_with_its_title() -> None:
    sections = _sections()
    assert set(sections) == set(NOTICES)
    for code, notice in NOTICES.items():
        assert sections[code][0] == notice.title, code


def test_every_section_has_severity_example_and_fix() -> None:
    for code, (_, body) in _sections().items():
        notice = NOTICES[code]
        assert f"Severity: **{notice.severity}**. Layer: {notice.layer}." in body, code
        example = re.search(r"Example:\s*```json\n(.+?)\n```", body, flags=re.S)
        assert example and example.group(1).strip(), f"{code} has no example"
        assert "Fix: " in body, code


def test_short_anchors_exist_for_sarif_help_links() -> None:
    text = DOC.read_text(encoding="utf-8")
    for code in NOTICES:
        assert f'<a id="{code.lower()}"></a>' in text
