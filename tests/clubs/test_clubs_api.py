"""The club calls: suggestions, a club's page per audience, following and unfollowing on the
players' shapes, the admins' merge and the followers' notifications."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from project.accounts.models import User
from project.modlog.models import ModlogEntry
from project.notify.models import NotificationEmail, OutboundEvent
from project.notify.services import events_dispatch
from project.privacy.models import PlayerControls
from project.scouting.models import (
    Club,
    Follow,
    Nomination,
    NominationStatus,
    Notification,
    Player,
)
from tests.builders import make_nomination, make_user, vote
from tests.helpers import ApiClient, EventRecorder, assert_error

pytestmark = pytest.mark.django_db

YEAR = timezone.localdate().year


def approved(club: str = "FC Porto", **fields: Any) -> Nomination:
    return make_nomination(status=NominationStatus.APPROVED, club=club, sport="soccer", **fields)


def club_of(nomination: Nomination) -> int:
    club_id = Player.objects.get(pk=nomination.player_id).club_ref_id
    assert club_id is not None
    return club_id


# --- Suggestions and the page -------------------------------------------------------------


def test_suggestions_as_a_club_is_typed(scout_api: ApiClient) -> None:
    porto = club_of(approved("FC Porto"))
    approved("FC Porto")
    approved("Portimonense SC")
    make_nomination(club="FC Porto", sport="hockey")
    body = scout_api.get("/api/clubs?sport=soccer&q=F.C. Port").json()
    assert body == [
        {"id": porto, "name": "FC Porto", "sport": "soccer", "location": "", "playerCount": 2}
    ]
    names = [c["name"] for c in scout_api.get("/api/clubs?sport=soccer&q=port").json()]
    assert names == ["FC Porto", "Portimonense SC"]
    assert_error(ApiClient().get("/api/clubs?sport=soccer"), 401)


def test_a_members_club_page_lists_players_with_votes(
    scout_api: ApiClient, scout: User, other_scout: User
) -> None:
    child = approved(name="Mia Jones", age=11)
    teen = approved(name="Tom Silva", age=15)
    approved("FC Porto", name="Pending Pete", age=15)
    Nomination.objects.filter(player__name="Pending Pete").update(status="pending")
    vote(other_scout, teen)
    vote(scout, teen)
    club_id = club_of(child)
    body = scout_api.get(f"/api/clubs/{club_id}").json()
    assert (body["name"], body["sport"], body["followerCount"], body["isFollowing"]) == (
        "FC Porto",
        "soccer",
        0,
        False,
    )
    rows = [(r["nominationId"], r["player"]["name"], r["voteCount"]) for r in body["players"]]
    # Approved nominations only, most voted first; members see a child's full name.
    assert rows == [(teen.pk, "Tom Silva", 2), (child.pk, "Mia Jones", 0)]
    assert {a["relatedPlayerId"] for a in body["activity"]} == {child.player_id, teen.player_id}
    assert_error(scout_api.get("/api/clubs/999999"), 404, "Club not found")


def test_the_public_never_sees_a_clubs_players_under_13(
    api: ApiClient, scout_api: ApiClient
) -> None:
    child = approved(name="Mia Jones", age=11)
    approved(name="Ana Costa", age=12)
    # An age no one knows counts as under 13.
    unknown = approved(name="Nobody Knows", age=15)
    Player.objects.filter(pk=unknown.player_id).update(age=None)
    teen = approved(name="Tom Silva", age=15)
    claimed_teen = approved(name="Rui Claimed", age=15)
    PlayerControls.objects.create(
        player_id=claimed_teen.player_id, relationship="parent_or_guardian", birth_year=YEAR - 15
    )
    # A child whose family claimed the page is under 13 all the same.
    claimed_child = approved(name="Lia Claimed", age=15)
    PlayerControls.objects.create(
        player_id=claimed_child.player_id,
        relationship="parent_or_guardian",
        birth_year=YEAR - 11,
        share_card=True,
    )
    club_id = club_of(child)
    public = api.get(f"/api/clubs/{club_id}")
    assert public.status_code == 200
    body = public.json()
    # Only the unclaimed teen: the children (and the unknown age) never, the claimed teen
    # only if the family let the public see it (its share card, off by default).
    assert [r["player"]["name"] for r in body["players"]] == ["Tom Silva"]
    assert body["activity"] == [] and body["isFollowing"] is False
    assert "Mia" not in public.content.decode() and "Ana" not in public.content.decode()
    PlayerControls.objects.filter(player_id=claimed_teen.player_id).update(share_card=True)
    names = {r["player"]["name"] for r in api.get(f"/api/clubs/{club_id}").json()["players"]}
    assert names == {"Tom Silva", "Rui Claimed"}
    # Members see every listed player, as they do elsewhere.
    member = {r["player"]["name"] for r in scout_api.get(f"/api/clubs/{club_id}").json()["players"]}
    assert member == {
        "Mia Jones",
        "Ana Costa",
        "Nobody Knows",
        "Tom Silva",
        "Rui Claimed",
        "Lia Claimed",
    }
    assert body["players"][0]["nominationId"] == teen.pk


def test_a_player_under_review_or_with_its_club_hidden_is_not_listed(
    api: ApiClient, scout_api: ApiClient, admin_api: ApiClient
) -> None:
    reviewed = approved(name="Under Review", age=16)
    hidden_club = approved(name="Hidden Club", age=16)
    Player.objects.filter(pk=reviewed.player_id).update(under_review_at=timezone.now())
    PlayerControls.objects.create(
        player_id=hidden_club.player_id,
        relationship="self",
        birth_year=YEAR - 17,
        hide_club=True,
        share_card=True,
    )
    club_id = club_of(reviewed)
    assert [r["player"]["name"] for r in api.get(f"/api/clubs/{club_id}").json()["players"]] == []
    member = scout_api.get(f"/api/clubs/{club_id}").json()["players"]
    assert [(r["player"]["name"], r["player"]["underReview"]) for r in member] == [
        ("Under Review", True)
    ]
    assert len(admin_api.get(f"/api/clubs/{club_id}").json()["players"]) == 2
    # The player's page links its club, unless its claimant hid it.
    assert scout_api.get(f"/api/players/{reviewed.player_id}/club").json()["club"]["id"] == club_id
    assert scout_api.get(f"/api/players/{hidden_club.player_id}/club").json() == {"club": None}


# --- Follow and unfollow ------------------------------------------------------------------


def test_follow_and_unfollow_a_club_on_the_players_shapes(
    scout_api: ApiClient,
    scout: User,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    nomination = approved()
    club_id = club_of(nomination)
    with django_capture_on_commit_callbacks(execute=True):
        first = scout_api.post(f"/api/follow/club/{club_id}")
        again = scout_api.post(f"/api/follow/club/{club_id}")
    assert (first.status_code, first.json()) == (201, {"isFollowing": True})
    assert (again.status_code, again.json()) == (200, {"isFollowing": True})
    status = scout_api.get(f"/api/follow/status?clubId={club_id}")
    assert status.json() == {"isFollowing": True}
    assert scout_api.get(f"/api/clubs/{club_id}").json()["followerCount"] == 1
    following = scout_api.get("/api/user/following?sport=soccer").json()
    assert [(f["type"], f["club"]) for f in following] == [
        ("club", {"id": club_id, "name": "FC Porto", "sport": "soccer", "location": ""})
    ]
    assert following[0]["player"] is None and following[0]["user"] is None
    assert scout_api.get("/api/user/following?sport=hockey").json() == []
    with django_capture_on_commit_callbacks(execute=True):
        gone = scout_api.delete("/api/follow", {"clubId": club_id})
    assert (gone.status_code, gone.json()) == (200, {"isFollowing": False})
    assert_error(
        scout_api.delete(f"/api/follow?clubId={club_id}"), 404, "You are not following this club"
    )
    assert_error(scout_api.post("/api/follow/club/999999"), 404, "Club not found")
    assert_error(
        scout_api.delete("/api/follow", {"clubId": club_id, "playerId": 1}),
        400,
        "Give exactly one of playerId, userId or clubId",
    )
    assert_error(ApiClient().post(f"/api/follow/club/{club_id}"), 401)
    own = events.of_type("follow.own")
    assert [e.data for e in own] == [
        {"playerId": None, "userId": None, "clubId": club_id, "following": True},
        {"playerId": None, "userId": None, "clubId": club_id, "following": False},
    ]
    assert all(e.groups() == [f"user.{scout.pk}"] for e in own)


# --- Merge --------------------------------------------------------------------------------


def test_admins_merge_duplicates_moving_follows_and_nominations(
    admin_api: ApiClient, admin_user: User, scout_api: ApiClient, scout: User
) -> None:
    kept = approved("FC Porto", name="Kept One", age=15)
    dup_a = approved("Porto", name="Dup A", age=15)
    dup_b = approved("FC Porto U15", name="Dup B", age=15)
    kept_id, a_id, b_id = club_of(kept), club_of(dup_a), club_of(dup_b)
    assert len({kept_id, a_id, b_id}) == 3
    Club.objects.filter(pk=a_id).update(location="Porto, Portugal")
    both = make_user()
    Follow.objects.create(follower=scout, followed_club_id=a_id)
    Follow.objects.create(follower=both, followed_club_id=kept_id)
    Follow.objects.create(follower=both, followed_club_id=b_id)
    assert_error(scout_api.post(f"/api/admin/clubs/{kept_id}/merge", {"mergeIds": [a_id]}), 403)
    response = admin_api.post(f"/api/admin/clubs/{kept_id}/merge", {"mergeIds": [a_id, b_id]})
    assert response.status_code == 200, response.content
    assert response.json() == {
        "id": kept_id,
        "name": "FC Porto",
        "sport": "soccer",
        "location": "Porto, Portugal",
    }
    assert not Club.objects.filter(pk__in=[a_id, b_id]).exists()
    # The nominations (through their players) and the follows are the kept club's now.
    page = scout_api.get(f"/api/clubs/{kept_id}").json()
    assert {r["nominationId"] for r in page["players"]} == {kept.pk, dup_a.pk, dup_b.pk}
    assert page["followerCount"] == 2 and page["isFollowing"] is True
    assert sorted(
        Follow.objects.filter(followed_club_id=kept_id).values_list("follower_id", flat=True)
    ) == sorted([scout.pk, both.pk])
    entry = ModlogEntry.objects.get(action="club_merge")
    assert (entry.target_type, entry.target_id, entry.actor_id) == ("club", kept_id, admin_user.pk)
    assert entry.changes["merged"] == [
        [f"Porto ({a_id})", f"FC Porto U15 ({b_id})"],
        f"FC Porto ({kept_id})",
    ]
    assert entry.changes["players"] == [1, 3] and entry.changes["followers"] == [1, 2]
    # An edit of a merged player keeps it with the kept club (its name is an alias now).
    assert scout_api.get("/api/clubs?sport=soccer&q=u15").json()[0]["id"] == kept_id


def test_a_merge_refuses_another_sport_and_unknown_clubs(admin_api: ApiClient) -> None:
    soccer = club_of(approved("FC Porto"))
    hockey = make_nomination(club="FC Porto", sport="hockey")
    hockey_id = club_of(hockey)
    assert_error(
        admin_api.post(f"/api/admin/clubs/{soccer}/merge", {"mergeIds": [hockey_id]}),
        400,
        "Only clubs of the same sport can be merged",
    )
    assert_error(
        admin_api.post(f"/api/admin/clubs/{soccer}/merge", {"mergeIds": [999999]}),
        404,
        "Club not found",
    )
    assert_error(admin_api.post(f"/api/admin/clubs/{soccer}/merge", {"mergeIds": [soccer]}), 400)
    assert Club.objects.count() == 2


# --- Followers hear of new approved nominations -------------------------------------------


def test_followers_hear_of_the_clubs_new_approved_nominations(
    admin_api: ApiClient, scout: User, other_scout: User
) -> None:
    pending = make_nomination(other_scout, club="FC Porto", sport="soccer", name="New Star")
    club_id = club_of(pending)
    Follow.objects.create(follower=scout, followed_club_id=club_id)
    # The nominator, following the club too, hears of the approval as the nominator only.
    Follow.objects.create(follower=other_scout, followed_club_id=club_id)
    quiet = make_user()
    quiet.settings.email_notifications = False
    quiet.settings.save()
    Follow.objects.create(follower=quiet, followed_club_id=club_id)
    assert admin_api.post(f"/api/admin/nominations/{pending.pk}/approve").status_code == 200
    told = Notification.objects.filter(type="club_nomination")
    assert sorted(told.values_list("user_id", flat=True)) == sorted([scout.pk, quiet.pk])
    assert told.first().message == "FC Porto has a new approved nomination: New Star."  # type: ignore[union-attr]
    assert told.first().related_nomination_id == pending.pk  # type: ignore[union-attr]
    # Its email goes under the member's toggles: none to the one who turned emails off.
    emailed = OutboundEvent.objects.filter(kind="club_nomination")
    assert sorted(emailed.values_list("user_id", flat=True)) == sorted([scout.pk, quiet.pk])
    # (The nominator's own approval email is the other one sent.)
    result = events_dispatch()
    assert (result.emails, result.turned_off) == (2, 1)
    email = NotificationEmail.objects.get(kind="club_nomination")
    assert email.user_id == scout.pk
