"""Safe output: never half-written, never over an input."""

from __future__ import annotations

import pytest

from mapkit.atomic import OutputError, atomic_open, write_text


def test_write_replaces_only_on_success(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old")
    with pytest.raises(RuntimeError), atomic_open(out, "w") as fh:
        fh.write("half")
        raise RuntimeError("boom")
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]
    write_text(out, "new")
    assert out.read_text() == "new"


def test_refuses_to_overwrite_an_input(tmp_path):
    inp = tmp_path / "map.json"
    inp.write_text("{}")
    with pytest.raises(OutputError, match="refusing to overwrite the input"):
        write_text(tmp_path / "." / "map.json", "x", inputs=[inp])
    assert inp.read_text() == "{}"


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        write_text(tmp_path / "nope" / "x.svg", "x")


def test_output_gets_ordinary_permissions(tmp_path):
    import os

    out = write_text(tmp_path / "sheet.svg", "x")
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask
