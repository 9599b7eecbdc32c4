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
import os
import signal
import threading
from collections.abc import Iterator

_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGALRM)
"""Ctrl-C, kill, and the alarm of a ``--time-limit``."""


class Interrupted(BaseException):
    """A signal asked the command to stop; ``exit_code`` is 128 + the signal number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """130 for Ctrl-C, 143 for SIGTERM; 1 for a time limit (the work could not be done)."""
        return 1 if self.signum == signal.SIGALRM else 128 + self.signum

    @property
    def message(self) -> str:
        if self.signum == signal.SIGALRM:
            return f"stopped at the --time-limit of {_limit[0]:g} s; nothing was written"
        return f"interrupted ({self}); nothing half-written was left"


_received: list[int] = []
_limit: list[float] = [0.0]


_owner: list[int] = []  # the process that installed the handlers


def _raise(signum: int, _frame: object) -> None:
    if _owner and os.getpid() != _owner[0]:
        # a forked worker (simulate --jobs): Ctrl-C reaches the whole process group; the
        # parent stops the pool, which ends its workers with SIGTERM. So a worker ignores
        # SIGINT, and leaves on SIGTERM by SystemExit: it unwinds (releasing the pool's
        # queue locks, which a plain kill could leave held) and prints no traceback
        if signum == signal.SIGINT:
            return
        raise SystemExit(128 + signum)
    if _importing(_frame) or _collecting(_frame):
        # an exception raised inside a module's import code leaves that module half-made,
        # and some libraries (numpy) print it before re-raising; one raised in a garbage
        # collector's callback (Dask's) is printed and dropped: ask again once it is done
        threading.Timer(_RETRY_S, os.kill, (os.getpid(), signum)).start()
        return
    _received.append(signum)
    raise Interrupted(signum)


_RETRY_S = 0.02


def _importing(frame: object) -> bool:
    """Whether the interrupted code runs inside an ``import`` (importlib's frames are on
    the stack)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):  # type: ignore[attr-defined]
            return True
        frame = frame.f_back  # type: ignore[attr-defined]
    return False


def _collecting(frame: object) -> bool:
    """Whether the interrupted code runs inside one of ``gc.callbacks``, where Python reports
    an exception as unraisable and goes on (a Ctrl-C there would be lost)."""
    import gc

    codes = {getattr(getattr(cb, "__func__", cb), "__code__", None) for cb in gc.callbacks}
    codes.discard(None)
    while codes and frame is not None:
        if frame.f_code in codes:  # type: ignore[attr-defined]
            return True
        frame = frame.f_back  # type: ignore[attr-defined]
    return False


def received() -> int | None:
    """The first signal :func:`install`'s handlers saw, if any. An Interrupted raised during
    an import can come out as an ImportError (numpy re-raises it so): the caller then still
    knows the command was interrupted, not broken."""
    return _received[0] if _received else None


def _leave(signum: int, _frame: object) -> None:
    os.write(2, b"\nmapkit: interrupted while starting; nothing was written\n")
    os._exit(128 + signum)


def install_early() -> None:
    """Until :func:`install` (while the command line is imported, a few hundred
    milliseconds): a signal ends the process at once, quietly; nothing is written yet.
    Called by ``mapkit/__init__.py`` in the ``mapkit`` command only."""
    if not _owner:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _leave)


def install() -> None:
    """Make SIGINT and SIGTERM raise :class:`Interrupted` (call once, from ``main``)."""
    _owner[:] = [os.getpid()]
    for sig in _SIGNALS:
        signal.signal(sig, _raise)


def limit_time(seconds: float | None) -> None:
    """Stop the command with :class:`Interrupted` (exit 1) after ``seconds`` of wall time
    (``--time-limit``); None: no limit. It unwinds like Ctrl-C: nothing half-written."""
    if seconds is None:
        return
    _limit[0] = seconds
    signal.setitimer(signal.ITIMER_REAL, seconds)


def finished() -> None:
    """The command is done and has written what it writes: a Ctrl-C now (while Python shuts
    down, when its own handlers are gone) must not turn a complete run into exit -2."""
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Held:
    """The signals that arrived while held; ``check()`` raises for the first of them at a
    point the caller knows to be safe (between two pages, not inside cairo)."""

    def __init__(self) -> None:
        self.pending: list[int] = []

    def note(self, signum: int, _frame: object) -> None:
        self.pending.append(signum)

    def check(self) -> None:
        if self.pending:
            raise Interrupted(self.pending[0])


@contextlib.contextmanager
def deferred() -> Iterator[Held]:
    """Hold SIGINT/SIGTERM inside the block; raise :class:`Interrupted` when it ends (or
    earlier, wherever the block calls ``check()``)."""
    held = Held()
    try:
        old = {sig: signal.signal(sig, held.note) for sig in _SIGNALS}
    except ValueError:  # not the main thread: signals cannot arrive here anyway
        yield held
        return
    try:
        yield held
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)
    held.check()


@contextlib.contextmanager
def unheard_by_children() -> Iterator[None]:
    """Processes spawned inside the block never hear SIGINT, so a terminal's Ctrl-C (sent to
    the whole process group) reaches only this process, which stops them.

    This thread blocks SIGINT inside the block, and what it spawns (threads, and the
    processes they fork and exec) inherits the blocked mask for life. A SIGINT sent meanwhile
    may still reach a thread started before the block (OpenBLAS starts one with numpy), which
    has no mask: it is recorded, not acted on, and raised again when the block ends, so a
    Ctrl-C while a Dask cluster starts is heard once the cluster can be stopped (an ignored
    SIGINT, as before, was lost in that thread)."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()  # starting it later would unblock SIGINT here
    heard: list[int] = []
    try:
        old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        old = signal.signal(signal.SIGINT, lambda signum, _frame: heard.append(signum))
    except (AttributeError, OSError, ValueError):  # no masks here, or not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
    if heard:
        signal.raise_signal(signal.SIGINT)
