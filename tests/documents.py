"""Walking JSON documents, for the tests that mutate maps and records."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def containers(node: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every (path, container) in the document, the root included."""
    yield path, node
    items = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, child in items:
        if isinstance(child, dict | list):
            yield from containers(child, (*path, key))
