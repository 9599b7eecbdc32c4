"""Serving one studio: the socket on 127.0.0.1, the session token, the uvicorn server.

``mapkit studio`` opens a ``Session`` and hands it here; so does any script that wants the
studio without the command line.
"""

from __future__ import annotations

import hashlib
import secrets
import socket
from pathlib import Path
from typing import Any

from mapkit.studio.session import Session


def usual_port(path: Path) -> int:
    """The same port for the same map each time: the page's origin, and with it the
    browser's autosave (kept per origin), stays the same across restarts."""
    digest = hashlib.sha256(str(path.resolve()).encode()).digest()
    return 20000 + int.from_bytes(digest[:4], "big") % 20000


def listen(path: Path, port: int | None) -> socket.socket:
    """A socket bound on 127.0.0.1: ``port`` (OSError when it cannot be had), or with none
    given the map's usual port, or a free one when that is taken."""
    # IPPROTO_TCP: asyncio sets TCP_NODELAY only on sockets that say so; without it every
    # response waits ~40 ms for a delayed ACK between its headers and its body.
    # SO_REUSEADDR: a restart right after Ctrl-C gets the same port (the old connections'
    # TIME_WAIT would refuse it), so the page's origin and the browser's autosave stay
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", usual_port(path) if port is None else port))
    except OSError:
        if port is not None:
            sock.close()
            raise
        sock.bind(("127.0.0.1", 0))
    return sock


class Server:
    """A studio ready to serve ``session`` on ``sock``: ``url`` (with a new session token)
    is the address to open; ``run`` serves until Ctrl+C or SIGTERM."""

    def __init__(self, session: Session, sock: socket.socket) -> None:
        import uvicorn

        from mapkit.studio.app import create_app
        from mapkit.studio.playtest import Worker

        self.sock = sock
        port = sock.getsockname()[1]
        token = secrets.token_urlsafe(24)
        self.url = f"http://127.0.0.1:{port}/?token={token}"
        self.worker = Worker()
        hosts = [f"127.0.0.1:{port}", f"localhost:{port}"]
        app = create_app(session, hosts, token=token, worker=self.worker)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=2
        )
        self.server = _server_class()(config, self.worker)

    def run(self) -> None:
        self.server.run(sockets=[self.sock])


def _server_class() -> Any:
    import uvicorn

    class StoppingServer(uvicorn.Server):
        """uvicorn's server, which on Ctrl-C or SIGTERM also kills the play-test process at
        once: a running play-test answers at once and the server stops."""

        def __init__(self, config, worker) -> None:
            super().__init__(config)
            self.worker = worker

        def handle_exit(self, sig, frame) -> None:
            super().handle_exit(sig, frame)
            self.worker.kill()

    return StoppingServer
