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
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from typing import Any, cast

from django.conf import settings as django_settings
from django.core.mail import send_mail
from django.db import IntegrityError, connection, connections, transaction
from django.db.models import (
    Case,
    DateField,
    Exists,
    F,
    Field,
    FloatField,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Abs, Exp, Greatest, Ln
from django.db.models.sql import UpdateQuery
from django.utils import timezone

from project.accounts.models import User, UserSettings
from project.accounts.selectors import scout_followable
from project.common.choices import Sport
from project.common.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import field_changes, modlog_record
from project.scouting import boards, selectors
from project.scouting.models import (
    LIVE_STATUSES,
    Activity,
    ActivityType,
    Follow,
    Nomination,
    NominationStatus,
    NominationWeek,
    Notification,
    NotificationType,
    Player,
    Vote,
    VoteStatus,
)
from realtime.publish import Event, publish, publish_summaries, publish_vote_count

logger = logging.getLogger(__name__)

NOMINATION_POINTS = 10
APPROVAL_POINTS = 25
VOTE_POINTS = 1
VOTE_RECEIVED_POINTS = 2

DUPLICATE_NOMINATION = "This player has already been nominated"
AGE_OR_GRADUATION_YEAR_REQUIRED = "Enter the player's age or graduation year"
EDIT_FORBIDDEN = "You can only edit players you nominated"
PLAYER_TAKEN_DOWN = "This athlete's profile was taken down at their request"
# What an admin's player edit records in the moderation log (before and after).
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
    NotificationType.NOMINATION_REMOVED: "Your nomination was removed",
    NotificationType.MODERATION_WARNING: "A warning from the ScoutVote moderators",
}


# --- Points and streaks -------------------------------------------------------------------


def _update_returning(
    queryset: QuerySet[Any], values: dict[str, Any], returning: dict[str, Any]
) -> list[dict[str, Any]]:
    """``queryset.update(**values)`` that also answers, for each updated row, the expressions
    of ``returning`` evaluated on the row as updated: one statement where Django alone needs
    a second one to read back (it has no UPDATE ... RETURNING; PostgreSQL and SQLite 3.35+
    do). Values come back as the database driver gives them."""
    query = cast(UpdateQuery, queryset.query.chain(UpdateQuery))
    query.add_update_values(values)
    compiler = query.get_compiler(queryset.db)
    sql, params = compiler.as_sql()
    columns = []
    for name, expression in returning.items():
        resolved = expression.resolve_expression(query, allow_joins=False)
        column_sql, column_params = compiler.compile(resolved)
        columns.append(f"{column_sql} AS {compiler.quote_name_unless_alias(name)}")
        params = (*params, *column_params)
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(f"{sql} RETURNING {', '.join(columns)}", params)
        return [dict(zip(returning, row, strict=True)) for row in cursor.fetchall()]


def _streak_changes(today: date) -> dict[str, Any]:
    """The streak columns after activity on ``today``: the first on a new day advances
    current_streak (reset to 1 after a missed day) and raises longest_streak to match; an
    earlier date never rewinds anything."""
    streak = Case(
        When(last_activity_date__gte=today, then=F("current_streak")),
        When(last_activity_date=today - timedelta(days=1), then=F("current_streak") + 1),
        default=Value(1),
        output_field=IntegerField(),
    )
    return {
        "current_streak": streak,
        "longest_streak": Greatest(F("longest_streak"), streak, output_field=IntegerField()),
        "last_activity_date": Case(
            When(last_activity_date__gt=today, then=F("last_activity_date")),
            default=Value(today),
            output_field=DateField(),
        ),
    }


def _per_user(user_ids: list[int], column: str, expressions: dict[int, Any]) -> Any:
    """One user's expression when only one user changes, else a CASE over the users (those
    without an expression keep the column as it is)."""
    if len(user_ids) == 1:
        return expressions[user_ids[0]]
    whens = [When(pk=user_id, then=expression) for user_id, expression in expressions.items()]
    field = User._meta.get_field(column)
    assert isinstance(field, Field)  # a column of the user row, not a relation
    return Case(*whens, default=F(column), output_field=field)


