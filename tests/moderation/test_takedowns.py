"""Takedown requests without an account: nothing changes until the request is confirmed from
the link emailed to its address; then the player leaves what the public sees at once and is
marked under review for members, and leaves every community read once an admin decides, a
family's claim is verified or independent requests are confirmed; the requester gets emails
with a reference, admins decide and can restore. Unconfirmed requests are held per network,
per recipient and per player and address, never so that a family is kept out."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from urllib.parse import unquote

import pytest
import time_machine
from django.core import mail
from django.core.management import call_command
from django.core.signing import TimestampSigner
from django.test import Client
from django.utils import timezone

from project.accounts.models import User
from project.moderation.models import (
    TakedownEmailStop,
    TakedownRefusal,
    TakedownRequest,
    TakedownStatus,
)
from project.moderation.services.takedowns import takedown_family_verified
from project.modlog.models import ModlogEntry
from project.scouting.models import Nomination, NominationStatus
from project.scouting.services.follows import follow_player_create
from project.sharing import previews
from project.sharing.models import ShareCard
from project.sharing.selectors import cards_to_draw
from realtime.summary_source import summary_source
from tests.builders import make_nomination, make_user, vote
from tests.helpers import ApiClient, EventRecorder, assert_error, run_tasks

# Real commits: the emails and live events leave only after one.
pytestmark = pytest.mark.django_db(transaction=True)

NAME = "Mia Minorchild"


def assert_code(response: Any, status: int, code: str) -> None:
    assert assert_error(response, status)["code"] == code, response.content


@pytest.fixture
def child(scout: User, other_scout: User) -> Nomination:
    """An approved nomination of a minor with a vote, activity and a follower."""
    nomination = make_nomination(scout, sport="soccer", name=NAME)
    Nomination.objects.filter(pk=nomination.pk).update(status=NominationStatus.APPROVED)
    vote(other_scout, nomination)
    follow_player_create(user=other_scout, player_id=nomination.player_id)
    run_tasks()
    mail.outbox.clear()  # the vote's notification to the nominator
    return nomination


def takedown(
    nomination_id: int, *, address: str = "127.0.0.1", **overrides: Any
) -> tuple[ApiClient, Any]:
    anonymous = ApiClient()
    body = {
        "nominationId": nomination_id,
        "relationship": "parent_or_guardian",
        "kind": "remove",
        "contactEmail": "parent@example.com",
        "details": "She is 12; please take her profile down.",
        **overrides,
    }
    return anonymous, anonymous.post("/api/takedown-requests", body, REMOTE_ADDR=address)


def confirmation_token(reference: str) -> str:
    """The token of the link the worker emailed for the request ``reference``."""
    run_tasks()
    [email] = [m for m in mail.outbox if m.subject == f"Confirm your request {reference}"]
    [link] = re.findall(r"http://testserver/takedown/confirm\?token=\S+", str(email.body))
    return unquote(link.split("token=", 1)[1])


def confirm(token: str, address: str = "127.0.0.1") -> Any:
    """Open the link from ``address`` (loopback: a network that proves no independence)."""
    return ApiClient().post("/api/takedown-requests/confirm", {"token": token}, REMOTE_ADDR=address)


def confirmed_takedown(nomination_id: int, address: str = "127.0.0.1", **overrides: Any) -> str:
    """A request sent and confirmed from its email (from ``address``); its reference."""
    _, response = takedown(nomination_id, address=address, **overrides)
    assert response.status_code == 201, response.content
    reference = str(response.json()["reference"])
    answer = confirm(confirmation_token(reference), address)
    assert answer.status_code == 200, answer.content
    return reference


# Three requesters independent of each other: email domains and networks all different.
INDEPENDENT = (
    ("parent@one.example", "198.51.100.10"),
    ("mother@two.example", "203.0.113.20"),
    ("father@three.example", "192.0.2.30"),
)


def taken_down_by_independent_requests(nomination_id: int) -> list[str]:
    """The player taken down fully by TAKEDOWN_INDEPENDENT_CONFIRMATIONS (3) confirmed
    requests from different email domains and networks; their references."""
    return [
        confirmed_takedown(nomination_id, address, contactEmail=email)
        for email, address in INDEPENDENT
    ]


def public_title(nomination: Nomination) -> str:
    """The title a signed-out visitor's link preview (and a crawler) gets for the page."""
    return previews.preview_for(f"/nominations/{nomination.pk}").title


