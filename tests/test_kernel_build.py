"""The compiled game kernel: the build (Cython + C compiler), its record, and stale-build detection.

The status tests lay out engine directories of real files in a temporary directory; the build
tests compile a tiny pure-Python-mode kernel there (about 2 s), never the real one.
"""

from __future__ import annotations

import importlib.util
import json
import sysconfig
from pathlib import Path

import pytest

import mapkit.kernel_build as kb

EXT = sysconfig.get_config_var("EXT_SUFFIX")
TINY_KERNEL = """\
import cython

COMPILED = cython.compiled


def double(x: cython.longlong) -> cython.longlong:
    return 2 * x
"""


def engine_dir(tmp_path: Path, source: str = TINY_KERNEL) -> Path:
    engine = tmp_path / "mapkit" / "engine"
    engine.mkdir(parents=True)
    for package in (tmp_path / "mapkit", engine):
        (package / "__init__.py").write_text("")
    (engine / "kernel.py").write_text(source)
    return engine


def fake_build(engine: Path) -> Path:
    """A module file under the extension name and its record, as a build leaves them."""
    module = engine / f"kernel{EXT}"
    module.write_bytes(b"\x7fELF stands in for a compiled module")
    kb.write_record(module, engine / "kernel.py")
    return module


def test_the_installed_kernel_is_compiled_from_the_current_source() -> None:
    import mapkit.engine.kernel as kernel

    status = kb.kernel_status()
    assert status.compiled and status.current, status.message
    assert Path(kernel.__file__) == kb.module_file()
    assert kernel.COMPILED is True  # cython.compiled: the module really is Cython's build


def test_source_alone_runs_uncompiled(tmp_path: Path) -> None:
    engine = engine_dir(tmp_path)
    status = kb.kernel_status(engine)
    assert status == (False, False, status.message)
    assert "uncompiled from kernel.py" in status.message
    assert kb.REBUILD in status.message


def test_a_build_of_the_current_source_is_current(tmp_path: Path) -> None:
    engine = engine_dir(tmp_path)
    module = fake_build(engine)
    assert kb.module_file(engine) == module  # the import system's choice: module before source
    assert kb.kernel_status(engine) == (
        True,
        True,
        f"kernel{EXT} is compiled from the current kernel.py",
    )


def test_editing_the_source_after_the_build_makes_it_stale(tmp_path: Path) -> None:
    engine = engine_dir(tmp_path)
    fake_build(engine)
    with (engine / "kernel.py").open("a") as source:
        source.write("# one more line\n")
    status = kb.kernel_status(engine)
    assert status == (
        True,
        False,
        f"kernel.py has changed since kernel{EXT} was built; rebuild: {kb.REBUILD}",
    )


def test_a_module_without_its_record_or_not_the_recorded_one_is_not_current(
    tmp_path: Path,
) -> None:
    engine = engine_dir(tmp_path)
    module = fake_build(engine)
    module.write_bytes(module.read_bytes() + b"another build")
    assert kb.kernel_status(engine)[:2] == (True, False)
    assert "is not the module kernel.build records" in kb.kernel_status(engine).message
    (engine / "kernel.build").unlink()
    assert kb.kernel_status(engine) == (
        True,
        False,
        f"kernel{EXT} has no build record kernel.build; rebuild: {kb.REBUILD}",
    )
    (engine / "kernel.build").write_text("{not json")
    assert kb.kernel_status(engine).message.startswith("kernel.build is unreadable")


def test_build_compiles_in_place_and_the_module_runs(tmp_path: Path) -> None:
    engine = engine_dir(tmp_path)
    built = kb.build(tmp_path)
    assert built.module == engine / f"kernel{EXT}"
    assert sorted(p.name for p in engine.iterdir()) == sorted(
        ["__init__.py", "kernel.py", "kernel.build", f"kernel{EXT}"]
    )  # the C file and the objects stay in the build's temporary directory
    record = json.loads((engine / "kernel.build").read_text())
    assert record["source_sha256"] == kb.sha256(engine / "kernel.py")
    assert kb.kernel_status(engine) == (True, True, kb.kernel_status(engine).message)

    spec = importlib.util.spec_from_file_location("mapkit.engine.kernel", built.module)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.COMPILED is True
    assert module.double(21) == 42


def test_a_negative_index_fails_the_build(tmp_path: Path) -> None:
    """wraparound and boundscheck are off in the whole module: ``xs[-1]`` would read before the
    list, so Cython's warning about it fails the build, and the old module stays (stale)."""
    engine = engine_dir(tmp_path)
    module = fake_build(engine)
    before = module.read_bytes()
    with (engine / "kernel.py").open("a") as source:
        source.write("\n\ndef last(xs):\n    return xs[-1]\n")
    with pytest.raises(kb.KernelBuildError, match="its warnings count as errors"):
        kb.build(tmp_path)
    assert module.read_bytes() == before
    assert kb.kernel_status(engine)[:2] == (True, False)
