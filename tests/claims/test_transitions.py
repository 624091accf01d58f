"""The daily age transitions of a claimed player, on a shifted clock (the job's ``today``):
at 16 the guardian is invited to hand the controls to the athlete, at 18 the guardian's
controls end, and running the job twice in a day tells nobody twice."""

from __future__ import annotations

from datetime import UTC, date, datetime
from io import StringIO

import pytest
import time_machine
from django.core.management import call_command

from project.accounts.models import User
from project.claims.models import Claim
from project.claims.transitions import age_transitions
from project.notify.models import NotificationEmail, OutboundEvent
from project.notify.services import events_dispatch
from project.privacy.models import PlayerControls
from project.scouting.models import Nomination, Notification, Player
from tests.builders import make_nomination, make_user
from tests.claims.test_controls import YEAR, assert_code, claimed, controls
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db(transaction=True)

BORN = YEAR - 15  # 14 by the youngest-age rule this year
# The first days the job sees the athlete as 16 and as 18.
AT_16 = date(BORN + 17, 1, 1)
AT_18 = date(BORN + 19, 1, 1)


@pytest.fixture
def nomination(scout: User) -> Nomination:
    return make_nomination(scout, name="Leo Costa", age=14, club="Porto Youth")


def notes(user: User) -> list[str]:
    return list(
        Notification.objects.filter(user=user).order_by("pk").values_list("message", flat=True)
    )


def emails(user: User) -> int:
    return OutboundEvent.objects.filter(user_id=user.pk).count()


def test_at_16_the_guardian_is_invited_once(nomination: Nomination, admin_api: ApiClient) -> None:
    guardian, family = claimed(nomination, admin_api, birth_year=BORN)
    before = len(notes(guardian))

    assert age_transitions(today=date(BORN + 16, 12, 31)).invited == 0
    assert len(notes(guardian)) == before
    assert (
        family.get(f"/api/players/{nomination.player_id}/controls").json()["athleteMayHold"]
        is False
    )

    assert age_transitions(today=AT_16).invited == 1
    assert age_transitions(today=AT_16).invited == 0  # the same day again: nobody twice

    invitations = [m for m in notes(guardian) if "may hold their own" in m]
    assert invitations == [
        "Leo Costa is 16 now and may hold their own profile's controls. Name their ScoutVote "
        "account under Your controls on the profile to hand them over; your controls end "
        "when they turn 18."
    ]
    # The invitation's email is recorded for the guardian's notification emails, and sent.
    assert OutboundEvent.objects.filter(user_id=guardian.pk, message=invitations[0]).count() == 1
    assert events_dispatch().emails >= 1
    assert NotificationEmail.objects.filter(user_id=guardian.pk, kind="player_update").exists()
    # The guardian keeps the controls meanwhile.
    assert controls(family, nomination, hideClub=True).status_code == 200


def test_the_guardian_hands_the_controls_to_the_athlete(
    nomination: Nomination, admin_api: ApiClient, other_api: ApiClient
) -> None:
    guardian, family = claimed(nomination, admin_api, birth_year=BORN)
    athlete = make_user(name="Leo Costa", username="leo", birth_year=BORN)
    athlete_api = ApiClient().login(athlete)
    path = f"/api/players/{nomination.player_id}/controls"
    # Under 16 the guardian cannot hand them over.
    assert_code(family.post(f"{path}/athlete", {"username": "leo"}), 400, "athlete_too_young")

    PlayerControls.objects.filter(player_id=nomination.player_id).update(birth_year=YEAR - 17)
    User.objects.filter(pk=athlete.pk).update(birth_year=YEAR - 17)
    # A member whose year of birth is not the athlete's is refused.
    stranger = make_user(username="stranger")
    assert_code(
        family.post(f"{path}/athlete", {"username": stranger.username}), 400, "not_the_athlete"
    )
    # Only the holder names the athlete.
    assert_code(other_api.post(f"{path}/athlete", {"username": "leo"}), 403, "not_claimant")
    # Only the named athlete accepts.
    assert_code(other_api.post(f"{path}/accept"), 403, "not_invited")

    named = family.post(f"{path}/athlete", {"username": "leo"})
    assert named.status_code == 200, named.content
    assert named.json()["athlete"]["username"] == "leo"
    assert named.json()["athleteMayHold"] is True
    assert any("invites you to hold the controls" in m for m in notes(athlete))
    listed = athlete_api.get("/api/me/managed-players").json()
    assert [(p["playerId"], p["invited"]) for p in listed] == [(nomination.player_id, True)]

    accepted = athlete_api.post(f"{path}/accept")

    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["managedBy"] == "athlete"
    assert Player.objects.get(pk=nomination.player_id).claimed_by_id == athlete.pk
    assert controls(athlete_api, nomination, hideClub=True).status_code == 200
    assert_code(controls(family, nomination, hideClub=False), 403, "not_claimant")
    assert "Leo Costa now holds the controls of Leo Costa's profile." in notes(guardian)
    statuses = dict(
        Claim.objects.filter(player_id=nomination.player_id).values_list("claimant_id", "status")
    )
    assert statuses == {guardian.pk: "ended", athlete.pk: "approved"}
    member = other_api.get(f"/api/nominations/{nomination.pk}").json()["player"]
    assert member["managedBy"] == "athlete"