def _progress(changes: dict[int, tuple[int, date | None]]) -> None:
    """Apply users' changes ``{user_id: (points, today or None)}`` in ONE UPDATE: add the
    points (never below 0) and, given ``today``, advance the streak; atomic in the database
    whatever else runs. Then one profile.changed to each user, from the updated rows.

    Several users' rows are locked in ascending id order (the lock order) by a locking
    subquery, so two such updates of the same users cannot deadlock."""
    user_ids = sorted(user_id for user_id, (points, today) in changes.items() if points or today)
    if not user_ids:
        return
    columns: dict[str, dict[int, Any]] = {}
    for user_id in user_ids:
        points, today = changes[user_id]
        if points:
            columns.setdefault("points", {})[user_id] = Greatest(
                F("points") + points, Value(0), output_field=IntegerField()
            )
        if today is not None:
            for column, expression in _streak_changes(today).items():
                columns.setdefault(column, {})[user_id] = expression
    values = {column: _per_user(user_ids, column, exprs) for column, exprs in columns.items()}
    users = User.objects.filter(pk=user_ids[0])
    if len(user_ids) > 1:
        locked = User.objects.filter(pk__in=user_ids).order_by("pk").select_for_update(no_key=True)
        users = User.objects.filter(pk__in=locked.values("pk")[: len(user_ids)])
    returning = {
        "id": F("id"),
        "points": F("points"),
        "currentStreak": F("current_streak"),
        "longestStreak": F("longest_streak"),
    }
    for row in sorted(_update_returning(users, values, returning), key=lambda row: row["id"]):
        user_id = row.pop("id")
        publish(Event("profile.changed", row, user_ids=(user_id,)))


def user_points_add(*, user_id: int, delta: int) -> None:
    """Add ``delta`` points (negative to take back); the total never goes below 0.
    Publishes profile.changed to the user after commit."""
    _progress({user_id: (delta, None)})


def user_streak_touch(*, user_id: int, today: date | None = None) -> None:
    """Record activity on ``today``: the first on a new day advances currentStreak (reset to 1
    after a missed day) and raises longestStreak to match. Publishes profile.changed."""
    _progress({user_id: (0, today or timezone.localdate())})


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


def _notification_wanted(settings: UserSettings | None, type: str) -> bool:
    """Whether the user's settings let this type through (voteNotifications for
    vote_received, nominationNotifications for nomination_approved/rejected; others always;
    no settings row: everything)."""
    preference = NOTIFICATION_PREFERENCES.get(NotificationType(type))
    return settings is None or preference is None or bool(getattr(settings, preference))


