from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from project.accounts.models import User
from project.notify.services import events_dispatch
from project.scouting.models import (
    Activity,
    Nomination,
    NominationStatus,
    NominationWeek,
    Notification,
    Vote,
)
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient, EventRecorder, assert_error, run_tasks

pytestmark = pytest.mark.django_db


def points(user: User) -> int:
    user.refresh_from_db()
    return user.points


@pytest.fixture
def nomination(other_scout: User) -> Nomination:
    nomination = make_nomination(other_scout, name="Vera Voted")
    User.objects.filter(pk=other_scout.pk).update(points=0)
    return nomination


def test_cast_and_remove(
    scout_api: ApiClient, scout: User, other_scout: User, nomination: Nomination
) -> None:
    response = scout_api.post("/api/votes", {"nominationId": nomination.pk})
    assert response.status_code == 201
    assert response.json() == {
        "nominationId": nomination.pk,
        "voteCount": 1,
        "hasVoted": True,
        "version": 1,
    }
    assert Vote.objects.filter(nomination=nomination, user=scout).count() == 1
    assert points(scout) == 1
    assert points(other_scout) == 2
    detail = scout_api.get(f"/api/nominations/{nomination.pk}").json()
    assert detail["voteCount"] == 1 and detail["hasVoted"] is True

    response = scout_api.delete(f"/api/votes/{nomination.pk}")
    assert response.status_code == 200
    assert response.json() == {
        "nominationId": nomination.pk,
        "voteCount": 0,
        "hasVoted": False,
        "version": 2,
    }
    assert not Vote.objects.exists()
    nomination.refresh_from_db()
    assert nomination.vote_count == 0
    assert points(scout) == 0
    assert points(other_scout) == 0


def test_second_vote_is_409_and_changes_nothing(
    scout_api: ApiClient,
    scout: User,
    other_scout: User,
    nomination: Nomination,
    events: EventRecorder,
) -> None:
    scout_api.post("/api/votes", {"nominationId": nomination.pk})
    events.clear()
    # The vote's statements after the lock go out together (project/common/db.py
    # ``Pending``): the second one's counters, points and activity are rolled back with it.
    response = scout_api.post("/api/votes", {"nominationId": nomination.pk})
    body = assert_error(response, 409, "You have already voted for this nomination")
    assert body["code"] == "already_voted"
    nomination.refresh_from_db()
    assert (nomination.vote_count, nomination.version, nomination.counted_votes) == (1, 1, 1)
    assert list(NominationWeek.objects.values_list("votes", flat=True)) == [1]
    assert points(scout) == 1 and points(other_scout) == 2
    assert Activity.objects.filter(activity_type="vote_cast").count() == 1
    assert Notification.objects.filter(user=other_scout).count() == 1
    events.settle()
    assert events.types() == []


def test_remove_without_vote_is_404(scout_api: ApiClient, nomination: Nomination) -> None:
    body = assert_error(
        scout_api.delete(f"/api/votes/{nomination.pk}"),
        404,
        "You have not voted for this nomination",
    )
    assert body["code"] == "vote_not_found"


def test_unknown_hidden_and_rejected_nominations(
    scout_api: ApiClient, other_api: ApiClient, other_scout: User
) -> None:
    assert_error(
        scout_api.post("/api/votes", {"nominationId": 999999}), 404, "Nomination not found"
    )
    rejected = make_nomination(other_scout, status=NominationStatus.REJECTED)
    assert_error(
        scout_api.post("/api/votes", {"nominationId": rejected.pk}), 404, "Nomination not found"
    )
    assert_error(
        other_api.post("/api/votes", {"nominationId": rejected.pk}),
        400,
        "Voting is closed for this nomination",
    )
    assert_error(scout_api.delete(f"/api/votes/{rejected.pk}"), 404, "Nomination not found")


