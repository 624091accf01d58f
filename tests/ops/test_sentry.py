"""Error reports with ``sentry-sdk`` (project/sentry.py): with ``SENTRY_DSN`` naming a local
HTTP server that stands in for Sentry's ingest (its envelope endpoint), an error raised in a
request of a gunicorn worker or a daphne process arrives there as an event, with the release
and environment, and with no member in it (no e-mail address, cookie or client address).
Without ``SENTRY_DSN`` nothing is sent."""

from __future__ import annotations

import gzip
import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from devtools.launcher import HOST, ServerProcess, daphne_command, free_port
from project import sentry
from tests.ops.sentry_words import SECRET_WORDS

pytestmark = pytest.mark.slow


class Ingest:
    """A stand-in for Sentry's ingest: records every envelope POSTed to /api/<id>/envelope/."""

    def __init__(self) -> None:
        self.envelopes: list[tuple[str, dict[str, str], bytes]] = []
        received = self.envelopes

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                received.append((self.path, dict(self.headers), body))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer((HOST, 0), Handler)
        self.port = self.server.server_address[1]
        self.dsn = f"http://publickey0123456789@{HOST}:{self.port}/42"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def events(self) -> list[dict[str, Any]]:
        """The items of type ``event`` of every envelope received."""
        found = []
        for _, _, body in self.envelopes:
            lines = body.split(b"\n")
            for header, payload in zip(lines[1::2], lines[2::2], strict=False):
                if json.loads(header).get("type") == "event":
                    found.append(json.loads(payload))
        return found

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def ingest() -> Iterator[Ingest]:
    server = Ingest()
    try:
        yield server
    finally:
        server.close()


def serve(kind: str, env: dict[str, str]) -> ServerProcess:
    port = free_port()
    if kind == "gunicorn":
        command = [sys.executable, "-m", "gunicorn", "--bind", f"{HOST}:{port}"]
        command += ["--workers", "1", "tests.ops.sentry_app:application"]
    else:
        command = [*daphne_command(port)[:-1], "tests.ops.sentry_app:asgi"]
    server = ServerProcess(command, port, env, name=kind, start_timeout=60)
    server.start()
    return server


def environment(**extra: str) -> dict[str, str]:
    env = {**os.environ, "LOG_LEVEL": "CRITICAL", "DJANGO_DEBUG": "0", **extra}
    for name in ("SENTRY_DSN", "METRICS_PORT", "PROMETHEUS_MULTIPROC_DIR"):
        env.pop(name, None)
    env.update(extra)
    return env


def boom(server: ServerProcess) -> None:
    answer = httpx.get(
        f"http://{HOST}:{server.port}/boom",
        headers={
            "Cookie": f"sessionid={SECRET_WORDS[1]}; csrftoken={SECRET_WORDS[1]}",
            "X-Real-IP": "203.0.113.77",
        },
        timeout=30,
    )
    assert answer.status_code == 500


@pytest.mark.parametrize("kind", ["gunicorn", "daphne"])
def test_an_error_in_a_request_is_reported_without_a_member(ingest: Ingest, kind: str) -> None:
    env = environment(
        SENTRY_DSN=ingest.dsn, SENTRY_ENVIRONMENT="drill", SENTRY_RELEASE="scoutvote@test"
    )
    server = serve(kind, env)
    try:
        boom(server)
        deadline = time.monotonic() + 20
        while not ingest.events():
            assert time.monotonic() < deadline, "no event reached the ingest"
            time.sleep(0.1)
    finally:
        server.stop()
    (event,) = ingest.events()
    path, headers, _ = ingest.envelopes[0]
    assert path == "/api/42/envelope/"
    assert "sentry_key=publickey0123456789" in headers.get("X-Sentry-Auth", "")
    (exception,) = event["exception"]["values"]
    assert exception["type"] == "RuntimeError"
    assert exception["value"] == "The vote of [email] could not be counted"
    assert (event["environment"], event["release"]) == ("drill", "scoutvote@test")
    assert event["request"]["url"].endswith("/boom")
    assert "cookies" not in event["request"]
    assert "user" not in event or not event["user"].get("ip_address")
    raw = b"".join(envelope[2] for envelope in ingest.envelopes)
    for word in (*SECRET_WORDS, "203.0.113.77"):
        at = raw.find(word.encode())
        assert at < 0, (word, raw[max(0, at - 300) : at + 60])


def test_nothing_is_sent_without_a_dsn(ingest: Ingest) -> None:
    assert not sentry.enabled()
    assert sentry.init_from_env("development") is False
    server = serve("gunicorn", environment())
    try:
        boom(server)
        time.sleep(3)  # what a reporting process sends within a second (the test above)
    finally:
        server.stop()
    assert ingest.envelopes == []
