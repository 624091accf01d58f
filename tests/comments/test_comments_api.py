"""Comments on a nomination: the API, each safety rule with its reason, the delete matrix,
reports by weight, the admins' review and what each write publishes (project/comments)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from project.accounts.models import User
from project.comments.models import Comment, CommentReport, CommentStatus
from project.integrity.models import FlagRule, IntegrityFlag
from project.modlog.models import ModlogEntry
from project.privacy.models import PlayerControls
from project.scouting.models import Nomination, NominationStatus, Notification, Player
from tests.builders import aged, make_nomination, make_user
from tests.helpers import ApiClient, EventRecorder, assert_error

pytestmark = pytest.mark.django_db(transaction=True)

YEAR = timezone.localdate().year
CONTACT = "Contact details cannot be posted on an athlete's page."


def comments_of(api: ApiClient, nomination: Nomination, **query: Any) -> Any:
    response = api.get(f"/api/nominations/{nomination.pk}/comments", data=query)
    assert response.status_code == 200, response.content
    return response.json()


def post(api: ApiClient, nomination: Nomination, content: str) -> Any:
    return api.post(f"/api/nominations/{nomination.pk}/comments", {"content": content})


def assert_code(response: Any, status: int, code: str, message: str | None = None) -> None:
    body = assert_error(response, status, message)
    assert body["code"] == code, body


@pytest.fixture
def nomination(scout: User) -> Nomination:
    """A 15-year-old's nomination (a minor, old enough for comments)."""
    return make_nomination(scout, name="Leo Costa", age=15)


@pytest.fixture
def adult_nomination(scout: User) -> Nomination:
    return make_nomination(scout, name="Ana Reis", age=19)


def claimed(nomination: Nomination, *, by: User, relationship: str = "parent_or_guardian") -> None:
    player = nomination.player
    player.claimed_by = by
    player.save(update_fields=["claimed_by"])
    PlayerControls.objects.create(player=player, relationship=relationship, birth_year=YEAR - 16)


# --- Posting and reading ----------------------------------------------------------------------


def test_a_member_comments_and_everyone_reads_it_oldest_first(
    scout_api: ApiClient, other_api: ApiClient, other_scout: User, nomination: Nomination
) -> None:
    first = post(other_api, nomination, "Great first touch in the cup final.")
    second = post(scout_api, nomination, "Agreed, and he reads the game well.")

    assert first.status_code == 201, first.content
    body = first.json()
    assert body["status"] == "published"
    assert body["author"] == {
        "id": other_scout.pk,
        "name": other_scout.name,
        "username": other_scout.username,
        "badges": [],
    }
    assert body["commentCount"] == 1
    assert second.json()["author"]["badges"] == ["nominator"]
    page = comments_of(other_api, nomination)
    assert page["open"] is True and page["closedReason"] is None and page["minor"] is True
    assert [item["content"] for item in page["items"]] == [
        "Great first touch in the cup final.",
        "Agreed, and he reads the game well.",
    ]
    assert [item["canDelete"] for item in page["items"]] == [True, False]
    card = other_api.get(f"/api/nominations/{nomination.pk}").json()
    assert card["commentCount"] == 2


def test_comments_page_with_a_link_header(scout_api: ApiClient, nomination: Nomination) -> None:
    for n in range(3):
        assert post(scout_api, nomination, f"Comment number {n}").status_code == 201
    response = scout_api.get(f"/api/nominations/{nomination.pk}/comments", data={"limit": 2})
    assert [item["content"] for item in response.json()["items"]] == [
        "Comment number 0",
        "Comment number 1",
    ]
    assert 'rel="next"' in response["Link"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "Comment is required"),
        ("   ", "Comment is required"),
        ("x" * 1001, "Comment must be at most 1000 characters"),
    ],
)
def test_content_is_one_to_a_thousand_characters(
    scout_api: ApiClient, nomination: Nomination, content: str, message: str
) -> None:
    response = post(scout_api, nomination, content)
    body = assert_error(response, 400)
    assert message in str(body), body
    assert not Comment.objects.exists()


def test_a_thousand_characters_are_accepted(scout_api: ApiClient, nomination: Nomination) -> None:
    assert post(scout_api, nomination, "y" * 1000).status_code == 201


def test_signed_out_reads_and_writes_nothing(api: ApiClient, nomination: Nomination) -> None:
    assert api.get(f"/api/nominations/{nomination.pk}/comments").status_code == 401
    assert post(api, nomination, "hello").status_code == 401


