"""Ctrl-C and SIGTERM as a clean exit (130 / 143) that still runs every cleanup.

Python's default SIGTERM kills the process without unwinding, leaving temporary
files behind, and click turns Ctrl-C into "Aborted!" with exit 1. The handlers
here raise :class:`Interrupted` instead, which ``finally`` blocks and
``mapkit.atomic`` see like any other exception. Inside C libraries that call back
into Python (cairo writing a PDF) an exception cannot be raised safely, so
:func:`deferred` only notes the signal and raises once the block is done.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(BaseException):
    """A signal asked the command to stop; ``exit_code`` is 128 + the signal number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def _raise(signum: int, _frame: object) -> None:
    raise Interrupted(signum)


def install() -> None:
    """Make SIGINT and SIGTERM raise :class:`Interrupted` (call once, from ``main``)."""
    for sig in _SIGNALS:
        signal.signal(sig, _raise)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT/SIGTERM until the block ends, then raise :class:`Interrupted`."""
    pending: list[int] = []
    try:
        old = {sig: signal.signal(sig, lambda s, _f: pending.append(s)) for sig in _SIGNALS}
    except ValueError:  # not the main thread: signals cannot arrive here anyway
        yield
        return
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    if pending:
        raise Interrupted(pending[0])
