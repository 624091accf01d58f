"""Casting and taking back a vote: one transaction of at most 9 statements that keeps every
counter (vote_count, version, trend, the week's counter, both users' points and streaks) by
the one rule of a vote's bookkeeping (``bookkeeping``)."""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from typing import Any

from django.conf import settings as django_settings
from django.db import connection, transaction
from django.utils import timezone

from project.accounts.models import User, UserSettings
from project.accounts.progress import progress_published
from project.common.db import Pending, db_datetime, insert_statement, loaded
from project.common.errors import Conflict, NotFound, ValidationFailed
from project.privacy.models import PlayerControls
from project.scouting import hooks, selectors
from project.scouting.hooks import CastVote
from project.scouting.models import (
    LIVE_STATUSES,
    Activity,
    ActivityType,
    Nomination,
    NominationStatus,
    NotificationType,
    Player,
    Vote,
    VoteStatus,
)
from project.scouting.services.activity import (
    activity_published,
    new_activity,
    notification_put,
    notification_wanted,
    summaries_changed,
)
from project.scouting.services.bookkeeping import Ballot, bookkeeping, bookkeeping_send
from realtime.publish import Event, publish, publish_vote_count

logger = logging.getLogger(__name__)

ALREADY_VOTED = "You have already voted for this nomination"
NOT_VOTED = "You have not voted for this nomination"
VOTING_CLOSED = "Voting is closed for this nomination"
VOTING_CLOSED_BY_FAMILY = (
    "Voting is closed for this player: whoever manages the profile closed it. "
    "Its votes stay as they are."
)


# The nomination's row locked (FOR NO KEY UPDATE where the database has it: PostgreSQL; on
# SQLite a write transaction is already the only writer), with what a vote needs of its
# player, its nominator and the nominator's notification settings (none: no settings row).
_NOMINATION_FOR_VOTE = (
    "SELECT n.id, n.status, n.sport, n.player_id, n.nominated_by_id, p.name, u.name, u.email, "
    "u.birth_year, u.time_zone, c.voting_open, s.id, s.vote_notifications, s.email_notifications, "
    "s.vote_emails "
    "FROM {nominations} n JOIN {players} p ON p.id = n.player_id "
    "JOIN {users} u ON u.id = n.nominated_by_id "
    "LEFT JOIN {controls} c ON c.player_id = n.player_id "
    "LEFT JOIN {settings} s ON s.user_id = n.nominated_by_id "
    "WHERE n.id = %s{lock}"
)


def _nomination_locked(nomination_id: int, *, lock: bool = True) -> Nomination | None:
    """Read as one statement written by hand (it runs on every vote; the ORM's select_related
    cost more CPU to build than the statement takes to run), into model instances; locked
    unless ``lock`` is False."""
    quote = connection.ops.quote_name
    sql = _NOMINATION_FOR_VOTE.format(
        nominations=quote(Nomination._meta.db_table),
        players=quote(Player._meta.db_table),
        users=quote(User._meta.db_table),
        settings=quote(UserSettings._meta.db_table),
        controls=quote(PlayerControls._meta.db_table),
        lock=" FOR NO KEY UPDATE OF n"
        if lock and connection.features.has_select_for_no_key_update
        else "",
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [nomination_id])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, status, sport, player_id, nominator_id, player_name, name, email, *rest = row
    birth_year, time_zone, voting, *settings = rest
    nomination = loaded(
        Nomination,
        id=pk,
        status=status,
        sport=sport,
        player_id=player_id,
        nominated_by_id=nominator_id,
    )
    nomination.player = loaded(Player, id=player_id, name=player_name)
    # False when the player's claimant closed voting (project/privacy), None unclaimed.
    nomination.voting_open = voting is None or bool(voting)  # type: ignore[attr-defined]
    # With what a push's quiet hours read (``quiet_until``: the age band and time zone).
    nominator = loaded(
        User, id=nominator_id, name=name, email=email, birth_year=birth_year, time_zone=time_zone
    )
    # Held as select_related holds it, a missing row included (then reading it raises
    # DoesNotExist without a query).
    User.settings.related.set_cached_value(
        nominator,
        None
        if settings[0] is None
        else loaded(
            UserSettings,
            id=settings[0],
            user_id=nominator_id,
            vote_notifications=bool(settings[1]),
            email_notifications=bool(settings[2]),
            vote_emails=bool(settings[3]),
        ),
    )
    nomination.nominated_by = nominator
    return nomination


