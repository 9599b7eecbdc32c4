"""Writing output files safely: never half-written, never over an input, never over a non-file.

A regular file (or a name that does not exist yet) is written to a temporary
file beside it and renamed into place only on success. A symlink is written
through: the file it points to is replaced, the link stays. A character device
or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe) is written to directly,
since renaming over it would replace the device with a file. Anything else
(block devices, sockets) is refused.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO


class OutputError(Exception):
    """An output path that must not be written; the message is one line for the user."""


def path_problem(exc: OSError, path: str | Path) -> str:
    """A one-line description of why ``path`` cannot be used (for inputs and outputs)."""
    words = {
        errno.ENOENT: "no such file or folder",
        errno.EISDIR: "is a folder, not a file",
        errno.ENOTDIR: "a part of the path is not a folder",
        errno.ELOOP: "too many levels of symbolic links (a symlink loop?)",
        errno.ENAMETOOLONG: "the file name is too long",
        errno.EACCES: "permission denied",
        errno.EPERM: "operation not permitted",
    }
    why = words.get(exc.errno or 0) or exc.strerror or str(exc)
    return f"{path or repr(str(path))}: {why}"


def _stat(path: Path, follow: bool = True) -> os.stat_result | None:
    try:
        return os.stat(path, follow_symlinks=follow)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputError(f"cannot write {path_problem(exc, path)}") from None


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return os.path.realpath(a) == os.path.realpath(b)


def check_output(
    out: str | Path, inputs: Iterable[str | Path] = (), *, overwrite: bool = True
) -> Path:
    """The path to write for ``out``, or OutputError saying in one line why it cannot be.

    A symlink gives the file it points to. ``overwrite=False`` refuses an existing
    regular file (commands whose documentation says they keep what is there).
    """
    text = str(out)
    if not text or not text.strip():
        raise OutputError("the output file name is empty")
    out_path = Path(out)
    if text.endswith(("/", os.sep)) or out_path.name in ("", ".", ".."):
        if os.path.isdir(out_path):
            raise OutputError(f"{out} is a folder; name the output file")
        raise OutputError(f"the folder {out} does not exist")
    target = Path(os.path.realpath(out_path)) if os.path.islink(out_path) else out_path
    st = _stat(target)
    for inp in inputs:
        if _same(Path(inp), target):
            raise OutputError(f"refusing to overwrite the input file {inp}")
    parent = target.parent
    pst = _stat(parent)
    if pst is None:
        raise OutputError(f"the folder {out_path.parent} does not exist")
    if not stat.S_ISDIR(pst.st_mode):
        raise OutputError(f"{out_path.parent} is not a folder")
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{out} is a folder; name the output file")
        if stat.S_ISREG(st.st_mode):
            if not overwrite:
                raise OutputError(f"{out} already exists; add --force to replace it")
        elif not (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode)):
            raise OutputError(f"{out} is not a regular file, a device or a pipe; refusing")
    return target


def _writes_in_place(target: Path) -> bool:
    st = _stat(target)
    return st is not None and (stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode))


def check_writable(
    out: str | Path, inputs: Iterable[str | Path] = (), *, overwrite: bool = True
) -> Path:
    """``check_output``, and a trial write: for outputs written after a long run."""
    target = check_output(out, inputs, overwrite=overwrite)
    if _writes_in_place(target):
        if not os.access(target, os.W_OK):
            raise OutputError(f"cannot write {out}: permission denied")
        return target
    try:
        with tempfile.TemporaryFile(prefix=f".{target.name}.", dir=target.parent):
            pass
    except OSError as exc:
        raise OutputError(f"cannot write in the folder of {out}: {exc.strerror}") from None
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise OutputError(f"cannot write {out}: permission denied")
    return target


@contextlib.contextmanager
def atomic_open(
    path: str | Path, mode: str = "wb", inputs: Iterable[str | Path] = ()
) -> Iterator[IO]:
    """Open a temporary file beside ``path``; rename it into place only on success.

    Devices and FIFOs are opened directly (see the module docstring).
    """
    target = check_output(path, inputs)
    kwargs = {} if "b" in mode else {"encoding": "utf-8"}
    if _writes_in_place(target):
        with open(target, mode, **kwargs) as fh:
            yield fh
        return
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    try:
        with os.fdopen(fd, mode, **kwargs) as fh:
            old = _stat(target)
            if old is not None:
                os.chmod(tmp, stat.S_IMODE(old.st_mode))
            else:
                umask = os.umask(0)
                os.umask(umask)
                os.chmod(tmp, 0o666 & ~umask)
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


RUN_FILE = re.compile(r"[a-z0-9][a-z0-9-]*-[0-9]{5}\.json")
"""The files one run of ``mapkit simulate --records`` writes: ``<map id>-<game number>.json``."""


class StagedFolder:
    """A folder of files that appears whole or not at all.

    Files are written into a hidden folder beside ``target``; on success they are
    moved in (with signals held, so Ctrl-C cannot stop the swap half-way), after
    the files of an earlier run (names matching ``RUN_FILE``) are removed. Other
    files in the folder are left alone. On failure or interruption the staging
    folder is deleted and ``target`` is as it was.
    """

    staging: Path  # made on entering the ``with`` block

    def __init__(self, target: str | Path, *, force: bool = False) -> None:
        """Check now (before a long run) that the folder can be written and may be replaced."""
        self.target = Path(target)
        if not str(target).strip():
            raise OutputError("the output folder name is empty")
        st = _stat(self.target)
        if st is not None and not stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{target} is a file, not a folder")
        self.earlier = self._earlier_run()
        if self.earlier and not force:
            raise OutputError(
                f"{target} already holds {len(self.earlier)} game record(s) of an earlier run;"
                " add --force to replace them, or choose another folder"
            )
        parent = self.target.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(prefix=f".{self.target.name}.", dir=parent):
                pass
        except OSError as exc:
            raise OutputError(f"cannot create {path_problem(exc, target)}") from None

    def _earlier_run(self) -> list[Path]:
        try:
            names = os.listdir(self.target)
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise OutputError(f"cannot use {path_problem(exc, self.target)}") from None
        return sorted(self.target / n for n in names if RUN_FILE.fullmatch(n))

    def write(self, name: str, text: str) -> None:
        """Write one file of the run (inside the ``with`` block)."""
        (self.staging / name).write_text(text, encoding="utf-8")

    def __enter__(self) -> StagedFolder:
        parent = self.target.parent
        self.staging = Path(
            tempfile.mkdtemp(prefix=f".{self.target.name}.", suffix=".tmp", dir=parent)
        )
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            return
        from mapkit.signals import deferred

        with deferred():
            if _stat(self.target) is None:
                os.rename(self.staging, self.target)
                return
            for old in self.earlier:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(old)
            for new in sorted(self.staging.iterdir()):
                os.replace(new, self.target / new.name)
            os.rmdir(self.staging)
