"""The rolling-restart drill (devtools/restarts.py): under votes and watching
sockets, every daphne process, every HTTP worker and nginx are restarted in turn through
supervisord and signals. No answer is a 5xx, no socket misses or repeats an event, each
reconnects at most once per restart, and every one is back and caught up within 10 s of each
restart."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

from devtools.drills import PASSWORD
from devtools.restarts import rolling_restart_drill
from project.accounts.models import User
from project.accounts.services import user_create
from project.accounts.sessions import SessionStore
from project.ops.prodshape import Shape, running
from tests.builders import stored_nomination
from tests.deploy.shape_env import prefixed_keys_deleted, shape_env
from tests.helpers import unless_available


def session_for(user: User) -> str:
    """The key of a new signed-in session of ``user`` (its ``sessionid`` cookie)."""
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    assert store.session_key is not None
    return str(store.session_key)


pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    unless_available(
        not (os.environ.get("DATABASE_URL") and settings.REDIS_URL),
        reason="the production shape's processes share PostgreSQL and Redis",
    ),
]


def test_a_rolling_restart_loses_no_answer_and_no_event(tmp_path: Path) -> None:
    prefix = f"restart-test-{uuid.uuid4().hex[:12]}"
    env = shape_env(prefix)
    nominator = user_create(
        username="restartnominator", email="n@restart.example", password=PASSWORD, name="Nominator"
    )
    names = [f"restart{i}" for i in range(3)]
    users = [
        user_create(username=name, email=f"{name}@restart.example", password=PASSWORD, name=name)
        for name in names
    ]
    nominations = [stored_nomination(nominator, name=f"Rolling Player {i}").pk for i in range(3)]
    shape = Shape(port=0, http_workers=2, ws_processes=2, run_dir=tmp_path / "run", drain_seconds=3)
    log = (tmp_path / "shape.log").open("ab")
    try:
        with running(shape, env, output=log.fileno(), timeout=240):
            figures = rolling_restart_drill(
                shape,
                voters=[session_for(user) for user in users],
                sessions=[session_for(users[i % len(users)]) for i in range(20)],
                nominations=nominations,
            )
    finally:
        log.close()
        prefixed_keys_deleted(prefix)
    shown = (tmp_path / "shape.log").read_text(errors="replace")[-3000:]
    assert [r["process"] for r in figures.restarts] == [
        "ws1",
        "ws2",
        "http worker 1",
        "http worker 2",
        "nginx (reload)",
    ]
    assert figures.server_errors == 0, (figures, shown)
    assert figures.transport_errors == 0, figures
    assert sum(n for code, n in figures.statuses.items() if code < 300) > 0, figures
    assert (figures.lost, figures.duplicated, figures.resyncs) == (0, 0, 0), figures
    assert figures.max_reconnects_per_restart <= 1, figures
    assert all(r["caught up s"] is not None for r in figures.restarts), figures
    assert figures.behind_at_end == 0, figures
    closes = {r["process"]: r["closes"] for r in figures.restarts}
    # Every socket moved with each daphne restart it was on, always closed with 1001 (those on
    # ws1 went to ws2 first, then all twenty left ws2), never dropped.
    assert set(closes["ws1"]) | set(closes["ws2"]) == {1001}, figures
    assert closes["ws2"][1001] == 20, figures
    # An HTTP worker's restart leaves the sockets alone.
    assert closes["http worker 1"] == closes["http worker 2"] == {}, figures
    # After the reload the daphne processes hand every socket over to nginx's new workers
    # (1001), before the old workers' shutdown timeout would cut them (1006).
    assert closes["nginx (reload)"] == {1001: 20}, figures