def _nomination_for_vote(*, user: User, nomination_id: int, lock: bool = True) -> Nomination:
    """The nomination with its player's name and its nominator's notification settings, all
    a vote needs; locked until the transaction ends unless ``lock`` is False (a cast takes
    the lock later, with its counters: ``vote_cast``), so that the counters, the voters'
    points and the coalesced notification stay consistent. 404, or "Voting is closed" to
    those who may see it, when it is not live."""
    nomination = _nomination_locked(nomination_id, lock=lock)
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
    if not nomination.voting_open:  # type: ignore[attr-defined]
        raise ValidationFailed(VOTING_CLOSED_BY_FAMILY, code="voting_closed")
    return nomination


def vote_is_trusted(*, voter: User, voted_at: datetime) -> bool:
    """Whether a vote counts on the ranked boards (trending and weekly) and in its
    nominator's points: its voter's account was at least TRUST_ACCOUNT_AGE_HOURS old (0
    trusts every account). Decided once, when it is cast, and stored on the row
    (``Vote.counted``), so that removing it undoes exactly what casting it did."""
    hours = django_settings.TRUST_ACCOUNT_AGE_HOURS
    return hours <= 0 or voter.date_joined <= voted_at - timedelta(hours=hours)


def _vote_row_statement(
    *, nomination_id: int, user_id: int, voted_at: datetime, counted: bool, ip_prefix: str
) -> tuple[str, list[Any]]:
    """Insert the vote row, answering its id; no row when the user already voted (no
    savepoint needed)."""
    table = connection.ops.quote_name(Vote._meta.db_table)
    return (
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
) -> CastVote:
    """Vote for a live nomination: +1 vote_count and version, +1 point and the streak for the
    voter, a vote_cast activity and a (coalesced) vote_received notification; and, when the
    vote is trusted (``vote_is_trusted``), the trend, counted_votes, the week's counter and +2
    points to the nominator (not for a vote on one's own nomination). ``ip_prefix`` is the
    voter's IP-cluster id (project/common/addresses.py). 409 when already voted, with nothing
    changed. Returns the vote (``CastVote``): the nomination with its new vote_count and
    version, and the row's time, trust and IP cluster.

    At most 9 statements in three round trips before the commit (with web push on, one more
    round trip after the notification: project/push's minute window, and the push's task
    row once a minute), and the nomination's lock held over the last two: the nomination
    read (not locked); then, sent together
    (``Pending``: psycopg's pipeline mode), the vote row, the activity and what the vote
    hooks add before the counters (project/scouting/hooks.py: notify's outbound event for the
    folded emails), the nomination's counters (which take its lock, check again that it is
    live, and answer the notification to coalesce into), the week's counter, both users'
    points and streaks, and what the hooks add under the lock (sharing's card redraw,
    enqueued once per burst); then the
    notification, whose text holds the new count. Every vote on a nomination waits for its
    lock, so the fewer round trips it is held over, the more votes a hot nomination takes
    (docs/decisions.md#late-nomination-lock). The lock order is the services' (the
    nomination, then users): the rows inserted before it lock nothing (their foreign keys are
    checked at the commit)."""
    nomination = _nomination_for_vote(user=user, nomination_id=nomination_id, lock=False)
    voted_at = timezone.now()
    counted = vote_is_trusted(voter=user, voted_at=voted_at)
    own = nomination.nominated_by_id == user.pk
    settings = None if own else _settings_of(nomination.nominated_by)
    notify = not own and notification_wanted(settings, NotificationType.VOTE_RECEIVED)
    book = bookkeeping(
        [_ballot(nomination, voter_id=user.pk, voted_at=voted_at, counted=counted)],
        entering=True,
        today=today or timezone.localdate(),
    )
    activity = new_activity(
        user=user,
        activity_type=ActivityType.VOTE_CAST,
        sport=nomination.sport,
        related_player=nomination.player,
        related_nomination=nomination,
        metadata={"playerName": nomination.player.name},
    )
    # One round trip; when the nomination closed meanwhile or the user had already voted,
    # the transaction's rollback (the error raised) takes back all of it.
    with Pending(connection) as pending:
        inserted = pending.add(
            *_vote_row_statement(
                nomination_id=nomination.pk,
                user_id=user.pk,
                voted_at=voted_at,
                counted=counted,
                ip_prefix=ip_prefix,
            )
        )
        activity_id = pending.add(*insert_statement(Activity, connection, **activity.columns))
        # What other apps record about the vote (project/scouting/hooks.py: notify's outbound
        # event), rolled back with it; then, under the nomination's lock, what they write
        # about the nomination (sharing's card redraw).
        write = hooks.VoteWrite(
            nomination=nomination,
            voter=user,
            at=voted_at,
            cast=True,
            notifies=notify,
            settings=settings,
        )
        for statement in hooks.vote_statements(write):
            pending.add(*statement)
        sent = bookkeeping_send(pending, book, unread=notify, live=True)
        for statement in hooks.vote_statements(write, under_lock=True):
            pending.add(*statement)
        row = sent.counter_rows(pending)[nomination.pk]
        if row is None:
            # Hidden, decided or deleted since it was read: answered as if it had been then
            # (read again without its lock: the users' rows may be locked by now).
            _nomination_for_vote(user=user, nomination_id=nomination_id, lock=False)
            raise ValidationFailed(VOTING_CLOSED, code="voting_closed")
        if not pending.rows(inserted):
            raise Conflict(ALREADY_VOTED, code="already_voted")
        progress_published(sent.progress_rows(pending))
        activity_published(activity, pk=pending.rows(activity_id)[0][0])
    nomination.vote_count, nomination.version = row[0], row[1]
    if notify:
        notification_put(
            user=nomination.nominated_by,
            settings=settings,
            type=NotificationType.VOTE_RECEIVED,
            message=_vote_received_message(voter=user, nomination=nomination),
            related_nomination_id=nomination.pk,
            unread_id=row[3],
            in_vote=True,
        )
    _vote_changed(nomination, voter=user, has_voted=True)
    return CastVote(
        nomination=nomination,
        voted_at=voted_at,
        counted=counted,
        ip_prefix=ip_prefix,
    )


