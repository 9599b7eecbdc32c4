"""Tuning candidates on local processes and on a local Dask cluster give the same map."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mapkit.design.sweep import Sweep, SweepError
from mapkit.design.tune import Targets, TuneConfig, tune

MINI = Path(__file__).resolve().parent.parent / "examples" / "games" / "maps" / "mini.json"


def _square(x: int) -> int:
    return x * x


def test_local_processes_keep_task_order() -> None:
    with Sweep("local", jobs=2) as sweep:
        assert sweep.map(_square, list(range(7))) == [x * x for x in range(7)]
    with pytest.raises(SweepError):
        Sweep("spark")


def test_dask_local_cluster_tunes_the_same_map_as_one_process() -> None:
    pytest.importorskip("distributed")
    doc = json.loads(MINI.read_text())
    cfg = TuneConfig(games=40, seed=5, decision_games=0, windows=False, steps=2)
    one = tune(doc, Targets(mean=9), cfg)
    dask = tune(doc, Targets(mean=9), TuneConfig(**{**cfg.__dict__, "engine": "dask", "jobs": 2}))
    assert one.steps and one.doc == dask.doc
    assert [s.objective for s in one.steps] == [s.objective for s in dask.steps]
