"""Void and restore a set of votes: counts, boards and points leave and come back exactly, the
rows stay, voters keep their toggle state, the moderation log records both; the vote audit
lists voters without addresses and records who opened it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase

from project.accounts.models import User
from project.accounts.services import user_delete
from project.integrity.models import FlagStatus, IntegrityFlag, VoterListView
from project.modlog.models import ModlogEntry
from project.scouting.models import Nomination, NominationStatus, NominationWeek, Vote, VoteStatus
from tests.builders import aged_user, make_nomination
from tests.helpers import ApiClient, EventRecorder, assert_error
from tests.integrity.helpers import vote

pytestmark = pytest.mark.django_db


def state(nomination: Nomination, *users: User) -> tuple[Any, ...]:
    nomination.refresh_from_db()
    weeks = sorted(NominationWeek.objects.filter(nomination=nomination).values_list("votes"))
    points = [User.objects.get(pk=user.pk).points for user in users]
    return (nomination.vote_count, nomination.counted_votes, nomination.trend, weeks, points)


@pytest.fixture
def ring() -> tuple[Nomination, User, list[User]]:
    nominator = aged_user()
    nomination = make_nomination(nominator, status=NominationStatus.APPROVED)
    honest = aged_user()
    vote(honest, nomination, "198.51.100.1")
    members = [aged_user() for _ in range(5)]
    for index, member in enumerate(members):
        vote(member, nomination, f"203.0.113.{index + 1}")
    return nomination, nominator, members


def test_void_then_restore_a_flags_votes(
    ring: tuple[Nomination, User, list[User]], admin_api: ApiClient, events: EventRecorder
) -> None:
    nomination, nominator, members = ring
    flag = IntegrityFlag.objects.get()
    before = state(nomination, nominator, *members)
    assert before[0] == 6

    with TestCase.captureOnCommitCallbacks(execute=True):
        response = admin_api.post(
            "/api/admin/integrity/void", {"flagId": flag.pk, "reason": "Ring of one network"}
        )
    assert response.status_code == 200, response.content
    assert response.json()["votes"] == 5
    nomination.refresh_from_db()
    assert response.json()["nominations"] == [
        {"nominationId": nomination.pk, "voteCount": 1, "version": nomination.version}
    ]
    voided = state(nomination, nominator, *members)
    assert voided[:2] == (1, 1)
    assert voided[3] == [(1,)]
    assert voided[4] == [before[4][0] - 10] + [points - 1 for points in before[4][1:]]
    assert Vote.objects.filter(status=VoteStatus.VOID).count() == 5
    flag.refresh_from_db()
    assert flag.status == FlagStatus.VOIDED
    changed = events.of_type("vote.changed")[-1].data["votes"]
    assert changed[-1]["nominationId"] == nomination.pk and changed[-1]["voteCount"] == 1

    # A voided vote still shows as its voter's, and cannot be cast twice.
    member_api = ApiClient().login(members[0])
    assert member_api.get(f"/api/nominations/{nomination.pk}").json()["hasVoted"] is True
    assert member_api.post("/api/votes", {"nominationId": nomination.pk}).status_code == 409

    response = admin_api.post(
        "/api/admin/integrity/restore", {"flagId": flag.pk, "reason": "They were a club"}
    )
    assert response.status_code == 200 and response.json()["votes"] == 5
    restored = state(nomination, nominator, *members)
    assert restored[:2] == before[:2] and restored[3:] == before[3:]
    assert restored[2] == pytest.approx(before[2], abs=1e-9)
    flag.refresh_from_db()
    assert flag.status == FlagStatus.OPEN

    log = list(ModlogEntry.objects.order_by("id").values_list("action", "reason", "target_id"))
    assert log == [
        ("votes_void", "Ring of one network", nomination.pk),
        ("votes_restore", "They were a club", nomination.pk),
    ]


def test_taking_back_a_voided_vote_changes_no_count(
    ring: tuple[Nomination, User, list[User]], admin_api: ApiClient
) -> None:
    nomination, nominator, members = ring
    flag = IntegrityFlag.objects.get()
    admin_api.post("/api/admin/integrity/void", {"flagId": flag.pk, "reason": "Ring"})
    before = state(nomination, nominator, *members[1:])
    member_api = ApiClient().login(members[0])
    response = member_api.delete(f"/api/votes/{nomination.pk}")
    assert response.status_code == 200 and response.json()["voteCount"] == 1
    assert state(nomination, nominator, *members[1:]) == before
    assert not Vote.objects.filter(user=members[0]).exists()
    # Restoring the flag brings back the four votes still there.
    response = admin_api.post("/api/admin/integrity/restore", {"flagId": flag.pk, "reason": "x"})
    assert response.json()["votes"] == 4


def test_void_all_votes_between_users(admin_api: ApiClient) -> None:
    first, second, bystander = aged_user(), aged_user(), aged_user()
    theirs = make_nomination(second, status=NominationStatus.APPROVED)
    mine = make_nomination(first, status=NominationStatus.APPROVED)
    vote(first, theirs)
    vote(second, mine)
    vote(bystander, mine)
    vote(first, mine)  # one's own nomination is not "between" them
    response = admin_api.post(
        "/api/admin/integrity/void",
        {"userIds": [first.pk, second.pk], "reason": "Trading votes"},
    )
    assert response.status_code == 200 and response.json()["votes"] == 2
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert (mine.vote_count, theirs.vote_count) == (2, 0)


def test_a_reason_and_a_selection_are_required(admin_api: ApiClient) -> None:
    first, second = aged_user(), aged_user()
    body = assert_error(
        admin_api.post("/api/admin/integrity/void", {"userIds": [first.pk, second.pk]}), 400
    )
    assert body["fields"] == {"reason": "Required"}
    assert_error(
        admin_api.post("/api/admin/integrity/void", {"userIds": [first.pk], "reason": "x"}), 400
    )
    assert_error(admin_api.post("/api/admin/integrity/void", {"flagId": 999, "reason": "x"}), 404)
    assert not ModlogEntry.objects.exists()


def test_the_audit_lists_voters_and_records_who_looked(
    ring: tuple[Nomination, User, list[User]], admin_api: ApiClient, admin_user: User
) -> None:
    nomination, _, members = ring
    response = admin_api.get(f"/api/admin/nominations/{nomination.pk}/votes")
    assert response.status_code == 200
    rows = response.json()
    assert len(rows) == 6
    by_voter = {row["voterId"]: row for row in rows}
    member = by_voter[members[0].pk]
    assert member["trusted"] is True and member["status"] == "active"
    assert member["accountAgeHours"] >= 99
    # Every ring member shares one cluster id; the honest voter's differs; no address anywhere.
    assert len({by_voter[m.pk]["clusterId"] for m in members}) == 1
    assert "203.0.113" not in response.content.decode()

    response = admin_api.get(f"/api/admin/users/{members[0].pk}/votes")
    assert [row["nominationId"] for row in response.json()] == [nomination.pk]
    seen = list(
        VoterListView.objects.order_by("id").values_list("viewer_id", "target_type", "target_id")
    )
    assert seen == [
        (admin_user.pk, "nomination", nomination.pk),
        (admin_user.pk, "user", members[0].pk),
    ]
    views = admin_api.get("/api/admin/integrity/views").json()
    assert [view["targetType"] for view in views] == ["user", "nomination"]


def test_integrity_calls_are_for_admins_only(scout_api: ApiClient) -> None:
    assert_error(scout_api.get("/api/admin/integrity/flags"), 403)
    assert_error(scout_api.get("/api/admin/users/1/votes"), 403)
    assert not VoterListView.objects.exists()


def test_deleting_a_voided_voters_account_changes_no_count(
    ring: tuple[Nomination, User, list[User]], admin_api: ApiClient
) -> None:
    nomination, nominator, members = ring
    flag = IntegrityFlag.objects.get()
    admin_api.post("/api/admin/integrity/void", {"flagId": flag.pk, "reason": "Ring"})
    before = state(nomination, nominator)
    user_delete(user=members[0])
    assert state(nomination, nominator) == before
