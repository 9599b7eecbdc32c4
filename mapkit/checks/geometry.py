"""Geometry layer of validate."""

from __future__ import annotations

from mapkit.checks.context import CheckContext


def check(ctx: CheckContext) -> None:
    """Emit this layer's diagnostics into ctx."""