def test_a_nomination_the_member_cannot_see_is_not_found(other_api: ApiClient, scout: User) -> None:
    rejected = make_nomination(scout, status=NominationStatus.REJECTED)
    assert other_api.get(f"/api/nominations/{rejected.pk}/comments").status_code == 404
    assert post(other_api, rejected, "hello").status_code == 404


# --- Comments off -----------------------------------------------------------------------------


def test_comments_are_off_under_13(scout_api: ApiClient, scout: User) -> None:
    child = make_nomination(scout, age=11)
    page = comments_of(scout_api, child)
    assert page["open"] is False
    assert page["closedReason"] == "Comments are off for athletes under 13."
    assert_code(
        post(scout_api, child, "Lovely player"),
        403,
        "comments_off",
        "Comments are off for athletes under 13.",
    )


def test_comments_are_off_when_the_age_is_unknown(scout_api: ApiClient, scout: User) -> None:
    unknown = make_nomination(scout, age=15)
    Player.objects.filter(pk=unknown.player_id).update(age=None)
    assert post(scout_api, unknown, "Lovely player").status_code == 403


def test_the_claimant_turns_comments_off_and_they_are_hidden(
    other_api: ApiClient, nomination: Nomination
) -> None:
    assert post(other_api, nomination, "Strong in the air").status_code == 201
    family = make_user(name="Rosa Costa")
    claimed(nomination, by=family)
    family_api = ApiClient().login(family)

    response = family_api.put(
        f"/api/players/{nomination.player_id}/controls", {"commentsOpen": False}
    )

    assert response.status_code == 200, response.content
    assert response.json()["commentsOpen"] is False
    page = comments_of(other_api, nomination)
    message = "The athlete's family turned comments off for this page."
    assert page == {
        "open": False,
        "closedReason": message,
        "minor": True,
        "canModerate": False,
        "items": [],
    }
    # The family moderates its page: any comment arriving live gets its Delete.
    assert comments_of(family_api, nomination)["canModerate"] is True
    assert_code(post(other_api, nomination, "Another one"), 403, "comments_off", message)
    assert other_api.get(f"/api/nominations/{nomination.pk}").json()["commentCount"] == 0


# --- Contact details on a minor's page --------------------------------------------------------


@pytest.mark.parametrize(
    "content",
    [
        "Call his dad on 07700 900123",
        "Text +44 7700 900 123 for trials",
        "Email me at coach.silva@gmail.com",
        "coach dot silva at gmail dot com",
        "Follow him @leo_costa10",
        "insta: leocosta_10",
        "DM me for his highlights",
        "Watch https://youtu.be/abc123",
        "More at www.leocosta.com",
        "see leocosta.net/clips",
    ],
)
def test_contact_details_are_refused_on_a_minors_page(
    scout_api: ApiClient, nomination: Nomination, content: str
) -> None:
    assert_code(post(scout_api, nomination, content), 400, "contact_details", CONTACT)
    assert not Comment.objects.exists()


@pytest.mark.parametrize(
    "content",
    [
        "Won 21-18 21-15 in the final",
        "12 goals in 15 games this season, class of 2027",
        "Scored at 3.45 in the second half",
        "Ran the 100m in 11.2 seconds",
    ],
)
def test_sports_figures_are_not_contact_details(
    scout_api: ApiClient, nomination: Nomination, content: str
) -> None:
    assert post(scout_api, nomination, content).status_code == 201


def test_contact_details_are_allowed_on_an_adults_page(
    scout_api: ApiClient, adult_nomination: Nomination
) -> None:
    assert post(scout_api, adult_nomination, "Her club: www.reisfc.com").status_code == 201


# --- Held for review --------------------------------------------------------------------------


def held(api: ApiClient, nomination: Nomination, content: str) -> dict[str, Any]:
    response = post(api, nomination, content)
    assert response.status_code == 201, response.content
    body: dict[str, Any] = response.json()
    assert body["status"] == "pending"
    return body


def reasons_of(comment_id: int) -> list[str]:
    return list(Comment.objects.get(pk=comment_id).hold_reasons)


