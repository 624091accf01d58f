"""Small helpers for API tests: a CSRF-honouring JSON client, error-body checks and an event
recorder. The data builders (users, players, nominations, votes, follows) live in
tests/builders.py."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client

if TYPE_CHECKING:
    # What the test client really returns: an HttpResponse with .json() and friends.
    from django.test.client import _MonkeyPatchedWSGIResponse as Response
else:
    from django.http import HttpResponse as Response

from project.accounts.models import User
from realtime.merge import get_merger
from realtime.publish import Event
from tests.builders import PASSWORD


class ApiClient:
    """Django's test client with CSRF enforced, speaking JSON like the SPA does."""

    def __init__(self) -> None:
        self.client = Client(enforce_csrf_checks=True)
        self.user: User | None = None

    def csrf_token(self) -> str:
        cookie = self.client.cookies.get("csrftoken")
        if cookie is None or not cookie.value:
            self.client.get("/api/auth/csrf")
            cookie = self.client.cookies["csrftoken"]
        return cookie.value

    def request(
        self, method: str, path: str, body: Any = None, *, csrf: bool = True, **extra: Any
    ) -> Response:
        headers: dict[str, Any] = dict(extra)
        if csrf and method.upper() not in {"GET", "HEAD", "OPTIONS"}:
            headers["HTTP_X_CSRFTOKEN"] = self.csrf_token()
        kwargs: dict[str, Any] = {}
        if body is not None:
            kwargs["data"] = json.dumps(body)
            kwargs["content_type"] = "application/json"
        return self.client.generic(method.upper(), path, **kwargs, **headers)

    def get(self, path: str, **extra: Any) -> Response:
        return self.client.get(path, **extra)

    def post(self, path: str, body: Any = None, **kw: Any) -> Response:
        return self.request("POST", path, body, **kw)

    def put(self, path: str, body: Any = None, **kw: Any) -> Response:
        return self.request("PUT", path, body, **kw)

    def delete(self, path: str, body: Any = None, **kw: Any) -> Response:
        return self.request("DELETE", path, body, **kw)

    def login(self, user: User, password: str = PASSWORD) -> ApiClient:
        response = self.post("/api/auth/login", {"username": user.username, "password": password})
        assert response.status_code == 200, response.content
        self.user = user
        return self


# Every non-2xx body is exactly these keys (fields only for validation errors); a 409 for a
# duplicate nomination adds its id, a lost moderation race the status and who decided, an
# account closed for being under 13 the token that deletes it.
ERROR_BODY_KEYS = {
    "message",
    "code",
    "fields",
    "nominationId",
    "decidedBy",
    "status",
    "deletionToken",
}


def assert_error(response: Response, status: int, message: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    assert set(body) <= ERROR_BODY_KEYS, body
    assert isinstance(body["message"], str) and body["message"]
    assert isinstance(body["code"], str) and body["code"]
    if message is not None:
        assert body["message"] == message, body
    return body


# Every skip made by ``unless_available`` starts with this, so tests/conftest.py can count them
# into one summary line.
SERVICE_SKIP = "needs a service the embedded mode lacks: "


def unless_available(missing: bool, *, reason: str) -> pytest.MarkDecorator:
    """Skip a test that needs a service the embedded mode lacks (PostgreSQL, Redis,
    redis-server) when run by hand; under CI nothing is skipped, so a missing service fails."""
    return pytest.mark.skipif(missing and not os.environ.get("CI"), reason=SERVICE_SKIP + reason)


@dataclass
class EventRecorder:
    """The events the services published, as the transport receives them: after the commit
    (tests run a write's on-commit callbacks with ``django_capture_on_commit_callbacks``, so
    a write that rolled back publishes nothing) and after the live layer's vote window
    (realtime/merge.py). Reads like a list of events."""

    events: list[Event] = field(default_factory=list)

    def record(self, event: Event) -> None:
        self.events.append(event)

    def record_all(self, events: Iterable[Event]) -> None:
        self.events.extend(events)

    def settle(self) -> None:
        assert get_merger().drain(), "vote counts still held"

    def types(self) -> list[str]:
        return [event.type for event in self]

    def of_type(self, event_type: str) -> list[Event]:
        return [event for event in self if event.type == event_type]

    def one(self, event_type: str) -> Event:
        found = self.of_type(event_type)
        assert len(found) == 1, self.types()
        return found[0]

    def clear(self) -> None:
        self.settle()
        self.events.clear()

    def __iter__(self) -> Iterator[Event]:
        self.settle()
        return iter(list(self.events))

    def __len__(self) -> int:
        self.settle()
        return len(self.events)

    def __getitem__(self, index: int) -> Event:
        self.settle()
        return self.events[index]


# The nomination read shape's keys (docs/specification.md §3, plus the vote count's version and
# the published comments' count); a board entry adds BOARD_PLACE_KEYS.
NOMINATION_KEYS = frozenset(
    {
        "id",
        "player",
        "nominatedBy",
        "createdAt",
        "status",
        "voteCount",
        "version",
        "hasVoted",
        "commentCount",
    }
)
BOARD_PLACE_KEYS = frozenset({"rank", "score", "movement"})


def run_tasks() -> int:
    """Run the background tasks that are ready now (emails, periodic jobs) in this process and
    this test's transaction, claimed and run as the worker does (``manage.py run_worker``
    runs django-tasks-db's loop, which also closes connections between tasks): emails land in
    Django's test outbox. Returns how many ran."""
    from django.db import transaction
    from django_tasks_db.models import DBTaskResult

    from project.jobs.worker import make_worker

    worker = make_worker(worker_id="in-test", batch=True)
    ran = 0
    while True:
        with transaction.atomic():
            result = DBTaskResult.objects.ready().get_locked()
            if result is None:
                return ran
            result.claim(worker.worker_id)
        worker.run_task(result)
        ran += 1