def under_review(api: ApiClient, nomination: Nomination) -> bool:
    response = api.get(f"/api/nominations/{nomination.pk}/under-review")
    assert response.status_code == 200, response.content
    return bool(response.json()["underReview"])


COMMUNITY_READS = (
    "/api/nominations",
    "/api/nominations?sport=soccer",
    f"/api/nominations?q={NAME.split()[1]}",
    "/api/nominations/recent?sport=soccer",
    "/api/nominations/needing-votes?sport=soccer",
    "/api/leaderboard/players?sport=soccer",
    "/api/leaderboard/players?sport=soccer&board=trending",
    "/api/leaderboard/players?sport=soccer&board=weekly",
    "/api/leaderboard/players",
    "/api/feed?sport=soccer",
    "/api/feed",
    "/api/user/following?sport=soccer",
)


def wall(sport: str) -> str:
    """What the live summaries (the wall's boards and stats) say about the sport."""
    return str(summary_source().sport_summaries(sport))


def shows_the_child(api: ApiClient, path: str) -> bool:
    response = api.get(path)
    assert response.status_code == 200, (path, response.content)
    return NAME in response.content.decode()


def test_one_confirmed_request_hides_the_player_from_the_public_at_once(
    child: Nomination, other_api: ApiClient, settings: Any, tmp_path: Any
) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.S3_BUCKET = ""
    call_command("share_cards", "--nomination", str(child.pk))
    assert ShareCard.objects.filter(nomination=child).exists()
    assert NAME in public_title(child)

    _, response = takedown(child.pk)

    assert response.status_code == 201, response.content
    reference = response.json()["reference"]
    assert response.json()["status"] == "unconfirmed"
    # Nothing is hidden until the request is confirmed from its email address.
    assert NAME in public_title(child)
    assert not under_review(other_api, child)
    token = confirmation_token(reference)
    assert NAME not in mail.outbox[0].body  # the name is not mailed before a confirmation

    confirmed = confirm(token)

    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json() == {
        "reference": reference,
        "status": "pending",
        "playerHidden": False,
        "underReview": True,
    }
    # The public (link previews, crawlers, share cards) no longer sees the child...
    assert NAME not in public_title(child)
    assert not ShareCard.objects.filter(nomination=child).exists()
    assert child.pk not in cards_to_draw(limit=10)[0]
    # ... while members still do, with the page marked under review.
    for path in COMMUNITY_READS:
        assert shows_the_child(other_api, path), path
    assert under_review(other_api, child)
    assert ApiClient().get(f"/api/nominations/{child.pk}/under-review").status_code == 401
    # The requester has the reference by email, twice: the link, then the receipt.
    run_tasks()
    assert len(mail.outbox) == 2
    assert [m.to for m in mail.outbox] == [["parent@example.com"]] * 2
    receipt = mail.outbox[1]
    assert reference in receipt.subject and reference in receipt.body
    assert "hidden from visitors who are not signed in" in receipt.body
    # The link again (a second click): the same answer, nothing more.
    assert confirm(token).json() == confirmed.json()
    run_tasks()
    assert len(mail.outbox) == 2


