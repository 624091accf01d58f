"""Nominating a player, editing a player, and the player identity that finds duplicates."""

from __future__ import annotations

import logging
from datetime import date
from typing import Literal

from django.db import connection, transaction
from django.utils import timezone

from project.accounts.models import User
from project.accounts.progress import user_progress
from project.common.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from project.common.text import fold
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import field_changes, modlog_record
from project.scouting import hooks, selectors
from project.scouting.models import (
    LIVE_STATUSES,
    Activity,
    ActivityType,
    Nomination,
    Player,
)
from project.scouting.points import (
    NOMINATION_POINTS,
)
from project.scouting.services.activity import (
    activity_create,
    new_activity,
    summaries_changed,
)
from project.scouting.services.audience import (
    nomination_event,
    nomination_publish,
    nomination_removed,
)

logger = logging.getLogger(__name__)

DUPLICATE_NOMINATION = "This player has already been nominated"
AGE_OR_GRADUATION_YEAR_REQUIRED = "Enter the player's age or graduation year"
EDIT_FORBIDDEN = "You can only edit players you nominated"
CLAIMED_EDIT_FORBIDDEN = "This player's profile is managed by the athlete or their family"
PLAYER_TAKEN_DOWN = "This athlete's profile was taken down at their request"
PLAYER_EDIT_FIELDS = (
    "name",
    "age",
    "graduation_year",
    "position",
    "nationality",
    "club",
    "sport",
    "skills",
    "video_link",
)


# --- Player identity ----------------------------------------------------------------------


def _fold(text: str) -> str:
    """Folded (``fold``, letters and digits only) with no spaces, so spacing, punctuation and
    symbols do not matter: " Zoë O'Brien-Núñez ⚽" and "zoe obrien nunez" both give
    "zoeobriennunez"."""
    return fold(text, symbols=False).replace(" ", "")


def player_search_key(*, name: str, position: str, nationality: str, club: str) -> str:
    """``Player.search_key``: the searched fields folded (``fold``), each on its own, joined by
    "|", which no folded search text holds: a search matches within one field."""
    return "|".join(fold(value) for value in (name, position, nationality, club))


def player_identity(
    *,
    name: str,
    sport: str,
    club: str,
    age: int | None,
    graduation_year: int | None,
    today: date | None = None,
) -> str:
    """``normalized_identity``: folded name | sport | birth year | folded club, where the
    birth year is the graduation year when given, else the current year minus the age."""
    if graduation_year is not None:
        year = graduation_year
    elif age is not None:
        year = (today or timezone.localdate()).year - age
    else:
        raise ValidationFailed.on_field("age", AGE_OR_GRADUATION_YEAR_REQUIRED)
    return "|".join((_fold(name), sport, str(year), _fold(club)))