def test_a_new_member_is_held_and_seen_only_by_them_and_admins(
    settings: Any,
    nomination: Nomination,
    scout: User,
    other_api: ApiClient,
    admin_api: ApiClient,
    events: EventRecorder,
) -> None:
    settings.TRUST_ACCOUNT_AGE_HOURS = 24
    newcomer = make_user(name="Nina New")
    newcomer_api = ApiClient().login(newcomer)

    body = held(newcomer_api, nomination, "Saw him play on Saturday, brilliant")

    assert reasons_of(body["id"]) == ["new_member"]
    assert [i["status"] for i in comments_of(newcomer_api, nomination)["items"]] == ["pending"]
    assert comments_of(other_api, nomination)["items"] == []
    assert [i["id"] for i in comments_of(admin_api, nomination)["items"]] == [body["id"]]
    assert Nomination.objects.get(pk=nomination.pk).comment_count == 0
    created = events.one("comment.created")
    assert created.user_ids == (newcomer.pk,) and created.admins and created.sport is None
    assert events.one("comments.review").data["action"] == "held"
    assert not Notification.objects.filter(user=scout).exists()


def test_an_aged_member_is_published(settings: Any, nomination: Nomination) -> None:
    settings.TRUST_ACCOUNT_AGE_HOURS = 24
    member = aged(make_user(), hours=48)
    response = post(ApiClient().login(member), nomination, "Fine left foot")
    assert response.json()["status"] == "published"


def test_a_member_named_by_an_integrity_flag_is_held(
    nomination: Nomination, other_api: ApiClient, other_scout: User
) -> None:
    IntegrityFlag.objects.create(
        rule=FlagRule.SHARED_PREFIX, subject="x", accounts=[other_scout.pk], nomination=nomination
    )
    body = held(other_api, nomination, "Fine left foot")
    assert reasons_of(body["id"]) == ["low_trust"]


def test_a_watched_word_is_held(other_api: ApiClient, nomination: Nomination) -> None:
    body = held(other_api, nomination, "That ref was a wanker all game")
    comment = Comment.objects.get(pk=body["id"])
    assert "watched_word" in comment.hold_reasons
    assert comment.watched_words == ["wanker"]


def test_the_classifier_holds_an_insult_without_a_listed_word(
    other_api: ApiClient, nomination: Nomination
) -> None:
    body = held(other_api, nomination, "you are an idiot and you suck")
    comment = Comment.objects.get(pk=body["id"])
    assert "classifier" in comment.hold_reasons
    assert comment.classifier_score >= 0.9


@pytest.mark.parametrize(
    "content",
    ["He will kill it on the pitch this season", "Dick Smith coached him at U16", "What a shot!"],
)
def test_sports_talk_is_published(
    other_api: ApiClient, nomination: Nomination, content: str
) -> None:
    assert post(other_api, nomination, content).json()["status"] == "published"


# --- Budgets ----------------------------------------------------------------------------------


def test_comments_have_a_budget_per_minute(
    settings: Any, scout_api: ApiClient, nomination: Nomination
) -> None:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "COMMENTS_PER_MINUTE": 2, "COMMENTS_PER_DAY": 50}
    assert post(scout_api, nomination, "one").status_code == 201
    assert post(scout_api, nomination, "two").status_code == 201
    response = post(scout_api, nomination, "three")
    body = assert_error(response, 429)
    assert body["message"].startswith(
        "You are commenting faster than we allow. You can comment again in "
    )
    assert response["Retry-After"]
    assert Comment.objects.count() == 2


def test_a_refused_comment_spends_nothing(
    settings: Any, scout_api: ApiClient, nomination: Nomination
) -> None:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "COMMENTS_PER_MINUTE": 1, "COMMENTS_PER_DAY": 50}
    assert post(scout_api, nomination, "call 07700 900123").status_code == 400
    assert post(scout_api, nomination, "fine").status_code == 201


# --- Delete: who may ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"),
    [("author", 204), ("claimant", 204), ("admin", 204), ("nominator", 403), ("stranger", 403)],
)
def test_delete_permission_matrix(
    who: str,
    status: int,
    nomination: Nomination,
    scout_api: ApiClient,
    admin_api: ApiClient,
) -> None:
    author = make_user(name="Andy Author")
    family = make_user(name="Fay Family")
    claimed(nomination, by=family)
    comment_id = post(ApiClient().login(author), nomination, "Quick feet").json()["id"]
    apis = {
        "author": ApiClient().login(author),
        "claimant": ApiClient().login(family),
        "admin": admin_api,
        "nominator": scout_api,
        "stranger": ApiClient().login(make_user()),
    }

    response = apis[who].delete(f"/api/comments/{comment_id}")

    assert response.status_code == status, response.content
    assert Comment.objects.filter(pk=comment_id).exists() is (status != 204)
    expected = 0 if status == 204 else 1
    assert Nomination.objects.get(pk=nomination.pk).comment_count == expected
    assert ModlogEntry.objects.filter(action="comment_remove").exists() is (who == "admin")


