"""Writing output files safely: never half-written, never over an input."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO


class OutputError(Exception):
    """An output path that must not be written (it names an input, or its folder is missing)."""


def check_output(out: str | Path, inputs: Iterable[str | Path] = ()) -> Path:
    out_path = Path(out)
    for inp in inputs:
        ip = Path(inp)
        if ip.exists() and out_path.exists() and os.path.samefile(ip, out_path):
            raise OutputError(f"refusing to overwrite the input file {inp}")
        if ip.resolve() == out_path.resolve():
            raise OutputError(f"refusing to overwrite the input file {inp}")
    if not out_path.parent.resolve().is_dir():
        raise OutputError(f"the folder {out_path.parent} does not exist")
    if out_path.is_dir():
        raise OutputError(f"{out} is a folder; name the output file")
    return out_path


def check_writable(out: str | Path, inputs: Iterable[str | Path] = ()) -> Path:
    """``check_output``, and a trial file in the folder: for outputs written after a long run."""
    target = check_output(out, inputs)
    try:
        with tempfile.TemporaryFile(prefix=f".{target.name}.", dir=target.parent):
            pass
    except OSError as exc:
        raise OutputError(f"cannot write in the folder of {out}: {exc.strerror}") from None
    return target


@contextlib.contextmanager
def atomic_open(
    path: str | Path, mode: str = "wb", inputs: Iterable[str | Path] = ()
) -> Iterator[IO]:
    """Open a temporary file beside ``path``; rename it into place only on success."""
    target = check_output(path, inputs)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    try:
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_bytes(path: str | Path, data: bytes, inputs: Iterable[str | Path] = ()) -> Path:
    with atomic_open(path, "wb", inputs) as fh:
        fh.write(data)
    return Path(path)


def write_text(path: str | Path, text: str, inputs: Iterable[str | Path] = ()) -> Path:
    return write_bytes(path, text.encode("utf-8"), inputs)
