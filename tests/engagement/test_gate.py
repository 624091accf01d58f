"""The age gate on every engagement endpoint: only a known adult has quests, a streak and
referrals; a teen, an account with no year of birth, a claimant athlete and a player's account
see none of it (403 adults_only) and nothing moves for them."""

from __future__ import annotations

import pytest
from django.utils import timezone

from project.accounts.models import Role, User
from project.claims.models import Claim, ClaimRelationship, ClaimStatus
from project.engagement import gate
from project.engagement.models import ActiveDay, QuestStep, Referral, Streak, UserQuest
from project.scouting.models import Notification
from tests.builders import make_nomination, make_user
from tests.engagement.conftest import with_quests
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db

ENDPOINTS = [
    ("get", "/api/settings/engagement", None),
    ("put", "/api/settings/engagement", {"quests": True}),
    ("get", "/api/quests", None),
    ("post", "/api/quests/share-profile", None),
    ("get", "/api/streak", None),
    ("get", "/api/referrals", None),
]


def teen() -> User:
    return make_user(birth_year=timezone.localdate().year - 15)


def no_age() -> User:
    user = make_user()
    User.objects.filter(pk=user.pk).update(birth_year=None)
    user.refresh_from_db()
    return user


def claimant_athlete() -> User:
    user = make_user(birth_year=1990)
    nomination = make_nomination(age=19)
    Claim.objects.create(
        player=nomination.player,
        claimant=user,
        relationship=ClaimRelationship.SELF,
        birth_year=timezone.localdate().year - 19,
        status=ClaimStatus.APPROVED,
    )
    return user


def player_account() -> User:
    return make_user(role=Role.PLAYER, birth_year=1990)


LOCKED_OUT = {
    "teen": teen,
    "no_age": no_age,
    "claimant_athlete": claimant_athlete,
    "player": player_account,
}


@pytest.mark.parametrize("who", sorted(LOCKED_OUT))
@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
def test_locked_out_members_get_403_on_every_endpoint(
    who: str, method: str, path: str, body: object
) -> None:
    user = LOCKED_OUT[who]()
    client = ApiClient().login(user)
    response = getattr(client, method)(path, body) if body else getattr(client, method)(path)
    assert response.status_code == 403, response.content
    assert response.json()["code"] == "adults_only"


@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS)
def test_an_adult_gets_each_endpoint(method: str, path: str, body: object) -> None:
    client = ApiClient().login(make_user(birth_year=1990))
    response = getattr(client, method)(path, body) if body else getattr(client, method)(path)
    assert response.status_code in (200, 204), response.content


@pytest.mark.parametrize("who", sorted(LOCKED_OUT))
def test_nothing_moves_for_a_locked_out_member_who_votes(who: str) -> None:
    user = with_quests(LOCKED_OUT[who]())
    assert not gate.engagement_allowed(user)
    client = ApiClient().login(user)
    nomination = make_nomination()
    assert client.post("/api/votes", {"nominationId": nomination.pk}).status_code == 201
    assert not UserQuest.objects.filter(user=user).exists()
    assert not QuestStep.objects.exists()
    assert not Streak.objects.filter(user=user).exists()
    assert not ActiveDay.objects.filter(user=user).exists()
    assert not Notification.objects.filter(user=user, type="quest_completed").exists()


def test_a_teen_cannot_be_a_referrer_and_a_teen_referred_earns_nothing() -> None:
    young = teen()
    response = ApiClient().post(
        "/api/auth/register",
        {
            "username": "joiner",
            "email": "joiner@example.com",
            "password": "secret-pass",
            "name": "Joiner",
            "birthYear": 1990,
            "referralCode": young.referral_code,
        },
    )
    assert response.status_code == 201, response.content
    assert not Referral.objects.exists()


def test_settings_change_one_field_at_a_time() -> None:
    client = ApiClient().login(make_user(birth_year=1990))
    assert client.get("/api/settings/engagement").json() == {"quests": False, "showStreak": False}
    assert client.put("/api/settings/engagement", {"quests": True}).json() == {
        "quests": True,
        "showStreak": False,
    }
    assert client.put("/api/settings/engagement", {"showStreak": True}).json() == {
        "quests": True,
        "showStreak": True,
    }
    both = client.put("/api/settings/engagement", {"quests": False, "showStreak": False})
    assert both.status_code == 400
    assert client.put("/api/settings/engagement", {"quests": "yes"}).status_code == 400


def test_a_streak_shows_on_a_profile_only_when_its_adult_turns_it_on() -> None:
    owner = make_user(birth_year=1990)
    Streak.objects.create(user=owner, current=4, longest=6, last_day=timezone.localdate())
    viewer = ApiClient().login(make_user(birth_year=1990))
    assert viewer.get(f"/api/users/{owner.pk}/streak").status_code == 404
    ApiClient().login(owner).put("/api/settings/engagement", {"showStreak": True})
    assert viewer.get(f"/api/users/{owner.pk}/streak").json() == {"current": 4, "longest": 6}
    # A teen's streak never shows, whatever a settings row says.
    young = teen()
    Streak.objects.create(user=young, current=3, longest=3)
    from project.engagement.models import EngagementSettings

    EngagementSettings.objects.create(user=young, show_streak=True)
    assert viewer.get(f"/api/users/{young.pk}/streak").status_code == 404


def test_the_members_export_holds_their_engagement() -> None:
    user = with_quests(make_user(birth_year=1990))
    client = ApiClient().login(user)
    client.post("/api/quests/share-profile")
    exported = client.get("/api/profile/export").json()["engagement"]
    assert exported["settings"]["quests"] is True
    assert [(q["questType"], q["progress"]) for q in exported["quests"]] == [("share_profile", 1)]
