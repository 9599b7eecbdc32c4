"""Serving a studio (``mapkit.studio.serve``): the port, the socket and the address."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from mapkit.studio.serve import Server, listen, usual_port
from mapkit.studio.session import Session


def test_the_usual_port_is_the_maps_own():
    path = Path("/maps/berlin.json")
    assert usual_port(path) == usual_port(Path("/maps/../maps/berlin.json"))
    assert 20000 <= usual_port(path) < 40000
    assert usual_port(path) != usual_port(Path("/maps/paris.json"))


def test_a_taken_port_is_an_error_when_asked_for_and_passed_over_when_usual(tmp_path):
    path = tmp_path / "city.json"
    taken = socket.socket()
    taken.bind(("127.0.0.1", usual_port(path)))
    try:
        with pytest.raises(OSError):
            listen(path, usual_port(path))
        sock = listen(path, None)
        assert sock.getsockname()[0] == "127.0.0.1"
        assert sock.getsockname()[1] not in (0, usual_port(path))
        sock.close()
    finally:
        taken.close()


def test_the_address_carries_a_new_token_each_time(tmp_path):
    path = tmp_path / "city.json"
    sock = listen(path, 0)
    port = sock.getsockname()[1]
    try:
        first, second = Server(Session(path), sock), Server(Session(path), sock)
        assert first.url.startswith(f"http://127.0.0.1:{port}/?token=")
        assert len(first.url.split("token=")[1]) == 32
        assert first.url != second.url
    finally:
        sock.close()
