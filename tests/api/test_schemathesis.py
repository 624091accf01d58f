"""Schemathesis over every operation of /api/openapi.json: no 5xx, no status an operation does
not declare, no body outside its schema, no content type other than the declared one.

The schema is loaded from the app in process (Django's WSGI application, no server) and every
case is sent signed in, with the session cookie, the CSRF cookie and the X-CSRFToken header,
as a scout (as an admin for /api/admin/* and for one case in three elsewhere). A fresh session
is opened for every case, so logout, a password change or an account deletion never breaks
the next one; a deleted, demoted or promoted user makes a fresh world (scouts, an admin,
nominations in every status, votes, follows, notifications) before the next case. Generated
ids mostly point at rows of that world, so the handlers run past their 404s.

Bounded for CI: 20 generated examples per operation (plus schemathesis' coverage cases),
derandomized; about a minute on two cores. A deeper local run: API_FUZZ_EXAMPLES=200.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from project.accounts.models import Role, User
from project.common.choices import SELECTABLE_SPORTS
from project.scouting.models import Notification
from tests.api.conftest import Session, build_world, open_session
from tests.builders import PASSWORD

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", get_wsgi_application())

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

# --- Valid bodies mixed into the generated ones ---------------------------------------------
# The schema cannot say everything the server checks (a name of at least two non-blank
# characters, an age or a graduation year...), so random bodies rarely pass validation. These
# strategies make sure the success paths of the writes run too.

_word = st.from_regex(r"[A-Z][a-z]{2,9}", fullmatch=True)
_player = {
    "name": st.builds(lambda a, b: f"{a} {b}", _word, _word),
    "age": st.integers(9, 50),
    "position": st.sampled_from(["Striker", "Goalkeeper", "Point guard", "Pitcher"]),
    "nationality": st.sampled_from(["Spain", "Canada", "Ghana", "Japan"]),
    "club": st.builds(lambda w: f"{w} Academy", _word),
    "sport": st.sampled_from(SELECTABLE_SPORTS),
    "skills": st.text(min_size=1, max_size=40).filter(lambda s: s.strip() and "\x00" not in s),
    "videoLink": st.sampled_from(["", "https://video.example/clip", "youtu.be/abc"]),
}
_username = st.from_regex(r"[a-z][a-z0-9_]{2,14}", fullmatch=True)
VALID_BODIES: dict[tuple[str, str], st.SearchStrategy[Any]] = {
    ("POST", "/api/nominations"): st.fixed_dictionaries(_player),
    ("PUT", "/api/players/{player_id}"): st.fixed_dictionaries(_player),
    ("POST", "/api/auth/register"): _username.map(
        lambda name: {
            "username": name,
            "password": "pass-" + name,
            "name": name.title(),
            "email": f"{name}@example.com",
            "favoriteSport": "hockey",
            "birthYear": 1990,
        }
    ),
    # The username becomes a user of the world (see Fuzz.point_at_known_rows).
    ("POST", "/api/auth/login"): st.fixed_dictionaries(
        {"username": st.just("scout"), "password": st.just(PASSWORD)}
    ),
    ("PUT", "/api/settings/password"): st.fixed_dictionaries(
        {"currentPassword": st.just(PASSWORD), "newPassword": st.just(PASSWORD)}
    ),
    ("PUT", "/api/admin/users/{user_id}/role"): st.fixed_dictionaries(
        {"role": st.sampled_from(["scout", "admin"])}
    ),
    ("POST", "/api/votes"): st.fixed_dictionaries({"nominationId": st.integers(0, 100)}),
    ("POST", "/api/reports"): st.fixed_dictionaries(
        {
            "nominationId": st.integers(0, 100),
            "reason": st.sampled_from(["not_real", "privacy", "other"]),
        }
    ),
    ("POST", "/api/takedown-requests"): st.fixed_dictionaries(
        {
            "nominationId": st.integers(0, 100),
            "relationship": st.sampled_from(["athlete", "parent_or_guardian"]),
            "kind": st.sampled_from(["remove", "correct"]),
            "contactEmail": st.just("parent@example.com"),
        }
    ),
    ("POST", "/api/admin/reports/resolve"): st.fixed_dictionaries(
        {
            "nominationId": st.integers(0, 100),
            "action": st.sampled_from(["dismiss", "warn_user", "hide_nomination"]),
            "reason": st.just("Checked"),
        }
    ),
}


@schema.hook
def before_generate_body(
    context: schemathesis.HookContext, strategy: st.SearchStrategy[Any]
) -> st.SearchStrategy[Any]:
    operation = context.operation
    valid = VALID_BODIES.get((operation.method.upper(), operation.path)) if operation else None
    return strategy if valid is None else st.one_of(valid, strategy)


# --- The world the cases act on -------------------------------------------------------------


class Fuzz:
    def __init__(self) -> None:
        self.world = build_world()
        self.cases = 0

    def _intact(self) -> bool:
        w = self.world
        expected = {w.owner.pk: Role.SCOUT, w.other.pk: Role.SCOUT, w.admin.pk: Role.ADMIN}
        rows = User.objects.filter(pk__in=expected, is_active=True).values_list("pk", "role")
        return dict(rows) == expected

    def session_for(self, case: Any) -> Session:
        if not self._intact():
            self.world = build_world()
        self.cases += 1
        admin = case.path.startswith("/api/admin/") or self.cases % 3 == 0
        # Read afresh: a password change made by an earlier case changed the hash a
        # session is bound to.
        user = User.objects.get(pk=(self.world.admin if admin else self.world.owner).pk)
        return open_session(user)

    def _known(self, name: str) -> list[int]:
        w = self.world
        nominations = w.nominations()
        if name in {"user_id", "userId"}:
            return [user.pk for user in w.users()]
        if name in {"nomination_id", "nominationId"}:
            return [n.pk for n in nominations]
        if name in {"player_id", "playerId"}:
            return [n.player_id for n in nominations]
        return []

    def _remap(self, name: str, value: Any) -> Any:
        """A generated id becomes the id of an existing row, four times in five."""
        if name == "ids" and isinstance(value, list):
            mine = Notification.objects.filter(user__in=[self.world.owner, self.world.admin])
            return value + list(mine.values_list("pk", flat=True)[:2])
        known = self._known(name)
        if not known or isinstance(value, bool) or not isinstance(value, int):
            return value
        if value < 0 or value % 5 == 4:
            return value
        return known[value % len(known)]

    def point_at_known_rows(self, case: Any) -> None:
        body = case.body
        if isinstance(body, dict) and body.get("username") == "scout":
            body["username"] = self.world.owner.username
        for container in (case.path_parameters, case.query, body):
            if isinstance(container, dict):
                for name, value in list(container.items()):
                    container[name] = self._remap(name, value)


@pytest.fixture
def fuzz(db: None, settings: Any, tmp_path: Path) -> Iterator[Fuzz]:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.S3_BUCKET = ""
    # The WSGI handler closes the database connection after each request, which would end the
    # test's transaction: unhook it like Django's test client does.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield Fuzz()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=int(os.environ.get("API_FUZZ_EXAMPLES", "20")),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_schema(case: Any, fuzz: Fuzz) -> None:
    session = fuzz.session_for(case)
    fuzz.point_at_known_rows(case)
    case.call_and_validate(headers=session.headers, cookies=session.cookies, checks=CHECKS)
