"""GET /api/profile/export: everything held about the user, at most once an hour."""

from __future__ import annotations

import json

import pytest
import time_machine
from django.utils import timezone

from project.accounts.models import User
from project.moderation.services.reports import report_create
from project.scouting.models import Notification
from project.scouting.services.follows import follow_player_create, follow_user_create
from tests.builders import make_nomination, make_user, vote
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded(scout: User, other_scout: User) -> dict[str, object]:
    """The scout nominated twice, voted, follows a player and a scout, has notifications,
    a follower and a report they made."""
    mine = [
        make_nomination(scout, name="Own One", sport="soccer"),
        make_nomination(scout, name="Own Two", sport="soccer"),
    ]
    theirs = make_nomination(other_scout, name="Their Player", sport="soccer")
    vote(scout, theirs)
    vote(other_scout, mine[0])  # a notification for the scout
    follow_player_create(user=scout, player_id=theirs.player_id)
    follow_user_create(user=scout, target_id=other_scout.pk)
    follow_user_create(user=make_user(), target_id=scout.pk)
    report_create(reporter=scout, reason="other", text="Looks odd", nomination_id=theirs.pk)
    return {"mine": mine, "theirs": theirs}


def test_the_export_holds_everything_about_the_user(
    scout_api: ApiClient, scout: User, other_scout: User, seeded: dict[str, object]
) -> None:
    response = scout_api.get("/api/profile/export")

    assert response.status_code == 200, response.content
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    account = data["account"]
    assert (account["id"], account["username"], account["email"]) == (
        scout.pk,
        scout.username,
        scout.email,
    )
    assert account["points"] == User.objects.get(pk=scout.pk).points
    assert data["settings"]["profileVisibility"] == "public"
    assert sorted(n["player"]["name"] for n in data["nominations"]) == ["Own One", "Own Two"]
    theirs = seeded["theirs"]
    assert [v["nominationId"] for v in data["votes"]] == [theirs.pk]  # type: ignore[attr-defined]
    assert {(f["followedPlayerId"], f["followedUserId"]) for f in data["follows"]} == {
        (theirs.player_id, None),  # type: ignore[attr-defined]
        (None, other_scout.pk),
    }
    assert data["followers"] == 1
    kinds = sorted(a["activityType"] for a in data["activity"])
    assert kinds.count("nomination_created") == 2 and "vote_cast" in kinds
    assert len(data["notifications"]) == Notification.objects.filter(user=scout).count() > 0
    assert [(r["reason"], r["text"]) for r in data["reports"]] == [("other", "Looks odd")]
    # Nothing about anyone else's account.
    assert other_scout.email not in response.content.decode()
    assert User.objects.get(pk=scout.pk).password not in response.content.decode()


def test_only_once_an_hour(scout_api: ApiClient) -> None:
    with time_machine.travel(timezone.now(), tick=False) as clock:
        assert scout_api.get("/api/profile/export").status_code == 200
        clock.shift(59 * 60)
        refused = scout_api.get("/api/profile/export")
        body = assert_error(refused, 429)
        assert body["code"] == "throttled"
        assert 0 < int(refused["Retry-After"]) <= 60
        clock.shift(61)
        assert scout_api.get("/api/profile/export").status_code == 200


def test_signed_out_gets_401() -> None:
    assert ApiClient().get("/api/profile/export").status_code == 401