def test_independent_confirmed_requests_take_the_player_down_everywhere(
    child: Nomination, scout: User, scout_api: ApiClient, other_api: ApiClient
) -> None:
    first, second, third = INDEPENDENT
    confirmed_takedown(child.pk, first[1], contactEmail=first[0])
    confirmed_takedown(child.pk, second[1], contactEmail=second[0])
    assert shows_the_child(other_api, "/api/nominations")
    assert NAME in wall("soccer")

    _, response = takedown(child.pk, address=third[1], contactEmail=third[0])
    answer = confirm(confirmation_token(response.json()["reference"]), third[1])

    assert answer.json()["playerHidden"] is True and answer.json()["underReview"] is False
    for path in COMMUNITY_READS:
        assert not shows_the_child(other_api, path), path
    # Not even its nominator sees it any more: only admins.
    assert not shows_the_child(scout_api, f"/api/users/{scout.pk}/nominations")
    assert scout_api.get(f"/api/nominations/{child.pk}").status_code == 404
    assert other_api.get(f"/api/nominations/{child.pk}").status_code == 404
    assert NAME not in wall("soccer")
    stats = other_api.get("/api/stats?sport=soccer").json()
    assert stats["nominations"] == 0 and stats["votes"] == 0
    # Nor can it be voted for, followed, edited by its nominator or nominated again.
    assert other_api.post("/api/votes", {"nominationId": child.pk}).status_code == 404
    assert scout_api.post("/api/votes", {"nominationId": child.pk}).status_code == 404
    assert scout_api.post(f"/api/follow/player/{child.player_id}").status_code == 404
    edit = {
        "name": NAME,
        "age": 12,
        "position": "Guard",
        "nationality": "Canada",
        "club": "Toronto Academy",
        "sport": "soccer",
    }
    assert scout_api.put(f"/api/players/{child.player_id}", edit).status_code == 404
    again = scout_api.post("/api/nominations", {**edit, "age": 15, "skills": "Vision"})
    assert_code(again, 400, "player_taken_down")
    run_tasks()
    assert "are hidden from the site" in mail.outbox[-1].body


@pytest.mark.parametrize(
    "requesters",
    [
        # A catch-all domain: any number of mailboxes, from as many networks.
        [(f"kid{n}@catchall.example", f"198.51.100.{n}") for n in (1, 2, 3, 4)],
        # Different domains, one network.
        [(f"someone@d{n}.example", "198.51.100.1") for n in (1, 2, 3, 4)],
    ],
    ids=["one-domain", "one-network"],
)
def test_requests_that_are_not_independent_never_take_a_player_down(
    scout: User, other_api: ApiClient, requesters: list[tuple[str, str]]
) -> None:
    """A stranger with a domain (or one network) cannot empty a board: members keep seeing
    every player, marked under review, until an admin decides."""
    board = []
    for n in range(3):
        nomination = make_nomination(scout, sport="soccer", name=f"Board Player {n}")
        Nomination.objects.filter(pk=nomination.pk).update(status=NominationStatus.APPROVED)
        board.append(nomination)
    for nomination in board:
        for email, address in requesters:
            confirmed_takedown(nomination.pk, address, contactEmail=email)

    listed = other_api.get("/api/leaderboard/players?sport=soccer").content.decode()
    for nomination in board:
        assert nomination.player.name in listed
        assert under_review(other_api, nomination)
        assert nomination.player.name not in public_title(nomination)


def test_confirmations_are_rated_per_email_domain(
    scout: User, other_api: ApiClient, settings: Any
) -> None:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "TAKEDOWN_DOMAIN_CONFIRMATIONS_PER_DAY": 2}
    board = []
    for n in range(3):
        nomination = make_nomination(scout, sport="soccer", name=f"Rated Player {n}")
        Nomination.objects.filter(pk=nomination.pk).update(status=NominationStatus.APPROVED)
        board.append(nomination)

    for n, nomination in enumerate(board):
        confirmed_takedown(nomination.pk, f"198.51.100.{n + 1}", contactEmail=f"k{n}@x.example")

    assert [under_review(other_api, n) for n in board] == [True, True, False]
    assert board[2].player.name in public_title(board[2])
    run_tasks()
    assert "Our moderators will review the profile" in mail.outbox[-1].body
    # It still waits for the admins, and another domain is not held back.
    waiting = TakedownRequest.objects.get(player=board[2].player)
    assert waiting.status == TakedownStatus.PENDING
    confirmed_takedown(board[2].pk, "203.0.113.5", contactEmail="parent@y.example")
    assert under_review(other_api, board[2])


def test_a_verified_familys_claim_takes_the_player_down_at_once(
    child: Nomination, other_api: ApiClient
) -> None:
    confirmed_takedown(child.pk)
    assert shows_the_child(other_api, "/api/nominations")

    assert takedown_family_verified(player_id=child.player_id) is True

    for path in COMMUNITY_READS:
        assert not shows_the_child(other_api, path), path
    assert takedown_family_verified(player_id=child.player_id) is False


