"""A family hands its athlete the controls, brings back a profile it removed, and an admin
transfers a claim: in the browser, each member with a session of their own."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from project.accounts.models import Role, User
from project.claims.models import Claim
from project.claims.services import claim_approve, claim_create
from project.scouting.models import Nomination, Player
from tests.builders import make_user
from tests.e2e.browsing import log_in, new_page, nominate, toast
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BORN_16 = timezone.localdate().year - 17


def claimed_by(guardian: User, *, name: str, born: int) -> Nomination:
    admin = User.objects.filter(role=Role.ADMIN).first() or make_user(
        username="ada", name="Ada Admin", role=Role.ADMIN
    )
    nomination = nominate(make_user(username="nina"), name=name, age=15)
    claim = claim_create(
        claimant=guardian,
        player_id=nomination.player_id,
        relationship="parent_or_guardian",
        birth_year=born,
        evidence="Club roster",
    )
    claim_approve(admin=admin, claim_id=claim.pk)
    return nomination


def test_the_guardian_hands_the_controls_to_the_athlete_of_16(
    e2e_server: Server, browser: Browser
) -> None:
    guardian = make_user(username="rita", name="Rita Costa")
    make_user(username="leo", name="Leo Costa", birth_year=BORN_16)
    nomination = claimed_by(guardian, name="Leo Costa", born=BORN_16)
    path = f"/nominations/{nomination.pk}"

    family = new_page(browser, e2e_server)
    log_in(family, "rita", to=path)
    family.get_by_label("The athlete's username").fill("leo")
    family.get_by_role("button", name="Invite the athlete").click()
    expect(toast(family, "Invitation sent")).to_be_visible()
    expect(family.get_by_text("Invited: @leo")).to_be_visible()

    athlete = new_page(browser, e2e_server)
    log_in(athlete, "leo", to="/settings")
    section = athlete.get_by_role("region", name="Profiles you manage")
    expect(section.get_by_text("Your family invites you")).to_be_visible()
    section.get_by_role("button", name="Accept the controls").click()
    expect(toast(athlete, "Controls accepted")).to_be_visible()
    expect(section.get_by_text("Managed by you (the athlete).")).to_be_visible()

    athlete.goto(path)
    expect(athlete.get_by_role("heading", name="Your controls")).to_be_visible()
    expect(athlete.get_by_text("Managed by the athlete", exact=True)).to_be_visible()
    family.reload()
    expect(family.get_by_role("heading", name="Leo Costa")).to_be_visible()
    expect(family.get_by_role("heading", name="Your controls")).to_have_count(0)
    assert Player.objects.get(pk=nomination.player_id).claimed_by_id != guardian.pk


def test_a_removed_profile_comes_back_from_settings(e2e_server: Server, browser: Browser) -> None:
    guardian = make_user(username="rita", name="Rita Jones")
    nomination = claimed_by(guardian, name="Mia Jones", born=timezone.localdate().year - 12)
    path = f"/nominations/{nomination.pk}"

    family = new_page(browser, e2e_server)
    log_in(family, "rita", to=path)
    family.get_by_role("button", name="Remove the profile").click()
    family.get_by_role("alertdialog").get_by_role("button", name="Remove the profile").click()
    expect(toast(family, "Profile removed")).to_be_visible()
    assert Player.objects.get(pk=nomination.player_id).hidden_at is not None

    family.goto("/settings")
    section = family.get_by_role("region", name="Profiles you manage")
    expect(section.get_by_text("You can bring it back until")).to_be_visible()
    section.get_by_role("button", name="Bring the profile back").click()
    expect(toast(family, "Profile back")).to_be_visible()
    expect(section.get_by_role("link", name="Mia Jones")).to_be_visible()
    section.get_by_role("link", name="Mia Jones").click()
    expect(family.get_by_role("heading", name="Your controls")).to_be_visible()


def test_an_admin_transfers_a_claim_from_the_claims_tab(
    e2e_server: Server, browser: Browser
) -> None:
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    guardian = make_user(username="rita", name="Rita Jones")
    make_user(username="joao", name="Joao Jones")
    nomination = claimed_by(guardian, name="Mia Jones", born=timezone.localdate().year - 12)

    admin = new_page(browser, e2e_server)
    log_in(admin, "ada", to="/admin/dashboard?tab=claims")
    row = admin.get_by_role("listitem", name="Managed profile of Mia Jones")
    expect(row.get_by_text("Rita Jones (@rita)")).to_be_visible()
    row.get_by_role("button", name="Transfer claim").click()
    dialog = admin.get_by_role("dialog")
    dialog.get_by_label("Username of the new claimant").fill("joao")
    dialog.get_by_label("Reason (optional)").fill("Custody changed")
    dialog.get_by_role("button", name="Transfer claim").click()
    expect(toast(admin, "Claim transferred")).to_be_visible()
    expect(row.get_by_text("Joao Jones (@joao)")).to_be_visible()
    held = Claim.objects.get(player_id=nomination.player_id, status="approved")
    assert held.claimant.username == "joao"
