"""Run independent tasks (tuning candidates) on one machine or a Dask cluster.

A task is a pure function of its arguments: every candidate plays the decks of the run's
seed (``game_seed(seed, i)``), never a stream shared between tasks, so a candidate's result
is the same whichever process or machine plays it, and results come back in task order.
``local`` uses this process (``jobs`` 1) or forked local processes; ``dask`` uses
``distributed`` (the optional extra ``cluster``): the scheduler at ``address``, or a local
cluster of ``jobs`` worker processes when no address is given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

ENGINES = ("local", "dask")


class SweepError(Exception):
    """The engine asked for cannot run (missing extra, unreachable scheduler)."""


class Sweep:
    """Maps a function over tasks, in order, with the chosen engine; a context manager."""

    def __init__(self, engine: str = "local", jobs: int = 1, address: str | None = None) -> None:
        if engine not in ENGINES:
            raise SweepError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
        self.engine = engine
        self.jobs = max(1, jobs)
        self.address = address
        self._pool: Any = None
        self._client: Any = None
        self._cluster: Any = None

    def __enter__(self) -> Sweep:
        try:
            self._start()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _start(self) -> None:
        if self.engine == "dask":
            from mapkit.signals import unheard_by_children

            # the import starts threads and the cluster its worker processes: inside, a
            # Ctrl-C waits for this thread and the workers never hear it (we stop them)
            with unheard_by_children():
                self._connect()
        elif self.jobs > 1:
            from mapkit.workers import pool

            self._pool = pool(self.jobs)

    def _connect(self) -> None:
        import logging

        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise SweepError(
                "--engine dask needs dask.distributed: pip install 'mapkit[cluster]'"
            ) from None
        try:
            if self.address:
                self._client = Client(self.address, timeout="10s")
            else:
                self._cluster = LocalCluster(
                    n_workers=self.jobs, threads_per_worker=1, processes=True,
                    dashboard_address=":0", silence_logs=logging.CRITICAL,
                )  # fmt: skip
                self._client = Client(self._cluster)
        except (OSError, ValueError, TypeError) as exc:
            raise SweepError(f"cannot reach the Dask scheduler {self.address}: {exc}") from None

    def __exit__(self, *exc: object) -> None:
        if self._client is not None:
            self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        if self._pool is not None:
            from mapkit.workers import stop

            stop(self._pool)

    def map(self, fn: Callable[[T], R], tasks: Sequence[T]) -> list[R]:
        if self._client is not None:
            futures = self._client.map(fn, list(tasks), pure=False)
            return self._client.gather(futures)
        if self._pool is not None:
            return self._pool.map(fn, tasks, chunksize=1)
        return [fn(t) for t in tasks]
