"""One map being edited: its document, revisions, the file on disk, and saving it back.

The session keeps the map in memory; only ``save`` writes, and only to the file the
session was opened on or, through "save as", to a ``.json`` file inside the root folder
(``mapkit.studio.confined``: no symlinks, no way out), and only a document that passes
the map schema (as a draft: windows, points and lines may still be missing). Every
change makes a new revision token, and a change sent with an older token is refused,
so two tabs (or a stale page) cannot silently undo each other's work. What the file
held when it was read (or last saved) is remembered: ``disk_status`` tells when another
program has changed it, and saving over such a change needs ``overwrite``.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import itertools
import os
import re
import threading
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from mapkit.mapfile import MAX_FILE_BYTES, writer
from mapkit.studio import confined
from mapkit.studio.refusal import Refused

_TOKENS = itertools.count(1)


def new_document(path: Path) -> dict[str, Any]:
    """An empty map named after its file: no stations and no lines yet (a draft)."""
    stem = path.stem or "city"
    slug = re.sub(r"[^a-z0-9-]+", "-", stem.lower()).strip("-")[:64] or "city"
    name = re.sub(r"[-_]+", " ", stem).strip().title()[:80] or "City"
    return {"format": "mapkit-map/1", "id": slug, "name": name, "stations": [], "lines": []}


def parse_map_bytes(data: bytes) -> Any:
    """The document in a map file's bytes, read strictly (as validate reads it); ValueError
    with a one-line reason when it is not a JSON object of at most 1 MiB."""
    from mapkit.mapfile.jsonpos import decode_utf8, parse_json

    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"the file holds more than {MAX_FILE_BYTES} bytes: a map is at most 1 MiB")
    text, problem = decode_utf8(data)
    if problem is not None:
        raise ValueError(problem.message)
    parsed = parse_json(text)
    if parsed.problems:
        p = parsed.problems[0]
        raise ValueError(f"line {p.line}, column {p.column}: {p.message}")
    if not isinstance(parsed.value, dict):
        raise ValueError("not a map: the file holds no JSON object")
    return parsed.value


def _digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Revision:
    """One state of the map: its document and the text validate, render and save see."""

    token: str
    doc: Any
    path: str = "<studio>"

    @cached_property
    def text(self) -> str:
        return writer.dumps(self.doc)

    @cached_property
    def draft(self):
        """(LoadResult, DraftGaps) of this revision read as a draft."""
        from mapkit.checks.draft import load_draft

        return load_draft(self.text, self.path)

    @property
    def city(self):
        """The model (draft gaps filled), or None when the map cannot be built yet."""
        return self.draft[0].map

    def schema_problem(self) -> str | None:
        """Why this document is not a map file (syntax or schema, read as a draft), if it is not."""
        for d in self.draft[0].errors:
            if d.code.startswith(("JSON", "SCH")):
                where = f" at {d.pointer}" if d.pointer else ""
                return f"{d.code}{where}: {d.message}"
        return None


@dataclass(frozen=True)
class DiskStatus:
    """The map's file now, beside what the session last read or wrote there."""

    changed: bool
    exists: bool


