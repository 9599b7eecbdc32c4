"""The studio's library pieces without a server: the route table, the shared state and its
per-revision cache, the request body reader and the security headers."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

from mapkit.checks import validate_source
from mapkit.mapfile import writer
from mapkit.studio.guard import DATA_CSP, PAGE_CSP, SVG_CSP, secure_headers
from mapkit.studio.refusal import Refused
from mapkit.studio.routes import ROUTES
from mapkit.studio.session import Session
from mapkit.studio.state import Studio, city_or_422
from mapkit.studio.web import parse_body

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def studio(tmp_path, tiny_doc) -> Studio:
    path = tmp_path / "tiny.json"
    path.write_text(writer.dumps(tiny_doc), encoding="utf-8")
    return Studio(Session(path), token="secret")


def test_every_api_route_is_in_the_docs_table_and_back():
    served = {(m, r.path) for r in ROUTES for m in r.methods - {"HEAD"} if "/api/" in r.path}
    docs = (ROOT / "docs" / "studio.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `(GET|PUT|POST|DELETE) (/api/\S+)` \|", docs, re.M))
    assert served == documented
    assert len(served) == 20  # GET /api/rulesets: the map inspector's ruleset choice


def test_the_page_carries_the_session_token(studio):
    assert "secret" in studio.page and "{{token}}" not in studio.page


def test_an_answer_is_computed_once_per_revision(studio, tiny_doc):
    calls: list[str] = []

    def make(rev):
        calls.append(rev.token)
        return len(calls)

    first = studio.session.current.token
    assert studio.cached(("k",), make) == 1
    assert studio.cached(("k",), make) == 1
    assert studio.cached(("other",), make) == 2
    tiny_doc["name"] = "Renamed"
    second = studio.session.replace(tiny_doc, first).token
    assert studio.cached(("k",), make) == 3
    assert calls == [first, first, second]


def test_tabs_asking_at_once_wait_for_one_computation(studio):
    started, release, calls = threading.Event(), threading.Event(), []

    def make(rev):
        calls.append(rev.token)
        started.set()
        release.wait(5)
        return "answer"

    answers: list[str] = []
    threads = [
        threading.Thread(target=lambda: answers.append(studio.cached(("slow",), make)))
        for _ in range(3)
    ]
    threads[0].start()
    started.wait(5)
    for t in threads[1:]:
        t.start()
    release.set()
    for t in threads:
        t.join(5)
    assert answers == ["answer"] * 3 and len(calls) == 1


def test_diagnostics_are_validates_and_cached(studio):
    report = studio.diagnostics("a4", False)
    expected = validate_source(studio.session.current.text, str(studio.session.path))
    assert [d.to_dict() for d in report.diagnostics] == [d.to_dict() for d in expected.diagnostics]
    assert studio.diagnostics("a4", False) is report


def test_a_map_that_cannot_load_is_422_with_its_codes(studio, tiny_doc):
    tiny_doc["lines"][0]["stops"] = ["a", "nowhere"]
    rev = studio.session.replace(tiny_doc, studio.session.current.token)
    with pytest.raises(Refused) as info:
        city_or_422(rev)
    assert info.value.status == 422
    assert info.value.extra == {"codes": ["REF001"]}
    assert info.value.message == "the map has errors that stop it from loading (REF001)"


def test_an_empty_map_is_422_without_codes(studio):
    rev = studio.session.replace({**studio.session.current.doc, "stations": [], "lines": []},
                                 studio.session.current.token)  # fmt: skip
    with pytest.raises(Refused) as info:
        city_or_422(rev)
    assert (info.value.message, info.value.extra) == ("the map has no stations yet", {"codes": []})


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"\xff", "request body is not UTF-8 text"),
        (b"[1,", "request body is not valid JSON: Expecting value at line 1, column 4"),
        (b"NaN", "request body is not valid JSON: NaN is not a number JSON allows"),
        (b"1e999", "request body is not valid JSON: the number 1e999 is too large to be "
                   "represented"),
        (b"[" * 129 + b"]" * 129, "request body is not valid JSON: nesting deeper than 128 levels"),
    ],
)  # fmt: skip
def test_a_body_no_map_could_be_is_refused_with_the_reason(raw, message):
    with pytest.raises(Refused) as info:
        parse_body(raw)
    assert (info.value.status, info.value.message) == (400, message)


def test_half_characters_are_counted_and_replaced():
    body = parse_body(b'{"name": "a\\ud800b", "\\udc00": ["\\ud83d\\ude00"]}')
    assert body.value == {"name": "a\ufffdb", "\ufffd": ["\U0001f600"]}
    assert body.replaced == 2
    assert parse_body(b'{"a": 1}').replaced == 0


@pytest.mark.parametrize(
    "ctype, csp",
    [(b"text/html; charset=utf-8", PAGE_CSP), (b"image/svg+xml", SVG_CSP),
     (b"application/json", DATA_CSP)],
)  # fmt: skip
def test_each_content_type_gets_its_policy_and_no_caching(ctype, csp):
    headers = secure_headers([(b"content-type", ctype), (b"cache-control", b"max-age=60")])
    assert headers[0] == (b"content-type", ctype)
    assert (b"content-security-policy", csp.encode()) in headers
    assert [v for k, v in headers if k == b"cache-control"] == [b"no-store"]
    assert len(headers) == 8
