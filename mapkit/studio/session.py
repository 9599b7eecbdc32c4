"""One map being edited: its document, revisions, and saving it back to disk.

The session keeps the map in memory; only ``save`` writes, and only to the file
the session was opened on or a "save as" target the user typed. Every change
makes a new revision token, and a change sent with an older token is refused, so
two tabs (or a stale page) cannot silently undo each other's work. The file's
bytes when it was read are remembered, so saving over a file that changed on disk
since is refused unless the caller says to overwrite.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import threading
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from mapkit.mapfile import writer

_TOKENS = itertools.count(1)


class StaleRevision(Exception):
    """A change made against a revision that is no longer the current one."""


class SaveRefused(Exception):
    """A save that must not happen; ``conflict`` when the file changed on disk."""

    def __init__(self, message: str, *, conflict: bool = False) -> None:
        super().__init__(message)
        self.conflict = conflict


def _fingerprint(path: Path) -> str | None:
    """A hash of the file's bytes, or None when there is no file."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def new_document(path: Path) -> dict[str, Any]:
    """An empty map named after its file: no stations and no lines yet (a draft)."""
    stem = path.stem or "city"
    slug = re.sub(r"[^a-z0-9-]+", "-", stem.lower()).strip("-")[:64] or "city"
    name = re.sub(r"[-_]+", " ", stem).strip().title()[:80] or "City"
    return {"format": "mapkit-map/1", "id": slug, "name": name, "stations": [], "lines": []}


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


class Session:
    """The map a ``mapkit studio`` server edits."""

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        self.lock = threading.Lock()
        self.cache: dict[tuple, Any] = {}
        self._load()

    def _load(self) -> None:
        """Read the file strictly (as validate does); ValueError when it is not a JSON object."""
        from mapkit.mapfile.jsonpos import decode_utf8, parse_json

        if self.path.exists():
            data = self.path.read_bytes()
            text, problem = decode_utf8(data)
            if problem is not None:
                raise ValueError(problem.message)
            parsed = parse_json(text)
            if parsed.problems:
                p = parsed.problems[0]
                raise ValueError(f"line {p.line}, column {p.column}: {p.message}")
            doc = parsed.value
            if not isinstance(doc, dict):
                raise ValueError("not a map: the file holds no JSON object")
            self.disk = hashlib.sha256(data).hexdigest()
        else:
            doc = new_document(self.path)
            self.disk = None
        self.current = Revision(f"r{next(_TOKENS)}", doc, str(self.path))
        self.saved_token = self.current.token if self.disk else None

    @property
    def dirty(self) -> bool:
        return self.current.token != self.saved_token

    def state(self) -> dict[str, Any]:
        return {
            "map": self.current.doc,
            "revision": self.current.token,
            "path": str(self.path),
            "exists": self.disk is not None,
            "readonly": self.readonly,
            "dirty": self.dirty,
        }

    def replace(self, doc: Any, token: str) -> Revision:
        """Make ``doc`` the current map; StaleRevision unless ``token`` is current."""
        with self.lock:
            if token != self.current.token:
                raise StaleRevision(token)
            self.current = Revision(f"r{next(_TOKENS)}", doc, str(self.path))
            self.cache.clear()
            return self.current

    def save(self, *, overwrite: bool = False, target: str | None = None) -> Path:
        """Write the current map atomically to its file (or to ``target``: save as)."""
        from mapkit.atomic import OutputError, write_text
        from mapkit.resources import data_dir

        with self.lock:
            if target:
                dest = Path(target).expanduser()
                if not dest.is_absolute():
                    dest = Path.cwd() / dest
                if dest.suffix != ".json":
                    raise SaveRefused(f"save as: {target} must end in .json")
                if dest.resolve().parent == data_dir("maps").resolve():
                    raise SaveRefused("save as: the shipped maps cannot be replaced")
                same = dest.resolve() == self.path.resolve()
                if same and self.readonly:
                    raise SaveRefused("this map is read-only; save it under another name")
                if not same and dest.exists() and not overwrite:
                    raise SaveRefused(f"{dest} exists; say overwrite to replace it", conflict=True)
                expected = self.disk if same else _fingerprint(dest)
            else:
                if self.readonly:
                    raise SaveRefused("this map is read-only; save it under another name")
                dest, expected = self.path, self.disk
            if not overwrite and _fingerprint(dest) != expected:
                raise SaveRefused(
                    f"{dest} changed on disk since it was opened; say overwrite to replace it",
                    conflict=True,
                )
            text = self.current.text
            try:
                write_text(dest, text)
            except (OSError, OutputError) as exc:
                raise SaveRefused(f"cannot write {dest}: {exc}") from None
            self.path, self.readonly = dest, False
            self.disk = hashlib.sha256(text.encode("utf-8")).hexdigest()
            self.saved_token = self.current.token
            return dest
