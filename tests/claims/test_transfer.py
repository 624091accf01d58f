"""An admin passes a claimed player's controls to another member, or ends a claim; the page
answers 409 player_already_claimed to everyone else until then."""

from __future__ import annotations

from typing import Any

import pytest

from project.accounts.models import User
from project.claims.models import Claim
from project.modlog.models import ModlogEntry
from project.scouting.models import Nomination, Notification, Player
from tests.builders import make_nomination, make_user
from tests.claims.test_controls import YEAR, assert_code, claimed, controls
from tests.helpers import ApiClient, EventRecorder

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def nomination(scout: User) -> Nomination:
    return make_nomination(scout, name="Mia Jones", age=11, club="Lisbon Juniors")


def held_claim(nomination: Nomination) -> Claim:
    return Claim.objects.get(player_id=nomination.player_id, status="approved")


def transfer(api: ApiClient, claim: Claim, **body: Any) -> Any:
    return api.post(f"/api/admin/claims/{claim.pk}/transfer", body)


def messages(user: User) -> list[str]:
    return list(Notification.objects.filter(user=user).values_list("message", flat=True))


def test_an_admin_transfers_a_claim_to_the_other_parent(
    nomination: Nomination, admin_api: ApiClient, other_api: ApiClient, events: EventRecorder
) -> None:
    first, first_api = claimed(nomination, admin_api)
    controls(first_api, nomination, hideClub=True)
    second = make_user(name="Joao Jones", username="joao")
    second_api = ApiClient().login(second)
    # Anyone else's claim is refused while the page is held.
    refused = second_api.post(
        f"/api/players/{nomination.player_id}/claims",
        {"relationship": "parent_or_guardian", "birthYear": YEAR - 12, "evidence": "Dad"},
    )
    assert_code(refused, 409, "player_already_claimed")
    old = held_claim(nomination)
    # Members and the claimant cannot transfer.
    body = {"username": "joao", "relationship": "parent_or_guardian"}
    assert transfer(other_api, old, **body).status_code == 403
    assert transfer(first_api, old, **body).status_code == 403
    # The age bands of the verified birth year hold: no self claim under 16.
    assert_code(
        transfer(admin_api, old, username="joao", relationship="self"), 400, "guardian_required"
    )
    assert_code(transfer(admin_api, old, username="nobody", relationship="self"), 404, "not_found")
    events.clear()

    response = transfer(admin_api, old, **body, reason="Custody changed")

    assert response.status_code == 200, response.content
    new = response.json()
    assert (new["claimant"]["username"], new["status"]) == ("joao", "approved")
    assert Player.objects.get(pk=nomination.player_id).claimed_by_id == second.pk
    assert Claim.objects.get(pk=old.pk).status == "ended"
    # The settings pass as they are; only the new holder uses them.
    assert second_api.get(f"/api/players/{nomination.player_id}/controls").json()["hideClub"]
    assert_code(controls(first_api, nomination, hideClub=False), 403, "not_claimant")
    entry = ModlogEntry.objects.get(action="claim_transfer")
    assert (entry.target_id, entry.reason) == (nomination.player_id, "Custody changed")
    assert entry.changes["claimedBy"] == [first.pk, second.pk]
    assert any("passed the controls" in m for m in messages(first))
    assert "You now hold the controls of Mia Jones's profile." in messages(second)
    assert events.one("claims.changed").data["action"] == "transferred"
    # The old claim no longer holds anything.
    assert_code(transfer(admin_api, old, **body), 409, "claim_not_held")


def test_an_admin_revokes_a_claim_and_the_page_accepts_claims_again(
    nomination: Nomination, admin_api: ApiClient, other_api: ApiClient
) -> None:
    first, first_api = claimed(nomination, admin_api)
    controls(first_api, nomination, hideClub=True)
    claim = held_claim(nomination)
    assert other_api.post(f"/api/admin/claims/{claim.pk}/revoke").status_code == 403

    response = admin_api.post(f"/api/admin/claims/{claim.pk}/revoke", {"reason": "Not a parent"})

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "ended"
    assert Player.objects.get(pk=nomination.player_id).claimed_by_id is None
    assert_code(controls(first_api, nomination, hideClub=False), 403, "not_claimant")
    assert ModlogEntry.objects.filter(action="claim_revoke", reason="Not a parent").exists()
    assert any("ended your management" in m for m in messages(first))
    # What the family chose stays until a new claim is approved.
    assert other_api.get(f"/api/nominations/{nomination.pk}").json()["player"]["club"] == ""
    new = other_api.post(
        f"/api/players/{nomination.player_id}/claims",
        {"relationship": "parent_or_guardian", "birthYear": YEAR - 12, "evidence": "Mother"},
    )
    assert new.status_code == 201, new.content
    assert admin_api.post(f"/api/admin/claims/{new.json()['id']}/approve").status_code == 200
    assert other_api.get(f"/api/players/{nomination.player_id}/controls").json()["hideClub"]
    listed = admin_api.get("/api/admin/claims?status=ended").json()
    assert [c["id"] for c in listed] == [claim.pk]
