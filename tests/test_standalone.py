"""Issue 8, item 9: the repository stands alone (a user's clone has no reference folder
beside it): docs, tests and benchmarks never reach outside, and every relative link in the
docs names a file in the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = "../" + "shared"  # spelled in two parts so that this file does not match itself
TEXTS = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "tests").rglob("*.py"),
         *(ROOT / "benchmarks").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.md")]  # fmt: skip


def test_nothing_refers_to_the_reference_folder():
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in TEXTS
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SHARED in line or "/work/" + "shared" in line
    ]
    assert found == []


def test_the_formats_and_rules_are_specified_in_docs():
    for page, must in [
        ("map-format.md", ["## Bounds", "## How a map is read", "REF008"]),
        ("game-records.md", ["## The map fingerprint", "## Which map file", "## Moves"]),
        ("rules-notes.md", ["## Special stations", "## Scoring"]),
    ]:
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        assert all(m in text for m in must), page
        assert f"docs/{page}" in (ROOT / "README.md").read_text(encoding="utf-8"), page


def test_relative_links_in_the_docs_resolve():
    broken = []
    for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text("utf-8")):
            if "://" not in target and not (path.parent / target).exists():
                broken.append(f"{path.relative_to(ROOT)} -> {target}")
    assert broken == []