def _notification_put(
    *,
    user: User,
    settings: UserSettings | None,
    type: str,
    message: str,
    related_nomination_id: int | None,
    unread_id: int | None = None,
) -> Notification:
    """Write a notification and publish notification.created. With ``unread_id`` (a row to
    coalesce into) that row gets the new message and time, if it is still unread; otherwise
    a new row is made, and emailed after commit when emailNotifications is on."""
    now = timezone.now()
    if (
        unread_id is not None
        and Notification.objects.filter(pk=unread_id, read=False).update(
            message=message, created_at=now
        )
        > 0
    ):
        notification = Notification(
            pk=unread_id,
            user_id=user.pk,
            type=type,
            message=message,
            read=False,
            related_nomination_id=related_nomination_id,
            created_at=now,
        )
    else:
        notification = Notification.objects.create(
            user_id=user.pk,
            type=type,
            message=message,
            related_nomination_id=related_nomination_id,
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


def notification_create(
    *,
    user: User,
    type: str,
    message: str,
    related_nomination: Nomination | None = None,
) -> Notification | None:
    """Notify ``user`` unless their settings turn this type off (``_notification_wanted``).

    vote_received is coalesced: while the user has an unread one for the nomination, that
    row gets the new message and time instead of a second row (callers hold the nomination's
    lock, so this is race-free; votes find that row in their nomination update instead, see
    ``vote_cast``). Publishes notification.created (the same id again when coalesced) and,
    when emailNotifications is on, emails a new notification after commit. Returns None when
    the settings turned it off.
    """
    settings = UserSettings.objects.filter(user_id=user.pk).first()
    if not _notification_wanted(settings, type):
        return None
    unread_id = None
    if type == NotificationType.VOTE_RECEIVED and related_nomination is not None:
        unread_id = (
            Notification.objects.filter(
                user_id=user.pk, type=type, related_nomination=related_nomination, read=False
            )
            .order_by("-created_at", "-id")
            .values_list("pk", flat=True)
            .first()
        )
    return _notification_put(
        user=user,
        settings=settings,
        type=type,
        message=message,
        related_nomination_id=None if related_nomination is None else related_nomination.pk,
        unread_id=unread_id,
    )


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
    taken_down = Player.objects.filter(normalized_identity=identity, hidden_at__isnull=False)
    if exclude_player_id is not None:
        taken_down = taken_down.exclude(pk=exclude_player_id)
    if taken_down.exists():
        # A taken-down athlete must not come back through a new nomination.
        raise ValidationFailed(PLAYER_TAKEN_DOWN, code="player_taken_down")


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
    _progress({user.pk: (NOMINATION_POINTS, today)})
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
    if player is None or (player.hidden_at is not None and not user.is_admin):
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
    player.save()
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
        if sport != old_sport and nomination.status in LIVE_STATUSES:
            publish(Event("nomination.removed", {"id": nomination.pk}, sport=old_sport))
        _publish_nomination("nomination.updated", nomination)
    _summaries_changed(old_sport, sport)
    return player


# --- Votes --------------------------------------------------------------------------------


def _nomination_for_vote(*, user: User, nomination_id: int) -> Nomination:
    """The nomination, locked until the transaction ends: every vote on it queues here, so
    its counters, its voters' points and its coalesced notification stay consistent. Read
    with its player's name and its nominator's notification settings, all a vote needs."""
    nomination = (
        Nomination.objects.select_for_update(no_key=True, of=("self",))
        .select_related("player", "nominated_by__settings")
        .only(
            "status",
            "sport",
            "player__name",
            "nominated_by__name",
            "nominated_by__email",
            "nominated_by__settings__vote_notifications",
            "nominated_by__settings__email_notifications",
        )
        .filter(pk=nomination_id)
        .first()
    )
    if nomination is None:
        raise NotFound(selectors.NOMINATION_NOT_FOUND)
    if nomination.status not in LIVE_STATUSES:
        # Only those who may see it learn that voting is closed; a hidden (taken-down)
        # nomination is seen by admins alone, its nominator included in the "not found".
        sees_it = user.is_admin or (
            nomination.nominated_by_id == user.pk and nomination.status != NominationStatus.HIDDEN
        )
        if not sees_it:
            raise NotFound(selectors.NOMINATION_NOT_FOUND)
        raise ValidationFailed(VOTING_CLOSED, code="voting_closed")
    return nomination


def vote_is_trusted(*, voter: User, voted_at: datetime) -> bool:
    """Whether a vote counts on the ranked boards (trending and weekly) and in its
    nominator's points: its voter's account was at least TRUST_ACCOUNT_AGE_HOURS old (0
    trusts every account). Decided once, when it is cast, and stored on the row
    (``Vote.counted``), so that removing it undoes exactly what casting it did."""
    hours = django_settings.TRUST_ACCOUNT_AGE_HOURS
    return hours <= 0 or voter.date_joined <= voted_at - timedelta(hours=hours)


def _trend_with(term: float) -> Case:
    """The trend column with one more vote of ``term`` (lambda * t): the log-sum-exp
    log(exp(trend) + exp(term)), written so that nothing overflows."""
    return Case(
        When(trend__isnull=True, then=Value(term)),
        default=Greatest(F("trend"), Value(term))
        + Ln(Value(1.0) + Exp(Abs(F("trend") - Value(term)) * Value(-1.0))),
        output_field=FloatField(),
    )


def _trend_without(term: float) -> Case:
    """The trend column with a vote of ``term`` taken out: log(exp(trend) - exp(term)), NULL
    once no counted vote remains (``counted_votes`` before this update) or when rounding left
    the term no smaller than the sum it belongs to (``boards.trend_remove``)."""
    return Case(
        When(
            Q(counted_votes__lte=1) | Q(trend__isnull=True) | Q(trend__lte=Value(term)),
            then=Value(None),
        ),
        default=F("trend") + Ln(Value(1.0) - Exp(Value(term) - F("trend"))),
        output_field=FloatField(),
    )


def _unread_vote_received() -> Subquery:
    """The nominator's unread vote_received notification of the nomination (the outer row),
    which a new vote coalesces into."""
    unread = Notification.objects.filter(
        user_id=OuterRef("nominated_by_id"),
        type=NotificationType.VOTE_RECEIVED,
        related_nomination_id=OuterRef("pk"),
        read=False,
    )
    return Subquery(unread.order_by("-created_at", "-id").values("pk")[:1])


def _vote_row_insert(
    *, nomination_id: int, user_id: int, voted_at: datetime, counted: bool, ip_prefix: str
) -> bool:
    """Insert the vote row; False when the user already voted (no savepoint needed)."""
    table = connection.ops.quote_name(Vote._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (nomination_id, user_id, created_at, counted, status, ip_prefix) "  # noqa: S608  (the model's table; values bound)
            "VALUES (%s, %s, %s, %s, %s, %s) "
            "ON CONFLICT (nomination_id, user_id) DO NOTHING RETURNING id",
            [
                nomination_id,
                user_id,
                connection.ops.adapt_datetimefield_value(voted_at),
                counted,
                VoteStatus.ACTIVE,
                ip_prefix,
            ],
        )
        return cursor.fetchone() is not None


def db_datetime(value: Any) -> datetime:
    """An aware datetime from a raw cursor's column: SQLite answers text (naive UTC) or a
    naive datetime (by its column's converter)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return cast(datetime, value)


def _vote_row_delete(*, nomination_id: int, user_id: int) -> tuple[datetime, bool, bool] | None:
    """Delete the vote row; (its time, whether it counted, whether it was active), or None
    when there was none."""
    table = connection.ops.quote_name(Vote._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {table} WHERE nomination_id = %s AND user_id = %s "  # noqa: S608  (the model's table; values bound)
            "RETURNING created_at, counted, status",
            [nomination_id, user_id],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    return db_datetime(row[0]), bool(row[1]), row[2] == VoteStatus.ACTIVE


def _week_count_add(*, nomination: Nomination, voted_at: datetime) -> None:
    """+1 to the nomination's counter of the week ``voted_at`` falls in (created at 1)."""
    table = connection.ops.quote_name(NominationWeek._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (nomination_id, sport, week, votes) VALUES (%s, %s, %s, 1) "  # noqa: S608  (the model's table; values bound)
            f"ON CONFLICT (nomination_id, week) DO UPDATE SET votes = {table}.votes + 1",
            [
                nomination.pk,
                nomination.sport,
                connection.ops.adapt_datefield_value(boards.week_of(voted_at)),
            ],
        )


def _week_count_remove(*, nomination: Nomination, voted_at: datetime) -> None:
    """-1 to the counter of the week the vote was cast in (never below 0: votes cast before
    the counters existed were never added)."""
    NominationWeek.objects.filter(
        nomination_id=nomination.pk, week=boards.week_of(voted_at), votes__gt=0
    ).update(votes=F("votes") - 1)


def _vote_received_message(*, voter: User, nomination: Nomination) -> str:
    count = nomination.vote_count
    return (
        f"{voter.name} voted for {nomination.player.name}. "
        f"It now has {count} vote{'' if count == 1 else 's'}."
    )


def _settings_of(user: User) -> UserSettings | None:
    """The settings read with the user (select_related), None when the user has none."""
    try:
        return user.settings
    except UserSettings.DoesNotExist:
        return None


@transaction.atomic
def vote_cast(
    *, user: User, nomination_id: int, today: date | None = None, ip_prefix: str = ""
) -> Nomination:
    """Vote for a live nomination: +1 vote_count and version, +1 point and the streak for the
    voter, a vote_cast activity and a (coalesced) vote_received notification; and, when the
    vote is trusted (``vote_is_trusted``), the trend, counted_votes, the week's counter and +2
    points to the nominator (not for a vote on one's own nomination). ``ip_prefix`` is the
    voter's IP-cluster id (project/common/addresses.py). 409 when already voted, with nothing
    changed. Returns the nomination with its new vote_count and version.

    At most 7 statements: the lock, the vote row, the nomination's counters (which also
    answer the notification to coalesce into), the week's counter, both users' points and
    streaks, the activity, the notification."""
    nomination = _nomination_for_vote(user=user, nomination_id=nomination_id)
    voted_at = timezone.now()
    counted = vote_is_trusted(voter=user, voted_at=voted_at)
    if not _vote_row_insert(
        nomination_id=nomination.pk,
        user_id=user.pk,
        voted_at=voted_at,
        counted=counted,
        ip_prefix=ip_prefix,
    ):
        raise Conflict(ALREADY_VOTED, code="already_voted")
    own = nomination.nominated_by_id == user.pk
    settings = None if own else _settings_of(nomination.nominated_by)
    notify = not own and _notification_wanted(settings, NotificationType.VOTE_RECEIVED)
    changes: dict[str, Any] = {"vote_count": F("vote_count") + 1, "version": F("version") + 1}
    if counted:
        changes["trend"] = _trend_with(boards.trend_term(voted_at))
        changes["counted_votes"] = F("counted_votes") + 1
    returning: dict[str, Any] = {"vote_count": F("vote_count"), "version": F("version")}
    if notify:
        returning["unread_id"] = _unread_vote_received()
    (row,) = _update_returning(Nomination.objects.filter(pk=nomination.pk), changes, returning)
    nomination.vote_count = row["vote_count"]
    nomination.version = row["version"]
    if counted:
        _week_count_add(nomination=nomination, voted_at=voted_at)
    points: dict[int, tuple[int, date | None]] = {
        user.pk: (VOTE_POINTS, today or timezone.localdate())
    }
    if counted and not own:
        points[nomination.nominated_by_id] = (VOTE_RECEIVED_POINTS, None)
    _progress(points)
    activity_create(
        user=user,
        activity_type=ActivityType.VOTE_CAST,
        sport=nomination.sport,
        related_player=nomination.player,
        related_nomination=nomination,
        metadata={"playerName": nomination.player.name},
    )
    if notify:
        _notification_put(
            user=nomination.nominated_by,
            settings=settings,
            type=NotificationType.VOTE_RECEIVED,
            message=_vote_received_message(voter=user, nomination=nomination),
            related_nomination_id=nomination.pk,
            unread_id=row["unread_id"],
        )
    _vote_changed(nomination, voter=user, has_voted=True)
    return nomination


@transaction.atomic
def vote_remove(*, user: User, nomination_id: int) -> Nomination:
    """Take a vote back: -1 vote_count, +1 version, the voter's point and its vote_cast
    activity; when it counted, also its term out of the trend, one out of counted_votes and
    out of the week it was cast in, and the nominator's 2 points (never below 0). A voided
    vote (project/integrity) is already out of every count and its points: taking it back
    deletes the row and the activity only (so an admin's restore can no longer bring it
    back). 404 when there is no such vote.

    At most 6 statements: the lock, the vote row, the nomination's counters, the week's
    counter, both users' points, the activity."""
    nomination = _nomination_for_vote(user=user, nomination_id=nomination_id)
    removed = _vote_row_delete(nomination_id=nomination.pk, user_id=user.pk)
    if removed is None:
        raise NotFound(NOT_VOTED, code="vote_not_found")
    voted_at, counted, active = removed
    counted = counted and active
    changes: dict[str, Any] = {"version": F("version") + 1}
    if active:
        changes["vote_count"] = F("vote_count") - 1
    if counted:
        changes["trend"] = _trend_without(boards.trend_term(voted_at))
        changes["counted_votes"] = F("counted_votes") - 1
    returning = {"vote_count": F("vote_count"), "version": F("version")}
    (row,) = _update_returning(Nomination.objects.filter(pk=nomination.pk), changes, returning)
    nomination.vote_count = row["vote_count"]
    nomination.version = row["version"]
    if counted:
        _week_count_remove(nomination=nomination, voted_at=voted_at)
    points: dict[int, tuple[int, date | None]] = {}
    if active:
        points[user.pk] = (-VOTE_POINTS, None)
    if counted and nomination.nominated_by_id != user.pk:
        points[nomination.nominated_by_id] = (-VOTE_RECEIVED_POINTS, None)
    _progress(points)
    Activity.objects.filter(
        user_id=user.pk, activity_type=ActivityType.VOTE_CAST, related_nomination=nomination
    ).delete()
    _vote_changed(nomination, voter=user, has_voted=False)
    return nomination


def vote_counters_withdraw(
    *, voter: User, nomination_id: int, voted_at: datetime, counted: bool = True
) -> str | None:
    """Take a deleted active vote row (``voted_at``, ``counted``) of ``voter`` out of its
    nomination's counters: vote_count, version and, when it counted, trend, counted_votes and
    the week's counter, as ``vote_remove`` does, and publish the new count (account deletion;
    the caller deletes the row and keeps the points; a voided row is out of them already).
    Locks the nomination. Returns its sport, or None when it is gone."""
    changes: dict[str, Any] = {"vote_count": F("vote_count") - 1, "version": F("version") + 1}
    if counted:
        changes["trend"] = _trend_without(boards.trend_term(voted_at))
        changes["counted_votes"] = F("counted_votes") - 1
    returning = {"vote_count": F("vote_count"), "version": F("version"), "sport": F("sport")}
    rows = _update_returning(Nomination.objects.filter(pk=nomination_id), changes, returning)
    if not rows:
        return None
    (row,) = rows
    nomination = Nomination(pk=nomination_id, sport=row["sport"])
    if counted:
        _week_count_remove(nomination=nomination, voted_at=voted_at)
    publish_vote_count(
        sport=row["sport"],
        nomination_id=nomination_id,
        vote_count=row["vote_count"],
        version=row["version"],
    )
    return str(row["sport"])


def _vote_changed(nomination: Nomination, *, voter: User, has_voted: bool) -> None:
    """vote.changed to the sport (merged per window by the live layer), vote.own to the
    voter's other tabs, and the sport's summaries."""
    publish_vote_count(
        sport=nomination.sport,
        nomination_id=nomination.pk,
        vote_count=nomination.vote_count,
        version=nomination.version,
    )
    data = {
        "nominationId": nomination.pk,
        "hasVoted": has_voted,
        "voteCount": nomination.vote_count,
        "version": nomination.version,
    }
    publish(Event("vote.own", data, user_ids=(voter.pk,)))
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
    target = scout_followable(viewer=user, user_id=target_id)
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


# --- Account deletion ---------------------------------------------------------------------


def user_scouting_data_delete(user: User) -> None:
    """Everything scouting keeps about a user who deletes their account (a step of
    ``accounts.services.user_delete``, registered in ``ScoutingConfig.ready()``), keeping
    every counter equal to its rows.

    Removes their nominations (and the players no one else nominated, and the votes others
    cast on them: each such voter loses the point that vote earned), their votes (each
    voted nomination loses one vote and its nominator the 2 points that vote gave), follows
    by and of them, activity and notifications. Live clients learn
    of every nomination removed and every vote count changed, and the leaderboards and stats
    of the sports touched are recomputed.

    Lock order: the user's own nominations (by id), then the user row, then the nominations
    they voted for, then nominators' and voters' rows by id. The vote services lock a
    nomination before the users whose points they change, so this order does not deadlock
    with them; and with the user row locked no vote or nomination of theirs can be inserted
    meanwhile.
    """
    own = list(
        Nomination.objects.select_for_update()
        .filter(nominated_by=user)
        .order_by("pk")
        .values_list("pk", "sport", "player_id")
    )
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk").get()

    # Voided votes are out of every counter and their points already (project/integrity).
    voted = list(
        Vote.objects.filter(user=user, status=VoteStatus.ACTIVE)
        .exclude(nomination__nominated_by=user)
        .order_by("nomination_id")
        .values_list("nomination_id", "nomination__nominated_by_id", "created_at", "counted")
    )
    Vote.objects.filter(user=user).delete()
    sports = {sport for _, sport, _ in own}
    for nomination_id, _, voted_at, counted in voted:
        sport = vote_counters_withdraw(
            voter=user, nomination_id=nomination_id, voted_at=voted_at, counted=counted
        )
        if sport is not None:
            sports.add(sport)
    # Points given for votes that no longer exist are taken back: each nominator they voted
    # for loses the 2 a vote gave, and each voter on the user's own nominations (deleted with
    # them below) the 1 point their vote earned. One update per user, in id order.
    deltas: Counter[int] = Counter()
    for _, nominator_id, _, counted in voted:
        if counted:  # an untrusted vote gave its nominator nothing
            deltas[nominator_id] -= VOTE_RECEIVED_POINTS
    own_ids = [nomination_id for nomination_id, _, _ in own]
    for voter_id in (
        Vote.objects.filter(nomination_id__in=own_ids, status=VoteStatus.ACTIVE)
        .exclude(user=user)
        .values_list("user_id", flat=True)
    ):
        deltas[voter_id] -= VOTE_POINTS
    for changed_id in sorted(deltas):
        if deltas[changed_id]:
            user_points_add(user_id=changed_id, delta=deltas[changed_id])

    player_ids = {player_id for _, _, player_id in own}
    nominated_by_others = Nomination.objects.filter(player=OuterRef("pk")).exclude(
        nominated_by=user
    )
    Player.objects.filter(pk__in=player_ids).exclude(Exists(nominated_by_others)).delete()
    Nomination.objects.filter(nominated_by=user).delete()
    Follow.objects.filter(Q(follower=user) | Q(followed_user=user)).delete()
    Activity.objects.filter(Q(user=user) | Q(related_user=user)).delete()
    Notification.objects.filter(user=user).delete()
    for nomination_id, sport, _ in own:
        publish(Event("nomination.removed", {"id": nomination_id}, sport=sport, admins=True))
    for sport in sorted(sports):
        publish_summaries(sport)
