"""One HTTP connection to the real daphne process, as a browser holds it: several requests one
after another (keep-alive) and several sent at once (pipelined). daphne starts the next request
of a connection while it finishes the previous response, so a request must not inherit
anything of the one before it (project/common/wsgi_http.py)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import BinaryIO

import pytest

from tests.e2e.browsing import ROOT
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e]

ASSETS = ROOT / "frontend" / "dist" / "assets"


def _largest_asset() -> Path:
    return max(ASSETS.glob("*.js"), key=lambda path: path.stat().st_size)


def _request(path: str, port: int) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: */*\r\n\r\n".encode()


def _read_response(reader: BinaryIO) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response from ``reader`` (a socket's buffered file): its status, headers
    (names in lower case) and body, whether sized by Content-Length or chunked."""
    read_line, read = reader.readline, reader.read
    status_line = read_line()
    assert status_line.startswith(b"HTTP/1.1 "), status_line
    status = int(status_line.split()[1])
    headers: dict[str, str] = {}
    while (line := read_line()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        return status, headers, read(int(headers["content-length"]))
    assert headers.get("transfer-encoding") == "chunked", headers
    body = b""
    while size := int(read_line().split(b";")[0], 16):
        body += read(size)
        assert read(2) == b"\r\n"
    assert read_line() == b"\r\n"
    return status, headers, body


def _exchange(server: Server, paths: list[str], *, pipelined: bool) -> list[tuple[int, bytes]]:
    answers = []
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        reader = sock.makefile("rb")
        if pipelined:
            sock.sendall(b"".join(_request(path, server.port) for path in paths))
        for path in paths:
            if not pipelined:
                sock.sendall(_request(path, server.port))
            status, headers, body = _read_response(reader)
            assert headers.get("connection", "keep-alive").lower() != "close", (path, headers)
            answers.append((status, body))
    return answers


PATHS = ["/api/health", "/api/auth/csrf", "/", "/api/health", "ASSET", "/api/no-such-route"]


def _paths() -> list[str]:
    asset = "/static/assets/" + _largest_asset().name
    return [asset if path == "ASSET" else path for path in PATHS]


def _check(answers: list[tuple[int, bytes]]) -> None:
    statuses = [status for status, _ in answers]
    assert statuses == [200, 200, 200, 200, 200, 404]
    assert answers[0][1] == answers[3][1] == b'{"status": "ok"}'
    assert b"csrfToken" in answers[1][1]
    assert b'<div id="root">' in answers[2][1]
    assert answers[4][1] == _largest_asset().read_bytes()  # a file of many blocks, whole


def test_requests_one_after_another_on_one_connection(e2e_server: Server) -> None:
    _check(_exchange(e2e_server, _paths(), pipelined=False))


def test_requests_sent_at_once_on_one_connection(e2e_server: Server) -> None:
    _check(_exchange(e2e_server, _paths(), pipelined=True))
    # And again, on a connection the server has used before (each ends in a fresh request).
    _check(_exchange(e2e_server, _paths(), pipelined=True))
