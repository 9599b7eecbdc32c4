"""Writing files inside one folder only: the studio's saves.

``mapkit.atomic`` writes through symlinks, since a command's ``-o`` says what the user
means. The studio takes file names from a web page, so here a name is a relative path
inside a root folder, every folder on the way is opened without following symlinks
(relative to the one before), and the file is written to a temporary file in its folder
and renamed over the name there: nothing outside the root can be reached, whatever the
name says or the folder holds, even if a symlink appears while the studio runs.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath

from mapkit.studio.refusal import Refused

MAX_NAME_BYTES = 255
"""The longest file or folder name Linux, macOS and Windows file systems allow."""
MAX_PATH_BYTES = 1024

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)


def relative_parts(name: object, root: Path) -> tuple[str, ...]:
    """The parts of a "save as" name inside ``root``; Refused (4xx) saying why it is not one."""
    hint = f"give a .json file name inside {root}, like my-city.json"
    if not isinstance(name, str) or not name.strip():
        raise Refused(400, f"save as: {hint}")
    if "\0" in name:
        raise Refused(400, "save as: the file name holds a NUL character")
    try:
        size = len(name.encode("utf-8"))
    except UnicodeEncodeError:
        raise Refused(400, "save as: the file name holds half of a character") from None
    if size > MAX_PATH_BYTES:
        raise Refused(400, f"save as: the file name is longer than {MAX_PATH_BYTES} bytes")
    if name.startswith("~"):
        raise Refused(403, f"save as: {name}: the home folder (~) is outside {root}; {hint}")
    if os.path.isabs(name) or name.startswith("\\"):
        raise Refused(403, f"save as: {name} is an absolute path; {hint}")
    parts = [p for p in PurePosixPath(name).parts if p != "."]
    if ".." in parts:
        raise Refused(403, f"save as: {name} leads out of {root} (no '..'); {hint}")
    if not parts or not parts[-1].endswith(".json") or parts[-1] == ".json":
        raise Refused(400, f"save as: {name} must end in .json")
    if any(len(p.encode("utf-8")) > MAX_NAME_BYTES for p in parts):
        raise Refused(400, f"save as: a name in {name} is longer than {MAX_NAME_BYTES} bytes")
    return tuple(parts)


@contextlib.contextmanager
def _folder(root: Path, folders: tuple[str, ...]) -> Iterator[int]:
    """A descriptor of root/folders, each opened without following a symlink."""
    try:
        fd = os.open(root, _DIR_FLAGS)
    except OSError as exc:
        raise Refused(403, f"save as: the folder {root} cannot be opened: {exc.strerror}") from None
    try:
        for i, part in enumerate(folders):
            where = "/".join(folders[: i + 1])
            try:
                nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                raise Refused(400, f"save as: there is no folder {where} in {root}") from None
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                    raise Refused(
                        403, f"save as: {where} is a symbolic link or not a folder; refusing"
                    ) from None
                raise Refused(403, f"save as: {where}: {exc.strerror}") from None
            os.close(fd)
            fd = nxt
        yield fd
    finally:
        os.close(fd)


def _read(name: str, fd: int, limit: int) -> bytes:
    handle = os.open(name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0), dir_fd=fd)
    with os.fdopen(handle, "rb") as fh:
        return fh.read(limit + 1)


def write_inside(
    root: Path,
    parts: tuple[str, ...],
    data: bytes,
    guard: Callable[[bytes | None], None],
    limit: int,
) -> None:
    """Replace root/parts with ``data`` atomically, after ``guard(what is there now)``.

    The guard sees the current bytes (None: no file) and raises to stop the write (a file
    that changed on disk). A symlink, folder or device at the name is refused; an existing
    file keeps its permissions.
    """
    name, shown = parts[-1], "/".join(parts)
    with _folder(root, parts[:-1]) as fd:
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise Refused(
                403, f"save as: {shown} is a symbolic link; the studio never writes through one"
            )
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise Refused(400, f"save as: {shown} is a folder; name a .json file")
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise Refused(403, f"save as: {shown} is not a regular file; refusing")
        guard(_read(name, fd, limit) if st is not None else None)
        tmp = f".mapkit-studio-{secrets.token_hex(6)}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            handle = os.open(tmp, flags, 0o666, dir_fd=fd)
        except OSError as exc:
            raise Refused(403, f"cannot write in the folder of {shown}: {exc.strerror}") from None
        try:
            with os.fdopen(handle, "wb") as fh:
                if st is not None:
                    os.fchmod(fh.fileno(), stat.S_IMODE(st.st_mode))
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, name, src_dir_fd=fd, dst_dir_fd=fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=fd)
            raise Refused(
                507 if exc.errno == errno.ENOSPC else 403, f"cannot write {shown}: {exc.strerror}"
            ) from None
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=fd)
            raise
