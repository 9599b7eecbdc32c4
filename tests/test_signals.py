"""mapkit.signals in a process of its own (the handlers are process-wide)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A garbage collector's callback (Dask registers one) that is running when Ctrl-C arrives:
# Python prints an exception raised there as unraisable and goes on, so `tune --engine dask`
# ran to its end after a Ctrl-C now and then. The handler asks again once the callback is done.
GC_CALLBACK = """
import gc, os, signal, sys, time
from mapkit import signals

signals.install()
sent = []

def callback(phase, info):
    if phase == "start" and not sent:
        sent.append(1)
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs in here, inside the callback
            pass

gc.callbacks.append(callback)
try:
    end = time.monotonic() + 10
    while time.monotonic() < end:
        gc.collect()
except signals.Interrupted as exc:
    sys.exit(exc.exit_code)
"""


def test_ctrl_c_inside_a_garbage_collector_callback_is_not_lost() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", GC_CALLBACK], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr == ""