def test_declining_the_only_request_shows_the_player_to_the_public_again(
    child: Nomination, admin_api: ApiClient, other_api: ApiClient
) -> None:
    confirmed_takedown(child.pk)
    assert NAME not in public_title(child)
    request = TakedownRequest.objects.get()

    decided = admin_api.post(
        f"/api/admin/takedown-requests/{request.pk}/decide",
        {"decision": "restore", "reason": "The athlete is 19"},
    )

    assert decided.status_code == 200, decided.content
    assert NAME in public_title(child)
    assert not under_review(other_api, child)


def test_admins_still_see_the_hidden_player(child: Nomination, admin_api: ApiClient) -> None:
    taken_down_by_independent_requests(child.pk)
    detail = admin_api.get(f"/api/nominations/{child.pk}")
    assert detail.status_code == 200 and detail.json()["status"] == "hidden"
    hidden = admin_api.get("/api/nominations?status=hidden").json()
    assert [item["id"] for item in hidden] == [child.pk]
    pending = admin_api.get("/api/admin/takedown-requests").json()
    assert len(pending) == 3
    request = pending[0]
    assert request["player"]["name"] == NAME and request["nominationId"] == child.pk
    assert request["relationship"] == "parent_or_guardian" and request["createdAt"]


def test_restoring_puts_every_status_back(
    child: Nomination, admin_api: ApiClient, other_api: ApiClient, admin_user: User
) -> None:
    confirmed_takedown(child.pk)
    takedown_family_verified(player_id=child.player_id)
    request = TakedownRequest.objects.get()
    run_tasks()
    mail.outbox.clear()

    response = admin_api.post(
        f"/api/admin/takedown-requests/{request.pk}/decide",
        {"decision": "restore", "reason": "The nominator is the athlete's coach, with consent"},
    )

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "restored"
    assert Nomination.objects.get(pk=child.pk).status == NominationStatus.APPROVED
    for path in COMMUNITY_READS:
        assert shows_the_child(other_api, path), path
    run_tasks()
    assert len(mail.outbox) == 1 and request.reference in mail.outbox[0].body
    assert "with consent" in mail.outbox[0].body
    entry = ModlogEntry.objects.get(action="takedown_decide")
    assert (entry.actor_id, entry.target_id) == (admin_user.pk, request.pk)
    assert entry.changes == {"status": ["pending", "restored"]}
    again = admin_api.post(
        f"/api/admin/takedown-requests/{request.pk}/decide",
        {"decision": "remove", "reason": "Changed my mind"},
    )
    assert_code(again, 409, "already_decided")


def test_removed_stays_hidden_until_an_admin_restores_it(
    child: Nomination, admin_api: ApiClient, other_api: ApiClient
) -> None:
    confirmed_takedown(child.pk)
    request = TakedownRequest.objects.get()
    decided = admin_api.post(
        f"/api/admin/takedown-requests/{request.pk}/decide",
        {"decision": "remove", "reason": "Parent's request for a minor"},
    )
    assert decided.json()["status"] == TakedownStatus.REMOVED
    assert not shows_the_child(other_api, "/api/nominations")
    run_tasks()
    assert "stays removed" in mail.outbox[-1].body

    restored = admin_api.post(
        f"/api/admin/players/{child.player_id}/restore", {"reason": "Athlete turned 18, asked"}
    )

    assert restored.status_code == 200, restored.content
    assert shows_the_child(other_api, "/api/nominations")
    assert ModlogEntry.objects.filter(action="player_restore", target_id=child.player_id).exists()
    again = admin_api.post(f"/api/admin/players/{child.player_id}/restore", {"reason": "x"})
    assert_code(again, 409, "not_hidden")


def test_a_second_pending_request_keeps_the_player_hidden(
    child: Nomination, admin_api: ApiClient, other_api: ApiClient
) -> None:
    taken_down_by_independent_requests(child.pk)
    first, _, _ = TakedownRequest.objects.order_by("pk")
    admin_api.post(
        f"/api/admin/takedown-requests/{first.pk}/decide", {"decision": "restore", "reason": "ok"}
    )
    assert not shows_the_child(other_api, "/api/nominations")
    blocked = admin_api.post(f"/api/admin/players/{child.player_id}/restore", {"reason": "x"})
    assert_code(blocked, 409, "takedown_pending")