def test_a_held_comment_is_not_found_by_others(
    settings: Any, nomination: Nomination, other_api: ApiClient
) -> None:
    settings.TRUST_ACCOUNT_AGE_HOURS = 24
    newcomer_api = ApiClient().login(make_user())
    comment_id = held(newcomer_api, nomination, "hello there")["id"]
    assert other_api.delete(f"/api/comments/{comment_id}").status_code == 404
    assert newcomer_api.delete(f"/api/comments/{comment_id}").status_code == 204


def test_a_deletion_reaches_every_open_page(
    scout_api: ApiClient, nomination: Nomination, events: EventRecorder
) -> None:
    comment_id = post(scout_api, nomination, "Quick feet").json()["id"]
    events.clear()
    scout_api.delete(f"/api/comments/{comment_id}")
    removed = events.one("comment.removed")
    assert removed.sport == nomination.sport
    assert removed.data == {"id": comment_id, "nominationId": nomination.pk, "commentCount": 0}


# --- Live and notifications --------------------------------------------------------------------


def test_a_published_comment_reaches_the_nominations_audience_and_notifies(
    nomination: Nomination, scout: User, other_api: ApiClient, events: EventRecorder
) -> None:
    family = make_user(name="Fay Family")
    claimed(nomination, by=family)

    body = post(other_api, nomination, "Great engine").json()
    post(other_api, nomination, "And a great first touch")

    created = events.of_type("comment.created")[0]
    assert created.sport == nomination.sport and created.admins
    assert created.data["id"] == body["id"] and created.data["commentCount"] == 1
    assert "canDelete" not in created.data
    for user in (scout, family):
        folded = Notification.objects.filter(user=user, type="comment_received")
        assert folded.count() == 1, "two comments fold into one unread notification"
        assert "commented on Leo Costa" in folded.get().message


# --- Reports ------------------------------------------------------------------------------------


def report(api: ApiClient, comment_id: int) -> Any:
    return api.post("/api/reports", {"commentId": comment_id, "reason": "inappropriate"})


def test_reports_weigh_by_record_and_enough_weight_hides_the_comment(
    settings: Any, nomination: Nomination, scout_api: ApiClient, events: EventRecorder
) -> None:
    settings.COMMENT_REPORT_HIDE_WEIGHT = 2.5
    comment_id = post(scout_api, nomination, "Overrated, honestly").json()["id"]
    reporters = [make_user() for _ in range(3)]
    first, second = (report(ApiClient().login(user), comment_id) for user in reporters[:2])
    assert first.status_code == 201 and second.status_code == 201, first.content
    assert Comment.objects.get(pk=comment_id).status == CommentStatus.PUBLISHED
    events.clear()

    assert report(ApiClient().login(reporters[2]), comment_id).status_code == 201

    comment = Comment.objects.get(pk=comment_id)
    assert comment.status == CommentStatus.PENDING and comment.hold_reasons == ["reports"]
    assert comment.report_weight == 3.0
    assert events.one("comment.removed").sport == nomination.sport
    assert comments_of(ApiClient().login(reporters[0]), nomination)["items"] == []


def test_a_reporter_whose_reports_were_dismissed_weighs_less(
    nomination: Nomination, scout_api: ApiClient, admin_api: ApiClient
) -> None:
    reporter = make_user()
    reporter_api = ApiClient().login(reporter)
    for n in range(3):
        comment_id = post(scout_api, nomination, f"Fine player {n}").json()["id"]
        report(reporter_api, comment_id)
        assert admin_api.post(f"/api/admin/comments/{comment_id}/approve", {}).status_code == 200
    comment_id = post(scout_api, nomination, "Fine player again").json()["id"]
    report(reporter_api, comment_id)
    assert CommentReport.objects.get(comment_id=comment_id).weight == 0.4


def test_a_comment_is_reported_once_and_not_by_its_author(
    nomination: Nomination, scout_api: ApiClient, other_api: ApiClient
) -> None:
    comment_id = post(scout_api, nomination, "Fine player").json()["id"]
    assert report(other_api, comment_id).status_code == 201
    assert_code(report(other_api, comment_id), 409, "already_reported")
    assert_code(report(scout_api, comment_id), 400, "own_comment")


# --- Admin review ------------------------------------------------------------------------------


