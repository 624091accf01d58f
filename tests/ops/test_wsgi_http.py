"""A daphne process's HTTP: Django's WSGI handler behind one thread hop
(project/common/wsgi_http.py), driven as daphne drives it, by ASGI messages."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from channels.testing import HttpCommunicator
from django.core.signals import request_finished
from django.core.wsgi import get_wsgi_application

from project.common.wsgi_http import FILE_BLOCK, WsgiHttp

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


async def test_a_file_goes_out_in_large_blocks() -> None:
    content = bytes(range(256)) * 1024  # 256 KiB
    files: list[io.BytesIO] = []

    def app(environ: dict[str, Any], start_response: StartResponse) -> Any:
        start_response("200 OK", [("Content-Length", str(len(content)))])
        files.append(io.BytesIO(content))
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
    assert [len(chunk) for chunk in chunks] == [FILE_BLOCK] * 4 + [0]
    assert files[0].closed
