"""The tests' users, nominations, votes and follows, made through the services so counters,
points and events are the ones the product keeps. Every option is keyword-only with a
default; usernames and player names are unique through one counter, so two builders never
make the same player by accident."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

from django.utils import timezone

from project.accounts.models import Role, User
from project.accounts.services import user_create
from project.coaches.models import CoachVerification, CoachVerificationStatus
from project.scouting.models import Follow, Nomination, NominationStatus, Player
from project.scouting.services.nominations import nomination_create
from project.scouting.services.votes import vote_cast

PASSWORD = "secret-pass-1"

_counter = itertools.count(1)


# The year of birth of the tests' members unless told: adults (``birth_year=None`` makes an
# account from before the year was asked).
ADULT_BIRTH_YEAR = 1990


def make_user(*, role: str = Role.SCOUT, password: str = PASSWORD, **fields: Any) -> User:
    """A member made through the accounts service (settings row and all, a teen's defaults
    for a teen's ``birth_year``); ``fields`` set any other column after creation."""
    n = next(_counter)
    username = fields.pop("username", f"user{n}")
    user = user_create(
        username=username,
        email=fields.pop("email", f"{username}@example.com"),
        password=password,
        name=fields.pop("name", f"User {n}"),
        favorite_sport=fields.pop("favorite_sport", "football"),
        role=role,
        birth_year=fields.pop("birth_year", ADULT_BIRTH_YEAR),
        time_zone=fields.pop("time_zone", ""),
    )
    for key, value in fields.items():
        setattr(user, key, value)
    if fields:
        user.save()
    return user


def make_coach(**fields: Any) -> User:
    """A verified coach: a member with the role ``coach`` and an approved verification (what
    an admin's approval in the Coaches tab leaves)."""
    coach = make_user(role=Role.COACH, **fields)
    CoachVerification.objects.create(
        user=coach,
        organization="Lisbon Juniors FC",
        role_title="Head coach",
        evidence_url="https://club.example/staff",
        status=CoachVerificationStatus.APPROVED,
        decided_at=timezone.now(),
    )
    return coach


def aged(user: User, *, hours: float) -> User:
    """``user`` as if they had joined ``hours`` ago."""
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(hours=hours))
    user.refresh_from_db()
    return user


def aged_user(*, hours: float = 100, **fields: Any) -> User:
    """A member who joined ``hours`` ago (past the integrity rules' new-account window)."""
    return aged(make_user(**fields), hours=hours)


def make_nomination(
    nominator: User | None = None, *, status: str = NominationStatus.PENDING, **fields: Any
) -> Nomination:
    """A nomination made through the service (by a new member unless ``nominator`` is given),
    with a unique player name; ``status`` other than pending is set directly, as a decision
    without its events. ``fields`` override the player's details."""
    values: dict[str, Any] = {
        "name": f"Player {next(_counter)}",
        "age": 15,
        "graduation_year": None,
        "position": "Guard",
        "nationality": "Canada",
        "club": "Toronto Academy",
        "sport": "football",
        "skills": "Vision",
        "video_link": "",
    }
    values.update(fields)
    nomination = nomination_create(user=nominator or make_user(), **values)
    if status != NominationStatus.PENDING:
        Nomination.objects.filter(pk=nomination.pk).update(status=status)
        nomination.status = status
    return nomination


def stored_nomination(
    nominator: User | None = None,
    *,
    name: str | None = None,
    sport: str = "soccer",
    status: str = NominationStatus.APPROVED,
    **fields: Any,
) -> Nomination:
    """A player and its nomination written straight to the database: no event, activity,
    points or share card. For tests whose servers run in other processes and count what
    they publish, where the service's own events would be noise."""
    name = name or f"Player {next(_counter)}"
    values: dict[str, Any] = {
        "position": "Winger",
        "nationality": "Norway",
        "club": "IL Fjord",
    }
    values.update(fields)
    vote_count = values.pop("vote_count", 0)
    player = Player.objects.create(
        name=name, sport=sport, normalized_identity=f"{name.lower()}|{sport}", **values
    )
    return Nomination.objects.create(
        player=player,
        nominated_by=nominator or make_user(),
        sport=sport,
        status=status,
        vote_count=vote_count,
    )


def approved_nominations(count: int, **fields: Any) -> list[Nomination]:
    """``count`` approved nominations by one new member."""
    owner = make_user()
    return [
        make_nomination(owner, status=NominationStatus.APPROVED, **fields) for _ in range(count)
    ]


def second_nomination(player: Player, *, by: User, sport: str, status: str) -> Nomination:
    """Another member's nomination of an existing player, written directly (the service
    refuses a second live nomination of one player)."""
    return Nomination.objects.create(player=player, nominated_by=by, sport=sport, status=status)


def nomination_body(**overrides: Any) -> dict[str, Any]:
    """The JSON body of ``POST /api/nominations``; ``overrides`` replace or add fields."""
    body: dict[str, Any] = {
        "name": "Zoë Núñez",
        "age": 16,
        "position": "Striker",
        "nationality": "Spain",
        "club": "FC Valencia Youth",
        "sport": "football",
        "skills": "Pace, finishing",
        "videoLink": "https://video.example/zoe",
    }
    body.update(overrides)
    return body


def vote(user: User, nomination: Nomination) -> None:
    """``user``'s vote for ``nomination``, through the service (no integrity inspection)."""
    vote_cast(user=user, nomination_id=nomination.pk)


def follow(follower: User, *, user: User | None = None, player: Player | None = None) -> Follow:
    """``follower`` follows a member or a player, written directly."""
    return Follow.objects.create(follower=follower, followed_user=user, followed_player=player)
