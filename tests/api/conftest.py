"""A populated world for the API-wide tests, made through the domain services: a scout who
owns nominations (pending and rejected), another scout with nominations of their own
(pending, approved, rejected) who follows the owner, a scout with nothing, an admin and a
scout whose profile is private."""

from __future__ import annotations

from dataclasses import dataclass

from django.test import Client
from django.utils.crypto import get_random_string

from project.accounts.models import Role, User, UserSettings
from project.scouting.models import Nomination, NominationStatus, Notification
from project.scouting.services.votes import vote_cast
from tests.builders import follow, make_nomination, make_user


@dataclass
class World:
    owner: User
    other: User
    scout: User
    admin: User
    private: User
    pending: Nomination  # the owner's
    rejected: Nomination  # the owner's
    other_pending: Nomination
    approved: Nomination  # the other scout's
    other_rejected: Nomination
    notification: Notification  # the owner's, unread

    def nominations(self) -> list[Nomination]:
        return [self.pending, self.rejected, self.other_pending, self.approved, self.other_rejected]

    def users(self) -> list[User]:
        return [self.owner, self.other, self.scout, self.admin, self.private]


def _decide(nomination: Nomination, status: str) -> None:
    Nomination.objects.filter(pk=nomination.pk).update(status=status)
    nomination.refresh_from_db()


def build_world() -> World:
    owner = make_user(name="Owen Owner", phone_number="+1 555 0100")
    other = make_user(name="Olive Other")
    scout = make_user(name="Sam Scout")
    admin = make_user(role=Role.ADMIN, name="Ada Admin")
    private = make_user(name="Pia Private")
    UserSettings.objects.filter(user=private).update(profile_visibility="private")
    pending = make_nomination(owner, sport="football")
    rejected = make_nomination(owner, sport="football")
    other_pending = make_nomination(other, sport="football")
    approved = make_nomination(other, sport="soccer")
    other_rejected = make_nomination(other, sport="football")
    _decide(rejected, NominationStatus.REJECTED)
    _decide(other_rejected, NominationStatus.REJECTED)
    _decide(approved, NominationStatus.APPROVED)
    vote_cast(user=owner, nomination_id=approved.pk)
    follow(other, user=owner)
    follow(owner, player=other_pending.player)
    notification = Notification.objects.create(
        user=owner, message="Olive Other started following you.", type="new_follower"
    )
    return World(
        owner=owner,
        other=other,
        scout=scout,
        admin=admin,
        private=private,
        pending=pending,
        rejected=rejected,
        other_pending=other_pending,
        approved=approved,
        other_rejected=other_rejected,
        notification=notification,
    )


@dataclass(frozen=True)
class Session:
    """What a signed-in browser sends: the session and CSRF cookies and the CSRF header."""

    session_id: str
    csrf_token: str

    @property
    def cookies(self) -> dict[str, str]:
        return {"sessionid": self.session_id, "csrftoken": self.csrf_token}

    @property
    def headers(self) -> dict[str, str]:
        return {"X-CSRFToken": self.csrf_token}


def open_session(user: User) -> Session:
    client = Client()
    client.force_login(user)
    return Session(client.cookies["sessionid"].value, get_random_string(32))
