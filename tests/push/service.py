"""A local push service for the tests: an HTTP server in a thread that records each message
it is sent and answers with the status the test chose for its path."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    # The status the service answered it with.
    status: int = 201


@dataclass
class PushService:
    received: list[Received] = field(default_factory=list)
    # Path -> status answered (201 for any other path), and headers sent with it.
    answers: dict[str, int] = field(default_factory=dict)
    answer_headers: dict[str, dict[str, str]] = field(default_factory=dict)
    server: ThreadingHTTPServer | None = None

    def start(self) -> None:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                status = service.answers.get(self.path, 201)
                service.received.append(
                    Received(
                        path=self.path, headers=dict(self.headers.items()), body=body, status=status
                    )
                )
                self.send_response(status)
                for name, value in service.answer_headers.get(self.path, {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.server_address[1])

    def accepted(self) -> list[Received]:
        """The messages it answered with a success."""
        return [message for message in self.received if 200 <= message.status < 300]

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