@pytest.mark.parametrize(
    ("voter", "status", "expected"),
    [
        ("nominator", NominationStatus.REJECTED, (400, "Voting is closed for this nomination")),
        ("nominator", NominationStatus.HIDDEN, (404, "Nomination not found")),
        ("other", NominationStatus.REJECTED, (404, "Nomination not found")),
    ],
)
def test_a_nomination_closed_after_it_was_read_takes_no_vote(
    monkeypatch: pytest.MonkeyPatch,
    scout_api: ApiClient,
    other_api: ApiClient,
    other_scout: User,
    nomination: Nomination,
    events: EventRecorder,
    voter: str,
    status: str,
    expected: tuple[int, str],
) -> None:
    """The vote reads its nomination without a lock and takes the lock with the counters'
    UPDATE, which checks again that the nomination is live: one decided or hidden in between
    (here, right after the read) answers as it would have before, and nothing is written."""
    from project.scouting.services import votes

    read = votes._nomination_locked

    def read_then_close(nomination_id: int, *, lock: bool = True) -> Nomination | None:
        found = read(nomination_id, lock=lock)
        if not lock:  # the vote's first read: a moderator decides now
            Nomination.objects.filter(pk=nomination_id).update(status=status)
        return found

    monkeypatch.setattr(votes, "_nomination_locked", read_then_close)
    client = other_api if voter == "nominator" else scout_api
    assert_error(client.post("/api/votes", {"nominationId": nomination.pk}), *expected)
    monkeypatch.undo()
    nomination.refresh_from_db()
    assert nomination.status == NominationStatus.PENDING  # the decision rolled back with it
    assert (nomination.vote_count, nomination.version, nomination.counted_votes) == (0, 0, 0)
    assert not Vote.objects.exists()
    assert not NominationWeek.objects.exists()
    assert not Activity.objects.filter(activity_type="vote_cast").exists()
    assert points(other_scout) == 0
    events.settle()
    assert events.types() == []


def test_vote_validation_and_auth(api: ApiClient, scout_api: ApiClient) -> None:
    assert_error(api.post("/api/votes", {"nominationId": 1}), 401)
    assert_error(api.delete("/api/votes/1"), 401)
    body = assert_error(scout_api.post("/api/votes", {}), 400, "Required")
    assert body["fields"] == {"nominationId": "Required"}
    assert_error(scout_api.post("/api/votes", {"nominationId": "x"}), 400, "Invalid input")


def test_vote_on_approved_nomination(scout_api: ApiClient, other_scout: User) -> None:
    approved = make_nomination(other_scout, status=NominationStatus.APPROVED)
    assert scout_api.post("/api/votes", {"nominationId": approved.pk}).status_code == 201


def test_own_nomination_vote_gives_no_received_points(scout_api: ApiClient, scout: User) -> None:
    own = make_nomination(scout)
    User.objects.filter(pk=scout.pk).update(points=0)
    assert scout_api.post("/api/votes", {"nominationId": own.pk}).status_code == 201
    assert points(scout) == 1
    assert not Notification.objects.exists()
    assert scout_api.delete(f"/api/votes/{own.pk}").status_code == 200
    assert points(scout) == 0


def test_points_never_go_below_zero(
    scout_api: ApiClient, scout: User, other_scout: User, nomination: Nomination
) -> None:
    scout_api.post("/api/votes", {"nominationId": nomination.pk})
    User.objects.filter(pk__in=[scout.pk, other_scout.pk]).update(points=0)
    scout_api.delete(f"/api/votes/{nomination.pk}")
    assert points(scout) == 0 and points(other_scout) == 0


def test_cast_records_activity_and_remove_retracts_it(
    scout_api: ApiClient, scout: User, nomination: Nomination
) -> None:
    scout_api.post("/api/votes", {"nominationId": nomination.pk})
    activity = Activity.objects.get(activity_type="vote_cast")
    assert activity.user_id == scout.pk
    assert activity.related_nomination_id == nomination.pk
    assert activity.related_player_id == nomination.player_id
    assert activity.sport == nomination.sport
    assert activity.metadata == {"playerName": "Vera Voted"}
    scout_api.delete(f"/api/votes/{nomination.pk}")
    assert not Activity.objects.filter(activity_type="vote_cast").exists()


