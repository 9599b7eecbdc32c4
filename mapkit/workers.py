"""Worker processes that die with their parent, and how many of them a machine gets.

``mapkit simulate --jobs``, ``report`` and ``tune`` fork a pool of workers. A parent
ended by SIGKILL (or the OOM killer) runs no cleanup, so a plain pool would leave its
workers running for ever. Each worker here asks the kernel to kill it when its parent
dies (Linux ``prctl(PR_SET_PDEATHSIG)``); elsewhere a watchdog thread polls the parent.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

PR_SET_PDEATHSIG = 1
WATCHDOG_SECONDS = 0.5


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def die_with_parent(parent: int) -> None:
    """End this process as soon as ``parent`` (the process that forked it) is gone."""
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if not armed:
        threading.Thread(target=_watch, args=(parent,), daemon=True, name="mapkit-watchdog").start()
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCHDOG_SECONDS)
    os._exit(1)


def _start(parent: int, initializer: Callable[..., None] | None, initargs: tuple) -> None:
    die_with_parent(parent)
    if initializer is not None:
        initializer(*initargs)


def pool(jobs: int, initializer: Callable[..., None] | None = None, initargs: tuple = ()) -> Any:
    """A forked ``multiprocessing`` pool of ``jobs`` workers that die with this process."""
    ctx = multiprocessing.get_context("fork")
    return ctx.Pool(jobs, initializer=_start, initargs=(os.getpid(), initializer, initargs))


STOP_SECONDS = 2.0


def stop(workers: Any) -> None:
    """``workers.terminate()``, waited for at most ``STOP_SECONDS``. A worker killed while
    it hands back a result leaves the result queue's lock taken, and CPython's
    ``Pool.terminate`` then waits for that lock for ever (its task handler's last ``put``):
    a ``simulate -j 2 --time-limit 1.5`` once never ended. Then the workers are killed here,
    and the pool's own threads are daemons, gone with the process."""
    procs = list(workers._pool)
    stopping = threading.Thread(target=workers.terminate, daemon=True, name="mapkit-pool-stop")
    stopping.start()
    stopping.join(STOP_SECONDS)
    if stopping.is_alive():  # stuck before it killed them, or after
        for proc in procs:
            proc.kill()
            proc.join(STOP_SECONDS)


def imap_bounded(
    workers: Any, fn: Callable[[Any], Any], tasks: Iterable[Any], ahead: int
) -> Iterator[Any]:
    """``fn`` over ``tasks`` in order, with at most ``ahead`` tasks handed out at once.

    ``Pool.imap`` reads the whole task list up front; a run of 10^11 games has ~50 million
    chunks, so tasks are taken from ``tasks`` only as results come back.
    """
    queue: deque = deque()
    it = iter(tasks)
    for task in it:
        queue.append(workers.apply_async(fn, (task,)))
        if len(queue) >= ahead:
            break
    while queue:
        result = queue.popleft().get()
        for task in it:
            queue.append(workers.apply_async(fn, (task,)))
            break
        yield result