def test_requests_are_bounded_per_address(child: Nomination, settings: Any) -> None:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "TAKEDOWNS_PER_HOUR": 2}
    assert takedown(child.pk, contactEmail="a@example.com")[1].status_code == 201
    assert takedown(child.pk, contactEmail="b@example.com")[1].status_code == 201
    _, refused = takedown(child.pk, contactEmail="c@example.com")
    assert_code(refused, 429, "throttled")
    assert int(refused["Retry-After"]) > 0
    assert TakedownRequest.objects.count() == 2
    # Another address still may.
    other = Client(enforce_csrf_checks=True, REMOTE_ADDR="198.51.100.7")
    other.get("/api/auth/csrf")
    response = other.post(
        "/api/takedown-requests",
        {
            "nominationId": child.pk,
            "relationship": "athlete",
            "kind": "correct",
            "contactEmail": "mia@example.com",
        },
        content_type="application/json",
        HTTP_X_CSRFTOKEN=other.cookies["csrftoken"].value,
    )
    assert response.status_code == 201, response.content


def test_a_request_needs_the_csrf_token_and_valid_fields(child: Nomination) -> None:
    anonymous = ApiClient()
    body = {
        "nominationId": child.pk,
        "relationship": "athlete",
        "kind": "remove",
        "contactEmail": "mia@example.com",
    }
    no_token = anonymous.post("/api/takedown-requests", body, csrf=False)
    assert_code(no_token, 403, "csrf_failed")
    bad_email = anonymous.post("/api/takedown-requests", {**body, "contactEmail": "nope"})
    assert_code(bad_email, 400, "validation_error")
    assert bad_email.json()["fields"] == {"contactEmail": "Invalid email address"}
    missing = anonymous.post("/api/takedown-requests", {**body, "nominationId": 999999})
    assert_code(missing, 404, "not_found")
    assert not TakedownRequest.objects.exists()
    assert Nomination.objects.get(pk=child.pk).status == NominationStatus.APPROVED


def test_the_requester_address_is_not_stored(child: Nomination) -> None:
    takedown(child.pk)
    stored = str(list(TakedownRequest.objects.values()))
    assert "127.0.0.1" not in stored


def test_a_rejected_nomination_of_the_player_comes_back_rejected(
    child: Nomination, scout: User, admin_api: ApiClient
) -> None:
    rejected = make_nomination(make_user(), sport="soccer")
    Nomination.objects.filter(pk=rejected.pk).update(
        status=NominationStatus.REJECTED, player=child.player
    )
    confirmed_takedown(child.pk)
    takedown_family_verified(player_id=child.player_id)
    assert Nomination.objects.get(pk=rejected.pk).status_before_hidden == "rejected"
    request = TakedownRequest.objects.get()
    admin_api.post(
        f"/api/admin/takedown-requests/{request.pk}/decide", {"decision": "correct", "reason": "ok"}
    )
    assert Nomination.objects.get(pk=rejected.pk).status == NominationStatus.REJECTED
    assert Nomination.objects.get(pk=child.pk).status == NominationStatus.APPROVED


SPEC_PLAYER_FIELDS = {
    "id",
    "name",
    "age",
    "graduationYear",
    "position",
    "nationality",
    "club",
    "sport",
    "skills",
    "videoLink",
    "verified",
    # The "Managed by" badge: whether the family or the athlete manages it, never who.
    "managedBy",
}


def test_members_get_no_more_than_the_spec_player_fields(
    child: Nomination, other_api: ApiClient
) -> None:
    """Data minimisation: nothing about a minor beyond the spec's player read shape (no
    identity key, no takedown state, no claimant)."""
    players = [
        other_api.get(f"/api/nominations/{child.pk}").json()["player"],
        *(item["player"] for item in other_api.get("/api/nominations").json()),
        *(item["player"] for item in other_api.get("/api/nominations/recent").json()),
        *(item["player"] for item in other_api.get("/api/leaderboard/players").json()),
    ]
    assert len(players) == 4
    for player in players:
        assert set(player) == SPEC_PLAYER_FIELDS, player


