"""Compile the game kernel (``kernel.py``) with Cython; tell whether the compiled one is current.

Installing mapkit compiles ``kernel.py`` (Cython's pure-Python mode) into an extension module
beside it (``hatch_build.py`` calls :func:`build`); Python imports that module in preference to
the source. The build writes ``kernel.build`` beside it: the SHA-256 of the source it compiled
and of the module it made, so :func:`kernel_status` can tell a current build from one that
``kernel.py`` has since moved past (which Python would otherwise import without a word).

``python -m mapkit.kernel_build`` rebuilds in place, without reinstalling.

Standard library only at import: the build hook loads this file by path, before any of
mapkit's dependencies are installed, and ``kernel_status`` must not import the kernel.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import json
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

MODULE = "mapkit.engine.kernel"
ENGINE_DIR = Path(__file__).resolve().parent / "engine"
SOURCE_NAME = "kernel.py"
RECORD_NAME = "kernel.build"
REBUILD = "python -m mapkit.kernel_build"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}
"""Cython compiler directives of the kernel: set here only (none in ``kernel.py``).

Cython's warnings fail the build: with these, ``xs[-1]`` on a Python list reads before the list
(a crash, not an error), and Cython warns of it but compiles it."""

NEEDS = (
    "a C compiler and the Python headers (on Debian: apt-get install build-essential python3-dev)"
)


class KernelBuildError(RuntimeError):
    """Compiling the kernel failed; the message says what the machine needs."""


class KernelStatus(NamedTuple):
    """Which kernel Python imports and whether it was compiled from the ``kernel.py`` beside it."""

    compiled: bool
    current: bool
    message: str


class Built(NamedTuple):
    """What :func:`build` made and how long it took."""

    module: Path
    seconds: float


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def module_file(engine_dir: Path = ENGINE_DIR) -> Path:
    """The file ``import mapkit.engine.kernel`` loads: the one already imported, else the one
    the import system would pick from ``engine_dir`` (a compiled module before the source)."""
    loaded = sys.modules.get(MODULE)
    if engine_dir == ENGINE_DIR and loaded is not None and loaded.__file__:
        return Path(loaded.__file__)
    machinery = importlib.machinery
    finder = machinery.FileFinder(  # a new one: no stale listing, nothing left in a cache
        str(engine_dir),
        (machinery.ExtensionFileLoader, machinery.EXTENSION_SUFFIXES),
        (machinery.SourceFileLoader, machinery.SOURCE_SUFFIXES),
    )
    spec = finder.find_spec("kernel")
    if spec is None or spec.origin is None:
        return engine_dir / SOURCE_NAME
    return Path(spec.origin)


def kernel_status(engine_dir: Path = ENGINE_DIR) -> KernelStatus:
    """Compare the kernel Python imports, the build record and the ``kernel.py`` source."""
    module = module_file(engine_dir)
    if not module.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
        return KernelStatus(
            False, False, f"the kernel runs uncompiled from {module.name} (slow); build: {REBUILD}"
        )
    stale = f"; rebuild: {REBUILD}"
    source = engine_dir / SOURCE_NAME
    record_path = engine_dir / RECORD_NAME
    if not record_path.is_file():
        return KernelStatus(True, False, f"{module.name} has no build record {RECORD_NAME}{stale}")
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
        built_from, built_module = record["source_sha256"], record["module_sha256"]
    except (ValueError, KeyError, TypeError):
        return KernelStatus(True, False, f"{RECORD_NAME} is unreadable{stale}")
    if record.get("module") != module.name or built_module != sha256(module):
        return KernelStatus(
            True, False, f"{module.name} is not the module {RECORD_NAME} records{stale}"
        )
    if not source.is_file():
        return KernelStatus(True, False, f"{SOURCE_NAME} is missing beside {module.name}")
    if built_from != sha256(source):
        return KernelStatus(
            True, False, f"{SOURCE_NAME} has changed since {module.name} was built{stale}"
        )
    return KernelStatus(True, True, f"{module.name} is compiled from the current {SOURCE_NAME}")


def write_record(module: Path, source: Path) -> Path:
    record_path = module.parent / RECORD_NAME
    record = {
        "source_sha256": sha256(source),
        "module": module.name,
        "module_sha256": sha256(module),
    }
    record_path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return record_path


def build(root: Path) -> Built:
    """Compile ``mapkit/engine/kernel.py`` under ``root`` into the extension module beside it
    and record what it was built from. The C file and objects live in a temporary directory;
    the new module replaces the old one by a rename, so a running process keeps the one it
    loaded.
    Raises :class:`KernelBuildError` when Cython or the C compiler fails."""
    started = time.perf_counter()
    engine_dir = root / "mapkit" / "engine"
    source = engine_dir / SOURCE_NAME
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    target = engine_dir / f"kernel{suffix}"
    try:
        from Cython.Build import cythonize
        from Cython.Compiler import Options
        from setuptools import Distribution, Extension
    except ImportError as exc:
        raise KernelBuildError(
            f"compiling the game kernel needs Cython and setuptools ({exc}); "
            'pip install "Cython>=3.0" setuptools'
        ) from exc
    Options.warning_errors = True
    with tempfile.TemporaryDirectory(prefix="mapkit-kernel-") as tmp, contextlib.chdir(root):
        try:
            extensions = cythonize(
                # -g0: no debug information, a module a sixth of the size
                [Extension(MODULE, [str(source.relative_to(root))], extra_compile_args=["-g0"])],
                compiler_directives=DIRECTIVES,
                build_dir=tmp,
                force=True,
            )
        except Exception as exc:
            raise KernelBuildError(
                f"Cython could not compile the game kernel {source} (its messages are above; "
                "its warnings count as errors)"
            ) from exc
        dist = Distribution({"name": "mapkit-kernel", "ext_modules": extensions})
        command = dist.get_command_obj("build_ext")
        command.build_lib = os.path.join(tmp, "lib")
        command.build_temp = os.path.join(tmp, "temp")
        try:
            dist.run_command("build_ext")
        except Exception as exc:
            raise KernelBuildError(
                f"the C compiler failed on the game kernel ({exc}; its messages are above): "
                f"installing mapkit needs {NEEDS}"
            ) from exc
        staged = target.with_name(target.name + ".tmp")  # same directory: the rename is atomic
        shutil.copy(command.get_ext_fullpath(MODULE), staged)
        os.replace(staged, target)
    write_record(target, source)
    return Built(target, time.perf_counter() - started)


def main() -> int:
    """Rebuild the kernel of this source tree in place."""
    root = ENGINE_DIR.parent.parent
    try:
        built = build(root)
    except KernelBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    size = built.module.stat().st_size / 1e6
    print(f"built {built.module.relative_to(root)} ({size:.1f} MB) in {built.seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