def test_cast_events(
    scout_api: ApiClient,
    scout: User,
    other_scout: User,
    nomination: Nomination,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        scout_api.post("/api/votes", {"nominationId": nomination.pk})
    changed = events.one("vote.changed")
    assert changed.sport == "football" and changed.user_ids == () and not changed.admins
    assert changed.data == {
        "votes": [{"nominationId": nomination.pk, "voteCount": 1, "version": 1}]
    }
    own = events.one("vote.own")
    assert own.user_ids == (scout.pk,) and own.sport is None and not own.admins
    assert own.data == {
        "nominationId": nomination.pk,
        "hasVoted": True,
        "voteCount": 1,
        "version": 1,
    }
    assert events.one("activity.created").data["activityType"] == "vote_cast"
    notified = events.one("notification.created")
    assert notified.user_ids == (other_scout.pk,) and notified.sport is None
    assert set(notified.data) == {
        "id",
        "message",
        "type",
        "read",
        "createdAt",
        "relatedNominationId",
    }
    assert notified.data["type"] == "vote_received"
    profiles = {event.user_ids: event.data for event in events.of_type("profile.changed")}
    assert profiles == {
        (scout.pk,): {"points": 1, "currentStreak": 1, "longestStreak": 1},
        (other_scout.pk,): {"points": 2, "currentStreak": 1, "longestStreak": 1},
    }

    events.clear()
    with django_capture_on_commit_callbacks(execute=True):
        scout_api.delete(f"/api/votes/{nomination.pk}")
    assert events.one("vote.changed").data == {
        "votes": [{"nominationId": nomination.pk, "voteCount": 0, "version": 2}]
    }
    assert events.one("vote.own").data == {
        "nominationId": nomination.pk,
        "hasVoted": False,
        "voteCount": 0,
        "version": 2,
    }
    assert len(events.of_type("profile.changed")) == 2
    assert not events.of_type("activity.created")


def test_failed_vote_publishes_nothing(
    scout_api: ApiClient,
    nomination: Nomination,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    scout_api.post("/api/votes", {"nominationId": nomination.pk})
    with django_capture_on_commit_callbacks(execute=True):
        assert scout_api.post("/api/votes", {"nominationId": nomination.pk}).status_code == 409
    assert events.events == []


# --- vote_received notifications ------------------------------------------------------------


def test_vote_received_is_coalesced_per_nomination(
    scout_api: ApiClient, other_scout: User, nomination: Nomination
) -> None:
    third = make_user(name="Theo Third")
    third_api = ApiClient().login(third)
    scout_api.post("/api/votes", {"nominationId": nomination.pk})
    first = Notification.objects.get(user=other_scout)
    assert first.type == "vote_received"
    assert first.related_nomination_id == nomination.pk
    assert first.message == "Sam Scout voted for Vera Voted. It now has 1 vote."
    third_api.post("/api/votes", {"nominationId": nomination.pk})
    only = Notification.objects.get(user=other_scout)
    assert only.pk == first.pk
    assert only.message == "Theo Third voted for Vera Voted. It now has 2 votes."
    assert only.created_at >= first.created_at

    only.read = True
    only.save()
    scout_api.delete(f"/api/votes/{nomination.pk}")
    scout_api.post("/api/votes", {"nominationId": nomination.pk})
    assert Notification.objects.filter(user=other_scout).count() == 2
    assert Notification.objects.filter(user=other_scout, read=False).count() == 1


def test_vote_notifications_setting_gates_them(
    scout_api: ApiClient, other_scout: User, nomination: Nomination
) -> None:
    other_scout.settings.vote_notifications = False
    other_scout.settings.save()
    scout_api.post("/api/votes", {"nominationId": nomination.pk})
    assert not Notification.objects.exists()
    assert points(other_scout) == 2


def test_vote_received_emails_fold_when_email_is_on(
    scout_api: ApiClient,
    other_scout: User,
    nomination: Nomination,
    django_capture_on_commit_callbacks: Any,
) -> None:
    third_api = ApiClient().login(make_user(name="Theo Third"))
    with django_capture_on_commit_callbacks(execute=True):
        scout_api.post("/api/votes", {"nominationId": nomination.pk})
        third_api.post("/api/votes", {"nominationId": nomination.pk})
    assert mail.outbox == []  # the worker sends it
    events_dispatch()
    run_tasks()
    # Both votes, dispatched together, fold into one email.
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [other_scout.email]
    assert mail.outbox[0].subject == "2 new votes on Vera Voted in the last hour"
    assert "It now has 2 votes." in mail.outbox[0].body


def test_no_email_when_email_notifications_are_off(
    scout_api: ApiClient,
    other_scout: User,
    nomination: Nomination,
    django_capture_on_commit_callbacks: Any,
) -> None:
    other_scout.settings.email_notifications = False
    other_scout.settings.save()
    with django_capture_on_commit_callbacks(execute=True):
        scout_api.post("/api/votes", {"nominationId": nomination.pk})
    events_dispatch()
    run_tasks()
    assert mail.outbox == []
    assert Notification.objects.filter(user=other_scout).count() == 1