def test_a_forged_or_altered_link_is_refused_and_hides_nothing(
    child: Nomination, other_api: ApiClient
) -> None:
    _, response = takedown(child.pk)
    token = confirmation_token(response.json()["reference"])
    request = TakedownRequest.objects.get()
    forged = TimestampSigner(salt="another.salt").sign(str(request.pk))
    pk, stamp, signature = token.split(":")
    for bad in (forged, f"{pk}:{stamp}:{signature[:-2]}xx", f"{pk + '0'}:{stamp}:{signature}"):
        refused = confirm(bad)
        assert (
            assert_error(
                refused,
                400,
                "This confirmation link is not valid. Open the link from our email again.",
            )["code"]
            == "invalid_link"
        )
    assert TakedownRequest.objects.get().status == TakedownStatus.UNCONFIRMED
    assert shows_the_child(other_api, "/api/nominations")


def test_an_expired_link_is_refused_with_a_clear_message(
    child: Nomination, other_api: ApiClient
) -> None:
    _, response = takedown(child.pk)
    token = confirmation_token(response.json()["reference"])
    with time_machine.travel(timezone.now() + timedelta(hours=24, minutes=1)):
        expired = confirm(token)
    assert_code(expired, 400, "link_expired")
    assert expired.json()["message"] == (
        "This confirmation link has expired. Please send your request again."
    )
    assert not under_review(other_api, child) and NAME in public_title(child)
    # Within the time it works.
    with time_machine.travel(timezone.now() + timedelta(hours=23)):
        assert confirm(token).status_code == 200
    assert under_review(other_api, child) and NAME not in public_title(child)


def test_a_full_takedown_sends_the_live_events_of_a_takedown(
    child: Nomination, events: EventRecorder
) -> None:
    _, response = takedown(child.pk)
    token = confirmation_token(response.json()["reference"])
    created = events.one("takedown.created")
    assert created.admins and created.data["status"] == "unconfirmed"
    assert not events.of_type("nomination.removed")
    confirm(token)
    events.settle()
    # One confirmation leaves members' screens as they are.
    assert not events.of_type("nomination.removed")
    assert events.one("takedown.confirmed").data["status"] == "pending"
    taken_down_by_independent_requests(child.pk)
    events.settle()
    removed = events.one("nomination.removed")
    assert removed.data == {"id": child.pk}


def _restored_by_an_admin(child: Nomination, admin_api: ApiClient, how: str) -> None:
    confirmed_takedown(child.pk)
    request = TakedownRequest.objects.get()
    if how == "declined":
        admin_api.post(
            f"/api/admin/takedown-requests/{request.pk}/decide",
            {"decision": "restore", "reason": "The athlete is 19"},
        )
    else:
        admin_api.post(
            f"/api/admin/takedown-requests/{request.pk}/decide",
            {"decision": "remove", "reason": "For now"},
        )
        admin_api.post(f"/api/admin/players/{child.player_id}/restore", {"reason": "Asked back"})


@pytest.mark.parametrize("how", ["declined", "restored"])
def test_a_player_an_admin_kept_stays_up_until_an_admin_decides_again(
    child: Nomination, admin_api: ApiClient, other_api: ApiClient, how: str
) -> None:
    _restored_by_an_admin(child, admin_api, how)
    assert shows_the_child(other_api, "/api/nominations")
    run_tasks()
    mail.outbox.clear()

    _, response = takedown(child.pk, contactEmail="again@example.com")
    answer = confirm(confirmation_token(response.json()["reference"]))

    assert answer.json()["status"] == "pending" and answer.json()["playerHidden"] is False
    assert answer.json()["underReview"] is False and NAME in public_title(child)
    for path in COMMUNITY_READS:
        assert shows_the_child(other_api, path), path
    run_tasks()
    link, receipt = mail.outbox
    assert "kept it on the site: once you confirm" in link.body
    assert "stays there until they decide" in receipt.body
    # It waits for the admins, who can keep it off the site this time.
    [waiting] = admin_api.get("/api/admin/takedown-requests").json()
    assert waiting["status"] == "pending" and waiting["contactEmail"] == "again@example.com"
    decided = admin_api.post(
        f"/api/admin/takedown-requests/{waiting['id']}/decide",
        {"decision": "remove", "reason": "Confirmed with the family"},
    )
    assert decided.status_code == 200, decided.content
    assert not shows_the_child(other_api, "/api/nominations")


