"""The authorization matrix: every operation of the OpenAPI
schema, called as anonymous, a scout, the owner, another scout and an admin.

Rules: signed out is 401 everywhere but the public auth calls; every /api/admin/* call is 401
signed out and 403 for anyone but an admin; a player is edited by its nominator or an admin;
a rejected nomination (and a player seen only through one) exists only for its nominator and
admins; a private profile is not found by others, a followers-only one by non-followers;
email and phone number show only to oneself and admins; "my" calls only ever touch the
caller's own rows.

The world (tests/api/conftest.py): the owner has a pending and a rejected nomination, a phone
number and an unread notification; the other scout has pending, approved and rejected
nominations of their own and follows the owner; the scout has nothing; a fifth user's profile
is private. Each actor's call runs in a savepoint that is rolled back, so every actor meets
the same world (a logout or an account deletion by one does not change what the next sees).

A new operation without a row fails ``test_the_table_covers_every_operation``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.utils import timezone

from project.accounts.models import User, UserSettings
from project.api import api
from project.claims.services import claim_approve, claim_create, profile_remove
from project.coaches.services import (
    confirm_token,
    endorsement_write,
    verification_approve,
    verification_create,
)
from project.comments.models import Comment, CommentStatus
from project.comments.services import comment_create
from project.moderation.services.reports import report_create
from project.moderation.services.takedowns import (
    takedown_confirm_token,
    takedown_request_create,
    takedown_stop_token,
)
from project.privacy.models import PlayerControls
from project.push.models import PushSubscription
from project.scouting.models import Club, Nomination, Notification, Player, Vote
from project.updates.services import update_create
from tests.api.conftest import World, build_world
from tests.builders import PASSWORD
from tests.helpers import ApiClient, Response

ACTORS = ("anonymous", "scout", "owner", "other", "admin")

Check = Callable[[str, ApiClient, Response, World], None]
# A setup may give more placeholders (e.g. {upload_url}).
Setup = Callable[[World, dict[str, ApiClient]], dict[str, Any] | None]
Body = Any  # a JSON value, or a function of the world giving one


@dataclass(frozen=True)
class Call:
    label: str
    method: str
    path: str  # placeholders: see _ids()
    expect: tuple[int, int, int, int, int]  # in the order of ACTORS
    body: Body = None
    setup: Setup | None = None
    check: Check | None = None


def _ids(world: World, extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "owner": world.owner.pk,
        "other": world.other.pk,
        "scout": world.scout.pk,
        "admin": world.admin.pk,
        "private": world.private.pk,
        "pending": world.pending.pk,
        "rejected": world.rejected.pk,
        "approved": world.approved.pk,
        "pending_player": world.pending.player_id,
        "rejected_player": world.rejected.player_id,
        "notification": world.notification.pk,
        # The approved nomination's club ("Toronto Academy", soccer).
        "club": Player.objects.get(pk=world.approved.player_id).club_ref_id,
        **extra,
    }


# --- Setups and checks ----------------------------------------------------------------------

SIGNED_OUT = 401
ADMIN_ONLY_200 = (401, 403, 403, 403, 200)
EVERYONE_200 = (401, 200, 200, 200, 200)
PUBLIC_200 = (200, 200, 200, 200, 200)


def _user_of(actor: str, world: World) -> User | None:
    return None if actor == "anonymous" else getattr(world, actor)


def _owner_visibility(visibility: str) -> Setup:
    def setup(world: World, clients: dict[str, ApiClient]) -> None:
        UserSettings.objects.filter(user=world.owner).update(profile_visibility=visibility)
        return None

    return setup


def _everyone_voted_for_approved(world: World, clients: dict[str, ApiClient]) -> None:
    for user in (world.scout, world.other, world.admin):  # the owner has voted already
        Vote.objects.create(nomination=world.approved, user=user)
    return None


def _owner_uploaded_a_file(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    from tests.media.conftest import png_bytes

    response = clients["owner"].post("/api/objects/upload")
    assert response.status_code == 200, response.content
    ticket = response.json()
    path = ticket["uploadURL"].split("://", 1)[1].split("/", 1)[1]
    file = SimpleUploadedFile("avatar.png", png_bytes(), content_type="image/png")
    sent = clients["anonymous"].client.post(f"/{path}", {**ticket["fields"], "file": file})
    assert sent.status_code == 204, sent.content
    return {"upload_url": ticket["objectURL"]}


def _contact_only_for_self_and_admin(
    actor: str, client: ApiClient, response: Response, world: World
) -> None:
    body = response.json()
    if actor in {"owner", "admin"}:
        assert body["email"] == world.owner.email
        assert body["phoneNumber"] == world.owner.phone_number
    else:
        assert body["email"] is None and body["phoneNumber"] is None, (actor, body)


def _club_lists_approved(actor: str, client: ApiClient, response: Response, world: World) -> None:
    """Only approved nominations, for everyone; the approved player is 15, so the public
    sees it too."""
    rows = response.json()["players"]
    assert [row["nominationId"] for row in rows] == [world.approved.pk], (actor, rows)


def _rejected_only_for_nominator_and_admin(
    actor: str, client: ApiClient, response: Response, world: World
) -> None:
    ids = {item["id"] for item in response.json()}
    assert world.pending.pk in ids
    assert (world.rejected.pk in ids) == (actor in {"owner", "admin"}), (actor, ids)


def _no_rejected_in_community_lists(
    actor: str, client: ApiClient, response: Response, world: World
) -> None:
    ids = {item["id"] for item in response.json()}
    assert not ids & {world.rejected.pk, world.other_rejected.pk}, (actor, ids)


def _only_rejected(actor: str, client: ApiClient, response: Response, world: World) -> None:
    assert {item["status"] for item in response.json()} == {"rejected"}


def _own_identity(actor: str, client: ApiClient, response: Response, world: World) -> None:
    user = _user_of(actor, world)
    assert user is not None and response.json()["id"] == user.pk


def _session_identity(actor: str, client: ApiClient, response: Response, world: World) -> None:
    """Signed out is no error: the user is null; signed in, the same user as /me."""
    user = _user_of(actor, world)
    body = response.json()
    if user is None:
        assert body == {"user": None}
    else:
        assert body["user"] == client.get("/api/auth/me").json()


def _private_scout_not_listed(
    actor: str, client: ApiClient, response: Response, world: World
) -> None:
    ids = {item["id"] for item in response.json()}
    assert world.private.pk not in ids and world.owner.pk in ids


def _private_scout_and_self_not_suggested(
    actor: str, client: ApiClient, response: Response, world: World
) -> None:
    ids = {item["id"] for item in response.json()}
    user = _user_of(actor, world)
    assert world.private.pk not in ids
    assert user is None or user.pk not in ids


def _owner_untouched_unless_owner(field: str, value: Any) -> Check:
    def check(actor: str, client: ApiClient, response: Response, world: World) -> None:
        owner = User.objects.select_related("settings").get(pk=world.owner.pk)
        holder = owner.settings if field == "profile_visibility" else owner
        assert (getattr(holder, field) == value) == (actor == "owner"), (actor, field)

    return check


def _owner_role_changed_only_by_admin(
    actor: str, client: ApiClient, response: Response, world: World
) -> None:
    role = User.objects.get(pk=world.owner.pk).role
    assert (role == "admin") == (actor == "admin"), actor


def _owner_exists_unless(*deleters: str) -> Check:
    def check(actor: str, client: ApiClient, response: Response, world: World) -> None:
        exists = User.objects.filter(pk=world.owner.pk).exists()
        assert exists != (actor in deleters), actor

    return check


def _signed_out_after(actor: str, client: ApiClient, response: Response, world: World) -> None:
    assert client.get("/api/auth/me").status_code == SIGNED_OUT


def _following_owner(actor: str, client: ApiClient, response: Response, world: World) -> None:
    assert response.json() == {"isFollowing": actor == "other"}, actor


def _own_notifications_only(
    actor: str, client: ApiClient, response: Response, world: World
) -> None:
    ids = {item["id"] for item in response.json()["items"]}
    assert (world.notification.pk in ids) == (actor == "owner"), (actor, ids)


def _owner_notification_read_only_by_owner(
    actor: str, client: ApiClient, response: Response, world: World
) -> None:
    read = Notification.objects.get(pk=world.notification.pk).read
    assert read == (actor == "owner"), actor


def _other_reported_the_pending(world: World, clients: dict[str, ApiClient]) -> None:
    report_create(reporter=world.other, reason="other", nomination_id=world.pending.pk)
    return None


def _a_takedown_request(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    request = takedown_request_create(
        nomination_id=world.approved.pk,
        relationship="athlete",
        kind="remove",
        contact_email="athlete@example.com",
        client_address="192.0.2.1",
        confirm_url="http://testserver/takedown/confirm",
    )
    return {"takedown": request.pk, "token": takedown_confirm_token(request)}


def _a_claim(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    claim = claim_create(
        claimant=world.scout,
        player_id=world.approved.player_id,
        relationship="parent_or_guardian",
        birth_year=timezone.localdate().year - 12,
        evidence="Club roster",
    )
    return {"claim": claim.pk, "claimed_player": world.approved.player_id}


def _claimed_by_the_scout(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    extra = _a_claim(world, clients)
    claim_approve(admin=world.admin, claim_id=extra["claim"])
    return extra


def _an_update_by_the_claimant(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    extra = _claimed_by_the_scout(world, clients)
    update = update_create(
        user=world.scout,
        player_id=extra["claimed_player"],
        title="Called up",
        content="",
        video_url="",
        image_url=None,
        milestone=False,
    )
    return {**extra, "update": update.pk}


def _a_pending_update(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    extra = _claimed_by_the_scout(world, clients)
    update = update_create(
        user=world.scout,
        player_id=extra["claimed_player"],
        title="Highlights",
        content="",
        video_url="https://vimeo.com/76979871",
        image_url=None,
        milestone=False,
    )
    return {**extra, "update": update.pk}


def _removed_by_the_scout(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    extra = _claimed_by_the_scout(world, clients)
    profile_remove(user=world.scout, player_id=extra["claimed_player"])
    return extra


def _sixteen_claimed_by_the_scout(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    """The scout holds the controls of an athlete of 16; the other scout is the athlete's own
    account (the same year of birth)."""
    born = timezone.localdate().year - 17
    claim = claim_create(
        claimant=world.scout,
        player_id=world.approved.player_id,
        relationship="parent_or_guardian",
        birth_year=born,
        evidence="Club roster",
    )
    claim_approve(admin=world.admin, claim_id=claim.pk)
    User.objects.filter(pk=world.other.pk).update(birth_year=born)
    return {"claimed_player": world.approved.player_id, "athlete": world.other.username}


def _athlete_invited(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    extra = _sixteen_claimed_by_the_scout(world, clients)
    PlayerControls.objects.filter(player_id=extra["claimed_player"]).update(athlete=world.other)
    return extra


def _a_coach_request(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    verification = verification_create(
        user=world.scout,
        organization="Accra Academy",
        role_title="Assistant coach",
        evidence_url="https://accra.example/staff",
        work_email="coach@accra.example",
    )
    return {"verification": verification.pk, "token": confirm_token(verification)}


def _the_scout_endorsed_as_coach(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    """The scout is a verified coach and endorsed the approved player, which the owner
    claims."""
    extra = _a_coach_request(world, clients)
    verification_approve(admin=world.admin, verification_id=extra["verification"])
    player_id = world.approved.player_id
    claim = claim_create(
        claimant=world.owner,
        player_id=player_id,
        relationship="parent_or_guardian",
        birth_year=timezone.localdate().year - 12,
        evidence="Club roster",
    )
    claim_approve(admin=world.admin, claim_id=claim.pk)
    endorsement, _ = endorsement_write(
        coach=world.scout, player_id=player_id, content="Quick feet", rating=4
    )
    return {**extra, "endorsement": endorsement.pk, "endorsed_player": player_id}


def _owners_comment(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    """The owner's comment on the other scout's approved nomination (nobody claims it)."""
    comment = comment_create(author=world.owner, nomination_id=world.approved.pk, content="Hi")
    return {"comment": comment.pk}


def _owners_comment_held(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    extra = _owners_comment(world, clients)
    Comment.objects.filter(pk=extra["comment"]).update(status=CommentStatus.PENDING)
    Nomination.objects.filter(pk=world.approved.pk).update(comment_count=0)
    return extra


def _pending_player_taken_down(world: World, clients: dict[str, ApiClient]) -> None:
    Player.objects.filter(pk=world.pending.player_id).update(hidden_at=timezone.now())
    return None


def _a_stop_link(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    return {"stop": takedown_stop_token("athlete@example.com")}


def _approved_under_review(actor: str, client: ApiClient, response: Response, world: World) -> None:
    assert Player.objects.get(pk=world.approved.player_id).under_review_at is not None, actor


def _approved_shown(actor: str, client: ApiClient, response: Response, world: World) -> None:
    assert Nomination.objects.get(pk=world.approved.pk).status == "approved", actor


def _own_export(actor: str, client: ApiClient, response: Response, world: World) -> None:
    user = _user_of(actor, world)
    assert user is not None and response.json()["account"]["id"] == user.pk


def _owner_push_device(world: World, clients: dict[str, ApiClient]) -> dict[str, Any]:
    device = PushSubscription.objects.create(
        user=world.owner, endpoint="https://1.1.1.1/push/owner", p256dh="x", auth="y"
    )
    return {"push_device": device.pk}


def _owner_push_device_kept_unless_owner(
    actor: str, client: ApiClient, response: Response, world: World
) -> None:
    kept = PushSubscription.objects.filter(user=world.owner).exists()
    assert kept == (actor != "owner"), actor


NOMINATION = {
    "name": "Nia Newcomer",
    "age": 15,
    "position": "Striker",
    "nationality": "Ghana",
    "club": "Accra Academy",
    "sport": "football",
    "skills": "Pace",
}
PLAYER_EDIT = {
    "name": "Edited Name",
    "age": 17,
    "position": "Winger",
    "nationality": "Portugal",
    "club": "Porto Youth",
    "sport": "football",
}

# --- The table ------------------------------------------------------------------------------
#                                                          anonymous scout owner other admin
CALLS: list[Call] = [
    # Auth: the public calls.
    Call("csrf", "GET", "/api/auth/csrf", PUBLIC_200),
    Call("health", "GET", "/api/health", PUBLIC_200),
    Call(
        "register",
        "POST",
        "/api/auth/register",
        (201, 201, 201, 201, 201),
        {
            "username": "newcomer",
            "password": "new-pass",
            "name": "New",
            "email": "n@example.com",
            "birthYear": 1990,
        },
    ),
    Call(
        "login as the owner",
        "POST",
        "/api/auth/login",
        PUBLIC_200,
        lambda w: {"username": w.owner.username, "password": PASSWORD},
    ),
    Call(
        "logout",
        "POST",
        "/api/auth/logout",
        (204, 204, 204, 204, 204),
        check=_signed_out_after,
    ),
    Call("me", "GET", "/api/auth/me", EVERYONE_200, check=_own_identity),
    Call("session", "GET", "/api/auth/session", PUBLIC_200, check=_session_identity),
    # Two-factor sign-in: each signed-in member's own, none of them has one yet.
    Call("two-factor status", "GET", "/api/auth/2fa", EVERYONE_200),
    Call("two-factor setup", "POST", "/api/auth/2fa/setup", EVERYONE_200),
    Call(
        "two-factor confirm without a setup",
        "POST",
        "/api/auth/2fa/confirm",
        (401, 409, 409, 409, 409),
        {"code": "123456"},
    ),
    Call(
        "new recovery codes while it is off",
        "POST",
        "/api/auth/2fa/recovery-codes",
        (401, 409, 409, 409, 409),
        {"code": "123456"},
    ),
    Call(
        "two-factor off while it is off",
        "POST",
        "/api/auth/2fa/disable",
        (401, 409, 409, 409, 409),
        {"currentPassword": PASSWORD, "code": "123456"},
    ),
    # Scouts and profiles.
    Call(
        "discover",
        "GET",
        "/api/users/scouts",
        EVERYONE_200,
        check=_private_scout_not_listed,
    ),
    Call(
        "suggested scouts",
        "GET",
        "/api/users/suggested",
        EVERYONE_200,
        check=_private_scout_and_self_not_suggested,
    ),
    Call(
        "public profile: contact details for self and admins only",
        "GET",
        "/api/users/{owner}",
        EVERYONE_200,
        check=_contact_only_for_self_and_admin,
    ),
    Call(
        "private profile",
        "GET",
        "/api/users/{owner}",
        (401, 404, 200, 404, 200),
        setup=_owner_visibility("private"),
    ),
    Call(
        "followers-only profile (the other scout follows the owner)",
        "GET",
        "/api/users/{owner}",
        (401, 404, 200, 200, 200),
        setup=_owner_visibility("followers"),
        check=_contact_only_for_self_and_admin,
    ),
    Call(
        "a scout's nominations: rejected ones for the nominator and admins",
        "GET",
        "/api/users/{owner}/nominations",
        EVERYONE_200,
        check=_rejected_only_for_nominator_and_admin,
    ),
    Call(
        "a private scout's nominations",
        "GET",
        "/api/users/{owner}/nominations",
        (401, 404, 200, 404, 200),
        setup=_owner_visibility("private"),
    ),
    Call("my profile", "GET", "/api/profile", EVERYONE_200, check=_own_identity),
    Call(
        "edit my profile",
        "PUT",
        "/api/profile",
        EVERYONE_200,
        {"bio": "Edited"},
        check=_owner_untouched_unless_owner("bio", "Edited"),
    ),
    Call("my settings", "GET", "/api/settings", EVERYONE_200),
    Call(
        "change my password",
        "PUT",
        "/api/settings/password",
        EVERYONE_200,
        {"currentPassword": PASSWORD, "newPassword": "another-pass"},
    ),
    Call(
        "a notification setting",
        "PUT",
        "/api/settings/notifications",
        EVERYONE_200,
        {"voteNotifications": False},
    ),
    Call(
        "a privacy setting",
        "PUT",
        "/api/settings/privacy",
        EVERYONE_200,
        {"profileVisibility": "private"},
        check=_owner_untouched_unless_owner("profile_visibility", "private"),
    ),
    # The world's members gave their year of birth at sign-up: it is asked once (409).
    Call(
        "give my year of birth",
        "PUT",
        "/api/settings/birth-year",
        (401, 409, 409, 409, 409),
        {"birthYear": 1990},
    ),
    Call("set my time zone", "PUT", "/api/settings/time-zone", EVERYONE_200, {"timeZone": "UTC"}),
    # Only the token a closing answered deletes a closed account, whoever sends it.
    Call(
        "delete a closed account",
        "POST",
        "/api/auth/closed-account/delete",
        (400, 400, 400, 400, 400),
        {"deletionToken": "not-a-token"},
    ),
    Call(
        "delete my account",
        "DELETE",
        "/api/settings/account",
        # The world's only admin cannot delete their account: the last admin stays (409).
        (401, 204, 204, 204, 409),
        check=_owner_exists_unless("owner"),
    ),
    # Admin: 401 signed out, 403 for every other role.
    Call("admin stats", "GET", "/api/admin/stats", ADMIN_ONLY_200),
    Call("admin queue", "GET", "/api/admin/nominations/pending", ADMIN_ONLY_200),
    Call("admin leaderboard", "GET", "/api/admin/leaderboard", ADMIN_ONLY_200),
    Call("admin users", "GET", "/api/admin/users", ADMIN_ONLY_200),
    Call("approve", "POST", "/api/admin/nominations/{pending}/approve", ADMIN_ONLY_200),
    Call(
        "reject",
        "POST",
        "/api/admin/nominations/{pending}/reject",
        ADMIN_ONLY_200,
        {"reason": "Not enough detail"},
    ),
    Call(
        "verify a player",
        "PUT",
        "/api/admin/players/{pending_player}/verified",
        ADMIN_ONLY_200,
        {"verified": True},
    ),
    Call(
        "delete a user",
        "DELETE",
        "/api/admin/users/{owner}",
        (401, 403, 403, 403, 204),
        check=_owner_exists_unless("admin"),
    ),
    Call(
        "change a role",
        "PUT",
        "/api/admin/users/{owner}/role",
        ADMIN_ONLY_200,
        {"role": "admin"},
        check=_owner_role_changed_only_by_admin,
    ),
    # Reports, takedown requests, the moderation log.
    Call("open reports", "GET", "/api/admin/reports", ADMIN_ONLY_200),
    Call("claims to review", "GET", "/api/admin/claims?status=pending", ADMIN_ONLY_200),
    Call("held comments", "GET", "/api/admin/comments?status=pending", ADMIN_ONLY_200),
    Call(
        "approve a held comment",
        "POST",
        "/api/admin/comments/{comment}/approve",
        ADMIN_ONLY_200,
        {"reason": ""},
        setup=_owners_comment_held,
    ),
    Call(
        "remove a comment",
        "POST",
        "/api/admin/comments/{comment}/remove",
        ADMIN_ONLY_200,
        {"reason": ""},
        setup=_owners_comment,
    ),
    Call(
        "approve a claim",
        "POST",
        "/api/admin/claims/{claim}/approve",
        ADMIN_ONLY_200,
        {"reason": "Roster checked"},
        setup=_a_claim,
    ),
    Call(
        "reject a claim",
        "POST",
        "/api/admin/claims/{claim}/reject",
        ADMIN_ONLY_200,
        setup=_a_claim,
    ),
    Call("player updates to review", "GET", "/api/admin/player-updates", ADMIN_ONLY_200),
    Call(
        "approve a player update",
        "POST",
        "/api/admin/player-updates/{update}/approve",
        ADMIN_ONLY_200,
        setup=_a_pending_update,
    ),
    Call(
        "reject a player update",
        "POST",
        "/api/admin/player-updates/{update}/reject",
        ADMIN_ONLY_200,
        {"reason": "Not this clip"},
        setup=_a_pending_update,
    ),
    Call(
        "transfer a claim",
        "POST",
        "/api/admin/claims/{claim}/transfer",
        ADMIN_ONLY_200,
        lambda world: {"username": world.owner.username, "relationship": "parent_or_guardian"},
        setup=_claimed_by_the_scout,
    ),
    Call(
        "revoke a claim",
        "POST",
        "/api/admin/claims/{claim}/revoke",
        ADMIN_ONLY_200,
        setup=_claimed_by_the_scout,
    ),
    Call(
        "resolve the reports of an item",
        "POST",
        "/api/admin/reports/resolve",
        ADMIN_ONLY_200,
        {"nominationId": "{pending}", "action": "dismiss", "reason": "Looks fine"},
        setup=_other_reported_the_pending,
    ),
    Call("takedown requests", "GET", "/api/admin/takedown-requests", ADMIN_ONLY_200),
    Call("refused takedown requests", "GET", "/api/admin/takedown-refusals", ADMIN_ONLY_200),
    Call(
        "decide a takedown request",
        "POST",
        "/api/admin/takedown-requests/{takedown}/decide",
        ADMIN_ONLY_200,
        {"decision": "restore", "reason": "Not the athlete's profile"},
        setup=_a_takedown_request,
    ),
    Call(
        "restore a taken-down player",
        "POST",
        "/api/admin/players/{pending_player}/restore",
        ADMIN_ONLY_200,
        {"reason": "Decided"},
        setup=_pending_player_taken_down,
    ),
    Call("the moderation log", "GET", "/api/admin/modlog", ADMIN_ONLY_200),
    # Vote integrity.
    Call("vote-integrity flags", "GET", "/api/admin/integrity/flags", ADMIN_ONLY_200),
    Call("who opened voter lists", "GET", "/api/admin/integrity/views", ADMIN_ONLY_200),
    Call(
        "a nomination's voters",
        "GET",
        "/api/admin/nominations/{approved}/votes",
        ADMIN_ONLY_200,
    ),
    Call("a user's votes", "GET", "/api/admin/users/{owner}/votes", ADMIN_ONLY_200),
    Call(
        "void the votes between two users",
        "POST",
        "/api/admin/integrity/void",
        ADMIN_ONLY_200,
        {"userIds": ["{owner}", "{other}"], "reason": "Trading votes"},
    ),
    Call(
        "restore the votes between two users",
        "POST",
        "/api/admin/integrity/restore",
        ADMIN_ONLY_200,
        {"userIds": ["{owner}", "{other}"], "reason": "A mistake"},
    ),
    Call(
        "read a nomination's comments",
        "GET",
        "/api/nominations/{pending}/comments",
        EVERYONE_200,
    ),
    Call(
        "comment on a nomination",
        "POST",
        "/api/nominations/{pending}/comments",
        (401, 201, 201, 201, 201),
        {"content": "Good feet"},
    ),
    Call(
        "comment on a nomination seen only by its nominator",
        "POST",
        "/api/nominations/{rejected}/comments",
        (401, 404, 403, 404, 403),
        {"content": "Good feet"},
    ),
    # The author (the owner) and admins delete; the nominator (the other scout) does not.
    Call(
        "delete a comment",
        "DELETE",
        "/api/comments/{comment}",
        (401, 403, 204, 403, 204),
        setup=_owners_comment,
    ),
    Call(
        "report a nomination",
        "POST",
        "/api/reports",
        (401, 201, 201, 201, 201),
        {"nominationId": "{pending}", "reason": "wrong_information"},
    ),
    Call(
        "claim a player (a guardian, its athlete under 16)",
        "POST",
        "/api/players/{pending_player}/claims",
        (401, 201, 201, 201, 201),
        {"relationship": "parent_or_guardian", "birthYear": 2014, "evidence": "Club roster"},
    ),
    Call(
        "claim a player seen only through a rejected nomination",
        "POST",
        "/api/players/{rejected_player}/claims",
        (401, 404, 201, 404, 201),
        {"relationship": "parent_or_guardian", "birthYear": 2014, "evidence": "Club roster"},
    ),
    # Coaches: the scout asks to be verified (and, below, is a verified coach who endorsed the
    # approved player, which the owner claims).
    Call(
        "ask to be verified as a coach",
        "POST",
        "/api/coach-verifications",
        (401, 201, 201, 201, 201),
        {"organization": "Accra Academy", "roleTitle": "Coach", "workEmail": "c@accra.example"},
    ),
    Call("one's coach verification", "GET", "/api/coach-verifications/mine", EVERYONE_200),
    Call(
        "confirm a coach's work email (its signed link)",
        "POST",
        "/api/coach-verifications/confirm-email",
        PUBLIC_200,
        {"token": "{token}"},
        setup=_a_coach_request,
    ),
    Call("the verified coaches' ids", "GET", "/api/coaches", EVERYONE_200),
    Call(
        "coach verifications to review",
        "GET",
        "/api/admin/coach-verifications?status=pending",
        ADMIN_ONLY_200,
    ),
    Call(
        "approve a coach verification",
        "POST",
        "/api/admin/coach-verifications/{verification}/approve",
        ADMIN_ONLY_200,
        setup=_a_coach_request,
    ),
    Call(
        "reject a coach verification",
        "POST",
        "/api/admin/coach-verifications/{verification}/reject",
        ADMIN_ONLY_200,
        {"reason": "No staff page"},
        setup=_a_coach_request,
    ),
    Call(
        "withdraw a verified coach's badge",
        "POST",
        "/api/admin/coach-verifications/{verification}/withdraw",
        ADMIN_ONLY_200,
        setup=_the_scout_endorsed_as_coach,
    ),
    Call(
        "a player's endorsements",
        "GET",
        "/api/players/{endorsed_player}/endorsements",
        EVERYONE_200,
        setup=_the_scout_endorsed_as_coach,
    ),
    Call(
        "endorse a player (the coach's second is an edit)",
        "POST",
        "/api/players/{endorsed_player}/endorsements",
        (401, 200, 403, 403, 403),
        {"content": "Strong", "rating": 5},
        setup=_the_scout_endorsed_as_coach,
    ),
    Call(
        "change one's endorsement",
        "PUT",
        "/api/players/{endorsed_player}/endorsements/{endorsement}",
        (401, 200, 403, 403, 403),
        {"content": "Stronger", "rating": 5},
        setup=_the_scout_endorsed_as_coach,
    ),
    Call(
        "delete one's endorsement",
        "DELETE",
        "/api/players/{endorsed_player}/endorsements/{endorsement}",
        (401, 204, 403, 403, 403),
        setup=_the_scout_endorsed_as_coach,
    ),
    Call(
        "hide an endorsement from the page (the claimant)",
        "POST",
        "/api/players/{endorsed_player}/endorsements/{endorsement}/hide",
        (401, 403, 204, 403, 403),
        setup=_the_scout_endorsed_as_coach,
    ),
    Call(
        "show a hidden endorsement again (the claimant)",
        "POST",
        "/api/players/{endorsed_player}/endorsements/{endorsement}/show",
        (401, 403, 204, 403, 403),
        setup=_the_scout_endorsed_as_coach,
    ),
    # The claimant is the scout; the player's nominator is the other scout.
    Call(
        "post an update on a claimed player (its claimant or a coach)",
        "POST",
        "/api/players/{claimed_player}/updates",
        (401, 201, 403, 403, 403),
        {"title": "Called up to the regional team"},
        setup=_claimed_by_the_scout,
    ),
    Call(
        "a player's updates",
        "GET",
        "/api/players/{claimed_player}/updates",
        EVERYONE_200,
        setup=_an_update_by_the_claimant,
    ),
    Call(
        "delete an update (its author, the claimant, an admin)",
        "DELETE",
        "/api/players/{claimed_player}/updates/{update}",
        (401, 204, 403, 403, 204),
        setup=_an_update_by_the_claimant,
    ),
    Call(
        "read a claimed player's controls",
        "GET",
        "/api/players/{claimed_player}/controls",
        (401, 200, 403, 403, 403),
        setup=_claimed_by_the_scout,
    ),
    Call(
        "change a claimed player's controls",
        "PUT",
        "/api/players/{claimed_player}/controls",
        (401, 200, 403, 403, 403),
        {"hideClub": True},
        setup=_claimed_by_the_scout,
    ),
    Call(
        "remove a claimed player's profile",
        "POST",
        "/api/players/{claimed_player}/controls/remove",
        (401, 200, 403, 403, 403),
        setup=_claimed_by_the_scout,
    ),
    Call(
        "bring back a removed profile",
        "POST",
        "/api/players/{claimed_player}/controls/restore",
        (401, 200, 404, 404, 403),
        setup=_removed_by_the_scout,
    ),
    Call(
        "name the athlete's account to hand them the controls",
        "POST",
        "/api/players/{claimed_player}/controls/athlete",
        (401, 200, 403, 403, 403),
        {"username": "{athlete}"},
        setup=_sixteen_claimed_by_the_scout,
    ),
    # The athlete the guardian named is the other scout.
    Call(
        "accept the controls handed to the athlete",
        "POST",
        "/api/players/{claimed_player}/controls/accept",
        (401, 403, 403, 200, 403),
        setup=_athlete_invited,
    ),
    Call("the profiles I manage", "GET", "/api/me/managed-players", EVERYONE_200),
    Call(
        "export everything held about a claimed player",
        "GET",
        "/api/players/{claimed_player}/export",
        (401, 200, 403, 403, 403),
        setup=_claimed_by_the_scout,
    ),
    Call(
        "report a rejected nomination (seen by its nominator and admins only)",
        "POST",
        "/api/reports",
        (401, 404, 201, 404, 201),
        {"nominationId": "{rejected}", "reason": "other"},
    ),
    Call(
        "ask for a takedown: no account needed",
        "POST",
        "/api/takedown-requests",
        (201, 201, 201, 201, 201),
        {
            "nominationId": "{approved}",
            "relationship": "parent_or_guardian",
            "kind": "remove",
            "contactEmail": "parent@example.com",
        },
        # Nothing is hidden until the request is confirmed from its email.
        check=_approved_shown,
    ),
    Call(
        "ask for a takedown of a player nobody can see: not found",
        "POST",
        "/api/takedown-requests",
        (404, 404, 404, 404, 404),
        {
            "nominationId": "{rejected}",
            "relationship": "parent_or_guardian",
            "kind": "remove",
            "contactEmail": "parent@example.com",
        },
    ),
    Call(
        "confirm a takedown request from its email's link: no account needed",
        "POST",
        "/api/takedown-requests/confirm",
        (200, 200, 200, 200, 200),
        {"token": "{token}"},
        setup=_a_takedown_request,
        check=_approved_under_review,
    ),
    Call(
        "stop takedown emails from the email's link: no account needed",
        "POST",
        "/api/takedown-requests/stop-emails",
        (204, 204, 204, 204, 204),
        {"token": "{stop}"},
        setup=_a_stop_link,
    ),
    Call(
        "whether a player page is under review: members",
        "GET",
        "/api/nominations/{approved}/under-review",
        EVERYONE_200,
    ),
    Call("export my data", "GET", "/api/profile/export", EVERYONE_200, check=_own_export),
    # Quests, streaks and referrals: the world's members are adults (tests/engagement has the
    # age gate); a streak is private until its member shows it.
    Call("my engagement settings", "GET", "/api/settings/engagement", EVERYONE_200),
    Call(
        "change one engagement setting",
        "PUT",
        "/api/settings/engagement",
        EVERYONE_200,
        {"quests": True},
    ),
    Call("my quests", "GET", "/api/quests", EVERYONE_200),
    Call(
        "I shared my profile",
        "POST",
        "/api/quests/share-profile",
        (401, 204, 204, 204, 204),
    ),
    Call("my streak", "GET", "/api/streak", EVERYONE_200),
    Call("a scout's streak", "GET", "/api/users/{owner}/streak", (401, 404, 404, 404, 404)),
    Call("my referrals", "GET", "/api/referrals", EVERYONE_200),
    Call("a member's referral tree", "GET", "/api/admin/referrals/{owner}/tree", ADMIN_ONLY_200),
    # Web push (off here: no VAPID keys; tests/push has it on).
    Call("push key", "GET", "/api/push/key", PUBLIC_200),
    Call(
        "add a push device while push is off",
        "POST",
        "/api/push/subscriptions",
        (401, 404, 404, 404, 404),
        {"endpoint": "https://1.1.1.1/push", "keys": {"p256dh": "x", "auth": "y"}},
    ),
    Call(
        "remove the owner's push device",
        "DELETE",
        "/api/push/subscriptions/{push_device}",
        (401, 404, 204, 404, 404),
        setup=_owner_push_device,
        check=_owner_push_device_kept_unless_owner,
    ),
    # Avatars.
    Call("an upload address", "POST", "/api/objects/upload", EVERYONE_200),
    Call(
        "confirm the owner's upload",
        "PUT",
        "/api/profile/avatar",
        (401, 403, 200, 403, 403),
        {"avatarURL": "{upload_url}"},
        setup=_owner_uploaded_a_file,
    ),
    # Nominations and players.
    Call("nominate", "POST", "/api/nominations", (401, 201, 201, 201, 201), NOMINATION),
    Call(
        "community list",
        "GET",
        "/api/nominations",
        EVERYONE_200,
        check=_no_rejected_in_community_lists,
    ),
    Call(
        "list by status",
        "GET",
        "/api/nominations?status=rejected",
        ADMIN_ONLY_200,
        check=_only_rejected,
    ),
    Call(
        "recent",
        "GET",
        "/api/nominations/recent",
        EVERYONE_200,
        check=_no_rejected_in_community_lists,
    ),
    Call(
        "needing votes",
        "GET",
        "/api/nominations/needing-votes",
        EVERYONE_200,
        check=_no_rejected_in_community_lists,
    ),
    Call("a pending nomination", "GET", "/api/nominations/{pending}", EVERYONE_200),
    Call(
        "a rejected nomination",
        "GET",
        "/api/nominations/{rejected}",
        (401, 404, 200, 404, 200),
    ),
    Call(
        "edit a player: its nominator or an admin",
        "PUT",
        "/api/players/{pending_player}",
        (401, 403, 200, 403, 200),
        PLAYER_EDIT,
    ),
    Call(
        "edit a player seen only through a rejected nomination",
        "PUT",
        "/api/players/{rejected_player}",
        (401, 404, 200, 404, 200),
        PLAYER_EDIT,
    ),
    # Votes.
    Call(
        "vote",
        "POST",
        "/api/votes",
        (401, 201, 201, 201, 201),
        lambda w: {"nominationId": w.pending.pk},
    ),
    Call(
        "vote on a rejected nomination",
        "POST",
        "/api/votes",
        (401, 404, 400, 404, 400),
        lambda w: {"nominationId": w.rejected.pk},
    ),
    Call(
        "remove my vote",
        "DELETE",
        "/api/votes/{approved}",
        EVERYONE_200,
        setup=_everyone_voted_for_approved,
    ),
    Call(
        "remove a vote I never cast",
        "DELETE",
        "/api/votes/{pending}",
        (401, 404, 404, 404, 404),
    ),
    # Leaderboards, stats, feed.
    Call("scout leaderboard", "GET", "/api/leaderboard?sport=football", EVERYONE_200),
    Call(
        "player leaderboard",
        "GET",
        "/api/leaderboard/players?sport=football",
        EVERYONE_200,
        check=_no_rejected_in_community_lists,
    ),
    Call(
        "trending board",
        "GET",
        "/api/leaderboard/players?board=trending",
        EVERYONE_200,
        check=_no_rejected_in_community_lists,
    ),
    Call(
        "weekly board",
        "GET",
        "/api/leaderboard/players?board=weekly&sport=football",
        EVERYONE_200,
        check=_no_rejected_in_community_lists,
    ),
    Call("board week", "GET", "/api/leaderboard/week", EVERYONE_200),
    Call("player of the week", "GET", "/api/leaderboard/weekly-history", EVERYONE_200),
    Call("stats", "GET", "/api/stats?sport=football", EVERYONE_200),
    Call("feed", "GET", "/api/feed?sport=football", EVERYONE_200),
    # Follows.
    Call(
        "follow status",
        "GET",
        "/api/follow/status?userId={owner}",
        EVERYONE_200,
        check=_following_owner,
    ),
    Call(
        "follow a player",
        "POST",
        "/api/follow/player/{pending_player}",
        (401, 201, 201, 201, 201),
    ),
    Call(
        "follow a player seen only through a rejected nomination",
        "POST",
        "/api/follow/player/{rejected_player}",
        (401, 404, 201, 404, 201),
    ),
    Call(
        "follow the owner (not oneself; the other scout already does)",
        "POST",
        "/api/follow/user/{owner}",
        (401, 201, 400, 200, 201),
    ),
    Call(
        "follow a private scout",
        "POST",
        "/api/follow/user/{private}",
        (401, 404, 404, 404, 201),
    ),
    Call(
        "unfollow the owner (only the other scout follows them)",
        "DELETE",
        "/api/follow",
        (401, 404, 404, 200, 404),
        lambda w: {"userId": w.owner.pk},
    ),
    Call("what I follow", "GET", "/api/user/following", EVERYONE_200),
    # Clubs: the page answers the public its own view (docs/privacy.md).
    Call("club suggestions", "GET", "/api/clubs?sport=soccer&q=toronto", EVERYONE_200),
    Call("a club's page", "GET", "/api/clubs/{club}", PUBLIC_200, check=_club_lists_approved),
    Call("a player's club", "GET", "/api/players/{pending_player}/club", EVERYONE_200),
    Call(
        "the club of a player seen only through a rejected nomination",
        "GET",
        "/api/players/{rejected_player}/club",
        (401, 404, 200, 404, 200),
    ),
    Call("follow a club", "POST", "/api/follow/club/{club}", (401, 201, 201, 201, 201)),
    Call(
        "merge a duplicate club into another",
        "POST",
        "/api/admin/clubs/{club}/merge",
        ADMIN_ONLY_200,
        lambda w: {"mergeIds": [Club.objects.create(name="Toronto Acad.", sport="soccer").pk]},
    ),
    # Notifications.
    Call(
        "my notifications",
        "GET",
        "/api/notifications",
        EVERYONE_200,
        check=_own_notifications_only,
    ),
    Call(
        "mark the owner's notification read",
        "POST",
        "/api/notifications/read",
        EVERYONE_200,
        {"ids": ["{notification}"]},
        check=_owner_notification_read_only_by_owner,
    ),
]


# --- Running a row --------------------------------------------------------------------------


class _Rollback(Exception):
    pass


def _fill(value: Any, ids: dict[str, Any]) -> Any:
    """Placeholders in paths and bodies: "{owner}" alone becomes the integer id."""
    if isinstance(value, str):
        whole = re.fullmatch(r"\{(\w+)\}", value)
        return ids[whole.group(1)] if whole else value.format(**ids)
    if isinstance(value, list):
        return [_fill(item, ids) for item in value]
    if isinstance(value, dict):
        return {key: _fill(item, ids) for key, item in value.items()}
    return value


@pytest.fixture
def media_root(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.S3_BUCKET = ""


@pytest.mark.django_db
@pytest.mark.usefixtures("media_root")
@pytest.mark.parametrize("call", CALLS, ids=[call.label for call in CALLS])
def test_authorization(call: Call) -> None:
    world = build_world()
    clients = {actor: ApiClient() for actor in ACTORS}
    for actor in ACTORS[1:]:
        clients[actor].login(getattr(world, actor))
    extra = call.setup(world, clients) if call.setup is not None else None
    ids = _ids(world, extra or {})
    path = _fill(call.path, ids)
    body = call.body(world) if callable(call.body) else _fill(call.body, ids)
    outcomes = {}
    for actor, expected in zip(ACTORS, call.expect, strict=True):
        client = clients[actor]
        try:
            with transaction.atomic():
                if call.method == "GET":
                    response = client.get(path)
                else:
                    response = client.request(call.method, path, body)
                outcomes[actor] = response.status_code
                if response.status_code == expected and call.check and expected < 300:
                    call.check(actor, client, response, world)
                raise _Rollback
        except _Rollback:
            pass
    expected_by_actor = dict(zip(ACTORS, call.expect, strict=True))
    assert outcomes == expected_by_actor


def test_the_table_covers_every_operation() -> None:
    schema = api.get_openapi_schema()
    operations = {
        (method.upper(), path) for path, methods in schema["paths"].items() for method in methods
    }
    covered = set()
    for call in CALLS:
        template = re.sub(r"\{(\w+)\}", "{}", call.path.split("?", 1)[0])
        for method, path in operations:
            if method == call.method and re.sub(r"\{\w+\}", "{}", path) == template:
                covered.add((method, path))
    missing = sorted(operations - covered)
    assert not missing, f"operations without a row in CALLS: {missing}"
