"""Player updates: who writes them, who sees them, the admins' review of media, the followers
and the feed told, deletion (project/updates)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from project.accounts.models import User
from project.accounts.services import user_delete
from project.claims.retention import player_anonymise
from project.modlog.models import ModlogEntry
from project.notify.models import OutboundEvent
from project.privacy.models import PlayerControls
from project.scouting.models import Activity, Nomination, Notification, Player
from project.updates.models import PlayerUpdate
from tests.builders import follow, make_coach, make_nomination, make_user
from tests.helpers import ApiClient, EventRecorder, assert_error
from tests.media.conftest import Upload, png_bytes

pytestmark = pytest.mark.django_db(transaction=True)

NOT_AN_AUTHOR = "Only the athlete's family or a verified coach can post updates about this player"
HOSTS_ONLY = "Video links must be YouTube, Vimeo or Hudl addresses"


def post(api: ApiClient, player_id: int, **body: Any) -> Any:
    return api.post(f"/api/players/{player_id}/updates", {"title": "Won the final", **body})


def titles(api: ApiClient, player_id: int) -> list[str]:
    response = api.get(f"/api/players/{player_id}/updates")
    assert response.status_code == 200, response.content
    return [item["title"] for item in response.json()]


@pytest.fixture
def nomination(scout: User) -> Nomination:
    return make_nomination(scout, name="Mia Jones", age=15, club="Lisbon Juniors")


@pytest.fixture
def claimant(nomination: Nomination) -> User:
    parent = make_user(name="Rita Jones")
    Player.objects.filter(pk=nomination.player_id).update(claimed_by=parent)
    PlayerControls.objects.create(
        player_id=nomination.player_id, relationship="parent_or_guardian", birth_year=2011
    )
    return parent


@pytest.fixture
def claimant_api(claimant: User) -> ApiClient:
    return ApiClient().login(claimant)


@pytest.fixture
def coach() -> User:
    return make_coach(name="Carla Coach")


@pytest.fixture
def coach_api(coach: User) -> ApiClient:
    return ApiClient().login(coach)


# --- Who may write ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 401), ("member", 403), ("admin", 403), ("coach", 201), ("claimant", 201)],
)
def test_who_may_write(
    who: str,
    status: int,
    nomination: Nomination,
    claimant: User,
    coach: User,
    scout: User,
    admin_user: User,
) -> None:
    users = {"member": scout, "admin": admin_user, "coach": coach, "claimant": claimant}
    api = ApiClient() if who == "anonymous" else ApiClient().login(users[who])

    response = post(api, nomination.player_id, content="Two goals.", milestone=True)

    assert response.status_code == status, response.content
    if status == 403:
        assert_error(response, 403, NOT_AN_AUTHOR)
    if status == 201:
        body = response.json()
        assert body["status"] == "published"
        assert body["milestone"] is True
        assert body["authorRole"] == who
        assert PlayerUpdate.objects.get().user == users[who]
    else:
        assert not PlayerUpdate.objects.exists()


def test_a_player_the_writer_cannot_see_is_not_found(coach_api: ApiClient) -> None:
    hidden = make_nomination(status="hidden")
    assert post(coach_api, hidden.player_id).status_code == 404


# --- Reading: the public sees nothing, members the published ones, newest first ---------------


def test_members_read_published_updates_newest_first_and_signed_out_gets_nothing(
    claimant_api: ApiClient, scout_api: ApiClient, api: ApiClient, nomination: Nomination
) -> None:
    for title in ("First", "Second", "Third"):
        assert post(claimant_api, nomination.player_id, title=title).status_code == 201

    assert titles(scout_api, nomination.player_id) == ["Third", "Second", "First"]
    page = scout_api.get(f"/api/players/{nomination.player_id}/updates?limit=2")
    assert [item["title"] for item in page.json()] == ["Third", "Second"]
    assert 'rel="next"' in page["Link"]
    assert api.get(f"/api/players/{nomination.player_id}/updates").status_code == 401


# --- Media waits for an admin --------------------------------------------------------------


def test_a_video_update_waits_for_an_admin_before_others_see_it(
    claimant_api: ApiClient,
    scout_api: ApiClient,
    admin_api: ApiClient,
    nomination: Nomination,
    scout: User,
    events: EventRecorder,
) -> None:
    follow(scout, player=nomination.player)
    response = post(
        claimant_api, nomination.player_id, videoURL="https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "pending"
    assert body["video"] == {
        "host": "youtube",
        "url": "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        "embedUrl": "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
    }
    events.settle()
    queue = events.one("player_update_queue.changed")
    assert queue.admins and queue.data["pending"] == 1
    changed = events.one("player_update.changed")
    assert changed.sport is None  # the author and admins only, never the sport's group

    assert titles(scout_api, nomination.player_id) == []  # a member: not yet
    assert titles(claimant_api, nomination.player_id) == ["Won the final"]  # its author
    assert titles(admin_api, nomination.player_id) == ["Won the final"]
    assert not Notification.objects.filter(user=scout).exists()
    assert not Activity.objects.filter(activity_type="player_update").exists()
    pending = admin_api.get("/api/admin/player-updates?status=pending").json()
    assert [item["id"] for item in pending] == [body["id"]]
    events.clear()

    approved = admin_api.post(f"/api/admin/player-updates/{body['id']}/approve")

    assert approved.status_code == 200, approved.content
    assert approved.json()["status"] == "published"
    assert titles(scout_api, nomination.player_id) == ["Won the final"]
    told = Notification.objects.get(user=scout)
    assert told.type == "player_update"
    assert "Won the final" in told.message
    assert Activity.objects.filter(activity_type="player_update").count() == 1
    assert ModlogEntry.objects.filter(action="player_update_approve").count() == 1
    events.settle()
    sports = [event.sport for event in events.of_type("player_update.changed")]
    assert "football" in sports
    assert events.one("player_update_queue.changed").data["pending"] == 0
    again = admin_api.post(f"/api/admin/player-updates/{body['id']}/approve")
    assert assert_error(again, 409)["code"] == "already_decided"


def test_a_rejected_update_is_never_seen_by_members(
    coach_api: ApiClient, scout_api: ApiClient, admin_api: ApiClient, nomination: Nomination
) -> None:
    update_id = post(coach_api, nomination.player_id, videoURL="https://vimeo.com/76979871").json()[
        "id"
    ]

    rejected = admin_api.post(
        f"/api/admin/player-updates/{update_id}/reject", {"reason": "Not this one"}
    )

    assert rejected.status_code == 200, rejected.content
    assert titles(scout_api, nomination.player_id) == []
    assert ModlogEntry.objects.filter(action="player_update_reject").count() == 1
    assert PlayerUpdate.objects.get().status == "rejected"


def test_members_cannot_use_the_admin_queue(
    scout_api: ApiClient, nomination: Nomination, coach_api: ApiClient
) -> None:
    update_id = post(coach_api, nomination.player_id, videoURL="https://vimeo.com/1").json()["id"]
    assert scout_api.get("/api/admin/player-updates").status_code == 403
    assert scout_api.post(f"/api/admin/player-updates/{update_id}/approve").status_code == 403
    assert PlayerUpdate.objects.get().status == "pending"


def test_an_image_update_is_held_and_its_image_served_only_to_who_sees_it(
    coach_api: ApiClient,
    coach: User,
    scout_api: ApiClient,
    admin_api: ApiClient,
    nomination: Nomination,
    local_backend: Upload,
    django_capture_on_commit_callbacks: Any,
) -> None:
    ticket = coach_api.post("/api/objects/upload").json()
    assert local_backend.send(ticket, png_bytes()) == 204

    response = post(coach_api, nomination.player_id, imageURL=ticket["objectURL"])

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "pending"
    image_url = body["imageUrl"]
    assert image_url.startswith(f"/media/updates/{nomination.player_id}/")
    assert coach_api.client.get(image_url).status_code == 200  # its author
    assert scout_api.client.get(image_url).status_code == 404  # a member: not yet
    assert Client().get(image_url).status_code == 404  # signed out: never
    assert titles(scout_api, nomination.player_id) == []

    assert admin_api.post(f"/api/admin/player-updates/{body['id']}/approve").status_code == 200
    served = scout_api.client.get(image_url)
    assert served.status_code == 200
    assert served["Cache-Control"] == "private, no-cache"
    assert Client().get(image_url).status_code == 404  # the public still sees nothing


def test_an_upload_is_refused_when_it_is_not_an_image(
    coach_api: ApiClient, nomination: Nomination, local_backend: Upload
) -> None:
    ticket = coach_api.post("/api/objects/upload").json()
    assert local_backend.send(ticket, b"not an image at all") == 204

    response = post(coach_api, nomination.player_id, imageURL=ticket["objectURL"])

    assert response.status_code == 400
    assert not PlayerUpdate.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "https://www.tiktok.com/@someone/video/123",
        "https://evil.example/watch?v=dQw4w9WgXcQ",
        "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
        "https://dailymotion.com/video/x7",
    ],
)
def test_video_hosts_other_than_the_three_are_refused(
    url: str, claimant_api: ApiClient, nomination: Nomination
) -> None:
    response = post(claimant_api, nomination.player_id, videoURL=url)

    body = assert_error(response, 400)
    assert HOSTS_ONLY in str(body), body
    assert not PlayerUpdate.objects.exists()


def test_a_picture_and_a_video_link_together_are_refused(
    claimant_api: ApiClient, nomination: Nomination
) -> None:
    response = post(
        claimant_api,
        nomination.player_id,
        videoURL="https://vimeo.com/1",
        imageURL="/media/uploads/avatars/1/abcdefghijklmnopqrstuvwx",
    )
    assert_error(response, 400, "Add a picture or a video link, not both")
    assert not PlayerUpdate.objects.exists()


@pytest.mark.parametrize(
    ("url", "embed"),
    [
        ("https://youtu.be/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"),
        (
            "https://player.vimeo.com/video/76979871",
            "https://player.vimeo.com/video/76979871?dnt=1",
        ),
        (
            "https://www.hudl.com/video/3/1234567/abcdef0123456789",
            "https://www.hudl.com/embed/video/3/1234567/abcdef0123456789",
        ),
    ],
)
def test_video_links_are_shown_through_the_privacy_enhanced_embed(
    url: str, embed: str, claimant_api: ApiClient, nomination: Nomination
) -> None:
    response = post(claimant_api, nomination.player_id, videoURL=url)
    assert response.status_code == 201, response.content
    assert response.json()["video"]["embedUrl"] == embed


# --- A young child's page without a family -------------------------------------------------


def test_text_on_an_unclaimed_child_under_13_waits_for_an_admin(
    coach_api: ApiClient, scout_api: ApiClient, scout: User
) -> None:
    child = make_nomination(scout, name="Tom Small", age=11)
    response = post(coach_api, child.player_id, content="Great match")
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "pending"
    assert titles(scout_api, child.player_id) == []


# --- Followers and the feed ----------------------------------------------------------------


def test_a_published_update_tells_the_followers_and_the_feed(
    coach_api: ApiClient,
    nomination: Nomination,
    claimant: User,
    scout: User,
    other_scout: User,
    events: EventRecorder,
) -> None:
    follow(other_scout, player=nomination.player)

    assert post(coach_api, nomination.player_id, content="Called up").status_code == 201

    assert Notification.objects.filter(user=other_scout, type="player_update").count() == 1
    # Its email (folded by the worker, under the member's toggles) and push go through notify.
    outbound = OutboundEvent.objects.get(user_id=other_scout.pk)
    assert outbound.kind == "player_update"
    assert outbound.nomination_id == nomination.pk
    assert Notification.objects.filter(user=claimant, type="player_update").count() == 1
    assert not Notification.objects.filter(user=scout).exists()  # not following
    activity = Activity.objects.get(activity_type="player_update")
    assert activity.metadata["title"] == "Won the final"
    events.settle()
    assert "activity.created" in events.types() or "activity.batch" in events.types()
    assert any(e.sport == "football" for e in events.of_type("player_update.changed"))


# --- Deletion ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"),
    [("author", 204), ("claimant", 204), ("admin", 204), ("member", 403), ("other_coach", 403)],
)
def test_who_may_delete(
    who: str,
    status: int,
    coach_api: ApiClient,
    coach: User,
    claimant: User,
    scout: User,
    admin_user: User,
    nomination: Nomination,
) -> None:
    update_id = post(coach_api, nomination.player_id).json()["id"]
    users = {
        "author": coach,
        "claimant": claimant,
        "admin": admin_user,
        "member": scout,
        "other_coach": make_coach(),
    }

    response = (
        ApiClient()
        .login(users[who])
        .delete(f"/api/players/{nomination.player_id}/updates/{update_id}")
    )

    assert response.status_code == status, response.content
    assert PlayerUpdate.objects.filter(pk=update_id).exists() == (status != 204)
    if status == 204:
        assert not Activity.objects.filter(activity_type="player_update").exists()


def test_a_pending_update_cannot_be_deleted_by_those_who_do_not_see_it(
    coach_api: ApiClient, claimant: User, scout_api: ApiClient, nomination: Nomination
) -> None:
    update_id = post(coach_api, nomination.player_id, videoURL="https://vimeo.com/1").json()["id"]
    path = f"/api/players/{nomination.player_id}/updates/{update_id}"
    assert scout_api.delete(path).status_code == 404
    assert ApiClient().delete(path).status_code == 401
    assert PlayerUpdate.objects.filter(pk=update_id).exists()


# --- The author's account --------------------------------------------------------------------


def test_an_authors_export_lists_their_updates_and_deletion_takes_them(
    claimant_api: ApiClient, claimant: User, nomination: Nomination
) -> None:
    assert post(claimant_api, nomination.player_id, milestone=True).status_code == 201

    exported = claimant_api.get("/api/profile/export")
    assert exported.status_code == 200, exported.content
    assert [item["title"] for item in exported.json()["playerUpdates"]] == ["Won the final"]

    user_delete(user=claimant)
    assert not PlayerUpdate.objects.exists()


# --- Retention -----------------------------------------------------------------------------


def test_anonymising_an_unclaimed_player_erases_its_updates(
    coach_api: ApiClient, scout_api: ApiClient, scout: User
) -> None:
    unclaimed = make_nomination(scout, name="Ivo Idle", status="approved")
    assert post(coach_api, unclaimed.player_id, title="Ivo Idle scores twice").status_code == 201
    assert PlayerUpdate.objects.filter(player_id=unclaimed.player_id).count() == 1

    assert player_anonymise(unclaimed.player_id)

    assert not PlayerUpdate.objects.filter(player_id=unclaimed.player_id).exists()
    assert titles(scout_api, unclaimed.player_id) == []


def test_the_claimants_export_of_the_player_lists_its_updates_without_naming_authors(
    claimant_api: ApiClient, coach_api: ApiClient, nomination: Nomination
) -> None:
    assert post(claimant_api, nomination.player_id, title="First cap").status_code == 201
    assert (
        post(coach_api, nomination.player_id, title="Hat-trick", milestone=True).status_code == 201
    )

    body = claimant_api.get(f"/api/players/{nomination.player_id}/export").json()

    assert [(u["title"], u["by"], u["milestone"]) for u in body["player_updates"]] == [
        ("First cap", "family", False),
        ("Hat-trick", "coach", True),
    ]
    assert "Carla Coach" not in str(body["player_updates"])