def from_address(address: str, nomination_id: int, email: str | None = None) -> Any:
    client = Client(enforce_csrf_checks=True, REMOTE_ADDR=address)
    client.get("/api/auth/csrf")
    return client.post(
        "/api/takedown-requests",
        {
            "nominationId": nomination_id,
            "relationship": "athlete",
            "kind": "remove",
            "contactEmail": email or f"{address}@example.com",
        },
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
    )


def test_unconfirmed_requests_never_keep_a_family_out(child: Nomination, settings: Any) -> None:
    """Requests nobody confirms, from anyone, do not count against the player: the genuine
    parent's request goes through whatever came before it."""
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "TAKEDOWNS_PER_PLAYER_PER_DAY": 2}
    for n in range(1, 5):
        assert from_address(f"198.51.100.{n}", child.pk).status_code == 201

    parent = from_address("203.0.113.9", child.pk, "real.parent@example.com")

    assert parent.status_code == 201, parent.content
    assert TakedownRequest.objects.count() == 5


def test_an_address_seen_before_is_refused_once_enough_requests_are_confirmed(
    child: Nomination, admin_api: ApiClient, settings: Any
) -> None:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "TAKEDOWNS_PER_PLAYER_PER_DAY": 2}
    confirmed_takedown(child.pk, "198.51.100.1", contactEmail="first@example.com")
    confirmed_takedown(child.pk, "198.51.100.2", contactEmail="second@example.com")

    refused = from_address("198.51.100.3", child.pk, "First@Example.com")

    assert_code(refused, 429, "throttled")
    assert refused.json()["message"].startswith("We already received several requests")
    assert 0 < int(refused["Retry-After"]) <= 86400
    # An address never seen for the player is never refused.
    assert from_address("198.51.100.4", child.pk, "third@example.com").status_code == 201
    assert TakedownRequest.objects.count() == 3
    # Admins see the refused attempt, counted per player, reason and day.
    [row] = admin_api.get("/api/admin/takedown-refusals").json()
    assert (row["player"]["name"], row["reason"], row["count"]) == (NAME, "player", 1)
    from_address("198.51.100.5", child.pk, "first@example.com")
    assert TakedownRefusal.objects.get().count == 2


def test_refused_attempts_of_every_kind_are_shown_to_admins(
    child: Nomination, admin_api: ApiClient, settings: Any
) -> None:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "TAKEDOWNS_PER_HOUR": 1}
    assert from_address("198.51.100.1", child.pk, "a@example.com").status_code == 201
    assert_code(from_address("198.51.100.1", child.pk, "b@example.com"), 429, "throttled")
    assert_code(from_address("198.51.100.2", child.pk, "a@example.com"), 409, "already_sent")
    reasons = {
        (r["reason"], r["count"]) for r in admin_api.get("/api/admin/takedown-refusals").json()
    }
    assert reasons == {("network", 1), ("open_request", 1)}
    assert ApiClient().get("/api/admin/takedown-refusals").status_code == 401


def test_confirmation_emails_are_limited_per_recipient(scout: User, settings: Any) -> None:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "TAKEDOWN_EMAILS_PER_DAY": 3}
    players = []
    for n in range(4):
        nomination = make_nomination(scout, sport="soccer", name=f"Inbox Player {n}")
        Nomination.objects.filter(pk=nomination.pk).update(status=NominationStatus.APPROVED)
        players.append(nomination)

    answers = [
        from_address(f"198.51.100.{n + 1}", nomination.pk, "victim@example.com")
        for n, nomination in enumerate(players)
    ]

    assert [a.status_code for a in answers] == [201, 201, 201, 429]
    assert "confirmation emails to this address" in answers[3].json()["message"]
    run_tasks()
    assert len([m for m in mail.outbox if m.to == ["victim@example.com"]]) == 3
    # Another recipient is not held back.
    assert from_address("198.51.100.9", players[3].pk, "parent@example.com").status_code == 201


