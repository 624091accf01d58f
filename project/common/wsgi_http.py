"""HTTP in a daphne process: Django's WSGI handler, one thread hop per request.

``make run`` serves everything from one daphne process, and ``bench/ws_fanout.py`` measures
that process. Under ASGI, Django runs a sync view behind a chain of middlewares adapted one by
one to the mode of the next: with this project's chain (async-capable Django middlewares
around WhiteNoise and two sync ones of ours), ``GET /api/health`` crossed between the event
loop and the request thread 16 times (``sync_to_async``/``async_to_sync`` around each
``process_request`` and ``process_response``), and each crossing waited for the interpreter
against the event loop that fans the live events out. Here the whole request (middlewares,
view, response, ``close()``) runs in one call of Django's WSGI handler in the request thread,
and the event loop sends what it returned: one hop for a response of up to ``HOP_BYTES``, one
more per ``HOP_BYTES`` of a larger one (a file) (docs/decisions.md#wsgi-inside-daphne). The
production shape's HTTP pool is WSGI already (gunicorn gthread), and so is Django's test
client: the tests and the deployment run the same handler.

As in Django's ASGI handler:

* each request has a request thread of its own (``ThreadSensitiveContext``), so a slow
  request does not hold up the others;
* every ``send`` is made by the request's own task on the event loop, never from the request
  thread: daphne starts the next request of a keep-alive connection inside the ``send`` that
  ends the previous one, and that request must not inherit a request thread's context;
* the response is closed in the request thread (``request_finished`` returns the request's
  database connection to the pool), whatever happens, here before its last byte goes out.

And what a WSGI server must do: ``wsgi.file_wrapper`` (64 KiB reads rather than
``FileResponse``'s 4 KiB), ``CONTENT_LENGTH`` for a body that came without one (chunked),
several ``Cookie`` headers joined with ``; `` as Django's ASGI request does, header values
as Latin-1 (PEP 3333), no more bytes than the response's ``Content-Length``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from tempfile import SpooledTemporaryFile
from typing import IO, Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings

FILE_BLOCK = 64 * 1024
HOP_BYTES = 256 * 1024  # response bytes gathered in the request thread per hop
DUPLICATE_HEADER_LIMIT = 100

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Any]
Send = Callable[[Message], Any]
WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class FileWrapper:
    """``wsgi.file_wrapper``: a file read in blocks of at least ``FILE_BLOCK`` bytes."""

    def __init__(self, filelike: IO[bytes], block_size: int = FILE_BLOCK) -> None:
        self.filelike = filelike
        self.block_size = max(block_size, FILE_BLOCK)

    def __iter__(self) -> Iterator[bytes]:
        return iter(lambda: self.filelike.read(self.block_size), b"")

    def close(self) -> None:
        self.filelike.close()


class BadRequest(ValueError):
    pass


def build_environ(scope: Scope, body: IO[bytes]) -> dict[str, Any]:
    """The WSGI environ of an ASGI ``http`` scope and its request body (PEP 3333)."""
    script_name = scope.get("root_path", "").encode("utf8").decode("latin1")
    path_info = scope["path"].encode("utf8").decode("latin1")
    if script_name and path_info.startswith(script_name):
        path_info = path_info[len(script_name) :]
    server = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope.get("query_string", b"").decode("latin1"),
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1] if server[1] is not None else 0),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.file_wrapper": FileWrapper,
    }
    if scope.get("client"):
        environ["REMOTE_ADDR"] = scope["client"][0]
    values: dict[str, list[str]] = {}
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin1").upper().replace("-", "_")
        if name not in ("CONTENT_LENGTH", "CONTENT_TYPE"):
            name = f"HTTP_{name}"
        seen = values.setdefault(name, [])
        if len(seen) >= DUPLICATE_HEADER_LIMIT:
            raise BadRequest(f"Too many {raw_name.decode('latin1')} headers")
        seen.append(raw_value.decode("latin1"))
    for name, seen in values.items():
        environ[name] = ("; " if name == "HTTP_COOKIE" else ",").join(seen)
    if "CONTENT_LENGTH" not in environ:
        body.seek(0, 2)
        environ["CONTENT_LENGTH"] = str(body.tell())
        body.seek(0)
    return environ


class _Exchange:
    """One request's WSGI side. ``begin`` and ``more`` run in the request thread; each
    returns the next bytes to send and whether they are the last (the response then closed)."""

    def __init__(self, app: WsgiApp, scope: Scope, body: IO[bytes]) -> None:
        self.app, self.scope, self.body = app, scope, body
        self.start: Message | None = None
        self.started = False  # the start message has gone out
        self.length: int | None = None
        self.sent = 0
        self.response: Iterable[bytes] | None = None
        self.chunks: Iterator[bytes] | None = None
        self.closed = False

    def start_response(
        self, status: str, headers: list[tuple[str, str]], exc_info: Any = None
    ) -> Callable[[bytes], None]:
        if exc_info is not None:
            try:
                if self.started:
                    raise exc_info[1].with_traceback(exc_info[2])
            finally:
                exc_info = None
        elif self.start is not None:
            raise RuntimeError("start_response called twice without exc_info")
        self.length = None
        for name, value in headers:
            if name.lower() == "content-length":
                self.length = int(value)
        self.start = {
            "type": "http.response.start",
            "status": int(status.split(" ", 1)[0]),
            "headers": [
                (name.lower().encode("latin1"), value.encode("latin1")) for name, value in headers
            ],
        }
        return self._write

    @staticmethod
    def _write(data: bytes) -> None:
        raise NotImplementedError("write() is not supported: return the body as an iterable")

    def begin(self) -> tuple[bytes, bool]:
        try:
            environ = build_environ(self.scope, self.body)
        except BadRequest as error:
            self.start = {
                "type": "http.response.start",
                "status": 400,
                "headers": [(b"content-type", b"text/plain; charset=utf-8")],
            }
            self.closed = True
            return f"Bad Request: {error}".encode(), True
        self.response = self.app(environ, self.start_response)
        self.chunks = iter(self.response)
        data, last = self.more()
        if self.start is None:
            self.close()
            raise RuntimeError("the WSGI application did not call start_response")
        return data, last

    def more(self) -> tuple[bytes, bool]:
        assert self.chunks is not None
        gathered: list[bytes] = []
        size = 0
        try:
            for chunk in self.chunks:
                if self.length is not None:
                    chunk = chunk[: self.length - self.sent - size]
                gathered.append(chunk)
                size += len(chunk)
                if self.length is not None and self.sent + size >= self.length:
                    break
                if size >= HOP_BYTES:
                    self.sent += size
                    return b"".join(gathered), False
        except BaseException:
            self.close()
            raise
        self.sent += size
        self.close()
        return b"".join(gathered), True

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            close = getattr(self.response, "close", None)
            if close is not None:
                close()


class WsgiHttp:
    """The ASGI ``http`` application of a daphne process: a WSGI application (Django's
    ``get_wsgi_application()``) run in one hop to the request thread."""

    def __init__(self, app: WsgiApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"an HTTP application got a {scope['type']!r} scope")
        # The request body in memory up to Django's upload limit, then on disk (as Django's
        # ASGI handler keeps it).
        with SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE) as body:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return  # the client went away before its request was whole
                body.write(message.get("body", b""))
                if not message.get("more_body"):
                    break
            body.seek(0)
            async with ThreadSensitiveContext():
                await self._respond(_Exchange(self.app, scope, body), send)

    @staticmethod
    async def _respond(exchange: _Exchange, send: Send) -> None:
        try:
            data, last = await sync_to_async(exchange.begin)()
            assert exchange.start is not None
            exchange.started = True
            await send(exchange.start)
            while not last:
                if data:
                    await send({"type": "http.response.body", "body": data, "more_body": True})
                data, last = await sync_to_async(exchange.more)()
            await send({"type": "http.response.body", "body": data})
        finally:
            if not exchange.closed:  # the client went away, or a send failed
                await sync_to_async(exchange.close)()
