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


def same_file(a: str | Path, b: str | Path) -> bool:
    """Do two paths name one file (also when neither exists yet, or through symlinks)?"""
    return _same(Path(a), Path(b))


def is_map_file(path: str | Path) -> bool:
    """Is ``path`` an existing map file (a JSON object with stations and lines)? Outputs that
    are not maps must not replace one."""
    import json

    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > 1 << 20:
            return False
        with open(path, "rb") as fh:
            doc = json.loads(fh.read())
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(doc, dict) and "stations" in doc and "lines" in doc


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


TRIAL_BYTES = 64 * 1024
"""What the disk-full check writes before a long run: a file of this many bytes (an empty
file takes no block, so it would pass on a full disk)."""


def _trial_write(folder: Path, name: str) -> None:
    """Write ``TRIAL_BYTES`` in ``folder`` (then delete them); OSError if it cannot. File
    systems reserve the blocks of a write when it is made, so a full disk fails here."""
    with tempfile.TemporaryFile(prefix=f".{name}.", dir=folder) as fh:
        fh.write(bytes(TRIAL_BYTES))
        fh.flush()


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
        _trial_write(target.parent, target.name)
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


STAGING = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.[a-z0-9_]+\.tmp")
"""A staging folder's name: ``.<folder name>.<pid of the run>.<random>.tmp``."""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def remove_stale_staging(where: Path, name: str) -> list[Path]:
    """Delete the staging folders for ``name`` in ``where`` whose run has died (a run ended by
    SIGKILL cleans up nothing); the folders of runs still going are left alone."""
    removed = []
    try:
        entries = os.listdir(where)
    except OSError:
        return removed
    for entry in entries:
        m = STAGING.fullmatch(entry)
        if m and m["name"] == name and not _alive(int(m["pid"])):
            shutil.rmtree(where / entry, ignore_errors=True)
            removed.append(where / entry)
    return removed


class StagedFolder:
    """A folder of files that appears whole or not at all.

    Files are written into a hidden staging folder: inside ``target`` when it exists (so
    the files are moved within one file system, whatever is mounted or linked there),
    else beside it (and the staging folder is renamed to ``target``). On success they
    are moved in with signals held, so Ctrl-C cannot stop the swap half-way; only then
    are the files of an earlier run (names matching ``RUN_FILE``) that the new run did
    not replace removed. Other files in the folder are left alone. On failure or
    interruption the staging folder is deleted and ``target`` is as it was; one left by
    a killed run is deleted by the next run.
    """

    staging: Path  # made on entering the ``with`` block

    def __init__(self, target: str | Path, *, force: bool = False) -> None:
        """Check now (before a long run) that the folder can be written and may be replaced."""
        if not str(target).strip():
            raise OutputError("the output folder name is empty")
        given = Path(target)
        real = Path(os.path.realpath(given))
        if os.path.islink(given) and _stat(real) is None:
            raise OutputError(f"{target} is a symlink to {real}, which does not exist")
        self.target = real
        st = _stat(real)
        if st is not None and not stat.S_ISDIR(st.st_mode):
            raise OutputError(f"{target} is a file, not a folder")
        self.inside = st is not None
        self.earlier = self._earlier_run()
        if self.earlier and not force:
            raise OutputError(
                f"{target} already holds {len(self.earlier)} game record(s) of an earlier run;"
                " add --force to replace them, or choose another folder"
            )
        from mapkit.signals import deferred

        try:
            if not self.inside:
                real.parent.mkdir(parents=True, exist_ok=True)
            remove_stale_staging(self.where, self.target.name)
            with deferred():  # a Ctrl-C here must not leave the trial folder behind
                trial = Path(tempfile.mkdtemp(prefix=self._prefix(), suffix=".tmp", dir=self.where))
                try:
                    (trial / "trial").write_bytes(bytes(TRIAL_BYTES))
                finally:
                    shutil.rmtree(trial, ignore_errors=True)
        except OSError as exc:
            where = target if self.inside else real.parent
            raise OutputError(f"cannot write in {path_problem(exc, where)}") from None

    @property
    def where(self) -> Path:
        """The folder the staging folder goes in."""
        return self.target if self.inside else self.target.parent

    def _prefix(self) -> str:
        return f".{self.target.name}.{os.getpid()}."

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
        self.staging = Path(tempfile.mkdtemp(prefix=self._prefix(), suffix=".tmp", dir=self.where))
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            return
        from mapkit.signals import deferred

        try:
            with deferred():
                self._swap()
        except BaseException:
            shutil.rmtree(self.staging, ignore_errors=True)
            raise

    def _swap(self) -> None:
        if not self.inside:
            os.rename(self.staging, self.target)
            return
        new = sorted(self.staging.iterdir())
        for path in new:
            os.replace(path, self.target / path.name)
        replaced = {path.name for path in new}
        for old in self.earlier:
            if old.name not in replaced:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(old)
        os.rmdir(self.staging)
