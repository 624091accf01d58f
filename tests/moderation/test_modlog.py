"""The moderation log: one row per admin action, written in the action's transaction (a
rolled-back action leaves none), append-only, read with filters and cursor pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from project.accounts.models import User
from project.modlog.models import ModlogEntry
from project.modlog.services import modlog_record
from project.scouting.models import Nomination, NominationStatus
from realtime.publish import Event
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db

EDIT = {
    "name": "Renamed Player",
    "age": 14,
    "position": "Guard",
    "nationality": "Canada",
    "club": "Toronto Academy",
    "sport": "soccer",
}


def only_row(**filters: Any) -> ModlogEntry:
    rows = list(ModlogEntry.objects.filter(**filters))
    assert len(rows) == 1, rows
    return rows[0]


def test_every_admin_action_writes_one_row(
    admin_api: ApiClient, admin_user: User, scout: User
) -> None:
    first, second = make_nomination(scout, sport="soccer"), make_nomination(scout, sport="soccer")
    victim, promoted = make_user(name="Vic Tim"), make_user(name="Pro Moted")
    calls = [
        ("POST", f"/api/admin/nominations/{first.pk}/approve", None),
        ("POST", f"/api/admin/nominations/{second.pk}/reject", {"reason": "Duplicate"}),
        ("PUT", f"/api/admin/players/{first.player_id}/verified", {"verified": True}),
        ("PUT", f"/api/admin/players/{first.player_id}/verified", {"verified": False}),
        ("PUT", f"/api/players/{first.player_id}", EDIT),
        ("PUT", f"/api/admin/users/{promoted.pk}/role", {"role": "admin"}),
        ("DELETE", f"/api/admin/users/{victim.pk}", None),
    ]
    for method, path, body in calls:
        response = admin_api.request(method, path, body)
        assert response.status_code < 300, (path, response.content)

    assert only_row(action="nomination_approve").target_id == first.pk
    rejected = only_row(action="nomination_reject")
    assert (rejected.reason, rejected.changes) == ("Duplicate", {"status": ["pending", "rejected"]})
    assert only_row(action="player_verify").changes == {"verified": [False, True]}
    assert only_row(action="player_unverify").changes == {"verified": [True, False]}
    edit = only_row(action="player_edit")
    assert edit.changes["name"] == [first.player.name, "Renamed Player"]
    assert edit.changes["age"] == [15, 14] and "club" not in edit.changes
    assert only_row(action="user_role_change").changes == {"role": ["scout", "admin"]}
    deleted = only_row(action="user_delete")
    assert (deleted.target_id, deleted.target_label) == (victim.pk, f"Vic Tim (@{victim.username})")
    assert set(ModlogEntry.objects.values_list("actor_id", flat=True)) == {admin_user.pk}
    assert ModlogEntry.objects.count() == len(calls)


def test_a_nominator_editing_their_own_player_is_not_logged(
    scout_api: ApiClient, scout: User
) -> None:
    nomination = make_nomination(scout, sport="soccer")
    assert scout_api.put(f"/api/players/{nomination.player_id}", EDIT).status_code == 200
    assert not ModlogEntry.objects.exists()


def test_a_rolled_back_action_leaves_no_row(
    admin_api: ApiClient, scout: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    nomination = make_nomination(scout, sport="soccer")

    def fail(**kwargs: Any) -> None:
        raise RuntimeError("the notification could not be written")

    monkeypatch.setattr("project.moderation.services.decisions.notification_create", fail)

    response = admin_api.post(f"/api/admin/nominations/{nomination.pk}/approve")

    assert response.status_code == 500
    assert Nomination.objects.get(pk=nomination.pk).status == NominationStatus.PENDING
    assert not ModlogEntry.objects.exists()


def test_the_log_is_written_only_inside_a_transaction_and_never_changed(
    admin_user: User,
) -> None:
    with pytest.raises(RuntimeError):
        # pytest-django wraps the test in an atomic block: leave it to be outside any.
        connection = transaction.get_connection()
        saved = connection.in_atomic_block
        connection.in_atomic_block = False
        try:
            modlog_record(actor=admin_user, action="user_delete", target_type="user", target_id=1)
        finally:
            connection.in_atomic_block = saved
    with transaction.atomic():
        entry = modlog_record(
            actor=admin_user, action="user_delete", target_type="user", target_id=1
        )
    entry.reason = "rewritten"
    with pytest.raises(TypeError):
        entry.save()
    with pytest.raises(TypeError):
        entry.delete()
    with pytest.raises(TypeError):
        ModlogEntry.objects.filter(pk=entry.pk).update(reason="rewritten")
    with pytest.raises(TypeError):
        ModlogEntry.objects.all().delete()
    assert ModlogEntry.objects.get().reason == ""


def test_a_row_goes_live_to_admins_only(admin_user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    published: list[Event] = []
    monkeypatch.setattr("project.modlog.services.publish", published.append)
    with transaction.atomic():
        entry = modlog_record(
            actor=admin_user, action="user_delete", target_type="user", target_id=7
        )
    assert [(e.type, e.groups()) for e in published] == [("modlog.created", ["admins"])]
    assert published[0].data["id"] == entry.pk and published[0].data["targetId"] == 7


def test_filters_and_cursor_pages(admin_api: ApiClient, admin_user: User) -> None:
    other_admin = make_user(role="admin")
    with transaction.atomic():
        for target in range(5):
            modlog_record(
                actor=admin_user, action="user_role_change", target_type="user", target_id=target
            )
        modlog_record(actor=other_admin, action="user_delete", target_type="user", target_id=9)

    everything = admin_api.get("/api/admin/modlog").json()
    assert [row["targetId"] for row in everything] == [9, 4, 3, 2, 1, 0]

    page = admin_api.get(f"/api/admin/modlog?actor={admin_user.pk}&limit=2")
    assert [row["targetId"] for row in page.json()] == [4, 3]
    seen = [row["targetId"] for row in page.json()]
    while "Link" in page:
        next_url = page["Link"].split(";")[0].strip("<>")
        page = admin_api.get(next_url)
        seen += [row["targetId"] for row in page.json()]
    assert seen == [4, 3, 2, 1, 0]

    by_action = admin_api.get("/api/admin/modlog?action=user_delete").json()
    assert [(row["actorId"], row["targetId"]) for row in by_action] == [(other_admin.pk, 9)]
    by_target = admin_api.get("/api/admin/modlog?targetType=user&targetId=2").json()
    assert [row["targetId"] for row in by_target] == [2]
    since = everything[1]["createdAt"]
    recent = admin_api.get("/api/admin/modlog", data={"since": since}).json()
    assert {row["targetId"] for row in recent} >= {9, 4}
    assert admin_api.get("/api/admin/modlog?until=2000-01-01T00:00:00Z").json() == []