def test_admins_see_held_comments_with_their_reasons_and_approve_them(
    settings: Any,
    nomination: Nomination,
    scout: User,
    admin_api: ApiClient,
    other_api: ApiClient,
    events: EventRecorder,
) -> None:
    settings.TRUST_ACCOUNT_AGE_HOURS = 24
    newcomer_api = ApiClient().login(make_user(name="Nina New"))
    comment_id = held(newcomer_api, nomination, "That ref was a wanker")["id"]

    queue = admin_api.get("/api/admin/comments", data={"status": "pending"}).json()

    assert [item["id"] for item in queue] == [comment_id]
    codes = [reason["code"] for reason in queue[0]["reasons"]]
    assert codes[:2] == ["new_member", "watched_word"]
    assert queue[0]["reasons"][1]["detail"] == "wanker"
    assert queue[0]["playerName"] == "Leo Costa"
    events.clear()

    response = admin_api.post(f"/api/admin/comments/{comment_id}/approve", {})

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "published"
    assert [i["id"] for i in comments_of(other_api, nomination)["items"]] == [comment_id]
    assert events.one("comment.created").sport == nomination.sport
    assert events.one("comments.review").data["action"] == "approved"
    assert Notification.objects.filter(user=scout, type="comment_received").count() == 1
    assert ModlogEntry.objects.filter(action="comment_approve", target_id=comment_id).exists()
    assert_code(
        admin_api.post(f"/api/admin/comments/{comment_id}/approve", {}), 409, "already_decided"
    )


def test_admins_remove_and_restore(
    nomination: Nomination, scout_api: ApiClient, admin_api: ApiClient, other_api: ApiClient
) -> None:
    comment_id = post(scout_api, nomination, "Fine player").json()["id"]
    report(other_api, comment_id)
    reported = admin_api.get("/api/admin/comments", data={"status": "reported"}).json()
    assert [item["id"] for item in reported] == [comment_id]

    assert admin_api.post(f"/api/admin/comments/{comment_id}/remove", {}).status_code == 200

    assert comments_of(other_api, nomination)["items"] == []
    assert CommentReport.objects.get().outcome == "upheld"
    assert admin_api.post(f"/api/admin/comments/{comment_id}/approve", {}).status_code == 200
    assert list(
        ModlogEntry.objects.filter(target_type="comment")
        .order_by("id")
        .values_list("action", flat=True)
    ) == ["comment_remove", "comment_restore"]


def test_members_cannot_use_the_review(other_api: ApiClient) -> None:
    assert other_api.get("/api/admin/comments").status_code == 403


# --- The member's account -----------------------------------------------------------------------


def test_a_deleted_members_comments_leave_the_counts(
    nomination: Nomination, other_api: ApiClient, other_scout: User, events: EventRecorder
) -> None:
    from project.accounts.services import user_delete

    post(other_api, nomination, "Quick feet")
    events.clear()
    user_delete(user=other_scout)
    assert Nomination.objects.get(pk=nomination.pk).comment_count == 0
    assert events.one("comment.removed").data["commentCount"] == 0


def test_the_export_holds_the_members_comments(
    nomination: Nomination, other_api: ApiClient
) -> None:
    post(other_api, nomination, "Quick feet")
    exported = other_api.get("/api/profile/export").json()
    assert [row["content"] for row in exported["comments"]] == ["Quick feet"]


def test_emails_and_pushes_follow_published_comments_only(
    settings: Any, nomination: Nomination, scout: User
) -> None:
    from project.notify.models import OutboundEvent

    settings.TRUST_ACCOUNT_AGE_HOURS = 24
    newcomer_api = ApiClient().login(make_user())
    held(newcomer_api, nomination, "Saw him at the weekend")
    assert not OutboundEvent.objects.filter(user_id=scout.pk).exists()

    member_api = ApiClient().login(aged(make_user(name="Old Hand"), hours=48))
    post(member_api, nomination, "He has grown a lot this year")

    event = OutboundEvent.objects.get(user_id=scout.pk)
    assert (event.kind, event.nomination_id) == ("comment_received", nomination.pk)
    assert event.message == "Old Hand commented on Leo Costa"


def test_the_claimants_export_of_the_player_holds_published_comments_and_counts_held(
    settings: Any, nomination: Nomination, other_api: ApiClient, other_scout: User
) -> None:
    assert post(other_api, nomination, "What a season").status_code == 201
    settings.TRUST_ACCOUNT_AGE_HOURS = 24
    held(ApiClient().login(make_user()), nomination, "Saw him on Saturday")
    parent = make_user(name="Pat Costa")
    claimed(nomination, by=parent)

    body = ApiClient().login(parent).get(f"/api/players/{nomination.player_id}/export").json()

    assert [(c["author"], c["content"]) for c in body["comments"]] == [
        (other_scout.username, "What a season")
    ]
    assert (body["comments_held"], body["comments_removed"]) == (1, 0)
