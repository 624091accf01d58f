"""HTTP in a daphne process: Django's WSGI handler, one thread hop per request.

``make run`` serves everything from one daphne process, and ``bench/ws_fanout.py`` measures
that process. Under ASGI, Django runs a sync view behind a chain of middlewares adapted one by
one to the mode of the next: with this project's chain (async-capable Django middlewares
around WhiteNoise and two sync ones of ours), ``GET /api/health`` crossed between the event
loop and the request thread 16 times (asgiref's ``sync_to_async`` and ``async_to_sync``
calls, counted: around each ``process_request`` and ``process_response``), and each crossing
waited for the interpreter against the event loop that fans the live events out. Here the
whole request (middlewares, view, response) runs in one call of Django's WSGI handler, in the
same single request thread Django's ASGI handler uses for sync views (``thread_sensitive``):
4 crossings, one in and one per send out (head, body, end).

In one daphne process with 100 sockets watching (``bench/ws_fanout.py``, five
alternating pairs of 60 rounds), a vote's count reached the sockets at p99 23.1 ms where it
took 40.3 ms (medians of the runs; p50 16.5 -> 15.1 ms, the request 23.4 -> 21.3 ms;
bench/RESULTS.md, "Vote to screen"). The production shape's HTTP pool is WSGI already
(gunicorn gthread), and so is Django's test client: the tests and the deployment run the same
handler.

asgiref's ``WsgiToAsgi`` (Django's own dependency) makes the hop; this subclass adds what a
WSGI server must do and it does not:

* ``close()`` on the response, whatever happens (PEP 3333; asgiref does not call it, see its
  open pull request #587): Django sends ``request_finished`` from it, which returns the
  request's database connection to the pool;
* ``wsgi.file_wrapper``, so a file (WhiteNoise's static files, uploaded media) goes out in
  64 KiB sends rather than ``FileResponse``'s 4 KiB blocks, one hop each;
* ``CONTENT_LENGTH`` for a body that came without one (chunked), which Django would read as
  empty, and several ``Cookie`` headers joined with ``; `` as Django's ASGI request does;
* header values encoded as Latin-1, PEP 3333's strings, where asgiref allows only ASCII.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO, Any

from asgiref.sync import sync_to_async
from asgiref.wsgi import WsgiToAsgi, WsgiToAsgiInstance

FILE_BLOCK = 64 * 1024


class FileWrapper:
    """``wsgi.file_wrapper``: a file read in blocks of at least ``FILE_BLOCK`` bytes."""

    def __init__(self, filelike: IO[bytes], block_size: int = FILE_BLOCK) -> None:
        self.filelike = filelike
        self.block_size = max(block_size, FILE_BLOCK)

    def __iter__(self) -> Iterator[bytes]:
        return iter(lambda: self.filelike.read(self.block_size), b"")

    def close(self) -> None:
        self.filelike.close()


class _Request(WsgiToAsgiInstance):
    def build_environ(self, scope: dict[str, Any], body: IO[bytes]) -> dict[str, Any]:
        environ: dict[str, Any] = super().build_environ(scope, body)
        environ["wsgi.file_wrapper"] = FileWrapper
        if "CONTENT_LENGTH" not in environ:
            body.seek(0, 2)
            environ["CONTENT_LENGTH"] = str(body.tell())
            body.seek(0)
        cookies = [value for name, value in scope.get("headers", []) if name.lower() == b"cookie"]
        if len(cookies) > 1:
            environ["HTTP_COOKIE"] = "; ".join(value.decode("latin1") for value in cookies)
        return environ

    def start_response(
        self,
        status: str,
        response_headers: list[tuple[str, str]],
        exc_info: Any = None,
    ) -> Callable[[bytes], None]:
        if exc_info is not None and self.response_started:
            raise exc_info[1].with_traceback(exc_info[2])
        self.response_content_length = None
        for name, value in response_headers:
            if name.lower() == "content-length":
                self.response_content_length = int(value)
        self.response_start = {
            "type": "http.response.start",
            "status": int(status.split(" ", 1)[0]),
            "headers": [
                (name.lower().encode("latin1"), value.encode("latin1"))
                for name, value in response_headers
            ],
        }
        return self._write_unsupported

    @staticmethod
    def _write_unsupported(data: bytes) -> None:
        raise NotImplementedError("write() is not supported: return the body as an iterable")

    @sync_to_async
    def run_wsgi_app(self, body: IO[bytes]) -> None:
        """The request from environ to its last byte, in the request thread."""
        try:
            environ = self.build_environ(self.scope, body)
        except ValueError:  # asgiref's limit on repeated headers
            self.sync_send(
                {
                    "type": "http.response.start",
                    "status": 400,
                    "headers": [(b"content-type", b"text/plain")],
                }
            )
            self.sync_send({"type": "http.response.body", "body": b"Bad Request"})
            return
        response = self.wsgi_application(environ, self.start_response)
        try:
            length = self.response_content_length
            sent = 0
            for chunk in response:
                if not self.response_started:
                    self.response_started = True
                    self.sync_send(self.response_start)
                if length is not None:
                    chunk = chunk[: length - sent]
                if chunk:
                    self.sync_send({"type": "http.response.body", "body": chunk, "more_body": True})
                    sent += len(chunk)
                if length is not None and sent >= length:
                    break
            if not self.response_started:
                self.response_started = True
                self.sync_send(self.response_start)
            self.sync_send({"type": "http.response.body", "body": b""})
        finally:
            close = getattr(response, "close", None)
            if close is not None:
                close()


class WsgiHttp(WsgiToAsgi):
    """The ASGI ``http`` application of a daphne process: a WSGI application (Django's
    ``get_wsgi_application()``) behind one hop."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await _Request(self.wsgi_application, self.duplicate_header_limit)(scope, receive, send)