def test_at_18_the_controls_pass_to_the_athlete_named(
    nomination: Nomination, admin_api: ApiClient
) -> None:
    guardian, family = claimed(nomination, admin_api, birth_year=BORN)
    athlete = make_user(name="Leo Costa", username="leo", birth_year=BORN)
    # Named by the guardian, not yet accepted.
    PlayerControls.objects.filter(player_id=nomination.player_id).update(athlete=athlete)

    assert age_transitions(today=date(BORN + 18, 12, 31)).passed == 0
    result = age_transitions(today=AT_18)

    assert (result.passed, result.ended, result.invited) == (1, 0, 0)
    assert Player.objects.get(pk=nomination.player_id).claimed_by_id == athlete.pk
    assert_code(controls(family, nomination, hideClub=True), 403, "not_claimant")
    assert "Leo Costa is 18 now: your controls of their profile passed to Leo Costa." in notes(
        guardian
    )
    assert "You are 18 now: you hold the controls of your profile (Leo Costa)." in notes(athlete)
    told = (len(notes(guardian)), len(notes(athlete)), emails(guardian), emails(athlete))

    again = age_transitions(today=AT_18)

    assert (again.passed, again.ended, again.invited) == (0, 0, 0)
    assert (len(notes(guardian)), len(notes(athlete)), emails(guardian), emails(athlete)) == told


def test_at_18_without_an_athlete_account_the_controls_end(
    nomination: Nomination, admin_api: ApiClient, other_api: ApiClient, admin_user: User
) -> None:
    guardian, family = claimed(nomination, admin_api, birth_year=BORN)
    controls(family, nomination, hideClub=True)

    out = StringIO()
    call_command("age_transitions", "--today", AT_18.isoformat(), stdout=out)
    call_command("age_transitions", "--today", AT_18.isoformat(), stdout=StringIO())

    assert "ended 1 guardians' controls" in out.getvalue()
    ended = [m for m in notes(guardian) if "18 now" in m]
    assert ended == [
        "Leo Costa is 18 now: your controls of their profile have ended. Its settings stay as "
        "you left them until Leo Costa claims the profile."
    ]
    player = Player.objects.get(pk=nomination.player_id)
    assert player.claimed_by_id is None
    assert PlayerControls.objects.get(player=player).guardian_ended_at is not None
    # The guardian can no longer use the controls; what the family chose still holds.
    assert_code(controls(family, nomination, hideClub=False), 403, "not_claimant")
    assert_code(family.get(f"/api/players/{nomination.player_id}/export"), 403, "not_claimant")
    member = other_api.get(f"/api/nominations/{nomination.pk}").json()["player"]
    assert (member["club"], member["managedBy"]) == ("", None)
    # The athlete, an adult by then, claims the profile and takes the controls as they are.
    with time_machine.travel(datetime(AT_18.year, 1, 2, 12, tzinfo=UTC), tick=False):
        athlete = make_user(username="leo", birth_year=BORN)
        athlete_api = ApiClient().login(athlete)
        claim = athlete_api.post(
            f"/api/players/{nomination.player_id}/claims",
            {"relationship": "self", "birthYear": BORN, "evidence": "It is me: my club's roster"},
        )
        assert claim.status_code == 201, claim.content
        admin = ApiClient().login(admin_user)
        assert admin.post(f"/api/admin/claims/{claim.json()['id']}/approve").status_code == 200
        taken = athlete_api.get(f"/api/players/{nomination.player_id}/controls").json()
    assert (taken["managedBy"], taken["hideClub"]) == ("athlete", True)
