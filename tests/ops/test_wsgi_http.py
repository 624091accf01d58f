"""A daphne process's HTTP: Django's WSGI handler behind one thread hop
(project/common/wsgi_http.py), driven as daphne drives it, by ASGI messages. A real daphne's
keep-alive and pipelined connections: tests/e2e/test_http_connection.py."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from channels.testing import HttpCommunicator
from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application

from project.common.wsgi_http import DUPLICATE_HEADER_LIMIT, FILE_BLOCK, HOP_BYTES, WsgiHttp

StartResponse = Callable[..., Any]


class Body:
    """A WSGI response body that records whether the server closed it."""

    def __init__(self, chunks: list[bytes], fail_after: int | None = None) -> None:
        self.chunks = chunks
        self.fail_after = fail_after
        self.closed = False

    def __iter__(self) -> Iterator[bytes]:
        for index, chunk in enumerate(self.chunks):
            if index == self.fail_after:
                raise RuntimeError("the body failed")
            yield chunk

    def close(self) -> None:
        self.closed = True


async def _call(
    app: Any, method: str = "GET", path: str = "/", body: bytes = b"", headers: Any = None
) -> dict[str, Any]:
    communicator = HttpCommunicator(app, method, path, body=body, headers=headers)
    response: dict[str, Any] = await communicator.get_response(timeout=10)
    await communicator.wait(10)  # the request's end (close) comes after its last byte
    return response


# The request thread may hold a database connection from an earlier test, which Django checks
# at the request's start and end.
@pytest.mark.django_db
async def test_django_answers_through_it_and_finishes_the_request() -> None:
    finished: list[object] = []

    def on_finished(sender: object, **kwargs: object) -> None:
        finished.append(sender)

    request_finished.connect(on_finished)
    try:
        app = WsgiHttp(get_wsgi_application())
        health = await _call(app, path="/api/health")
        missing = await _call(app, path="/api/no-such-route")
    finally:
        request_finished.disconnect(on_finished)
    assert health["status"] == 200
    assert json.loads(health["body"]) == {"status": "ok"}
    assert (b"content-type", b"application/json; charset=utf-8") in health["headers"]
    assert missing["status"] == 404
    assert json.loads(missing["body"])["code"] == "not_found"
    # request_finished returns the request's database connection: sent once per request.
    assert len(finished) == 2


async def test_the_body_is_closed_when_sent_cut_short_or_failed() -> None:
    bodies: list[Body] = []

    def app(environ: dict[str, Any], start_response: StartResponse) -> Body:
        path = environ["PATH_INFO"]
        headers = [("Content-Type", "text/plain")]
        if path == "/short":
            headers.append(("Content-Length", "3"))
        start_response("200 OK", headers)
        body = Body([b"ab", b"cd", b"ef"], fail_after=1 if path == "/fail" else None)
        bodies.append(body)
        return body

    whole = await _call(WsgiHttp(app), path="/whole")
    short = await _call(WsgiHttp(app), path="/short")
    assert whole["body"] == b"abcdef"
    assert short["body"] == b"abc"
    communicator = HttpCommunicator(WsgiHttp(app), "GET", "/fail")
    await communicator.send_input({"type": "http.request", "body": b""})
    try:
        await communicator.wait(10)  # the application's end, with its error
    except RuntimeError as error:
        assert str(error) == "the body failed"
    else:
        raise AssertionError("a failing body must fail the request")
    assert [body.closed for body in bodies] == [True, True, True]


async def test_what_the_application_reads_of_the_request() -> None:
    seen: dict[str, Any] = {}

    def app(environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        seen["length"] = environ["CONTENT_LENGTH"]
        seen["body"] = environ["wsgi.input"].read(int(environ["CONTENT_LENGTH"]))
        seen["cookie"] = environ["HTTP_COOKIE"]
        start_response("200 OK", [("Content-Disposition", 'inline; filename="café.txt"')])
        return [b""]

    answer = await _call(
        WsgiHttp(app),
        "POST",
        "/upload",
        body=b'{"name": "x"}',  # no Content-Length: as a chunked body comes
        headers=[(b"cookie", b"sessionid=abc"), (b"cookie", b"csrftoken=def")],
    )
    assert seen == {
        "length": "13",
        "body": b'{"name": "x"}',
        "cookie": "sessionid=abc; csrftoken=def",
    }
    assert answer["status"] == 200
    assert (b"content-disposition", 'inline; filename="café.txt"'.encode("latin1")) in answer[
        "headers"
    ]


class RecordingFile(io.BytesIO):
    """A file that records the size of each read."""

    def __init__(self, content: bytes) -> None:
        super().__init__(content)
        self.reads: list[int] = []

    def read(self, size: int | None = -1) -> bytes:
        self.reads.append(-1 if size is None else size)
        return super().read(size)


async def test_a_file_is_read_in_large_blocks_and_sent_in_bounded_hops() -> None:
    content = bytes(range(256)) * 2400  # 600 KiB: more than two hops' worth
    files: list[RecordingFile] = []

    def app(environ: dict[str, Any], start_response: StartResponse) -> Any:
        start_response("200 OK", [("Content-Length", str(len(content)))])
        files.append(RecordingFile(content))
        return environ["wsgi.file_wrapper"](files[0], 4096)  # FileResponse's block size

    communicator = HttpCommunicator(WsgiHttp(app), "GET", "/file")
    await communicator.send_input({"type": "http.request", "body": b""})
    start = await communicator.receive_output(10)
    chunks = []
    while True:
        message = await communicator.receive_output(10)
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    await communicator.wait(10)
    assert start["status"] == 200
    assert b"".join(chunks) == content
    # Gathered in the request thread HOP_BYTES at a time, so the memory a file takes is bounded.
    assert [len(chunk) for chunk in chunks] == [HOP_BYTES, HOP_BYTES, len(content) - 2 * HOP_BYTES]
    assert set(files[0].reads) == {FILE_BLOCK}
    assert files[0].closed


async def test_too_many_repeated_headers_are_a_bad_request() -> None:
    def app(environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        raise AssertionError("the application must not be called")

    headers = [(b"x-tag", b"a")] * (DUPLICATE_HEADER_LIMIT + 1)
    answer = await _call(WsgiHttp(app), headers=headers)
    assert answer["status"] == 400
    assert answer["body"] == b"Bad Request: Too many x-tag headers"


async def test_a_request_started_inside_the_previous_response_send_runs() -> None:
    """daphne starts the next request of a keep-alive connection while it handles the send that
    ends the previous response, so the new request's task copies the context of that send."""

    def app(environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [environ["PATH_INFO"].encode()]

    http = WsgiHttp(app)
    answers: dict[str, list[Any]] = {"/first": [], "/second": []}
    followers: list[asyncio.Task[None]] = []

    def scope(path: str) -> dict[str, Any]:
        return {"type": "http", "method": "GET", "path": path, "query_string": b"",
                "headers": [], "http_version": "1.1"}  # fmt: skip

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    def sender(path: str) -> Any:
        async def send(message: dict[str, Any]) -> None:
            answers[path].append(message)
            ended = message["type"] == "http.response.body" and not message.get("more_body")
            if ended and path == "/first":
                followers.append(asyncio.ensure_future(http(scope("/second"), receive, send_2)))

        return send

    send_2 = sender("/second")
    await asyncio.wait_for(http(scope("/first"), receive, sender("/first")), 10)
    await asyncio.wait_for(followers[0], 10)
    for path in answers:
        assert answers[path][0]["status"] == 200
        assert b"".join(message.get("body", b"") for message in answers[path][1:]) == path.encode()