def _identity_lock(identity: str) -> None:
    """Serialize concurrent nominations of one identity until the transaction ends, so two
    of them cannot both pass the duplicate check."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [identity])


def _raise_if_duplicate(*, identity: str, exclude_player_id: int | None = None) -> None:
    _identity_lock(identity)
    existing = Nomination.objects.filter(
        player__normalized_identity=identity, status__in=LIVE_STATUSES
    )
    if exclude_player_id is not None:
        existing = existing.exclude(player_id=exclude_player_id)
    nomination_id = existing.order_by("id").values_list("id", flat=True).first()
    if nomination_id is not None:
        raise Conflict(
            DUPLICATE_NOMINATION,
            code="duplicate_nomination",
            extra={"nominationId": nomination_id},
        )
    taken_down = Player.objects.filter(normalized_identity=identity, hidden_at__isnull=False)
    if exclude_player_id is not None:
        taken_down = taken_down.exclude(pk=exclude_player_id)
    if taken_down.exists():
        # A taken-down athlete must not come back through a new nomination.
        raise ValidationFailed(PLAYER_TAKEN_DOWN, code="player_taken_down")


# --- Nominations and players --------------------------------------------------------------


def _publish_nomination(
    event_type: Literal["nomination.created", "nomination.updated"], nomination: Nomination
) -> None:
    nomination_publish(
        nomination_event(event_type, nomination, selectors.nomination_data(nomination))
    )


@transaction.atomic
def nomination_create(
    *,
    user: User,
    name: str,
    age: int | None,
    graduation_year: int | None,
    position: str,
    nationality: str,
    club: str,
    sport: str,
    skills: str,
    video_link: str | None = None,
    today: date | None = None,
) -> Nomination:
    """Create a player and its pending nomination, with its activity, +10 points and the
    streak, in one transaction. 409 duplicate_nomination (with nominationId) when a player
    of the same identity already has a pending or approved nomination."""
    today = today or timezone.localdate()
    identity = player_identity(
        name=name, sport=sport, club=club, age=age, graduation_year=graduation_year, today=today
    )
    _raise_if_duplicate(identity=identity)
    player = Player.objects.create(
        name=name,
        age=age,
        graduation_year=graduation_year,
        position=position,
        nationality=nationality,
        club=club,
        sport=sport,
        skills=skills,
        video_link=video_link or "",
        normalized_identity=identity,
        search_key=player_search_key(
            name=name, position=position, nationality=nationality, club=club
        ),
    )
    nomination = Nomination.objects.create(player=player, nominated_by=user, sport=player.sport)
    nomination.has_voted = False  # type: ignore[attr-defined]  # the read shape's annotation
    activity_create(
        new_activity(
            user=user,
            activity_type=ActivityType.NOMINATION_CREATED,
            sport=nomination.sport,
            related_player=player,
            related_nomination=nomination,
            metadata={"playerName": player.name},
        )
    )
    user_progress({user.pk: (NOMINATION_POINTS, today)})
    _publish_nomination("nomination.created", nomination)
    summaries_changed(nomination.sport)
    # What other apps keep about a player follow it (sharing: its card is drawn).
    hooks.player_changed(
        hooks.PlayerChange(player_id=player.pk, nomination_ids=(nomination.pk,), created=True)
    )
    return nomination


def _may_edit(*, user: User, player: Player) -> bool:
    """Admins always; a claimed player's claimant (its nominators' Edit ends with the
    claim); else its nominators."""
    if user.is_admin:
        return True
    if player.claimed_by_id is not None:
        return bool(player.claimed_by_id == user.pk)
    return player.nominations.filter(nominated_by_id=user.pk).exists()


@transaction.atomic
def player_update(
    *,
    user: User,
    player_id: int,
    name: str,
    age: int | None,
    graduation_year: int | None,
    position: str,
    nationality: str,
    club: str,
    sport: str,
    skills: str | None = None,
    video_link: str | None = None,
    today: date | None = None,
) -> Player:
    """Edit a player (its nominator or an admin). ``skills`` and ``video_link`` left as
    they are when None; a blank age or graduation year clears it. The identity is recomputed
    (409 duplicate_nomination if it now matches another live nomination's player); a sport
    change moves its nominations and activity. Publishes nomination.updated for each of its
    nominations (and nomination.removed to the old sport when the sport changed)."""
    player = Player.objects.select_for_update(no_key=True).filter(pk=player_id).first()
    if player is None or (player.hidden_at is not None and not user.is_admin):
        raise NotFound(selectors.PLAYER_NOT_FOUND)
    if not _may_edit(user=user, player=player):
        # A player seen only through rejected nominations does not exist for the caller.
        selectors.player_get_visible(user=user, player_id=player.pk)
        if player.claimed_by_id is not None:
            raise PermissionDenied(CLAIMED_EDIT_FORBIDDEN, code="player_claimed")
        raise PermissionDenied(EDIT_FORBIDDEN, code="not_nominator")
    identity = player_identity(
        name=name, sport=sport, club=club, age=age, graduation_year=graduation_year, today=today
    )
    if identity != player.normalized_identity:
        _raise_if_duplicate(identity=identity, exclude_player_id=player.pk)
    old_sport = player.sport
    before = {field: getattr(player, field) for field in PLAYER_EDIT_FIELDS}
    player.name = name
    player.age = age
    player.graduation_year = graduation_year
    player.position = position
    player.nationality = nationality
    player.club = club
    player.sport = sport
    if skills is not None:
        player.skills = skills
    if video_link is not None:
        player.video_link = video_link
    player.normalized_identity = identity
    player.search_key = player_search_key(
        name=name, position=position, nationality=nationality, club=club
    )
    player.save()
    # What other apps keep about the player follows the edit (sharing: its cards redrawn).
    hooks.player_changed(
        hooks.PlayerChange(
            player_id=player.pk,
            nomination_ids=tuple(player.nominations.values_list("pk", flat=True)),
            created=False,
        )
    )
    if user.is_admin:
        after = {field: getattr(player, field) for field in PLAYER_EDIT_FIELDS}
        modlog_record(
            actor=user,
            action=ModlogAction.PLAYER_EDIT,
            target_type=ModlogTarget.PLAYER,
            target_id=player.pk,
            target_label=player.name,
            changes=field_changes(before, after),
        )
    if sport != old_sport:
        Nomination.objects.filter(player_id=player.pk).update(sport=sport)
        Activity.objects.filter(related_player_id=player.pk).update(sport=sport)
    for nomination in selectors.nomination_queryset().filter(player_id=player.pk):
        if sport != old_sport:
            nomination_publish(nomination_removed(nomination, sport_was=old_sport))
        _publish_nomination("nomination.updated", nomination)
    summaries_changed(old_sport, sport)
    return player
