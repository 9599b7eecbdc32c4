"""The strict JSON parser: values, positions, and every syntax problem located."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from mapkit.mapfile.jsonpos import decode_utf8, parse_json


def test_positions_of_values_and_keys():
    text = '{\n  "a": [1,\n    {"b": "x"}],\n  "c/d": true\n}'
    r = parse_json(text)
    assert r.ok
    assert r.value == {"a": [1, {"b": "x"}], "c/d": True}
    assert r.positions.values["/a"] == (2, 8)
    assert r.positions.values["/a/1/b"] == (3, 11)
    assert r.positions.keys["/a/1/b"] == (3, 6)
    assert r.positions.values["/c~1d"] == (4, 10)
    assert r.positions.locate("/a/1/zz") == (3, 5)


def test_duplicate_key_reported_with_both_lines():
    r = parse_json('{"id": 1,\n "id": 2}')
    (p,) = r.problems
    assert (p.kind, p.line, p.column, p.pointer) == ("duplicate-key", 2, 2, "/id")
    assert "first defined at line 1" in p.message


def test_nan_infinity_and_overflow_are_non_finite():
    r = parse_json('{"x": NaN, "y": -Infinity, "z": 1e400, "w": Infinity}')
    kinds = [(p.kind, p.pointer) for p in r.problems]
    assert kinds == [
        ("non-finite", "/x"),
        ("non-finite", "/y"),
        ("non-finite", "/z"),
        ("non-finite", "/w"),
    ]


def test_syntax_errors_are_located():
    cases = {
        '{"a": 1,}': (1, 9, "trailing comma"),
        '{"a" 1}': (1, 6, "expected ':'"),
        "[1 2]": (1, 4, "expected ','"),
        '{"a": tru}': (1, 7, "expected a value"),
        "": (1, 1, "empty"),
        '{"a": "x': (1, 7, "unterminated string"),
        '{"a": 1} x': (1, 10, "after the end"),
        '{"a": 01}': (1, 8, "expected ','"),
    }
    for text, (line, col, words) in cases.items():
        r = parse_json(text)
        assert r.value is None or r.problems, text
        p = r.problems[0]
        assert (p.line, p.column) == (line, col), (text, p)
        assert words in p.message, (text, p.message)


def test_deep_nesting_is_a_problem_not_a_crash():
    r = parse_json("[" * 10000 + "]" * 10000)
    assert r.problems[0].kind == "too-deep"


def test_not_utf8_locates_the_byte():
    text, problem = decode_utf8(b'{\n "name": "M\xfcnchen"}')
    assert text is None
    assert (problem.line, problem.column) == (2, 12)
    assert "0xfc" in problem.message


def test_bom_is_accepted():
    text, problem = decode_utf8(b"\xef\xbb\xbf{}")
    assert problem is None and text == "{}"


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)  # a shared machine can stall any one example
@given(json_values)
def test_agrees_with_the_standard_library(value):
    text = json.dumps(value, indent=1)
    r = parse_json(text)
    assert r.ok
    assert r.value == json.loads(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_never_crashes(text):
    r = parse_json(text)
    try:
        expected = json.loads(text)
    except ValueError:
        assert not r.ok
    else:
        if r.ok:
            assert r.value == expected
