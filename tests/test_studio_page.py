"""The studio page's own files: no way for map text to become markup or script.

Every map-derived string must reach the page as text (``h()`` in studio.js builds
elements; no HTML parsing of strings), and the page needs no inline script, style or
event handler, so the server's Content-Security-Policy can forbid them all.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parent.parent / "mapkit" / "studio" / "static"
JS = (STATIC / "studio.js").read_text(encoding="utf-8")
HTML = (STATIC / "index.html").read_text(encoding="utf-8")

# Every way a string becomes markup or code in a page
MARKUP_SINKS = [
    r"\.innerHTML\b", r"\.outerHTML\b", r"\binsertAdjacentHTML\b", r"\bdocument\.write(ln)?\b",
    r"\bcreateContextualFragment\b", r"\bsetHTMLUnsafe\b", r"\bparseHTMLUnsafe\b",
    r"\beval\s*\(", r"\bnew\s+Function\b", r"\bsetTimeout\s*\(\s*[\"'`]",
    r"\bsetInterval\s*\(\s*[\"'`]", r"setAttribute\(\s*[\"'`]on", r"setAttribute\(\s*[\"'`]style",
    r"\.srcdoc\b", r"javascript:", r"text/html",
]  # fmt: skip


def sinks(source: str) -> list[str]:
    return [m.group(0) for p in MARKUP_SINKS for m in re.finditer(p, source)]


def test_the_page_script_never_turns_a_string_into_markup():
    assert sinks(JS) == []


@pytest.mark.parametrize(
    "snippet",
    [
        "box.innerHTML = `<b>${s.name}</b>`;",
        "li.outerHTML = x;",
        "ul.insertAdjacentHTML('beforeend', row);",
        "document.write(name);",
        "e.setAttribute('onclick', code);",
        'new DOMParser().parseFromString(text, "text/html")',
    ],
)
def test_the_lint_finds_each_sink(snippet):
    assert sinks(f"function f() {{ {snippet} }}")


def test_the_page_has_no_inline_script_style_or_handler():
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", HTML, re.S)
    assert scripts and all('src="/static/' in attrs and body == "" for attrs, body in scripts)
    assert not re.search(r"\son[a-z]+\s*=", HTML)
    assert not re.search(r"\sstyle\s*=", HTML)
    assert "<style" not in HTML
