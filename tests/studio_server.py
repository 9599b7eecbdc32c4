"""The studio app served by uvicorn in a thread, for the browser tests."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from pathlib import Path

import uvicorn

from mapkit.studio.app import create_app
from mapkit.studio.session import Session


class Server:
    """The studio app served by uvicorn in a daemon thread."""

    def __init__(self, path: Path, readonly: bool = False) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        app = create_app(Session(path, readonly=readonly), [f"127.0.0.1:{self.port}"])
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.server.started, "the studio server did not start within 30 s"

    def get(self, route: str):
        with urllib.request.urlopen(self.url + route.lstrip("/")) as res:
            return json.loads(res.read())

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @staticmethod
    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
