"""/healthz and /readyz of the WSGI application (project.wsgi: the HTTP pool), against the
test's real database (and Redis when REDIS_URL is set). A daphne process's, and readiness
failing while Redis is stopped, are in tests/deploy/test_observability.py."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.conf import settings

from project.health import HealthWsgi
from project.wsgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def call(
    path: str, *, method: str = "GET", remote: str = "127.0.0.1", **headers: str
) -> tuple[str, dict[str, str], bytes]:
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SERVER_NAME": "internal-name-not-in-allowed-hosts",
        "SERVER_PORT": "8000",
        "REMOTE_ADDR": remote,
        "wsgi.input": io.BytesIO(),
        "wsgi.url_scheme": "http",
        **{f"HTTP_{name.upper()}": value for name, value in headers.items()},
    }
    answer: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        answer["status"], answer["headers"] = status, dict(headers)

    body = b"".join(application(environ, start_response))
    return answer["status"], answer["headers"], body


def test_the_pool_answers_health_before_django() -> None:
    assert isinstance(application, HealthWsgi)


def test_healthz_says_ok_whatever_the_host() -> None:
    status, headers, body = call("/healthz")
    assert status == "200 OK"
    assert body == b"ok\n"
    assert headers["Content-Type"] == "text/plain; charset=utf-8"
    assert headers["Cache-Control"] == "no-store"


def test_readyz_names_each_check_to_a_local_direct_caller() -> None:
    status, _, body = call("/readyz")
    assert status == "200 OK"
    lines = body.decode().splitlines()
    expected = ["ok", "database ok"] + (["redis ok"] if settings.REDIS_URL else [])
    assert lines == expected


@pytest.mark.parametrize(
    ("remote", "headers"),
    [("127.0.0.1", {"X_REAL_IP": "203.0.113.9"}), ("203.0.113.9", {})],
    ids=["through-a-proxy", "from-elsewhere"],
)
def test_readyz_tells_the_public_one_word(remote: str, headers: dict[str, str]) -> None:
    status, _, body = call("/readyz", remote=remote, **headers)
    assert status == "200 OK"
    assert body == b"ok\n"


def test_a_head_has_no_body_and_other_methods_are_refused() -> None:
    status, headers, body = call("/readyz", method="HEAD", remote="203.0.113.9")
    assert status == "200 OK" and body == b"" and headers["Content-Length"] == "3"
    status, _, _ = call("/healthz", method="POST")
    assert status == "405 Method Not Allowed"


def test_other_paths_reach_django() -> None:
    status, _, body = call("/api/health", HOST="127.0.0.1")
    assert status == "200 OK"
    assert json.loads(body) == {"status": "ok"}
