"""The link previews' process-local layer (project/sharing/local.py) against a real Redis and
PostgreSQL: a preview it holds is served without the shared cache, a takedown drops it at
once in the process that commits it and, over Redis pub/sub, in a real second server process
(daphne, and a gunicorn gthread worker forked from a preloaded arbiter); a process that is not
subscribed serves from the shared cache or the database and empties its layer when it
subscribes again; a read that started before a takedown never stores its answer after it."""

from __future__ import annotations

import contextlib
import html
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
import redis
from django.conf import settings
from django.core.cache import cache

from devtools import launcher
from project.scouting.models import Nomination, Player
from project.sharing import cache as sharing_cache
from project.sharing import previews
from project.sharing.local import LocalPreviews, Subscriber
from tests.helpers import unless_available
from tests.realtime import servers
from tests.sharing.conftest import nominate
from tests.sharing.test_preview_cache import hide_by_takedown

pytestmark = [
    pytest.mark.django_db(transaction=True),
    unless_available(
        not (settings.REDIS_URL and os.environ.get("DATABASE_URL")),
        reason="the local layer subscribes on Redis, and a second process shares PostgreSQL",
    ),
]

T = TypeVar("T")

# Seconds a condition that another process or thread brings about may take at most.
PATIENCE = 20.0


def eventually(check: Callable[[], T | None], what: str) -> T:
    """``check()``'s first truthy answer, polled for PATIENCE seconds."""
    deadline = time.monotonic() + PATIENCE
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


@pytest.fixture(autouse=True)
def _preview_cache(settings: Any) -> None:
    settings.SHARE_PREVIEW_CACHE = True


@pytest.fixture
def layer(monkeypatch: pytest.MonkeyPatch) -> LocalPreviews:
    """This process's local layer, subscribed, its entries kept for 10 minutes: within a test,
    only a drop or a new subscription ends one."""
    local = sharing_cache.local_layer()
    assert local is not None
    monkeypatch.setattr(local, "ttl", 600.0)
    eventually(local.live, "the local layer subscribed")
    return local


def held_locally(path: str, django_assert_num_queries: Any) -> str:
    """The preview's title, once this process holds it in its local layer: it is then served
    with the shared cache emptied and no query."""
    title = previews.preview_for(path).title
    cache.clear()
    with django_assert_num_queries(0):
        assert previews.preview_for(path).title == title
    return title


def test_a_preview_comes_from_the_local_layer_and_leaves_it_at_commit(
    layer: LocalPreviews, django_assert_num_queries: Any
) -> None:
    nomination = nominate("Lola Local")
    path = f"/nominations/{nomination.pk}"
    assert "Lola Local" in held_locally(path, django_assert_num_queries)
    hide_by_takedown(nomination)
    assert previews.preview_for(path) == previews.GENERIC_PLAYER


def test_a_read_that_started_before_a_takedown_is_not_kept_locally(layer: LocalPreviews) -> None:
    """The request read the public player; the takedown commits (and drops the subject here)
    before the request stores its answer: the answer goes to its own client only."""
    nomination = nominate("Rae Race")
    path = f"/nominations/{nomination.pk}"

    def read_then_taken_down(nomination_id: int) -> previews.Preview | None:
        read = previews._nomination_read(nomination_id)
        hide_by_takedown(nomination)
        return read

    stale = sharing_cache.preview_cached(
        sharing_cache.NOMINATION, nomination.pk, read_then_taken_down
    )
    assert stale is not None and "Rae Race" in stale.title
    assert previews.preview_for(path) == previews.GENERIC_PLAYER


HIDE_IN_ANOTHER_PROCESS = """
import os, sys
import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")
django.setup()
from project.moderation.services import takedowns

request = takedowns.takedown_request_create(
    nomination_id=int(sys.argv[1]),
    relationship="parent_or_guardian",
    kind="remove",
    contact_email="parent@example.com",
    client_address="203.0.113.9",
    confirm_url="http://testserver/takedown/confirm",
)
takedowns.takedown_request_confirm(token=takedowns.takedown_confirm_token(request))
"""


def hide_in_another_process(nomination: Nomination) -> None:
    """A takedown committed by another process (its invalidation reaches this one over Redis
    only)."""
    subprocess.run(
        [sys.executable, "-c", HIDE_IN_ANOTHER_PROCESS, str(nomination.pk)],
        cwd=servers.ROOT,
        env={**os.environ, "DATABASE_URL": servers.database_url()},
        check=True,
    )


def test_a_read_that_started_before_another_process_takedown_is_not_kept_locally(
    layer: LocalPreviews,
) -> None:
    nomination = nominate("Rex Remote")
    path = f"/nominations/{nomination.pk}"

    def read_then_taken_down_elsewhere(nomination_id: int) -> previews.Preview | None:
        read = previews._nomination_read(nomination_id)
        applied = layer.applied
        hide_in_another_process(nomination)
        eventually(lambda: layer.applied > applied, "the other process's drop heard here")
        return read

    stale = sharing_cache.preview_cached(
        sharing_cache.NOMINATION, nomination.pk, read_then_taken_down_elsewhere
    )
    assert stale is not None and "Rex Remote" in stale.title
    assert previews.preview_for(path) == previews.GENERIC_PLAYER