def test_one_open_unconfirmed_request_per_player_and_address(child: Nomination) -> None:
    assert takedown(child.pk)[1].status_code == 201

    _, again = takedown(child.pk, address="198.51.100.7", contactEmail="PARENT@example.com")

    assert_code(again, 409, "already_sent")
    assert again.json()["message"].startswith("We already emailed a confirmation link")
    run_tasks()
    assert len(mail.outbox) == 1
    # Once its link has expired, the address may ask again.
    with time_machine.travel(timezone.now() + timedelta(hours=24, minutes=1)):
        assert takedown(child.pk)[1].status_code == 201


def test_do_not_email_me_again_stops_every_further_confirmation_email(
    child: Nomination,
) -> None:
    takedown(child.pk)
    run_tasks()
    [email] = mail.outbox
    assert "within 24 hours" in email.body
    [link] = re.findall(r"http://testserver/takedown/stop-emails\?token=\S+", str(email.body))
    token = unquote(link.split("token=", 1)[1])
    assert "parent@example.com" not in token
    forged = ApiClient().post("/api/takedown-requests/stop-emails", {"token": token + "x"})
    assert_code(forged, 400, "invalid_link")

    stopped = ApiClient().post("/api/takedown-requests/stop-emails", {"token": token})

    assert stopped.status_code == 204, stopped.content
    assert (
        ApiClient().post("/api/takedown-requests/stop-emails", {"token": token}).status_code == 204
    )
    assert "parent@example.com" not in str(list(TakedownEmailStop.objects.values()))
    mail.outbox.clear()
    other = make_nomination(make_user(), sport="soccer", name="Another Child")
    _, refused = takedown(other.pk, contactEmail="Parent@Example.com")
    assert_code(refused, 409, "emails_stopped")
    run_tasks()
    assert mail.outbox == []


@pytest.mark.parametrize(("hours", "words"), [(24.0, "within 24 hours"), (1.5, "within 1.5 hours")])
def test_the_email_writes_its_hours_as_a_person_does(
    child: Nomination, settings: Any, hours: float, words: str
) -> None:
    settings.TAKEDOWN_CONFIRM_HOURS = hours
    takedown(child.pk)
    run_tasks()
    assert words in mail.outbox[0].body and ".0 hours" not in mail.outbox[0].body


@pytest.mark.parametrize("status", [NominationStatus.REJECTED, NominationStatus.REMOVED])
def test_a_player_nobody_can_see_is_not_found_and_nothing_is_sent(scout: User, status: str) -> None:
    hidden_from_all = make_nomination(scout, sport="soccer", name="Rita Rejected")
    Nomination.objects.filter(pk=hidden_from_all.pk).update(status=status)
    _, response = takedown(hidden_from_all.pk)
    _, missing = takedown(999999)
    assert response.status_code == missing.status_code == 404
    assert response.json() == missing.json()
    assert not TakedownRequest.objects.exists()
    run_tasks()
    assert mail.outbox == []


def test_admins_see_unconfirmed_requests_and_can_decide_them(
    child: Nomination, admin_api: ApiClient, other_api: ApiClient
) -> None:
    _, response = takedown(child.pk)
    listed = admin_api.get("/api/admin/takedown-requests").json()
    assert [(r["reference"], r["status"], r["confirmedAt"]) for r in listed] == [
        (response.json()["reference"], "unconfirmed", None)
    ]
    assert admin_api.get("/api/admin/takedown-requests?status=pending").json() == []
    assert len(admin_api.get("/api/admin/takedown-requests?status=unconfirmed").json()) == 1
    decided = admin_api.post(
        f"/api/admin/takedown-requests/{listed[0]['id']}/decide",
        {"decision": "remove", "reason": "The family called us"},
    )
    assert decided.json()["status"] == "removed"
    assert not shows_the_child(other_api, "/api/nominations")
    entry = ModlogEntry.objects.get(action="takedown_decide")
    assert entry.changes == {"status": ["unconfirmed", "removed"]}
    # The address never confirmed: it gets the link, not the decision (which names the player).
    run_tasks()
    assert [m.subject.split()[0] for m in mail.outbox] == ["Confirm"]
