"""docs/rules.md is generated from the notice registry, and `mapkit rules` prints it."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from mapkit import rules_doc
from mapkit.cli import app
from mapkit.notices import NOTICES

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"
runner = CliRunner()


def test_committed_page_is_the_generated_one() -> None:
    assert DOC.read_text(encoding="utf-8") == rules_doc.markdown(), (
        "docs/rules.md is stale: mapkit rules --markdown > docs/rules.md"
    )


def test_every_notice_has_its_texts() -> None:
    for code, notice in NOTICES.items():
        assert re.fullmatch(r"[A-Z]+[0-9]{3}", code), code
        assert notice.about.strip() and notice.example.strip(), code
        assert notice.hint[:1].isupper() and notice.hint.endswith("."), code
        assert not notice.title.endswith("."), code


def test_table_links_reach_their_headings() -> None:
    text = DOC.read_text(encoding="utf-8")
    headings = {
        re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
        for h in re.findall(r"^#+ (.+)$", text, flags=re.M)
    }
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert len(links) == len(NOTICES)
    assert set(links) <= headings


def test_short_anchors_exist_for_sarif_help_links() -> None:
    text = DOC.read_text(encoding="utf-8")
    for code in NOTICES:
        assert f'<a id="{code.lower()}"></a>' in text


def test_rules_prints_one_rule_with_its_fix() -> None:
    res = runner.invoke(app, ["rules", "geo001"])
    assert res.exit_code == 0, res.output
    notice = NOTICES["GEO001"]
    assert res.output.startswith(f"GEO001: {notice.title}\nSeverity: error. Layer: geometry.\n")
    assert "Fix: Bend the line with a `shape` around the station" in res.output
    assert "GEO002" not in res.output


def test_rules_takes_prefixes_and_lists_every_rule() -> None:
    res = runner.invoke(app, ["rules", "GEO", "DES00"])
    headers = re.findall(r"^([A-Z]+[0-9]+): ", res.output, flags=re.M)
    assert headers == [c for c in NOTICES if c.startswith(("GEO", "DES"))]
    table = runner.invoke(app, ["rules"])
    assert [line.split()[0] for line in table.output.splitlines()] == list(NOTICES)


def test_rules_markdown_is_the_page_and_unknown_codes_are_usage_errors() -> None:
    res = runner.invoke(app, ["rules", "--markdown"])
    assert res.exit_code == 0 and res.output == rules_doc.markdown()
    bad = runner.invoke(app, ["rules", "GEO001", "XYZ9"])
    assert bad.exit_code == 2
    assert "unknown rule code(s): XYZ9" in bad.output
    both = runner.invoke(app, ["rules", "--markdown", "GEO001"])
    assert both.exit_code == 2