@contextlib.contextmanager
def subscriber_unreachable(layer: LocalPreviews) -> Iterator[None]:
    """This process's subscriber stopped and replaced by one that cannot reach Redis (as while
    it reconnects after an outage); then subscribed again to the real Redis."""
    channel = sharing_cache.invalidation_channel()
    current = sharing_cache.local_subscriber()
    assert current is not None
    current.stop()
    unreachable = Subscriber(layer, f"redis://127.0.0.1:{launcher.free_port()}/0", channel)
    sharing_cache._local = (layer, unreachable)
    unreachable.start()
    try:
        yield
    finally:
        unreachable.stop()
        again = Subscriber(layer, settings.REDIS_URL, channel)
        sharing_cache._local = (layer, again)
        again.start()
        eventually(layer.live, "subscribed again")


def test_while_not_subscribed_previews_bypass_the_local_layer_which_empties_on_subscribing(
    layer: LocalPreviews, django_assert_num_queries: Any
) -> None:
    """The process holds the player's preview when it loses its subscription; another process
    takes the player down meanwhile (the invalidation never reaches this one)."""
    nomination = nominate("Una Unsubscribed")
    path = f"/nominations/{nomination.pk}"
    assert "Una Unsubscribed" in held_locally(path, django_assert_num_queries)
    with subscriber_unreachable(layer):
        assert not layer.live()
        hide_in_another_process(nomination)
        assert previews.preview_for(path) == previews.GENERIC_PLAYER
    # The entry held from before the outage went with the new subscription.
    assert previews.preview_for(path) == previews.GENERIC_PLAYER


def test_while_not_subscribed_previews_are_cached_in_the_shared_cache_only(
    layer: LocalPreviews, django_assert_num_queries: Any
) -> None:
    nomination = nominate("Sid Shared")
    path = f"/nominations/{nomination.pk}"
    with subscriber_unreachable(layer):
        assert "Sid Shared" in previews.preview_for(path).title
        with django_assert_num_queries(0):
            assert "Sid Shared" in previews.preview_for(path).title
        cache.clear()
        with django_assert_num_queries(1):
            assert "Sid Shared" in previews.preview_for(path).title


# --- A second server process -----------------------------------------------------------------

_TITLE = re.compile(r"<title>(.*?)</title>", re.DOTALL)


def title_at(port: int, path: str) -> str:
    with urllib.request.urlopen(f"http://{servers.HOST}:{port}{path}", timeout=10) as response:
        match = _TITLE.search(response.read().decode())
    assert match is not None
    return html.unescape(match.group(1))


def gunicorn_command(port: int) -> list[str]:
    """One gthread worker forked from an arbiter that loaded the application first (--preload),
    as the HTTP pool runs them, preload aside."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        f"{servers.HOST}:{port}",
        "--workers",
        "1",
        "--worker-class",
        "gthread",
        "--threads",
        "4",
        "--preload",
        "project.wsgi:application",
    ]


@pytest.fixture(params=["daphne", "gunicorn"])
def other_server(request: pytest.FixtureRequest, layer: LocalPreviews) -> Iterator[int]:
    """A server process on the test's database and Redis that holds previews for 10 minutes
    locally: only an invalidation it hears makes it drop one within the test."""
    port = launcher.free_port()
    command = launcher.daphne_command(port) if request.param == "daphne" else gunicorn_command(port)
    environment = {
        **os.environ,
        "DATABASE_URL": servers.database_url(),
        "DJANGO_DEBUG": "0",
        "DJANGO_ALLOWED_HOSTS": servers.HOST,
        "LOG_LEVEL": "WARNING",
        "SHARE_PREVIEW_CACHE": "1",
        "SHARE_PREVIEW_LOCAL_TTL": "600",
        "SHARE_PREVIEW_TTL": "600",
    }
    server = launcher.ServerProcess(command, port, environment, name=request.param)
    server.start()
    try:
        yield port
    finally:
        server.stop()


def subscribers() -> int:
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        channel = sharing_cache.invalidation_channel()
        return int(dict(client.pubsub_numsub(channel))[channel.encode()])
    finally:
        client.close()


def test_another_process_drops_a_hidden_players_preview_when_it_hears_the_takedown(
    other_server: int,
) -> None:
    nomination = nominate("Otto Other")
    path = f"/nominations/{nomination.pk}"
    assert "Otto Other" in title_at(other_server, path)
    # Its first preview subscribed it (this process is the other subscriber).
    eventually(lambda: subscribers() >= 2, "the server subscribed")

    def held_there() -> str | None:
        """The server's title, if it serves it while the database and the shared cache say
        otherwise: then it holds the preview in its own memory."""
        shown = title_at(other_server, path)
        Player.objects.filter(pk=nomination.player_id).update(name=f"Renamed {time.time_ns()}")
        cache.clear()
        return shown if title_at(other_server, path) == shown else None

    eventually(held_there, "the server held the preview locally")
    hide_by_takedown(nomination)
    eventually(
        lambda: title_at(other_server, path) == previews.GENERIC_TITLE,
        "the server dropped the hidden player's preview",
    )


def test_a_forked_child_subscribes_on_its_own(layer: LocalPreviews) -> None:
    """A server forked after this process subscribed (gunicorn's workers under --preload):
    the parent's thread is not in the child, whose first preview starts its own subscriber."""
    pid = os.fork()
    if pid == 0:  # the child: reports by its exit status only
        code = 1
        try:
            if sharing_cache.local_subscriber() is None:
                child = sharing_cache.local_layer()
                deadline = time.monotonic() + PATIENCE
                while child is not None and not child.live() and time.monotonic() < deadline:
                    time.sleep(0.02)
                code = 0 if child is not None and child is not layer and child.live() else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
