"""Members report nominations and scout profiles once each; admins see them grouped per item
and resolve them with a reason that reaches the member it affects."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from project.accounts.models import User
from project.moderation.models import Report
from project.modlog.models import ModlogEntry
from project.notify.services import events_dispatch
from project.scouting.models import Nomination, NominationStatus, Notification
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient, assert_error, run_tasks

pytestmark = pytest.mark.django_db(transaction=True)


def assert_code(response: Any, status: int, code: str) -> None:
    assert assert_error(response, status)["code"] == code, response.content


@pytest.fixture
def nomination(scout: User) -> Nomination:
    return make_nomination(scout, sport="soccer", name="Fake Person")


def report(api: ApiClient, **body: Any) -> Any:
    return api.post("/api/reports", {"reason": "not_real", **body})


def test_a_member_reports_an_item_once(other_api: ApiClient, nomination: Nomination) -> None:
    first = report(other_api, nominationId=nomination.pk, text="No such club")
    assert first.status_code == 201, first.content
    assert first.json()["reason"] == "not_real"

    second = report(other_api, nominationId=nomination.pk, reason="other")

    assert_code(second, 409, "already_reported")
    assert Report.objects.count() == 1


def test_reports_are_grouped_per_item_with_their_count(
    nomination: Nomination, other_api: ApiClient, admin_api: ApiClient, scout: User
) -> None:
    report(other_api, nominationId=nomination.pk)
    report(ApiClient().login(make_user()), nominationId=nomination.pk, reason="privacy")
    report(other_api, userId=scout.pk, reason="inappropriate", text="Rude bio")

    groups = admin_api.get("/api/admin/reports").json()

    assert [(g["targetType"], g["targetId"], g["count"]) for g in groups] == [
        ("nomination", nomination.pk, 2),
        ("user", scout.pk, 1),
    ]
    assert groups[0]["nomination"]["player"]["name"] == "Fake Person"
    assert [r["reason"] for r in groups[0]["reports"]] == ["not_real", "privacy"]
    assert groups[1]["user"]["username"] == scout.username
    assert groups[1]["reports"][0]["text"] == "Rude bio"


def test_what_a_member_cannot_report(
    scout_api: ApiClient, other_api: ApiClient, scout: User, nomination: Nomination
) -> None:
    assert_code(report(scout_api, userId=scout.pk), 400, "own_account")
    assert_code(report(other_api), 400, "one_report_target")
    both = report(other_api, nominationId=nomination.pk, userId=scout.pk)
    assert_code(both, 400, "one_report_target")
    assert_code(report(other_api, nominationId=999999), 404, "not_found")
    Nomination.objects.filter(pk=nomination.pk).update(status=NominationStatus.REJECTED)
    assert_code(report(other_api, nominationId=nomination.pk), 404, "not_found")
    assert_code(report(ApiClient(), nominationId=nomination.pk), 401, "not_authenticated")


def resolve(admin_api: ApiClient, **body: Any) -> Any:
    return admin_api.post("/api/admin/reports/resolve", body)


def test_hiding_a_reported_nomination_tells_its_nominator_why(
    nomination: Nomination,
    other_api: ApiClient,
    scout_api: ApiClient,
    admin_api: ApiClient,
    admin_user: User,
    scout: User,
) -> None:
    report(other_api, nominationId=nomination.pk)
    reason = "The club confirmed no such player"

    response = resolve(
        admin_api, nominationId=nomination.pk, action="hide_nomination", reason=reason
    )

    assert response.json() == {"resolved": 1, "action": "hide_nomination"}
    assert Nomination.objects.get(pk=nomination.pk).status == NominationStatus.REMOVED
    assert nomination.pk not in {n["id"] for n in other_api.get("/api/nominations").json()}
    # Its nominator still sees it, removed, and is told the reason.
    own = scout_api.get(f"/api/nominations/{nomination.pk}")
    assert own.status_code == 200 and own.json()["status"] == "removed"
    notification = Notification.objects.get(user=scout, type="nomination_removed")
    assert reason in notification.message
    events_dispatch()
    run_tasks()
    assert any(reason in message.body for message in mail.outbox)
    entry = ModlogEntry.objects.get(action="report_resolve")
    assert (entry.actor_id, entry.target_type, entry.target_id) == (
        admin_user.pk,
        "nomination",
        nomination.pk,
    )
    assert entry.reason == reason
    assert admin_api.get("/api/admin/reports").json() == []
    again = resolve(admin_api, nominationId=nomination.pk, action="dismiss", reason="dup")
    assert_code(again, 409, "already_resolved")


def test_a_warning_reaches_the_reported_scout(
    scout: User, other_api: ApiClient, admin_api: ApiClient
) -> None:
    report(other_api, userId=scout.pk, reason="inappropriate")
    resolve(admin_api, userId=scout.pk, action="warn_user", reason="Keep your bio civil")
    warning = Notification.objects.get(user=scout, type="moderation_warning")
    assert "Keep your bio civil" in warning.message
    assert Report.objects.get().resolution == "warn_user"


def test_removing_the_user_deletes_them_and_logs_both(
    scout: User, nomination: Nomination, other_api: ApiClient, admin_api: ApiClient
) -> None:
    report(other_api, nominationId=nomination.pk)
    email = scout.email
    response = resolve(
        admin_api, nominationId=nomination.pk, action="remove_user", reason="Fake accounts"
    )
    assert response.status_code == 200, response.content
    assert not User.objects.filter(pk=scout.pk).exists()
    assert set(ModlogEntry.objects.values_list("action", flat=True)) == {
        "report_resolve",
        "user_delete",
    }
    run_tasks()
    assert any(m.to == [email] and "Fake accounts" in m.body for m in mail.outbox)


def test_a_resolution_needs_a_reason_and_fits_its_item(
    scout: User, other_api: ApiClient, admin_api: ApiClient
) -> None:
    report(other_api, userId=scout.pk)
    missing = resolve(admin_api, userId=scout.pk, action="dismiss", reason="  ")
    assert_error(missing, 400, "A reason is required")
    wrong = resolve(admin_api, userId=scout.pk, action="hide_nomination", reason="x")
    assert_code(wrong, 400, "not_for_profiles")
    assert Report.objects.get().resolved_at is None
    assert not ModlogEntry.objects.exists()
