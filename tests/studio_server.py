"""The studio app served by uvicorn in a thread, for the browser tests."""

from __future__ import annotations

import json
import secrets
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import uvicorn

from mapkit.studio.app import create_app
from mapkit.studio.session import Session


class Server:
    """The studio app served by uvicorn in a daemon thread."""

    def __init__(
        self, path: Path, readonly: bool = False, root: Path | None = None, port: int = 0
    ) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        self.port = sock.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}/"
        self.token = secrets.token_urlsafe(16)
        self.url = f"{self.base}?token={self.token}"
        app = create_app(
            Session(path, readonly=readonly, root=root),
            [f"127.0.0.1:{self.port}"],
            token=self.token,
        )
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.server.started, "the studio server did not start within 30 s"

    def request(self, route: str, body: object = None, method: str | None = None):
        """(status, JSON answer) of a request with the session token."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.base + route.lstrip("/"),
            data=data,
            method=method or ("GET" if body is None else "POST"),
            headers={"X-Mapkit-Token": self.token, "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(req) as res:
                return res.status, json.loads(res.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def get(self, route: str):
        status, data = self.request(route)
        assert status == 200, (status, data)
        return data

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @staticmethod
    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]