@transaction.atomic
def vote_remove(*, user: User, nomination_id: int) -> Nomination:
    """Take a vote back: -1 vote_count, +1 version, the voter's point and its vote_cast
    activity; when it counted, also its term out of the trend, one out of counted_votes and
    out of the week it was cast in, and the nominator's 2 points (never below 0). A voided
    vote (project/integrity) is already out of every count and its points: taking it back
    deletes the row and the activity only (so an admin's restore can no longer bring it
    back). 404 when there is no such vote.

    At most 7 statements: the lock, the vote row, then sent together the nomination's
    counters, the week's counter, both users' points and the vote hooks' statements (sharing's
    card redraw), then the activity."""
    nomination = _nomination_for_vote(user=user, nomination_id=nomination_id)
    removed = _vote_row_delete(nomination_id=nomination.pk, user_id=user.pk)
    if removed is None:
        raise NotFound(NOT_VOTED, code="vote_not_found")
    voted_at, counted, active = removed
    ballots = [_ballot(nomination, voter_id=user.pk, voted_at=voted_at, counted=counted)]
    book = bookkeeping(ballots if active else [], entering=False)
    book.touch(nomination.pk, nomination.sport)
    write = hooks.VoteWrite(
        nomination=nomination,
        voter=user,
        at=timezone.now(),
        cast=False,
        notifies=False,
        settings=None,
    )
    with Pending(connection) as pending:
        for statement in hooks.vote_statements(write):
            pending.add(*statement)
        sent = bookkeeping_send(pending, book)
        for statement in hooks.vote_statements(write, under_lock=True):
            pending.add(*statement)
        row = sent.counter_rows(pending)[nomination.pk]
        assert row is not None  # locked above
        progress_published(sent.progress_rows(pending))
    nomination.vote_count, nomination.version = row[0], row[1]
    Activity.objects.filter(
        user_id=user.pk, activity_type=ActivityType.VOTE_CAST, related_nomination=nomination
    ).delete()
    _vote_changed(nomination, voter=user, has_voted=False)
    return nomination


def _ballot(nomination: Nomination, *, voter_id: int, voted_at: datetime, counted: bool) -> Ballot:
    return Ballot(
        nomination_id=nomination.pk,
        sport=nomination.sport,
        nominator_id=nomination.nominated_by_id,
        voter_id=voter_id,
        voted_at=voted_at,
        counted=counted,
    )


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
    summaries_changed(nomination.sport)
