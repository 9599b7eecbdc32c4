"""What the studio's server answers instead of doing what was asked."""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A request refused with an HTTP ``status`` and a message for the designer.

    ``extra`` goes into the JSON answer beside ``error`` (``conflict``, ``revision``, ...).
    """

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra
