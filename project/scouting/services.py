"""Writes of the scouting app: nominations, player edits, votes, follows, activity,
notifications, points and streaks.

Each service is one transaction that also keeps every counter it touches (``vote_count``,
points, streaks) and queues its live events with :func:`realtime.publish.publish`, which sends
them only after the commit.

Lock order, to keep concurrent writes free of deadlocks: a nomination row (``FOR NO KEY
UPDATE``) or a player row before any user row, and user rows in ascending id order.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from datetime import date, timedelta
from typing import Any

from django.core.mail import send_mail
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, DateField, F, IntegerField, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone

from project.accounts.models import User, UserSettings
from project.accounts.selectors import scout_get
from project.common.choices import Sport
from project.common.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from project.scouting import selectors
from project.scouting.models import (
    LIVE_STATUSES,
    Activity,
    ActivityType,
    Follow,
    Nomination,
    Notification,
    NotificationType,
    Player,
    Vote,
)
from realtime.publish import Event, publish, publish_summaries

logger = logging.getLogger(__name__)

NOMINATION_POINTS = 10
APPROVAL_POINTS = 25
VOTE_POINTS = 1
VOTE_RECEIVED_POINTS = 2

DUPLICATE_NOMINATION = "This player has already been nominated"
AGE_OR_GRADUATION_YEAR_REQUIRED = "Required"
EDIT_FORBIDDEN = "You can only edit players you nominated"
ALREADY_VOTED = "You have already voted for this nomination"
NOT_VOTED = "You have not voted for this nomination"
VOTING_CLOSED = "Voting is closed for this nomination"
CANNOT_FOLLOW_SELF = "You cannot follow yourself"
NOT_FOLLOWING_PLAYER = "You are not following this player"
NOT_FOLLOWING_SCOUT = "You are not following this scout"
READ_TARGET_REQUIRED = "Give ids or all: true"

# Which user setting gates which notification type; types not listed are always sent.
NOTIFICATION_PREFERENCES = {
    NotificationType.VOTE_RECEIVED: "vote_notifications",
    NotificationType.NOMINATION_APPROVED: "nomination_notifications",
    NotificationType.NOMINATION_REJECTED: "nomination_notifications",
}
EMAIL_SUBJECTS = {
    NotificationType.VOTE_RECEIVED: "Your nomination received a vote",
    NotificationType.NOMINATION_APPROVED: "Your nomination was approved",
    NotificationType.NOMINATION_REJECTED: "Your nomination was not approved",
    NotificationType.NEW_FOLLOWER: "You have a new follower",
}


# --- Points and streaks -------------------------------------------------------------------


def _profile_changed(user_id: int) -> None:
    values = (
        User.objects.filter(pk=user_id).values("points", "current_streak", "longest_streak").first()
    )
    if values is None:
        return
    data = {
        "points": values["points"],
        "currentStreak": values["current_streak"],
        "longestStreak": values["longest_streak"],
    }
    publish(Event("profile.changed", data, user_ids=(user_id,)))


def _progress(*, user_id: int, points: int = 0, today: date | None = None) -> None:
    """Add ``points`` (never below 0) and, given ``today``, advance the streak; one UPDATE,
    atomic in the database whatever else runs, then one profile.changed to the user."""
    changes: dict[str, Any] = {}
    if points:
        changes["points"] = Greatest(F("points") + points, Value(0), output_field=IntegerField())
    if today is not None:
        streak = Case(
            When(last_activity_date__gte=today, then=F("current_streak")),
            When(last_activity_date=today - timedelta(days=1), then=F("current_streak") + 1),
            default=Value(1),
            output_field=IntegerField(),
        )
        changes["current_streak"] = streak
        changes["longest_streak"] = Greatest(
            F("longest_streak"), streak, output_field=IntegerField()
        )
        changes["last_activity_date"] = Case(
            When(last_activity_date__gt=today, then=F("last_activity_date")),
            default=Value(today),
            output_field=DateField(),
        )
    if not changes:
        return
    User.objects.filter(pk=user_id).update(**changes)
    _profile_changed(user_id)


def user_points_add(*, user_id: int, delta: int) -> None:
    """Add ``delta`` points (negative to take back); the total never goes below 0.
    Publishes profile.changed to the user after commit."""
    _progress(user_id=user_id, points=delta)


def user_streak_touch(*, user_id: int, today: date | None = None) -> None:
    """Record activity on ``today``: the first on a new day advances currentStreak (reset to 1
    after a missed day) and raises longestStreak to match. Publishes profile.changed."""
    _progress(user_id=user_id, today=today or timezone.localdate())


def _progress_in_order(changes: dict[int, tuple[int, date | None]]) -> None:
    """Apply several users' changes in ascending id order (the lock order)."""
    for user_id in sorted(changes):
        points, today = changes[user_id]
        _progress(user_id=user_id, points=points, today=today)


def _summaries_changed(*sports: str) -> None:
    """Tell the live layer the leaderboards and stats of these sports may have changed."""
    for sport in dict.fromkeys(sports):
        publish_summaries(sport)


# --- Activity and notifications -----------------------------------------------------------


def activity_create(
    *,
    user: User,
    activity_type: str,
    sport: str,
    related_user: User | None = None,
    related_player: Player | None = None,
    related_nomination: Nomination | None = None,
    metadata: dict[str, Any] | None = None,
) -> Activity:
    """Record an activity and push it to the sport's feed (activity.created)."""
    activity = Activity.objects.create(
        user=user,
        activity_type=activity_type,
        sport=sport,
        related_user=related_user,
        related_player=related_player,
        related_nomination=related_nomination,
        metadata=metadata or {},
    )
    publish(Event("activity.created", selectors.activity_data(activity), sport=sport))
    return activity


def _email_on_commit(*, user: User, subject: str, message: str) -> None:
    address = user.email

    def send() -> None:
        try:
            send_mail(subject, message, None, [address])
        except Exception:
            # A notification email must never fail the write that caused it.
            logger.exception("Could not email user %s", user.pk)

    transaction.on_commit(send)


def notification_create(
    *,
    user: User,
    type: str,
    message: str,
    related_nomination: Nomination | None = None,
) -> Notification | None:
    """Notify ``user`` unless their settings turn this type off (voteNotifications for
    vote_received, nominationNotifications for nomination_approved/rejected; others always).

    vote_received is coalesced: while the user has an unread one for the nomination, that
    row gets the new message and time instead of a second row (callers hold the nomination's
    lock, so this is race-free). Publishes notification.created (the same id again when
    coalesced) and, when emailNotifications is on, emails a new notification after commit.
    Returns None when the settings turned it off.
    """
    settings = UserSettings.objects.filter(user_id=user.pk).first()
    preference = NOTIFICATION_PREFERENCES.get(NotificationType(type))
    if settings is not None and preference is not None and not getattr(settings, preference):
        return None
    notification = None
    if type == NotificationType.VOTE_RECEIVED and related_nomination is not None:
        notification = (
            Notification.objects.filter(
                user_id=user.pk, type=type, related_nomination=related_nomination, read=False
            )
            .order_by("-created_at", "-id")
            .first()
        )
    if notification is not None:
        notification.message = message
        notification.created_at = timezone.now()
        notification.save(update_fields=["message", "created_at"])
    else:
        notification = Notification.objects.create(
            user=user, type=type, message=message, related_nomination=related_nomination
        )
        if settings is None or settings.email_notifications:
            subject = EMAIL_SUBJECTS.get(NotificationType(type), "ScoutVote notification")
            _email_on_commit(user=user, subject=subject, message=message)
    publish(
        Event(
            "notification.created",
            selectors.notification_data(notification),
            user_ids=(user.pk,),
        )
    )
    return notification


def notifications_mark_read(
    *,
    user: User,
    ids: list[int] | None = None,
    all_unread: bool = False,
) -> int:
    """Mark the given notifications (or all) of ``user`` read; returns the unread count.
    Ids of other users' notifications are ignored."""
    unread = Notification.objects.filter(user_id=user.pk, read=False)
    if all_unread:
        unread.update(read=True)
    elif ids is not None:
        unread.filter(pk__in=ids).update(read=True)
    else:
        raise ValidationFailed(READ_TARGET_REQUIRED, code="read_target_required")
    return selectors.notification_unread_count(user=user)


# --- Player identity ----------------------------------------------------------------------


def _fold(text: str) -> str:
    """Lower-cased, accent-folded letters and digits only, so spacing and punctuation do not
    matter: " Zoë O'Brien-Núñez " and "zoe obrien nunez" both give "zoeobriennunez"."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "".join(re.findall(r"[^\W_]+", bare.casefold()))


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


# --- Nominations and players --------------------------------------------------------------


def _publish_nomination(event_type: str, nomination: Nomination) -> None:
    """nomination.created/updated: live ones to the sport and admins; a rejected one only to
    admins and its nominator."""
    data = selectors.nomination_data(nomination)
    if nomination.status in LIVE_STATUSES:
        publish(Event(event_type, data, sport=nomination.sport, admins=True))
    else:
        publish(Event(event_type, data, user_ids=(nomination.nominated_by_id,), admins=True))


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
    )
    nomination = Nomination.objects.create(player=player, nominated_by=user, sport=player.sport)
    nomination.has_voted = False  # type: ignore[attr-defined]  # the read shape's annotation
    activity_create(
        user=user,
        activity_type=ActivityType.NOMINATION_CREATED,
        sport=nomination.sport,
        related_player=player,
        related_nomination=nomination,
        metadata={"playerName": player.name},
    )
    _progress(user_id=user.pk, points=NOMINATION_POINTS, today=today)
    _publish_nomination("nomination.created", nomination)
    _summaries_changed(nomination.sport)
    return nomination


def _may_edit(*, user: User, player: Player) -> bool:
    return user.is_admin or player.nominations.filter(nominated_by_id=user.pk).exists()


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
    if player is None:
        raise NotFound(selectors.PLAYER_NOT_FOUND)
    if not _may_edit(user=user, player=player):
        # A player seen only through rejected nominations does not exist for the caller.
        selectors.player_get_visible(user=user, player_id=player.pk)
        raise PermissionDenied(EDIT_FORBIDDEN, code="not_nominator")
    identity = player_identity(
        name=name, sport=sport, club=club, age=age, graduation_year=graduation_year, today=today
    )
    if identity != player.normalized_identity:
        _raise_if_duplicate(identity=identity, exclude_player_id=player.pk)
    old_sport = player.sport
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
    player.save()
    if sport != old_sport:
        Nomination.objects.filter(player_id=player.pk).update(sport=sport)
        Activity.objects.filter(related_player_id=player.pk).update(sport=sport)
    for nomination in selectors.nomination_queryset().filter(player_id=player.pk):
        if sport != old_sport and nomination.status in LIVE_STATUSES:
            publish(Event("nomination.removed", {"id": nomination.pk}, sport=old_sport))
        _publish_nomination("nomination.updated", nomination)
    _summaries_changed(old_sport, sport)
    return player


# --- Votes --------------------------------------------------------------------------------


def _nomination_for_vote(*, user: User, nomination_id: int) -> Nomination:
    """The nomination, locked until the transaction ends: every vote on it queues here, so
    its vote_count, its voters' points and its coalesced notification stay consistent."""
    nomination = (
        Nomination.objects.select_for_update(no_key=True, of=("self",))
        .select_related("player", "nominated_by")
        .filter(pk=nomination_id)
        .first()
    )
    if nomination is None:
        raise NotFound(selectors.NOMINATION_NOT_FOUND)
    if nomination.status not in LIVE_STATUSES:
        if not (user.is_admin or nomination.nominated_by_id == user.pk):
            raise NotFound(selectors.NOMINATION_NOT_FOUND)
        raise ValidationFailed(VOTING_CLOSED, code="voting_closed")
    return nomination


def _vote_message(*, voter: User, nomination: Nomination) -> str:
    count = nomination.vote_count
    return (
        f"{voter.name} voted for {nomination.player.name}. "
        f"It now has {count} vote{'' if count == 1 else 's'}."
    )


@transaction.atomic
def vote_cast(*, user: User, nomination_id: int, today: date | None = None) -> Nomination:
    """Vote for a live nomination: +1 vote_count, +1 point and the streak for the voter,
    +2 points to the nominator (not for a vote on one's own nomination), a vote_cast
    activity and a (coalesced) vote_received notification. 409 when already voted, with
    nothing changed. Returns the nomination with its new vote_count."""
    nomination = _nomination_for_vote(user=user, nomination_id=nomination_id)
    try:
        with transaction.atomic():
            Vote.objects.create(nomination=nomination, user=user)
    except IntegrityError:
        raise Conflict(ALREADY_VOTED, code="already_voted") from None
    Nomination.objects.filter(pk=nomination.pk).update(vote_count=F("vote_count") + 1)
    nomination.vote_count += 1  # exact: the row is locked
    own = nomination.nominated_by_id == user.pk
    changes: dict[int, tuple[int, date | None]] = {
        user.pk: (VOTE_POINTS, today or timezone.localdate())
    }
    if not own:
        changes[nomination.nominated_by_id] = (VOTE_RECEIVED_POINTS, None)
    _progress_in_order(changes)
    activity_create(
        user=user,
        activity_type=ActivityType.VOTE_CAST,
        sport=nomination.sport,
        related_player=nomination.player,
        related_nomination=nomination,
        metadata={"playerName": nomination.player.name},
    )
    if not own:
        notification_create(
            user=nomination.nominated_by,
            type=NotificationType.VOTE_RECEIVED,
            message=_vote_message(voter=user, nomination=nomination),
            related_nomination=nomination,
        )
    _vote_changed(nomination)
    return nomination


@transaction.atomic
def vote_remove(*, user: User, nomination_id: int) -> Nomination:
    """Take a vote back: -1 vote_count, the voter's point and the nominator's 2 points
    (never below 0), and its vote_cast activity. 404 when there is no such vote."""
    nomination = _nomination_for_vote(user=user, nomination_id=nomination_id)
    deleted, _ = Vote.objects.filter(nomination_id=nomination.pk, user_id=user.pk).delete()
    if not deleted:
        raise NotFound(NOT_VOTED, code="vote_not_found")
    Nomination.objects.filter(pk=nomination.pk).update(vote_count=F("vote_count") - 1)
    nomination.vote_count -= 1
    changes: dict[int, tuple[int, date | None]] = {user.pk: (-VOTE_POINTS, None)}
    if nomination.nominated_by_id != user.pk:
        changes[nomination.nominated_by_id] = (-VOTE_RECEIVED_POINTS, None)
    _progress_in_order(changes)
    Activity.objects.filter(
        user_id=user.pk, activity_type=ActivityType.VOTE_CAST, related_nomination=nomination
    ).delete()
    _vote_changed(nomination)
    return nomination


def _vote_changed(nomination: Nomination) -> None:
    data = {"nominationId": nomination.pk, "voteCount": nomination.vote_count}
    publish(Event("vote.changed", data, sport=nomination.sport))
    _summaries_changed(nomination.sport)


# --- Follows ------------------------------------------------------------------------------


def _follow_insert(**target: Any) -> bool:
    """Insert a follow; False when it already exists (idempotent under races too)."""
    try:
        with transaction.atomic():
            Follow.objects.create(**target)
    except IntegrityError:
        return False
    return True


@transaction.atomic
def follow_player_create(*, user: User, player_id: int) -> bool:
    """Follow a visible player; True when newly followed, False when already following.
    The first follow of a player records a follow activity."""
    player = selectors.player_get_visible(user=user, player_id=player_id)
    created = _follow_insert(follower=user, followed_player=player)
    first_time = not Activity.objects.filter(
        user_id=user.pk, activity_type=ActivityType.FOLLOW, related_player_id=player.pk
    ).exists()
    if created and first_time:
        activity_create(
            user=user,
            activity_type=ActivityType.FOLLOW,
            sport=player.sport,
            related_player=player,
            metadata={"playerName": player.name},
        )
    if created:
        _follow_own(user=user, player_id=player.pk, following=True)
    return created


@transaction.atomic
def follow_user_create(*, user: User, target_id: int) -> bool:
    """Follow a scout; True when newly followed, False when already following. The first
    follow of a scout records a follow activity (in the followed scout's favourite sport)
    and notifies them (new_follower); unfollowing and following again adds neither, so
    toggling cannot flood a feed or a bell."""
    if target_id == user.pk:
        raise ValidationFailed(CANNOT_FOLLOW_SELF, code="cannot_follow_self")
    target = scout_get(viewer=user, user_id=target_id)
    created = _follow_insert(follower=user, followed_user=target)
    first_time = not Activity.objects.filter(
        user_id=user.pk, activity_type=ActivityType.FOLLOW, related_user_id=target.pk
    ).exists()
    if created and first_time:
        sport = target.favorite_sport if target.favorite_sport in Sport.values else Sport.FOOTBALL
        activity_create(
            user=user,
            activity_type=ActivityType.FOLLOW,
            sport=sport,
            related_user=target,
            metadata={"userName": target.name},
        )
        notification_create(
            user=target,
            type=NotificationType.NEW_FOLLOWER,
            message=f"{user.name} started following you.",
        )
    if created:
        _follow_own(user=user, target_id=target.pk, following=True)
    return created


@transaction.atomic
def follow_delete(*, user: User, player_id: int | None = None, user_id: int | None = None) -> None:
    """Unfollow a player or a scout (exactly one); 404 when not following."""
    selectors.follow_target_check(player_id=player_id, user_id=user_id)
    follows = Follow.objects.filter(follower_id=user.pk)
    if player_id is not None:
        deleted, _ = follows.filter(followed_player_id=player_id).delete()
        if not deleted:
            raise NotFound(NOT_FOLLOWING_PLAYER, code="not_following")
    else:
        deleted, _ = follows.filter(followed_user_id=user_id).delete()
        if not deleted:
            raise NotFound(NOT_FOLLOWING_SCOUT, code="not_following")
    _follow_own(user=user, player_id=player_id, target_id=user_id, following=False)


def _follow_own(
    *, user: User, following: bool, player_id: int | None = None, target_id: int | None = None
) -> None:
    """Tells the user's other tabs (their own group only) that they now follow or no longer
    follow a player or a scout."""
    data = {"playerId": player_id, "userId": target_id, "following": following}
    publish(Event("follow.own", data, user_ids=(user.pk,)))