class Session:
    """The map a ``mapkit studio`` server edits.

    ``path`` is the map's file (a symlink is followed once, here: saves go to the file it
    named at the start); ``root`` is the folder "save as" writes in: by default the map's
    folder, for a read-only shipped map the current folder.
    """

    def __init__(self, path: Path, *, readonly: bool = False, root: Path | None = None) -> None:
        self.path = Path(os.path.realpath(path))
        self.readonly = readonly
        self.root = Path(os.path.realpath(root or (Path.cwd() if readonly else self.path.parent)))
        self.lock = threading.Lock()
        self.cache: dict[tuple, Any] = {}
        self._stat_seen: tuple | None = None
        self._disk_now: str | None = None
        data = self._read_file()
        doc = new_document(self.path) if data is None else parse_map_bytes(data)
        self.disk = self._disk_now = _digest(data)
        self.current = Revision(f"r{next(_TOKENS)}", doc, str(self.path))
        self.saved_token = self.current.token if data is not None else None

    def _read_file(self) -> bytes | None:
        """The map file's bytes (at most 1 MiB + 1), None when there is none; OSError else."""
        from mapkit.mapfile import read_limited

        try:
            return read_limited(self.path)
        except FileNotFoundError:
            return None

    @property
    def dirty(self) -> bool:
        return self.current.token != self.saved_token

    def display_name(self) -> str:
        """The map's file relative to the root when it is inside (what "save as" takes)."""
        try:
            return self.path.relative_to(self.root).as_posix()
        except ValueError:
            return self.path.name

    def state(self) -> dict[str, Any]:
        return {
            "map": self.current.doc,
            "revision": self.current.token,
            "path": str(self.path),
            "name": self.display_name(),
            "root": str(self.root),
            "exists": self.disk is not None,
            "readonly": self.readonly,
            "dirty": self.dirty,
        }

    def replace(self, doc: Any, token: str) -> Revision:
        """Make ``doc`` the current map; 409 unless ``token`` is the current revision."""
        with self.lock:
            if token != self.current.token:
                raise Refused(
                    409,
                    "the map changed since this revision (another tab?); reload it",
                    revision=self.current.token,
                )
            self.current = Revision(f"r{next(_TOKENS)}", doc, str(self.path))
            self.cache.clear()
            return self.current

    # ---- the file on disk -------------------------------------------------------------------

    def disk_status(self) -> DiskStatus:
        """Has another program changed the file since it was read or saved? (A stat each
        call; the file is read again only when its size or modification time moved.)"""
        try:
            st = os.stat(self.path)
            seen = (st.st_mtime_ns, st.st_size, st.st_ino)
        except FileNotFoundError:
            seen = None
        except OSError:
            return DiskStatus(changed=False, exists=True)
        with self.lock:
            if seen != self._stat_seen:
                self._stat_seen = seen
                with contextlib.suppress(OSError):
                    self._disk_now = _digest(self._read_file()) if seen else None
            return DiskStatus(changed=self._disk_now != self.disk, exists=seen is not None)

    def disk_diff(self) -> dict[str, Any]:
        """The file as it is on disk and a unified diff from it to the map in the studio."""
        try:
            data = self._read_file()
        except OSError as exc:
            raise Refused(409, f"cannot read {self.path}: {exc.strerror}") from None
        try:  # the file as the studio would write it: the diff shows changes, not layout
            theirs = "" if data is None else writer.dumps(parse_map_bytes(data))
        except ValueError:
            theirs = data[:MAX_FILE_BYTES].decode("utf-8", errors="replace") if data else ""
        mine = self.current.text
        name = self.path.name
        diff = difflib.unified_diff(
            theirs.splitlines(keepends=True),
            mine.splitlines(keepends=True),
            f"{name} (on disk)",
            f"{name} (in the studio)",
        )
        return {"exists": data is not None, "diff": "".join(diff)}

    def reload(self) -> Revision:
        """Take the file as it is on disk now (the page's "Reload"); 422 if it is no map."""
        try:
            data = self._read_file()
        except OSError as exc:
            raise Refused(409, f"cannot read {self.path}: {exc.strerror}") from None
        if data is None:
            raise Refused(409, f"{self.path} is no longer there; save to write it again")
        try:
            doc = parse_map_bytes(data)
        except ValueError as exc:
            raise Refused(422, f"cannot reload {self.path.name}: {exc}") from None
        with self.lock:
            self.current = Revision(f"r{next(_TOKENS)}", doc, str(self.path))
            self.cache.clear()
            self.disk = self._disk_now = _digest(data)
            self.saved_token = self.current.token
            return self.current

    def keep_mine(self) -> None:
        """Accept the file's change on disk as seen (the page's "Keep mine"): the next save
        replaces it without asking, and the map counts as unsaved."""
        self.disk_status()
        with self.lock:
            self.disk = self._disk_now
            self.saved_token = None

    # ---- saving -----------------------------------------------------------------------------

    def _forbidden(self, folder: Path) -> str | None:
        """Why a folder must not receive a "save as" (mapkit's own files), if it must not."""
        import mapkit
        from mapkit.resources import data_dir

        own = [Path(mapkit.__file__).resolve().parent]
        for name in ("maps", "schemas"):
            own.append(data_dir(name).resolve())
        for d in own:
            if folder == d or d in folder.parents:
                return f"save as: {folder} holds mapkit's own files; save the map elsewhere"
        return None

    def save(
        self, *, overwrite: bool = False, target: object = None, revision: object = None
    ) -> Path:
        """Write the current map atomically to its file, or to ``target`` (save as), which
        then becomes the session's file. Refused (4xx) with the reason otherwise."""
        if target is None:
            if self.readonly:
                raise Refused(403, "this map is read-only; save it under another name")
            folder, parts = self.path.parent, (self.path.name,)
        else:
            parts = confined.relative_parts(target, self.root)
            folder = self.root.joinpath(*parts[:-1])
            why = self._forbidden(folder)
            if why:
                raise Refused(403, why)
            if folder / parts[-1] == self.path and self.readonly:
                raise Refused(403, "this map is read-only; save it under another name")
            folder, parts = self.root, parts
        dest = folder.joinpath(*parts)
        with self.lock:
            if revision is not None and revision != self.current.token:
                raise Refused(
                    409, "the map changed since this revision", revision=self.current.token
                )
            rev = self.current
            problem = rev.schema_problem()
            if problem:
                raise Refused(422, f"not saved: the map does not pass the map schema ({problem})")
            same = dest == self.path
            expected = self.disk if same else None

            def guard(now: bytes | None) -> None:
                if overwrite or _digest(now) == expected:
                    return
                if same:
                    raise Refused(
                        409,
                        f"{dest} changed on disk since it was opened; say overwrite to replace it",
                        conflict=True,
                    )
                raise Refused(409, f"{dest} exists; say overwrite to replace it", conflict=True)

            data = rev.text.encode("utf-8")
            confined.write_inside(folder, parts, data, guard, MAX_FILE_BYTES)
            self.path, self.readonly = dest, False
            self.disk = self._disk_now = _digest(data)
            self._stat_seen = None
            self.saved_token = rev.token
            if not same:
                self.cache.clear()
            return dest
