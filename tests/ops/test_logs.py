"""Request ids and JSON log lines (project/logs.py): every answer names its request's id, a
trusted proxy's id is kept and anyone else's replaced, and a line logged while the request runs
is one JSON object carrying that id."""

from __future__ import annotations

import io
import json
import logging
import re
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from project.logs import JsonFormatter, RequestIdFilter, RequestIdMiddleware
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db
GENERATED = re.compile(r"[0-9a-f]{32}")


def test_every_answer_has_a_new_id() -> None:
    first = ApiClient().get("/api/health")["X-Request-ID"]
    second = ApiClient().get("/api/no-such-route")["X-Request-ID"]
    assert GENERATED.fullmatch(first) and GENERATED.fullmatch(second)
    assert first != second


def test_a_trusted_proxys_id_is_kept(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    answer = ApiClient().get("/api/health", HTTP_X_REQUEST_ID="nginx-4f2a.9")
    assert answer["X-Request-ID"] == "nginx-4f2a.9"


@pytest.mark.parametrize(
    ("trusted", "sent"),
    [([], "chosen-by-the-client"), (["127.0.0.1"], "a b"), (["127.0.0.1"], "x" * 65)],
    ids=["untrusted-peer", "not-a-token", "too-long"],
)
def test_any_other_id_is_replaced(settings: Any, trusted: list[str], sent: str) -> None:
    settings.TRUSTED_PROXIES = trusted
    answer = ApiClient().get("/api/health", HTTP_X_REQUEST_ID=sent)
    assert GENERATED.fullmatch(answer["X-Request-ID"]), answer["X-Request-ID"]


def test_a_line_logged_during_a_request_is_json_with_its_id(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tests.ops.request_log")
    logger.addHandler(handler)

    def view(request: HttpRequest) -> HttpResponse:
        logger.warning("voting %s", "fast")
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("failed")
        return HttpResponse("ok")

    try:
        request = RequestFactory().get("/x", HTTP_X_REQUEST_ID="req-7", REMOTE_ADDR="127.0.0.1")
        response = RequestIdMiddleware(view)(request)
        logger.warning("after the request")
    finally:
        logger.removeHandler(handler)
    assert response["X-Request-ID"] == "req-7"
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(line["message"], line["request_id"]) for line in lines] == [
        ("voting fast", "req-7"),
        ("failed", "req-7"),
        ("after the request", None),
    ]
    assert lines[0]["level"] == "WARNING" and lines[0]["logger"] == "tests.ops.request_log"
    assert "ValueError: boom" in lines[1]["exception"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", lines[0]["time"])
