"""Writes of vote integrity: live detection on each vote, voiding and restoring votes, and the
record of who opened a voter list.

Detection runs after the vote's commit, in a few indexed counts (project/integrity/models.py
names the rules); a match raises or updates one open flag per rule and subject and pushes
``integrity.flagged`` to the admins. Voiding keeps the vote rows (``status=void``) and takes
them out of every counter and their points, in one transaction that also writes the moderation
log; restoring puts back exactly what voiding took.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from project.accounts.models import User
from project.accounts.progress import progress_published
from project.common import metrics
from project.common.db import Pending
from project.common.errors import NotFound, ValidationFailed
from project.integrity.models import FlagRule, FlagStatus, IntegrityFlag, VoterListView
from project.integrity.selectors import flag_data, flag_get, nomination_votes, user_votes
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from project.scouting.hooks import CastVote
from project.scouting.models import Nomination, Vote, VoteStatus
from project.scouting.services.bookkeeping import Ballot, bookkeeping, bookkeeping_send
from realtime.publish import Event, publish, publish_summaries, publish_vote_count

logger = logging.getLogger(__name__)

WINDOW = timedelta(hours=1)
# Rule b: a voter's votes (at least this many) going more than half to one nominator.
CONCENTRATION_MIN_VOTES = 10
# Rule d: each of two nominators gave at least this many votes to the other's nominations,
# and those are at least a third of each one's votes.
RECIPROCAL_MIN_VOTES = 3
# Accounts listed on one flag at most (the evidence keeps the full count).
FLAG_ACCOUNTS_MAX = 500

REASON_REQUIRED = "Required"
SELECTION_REQUIRED = "Give flagId, or userIds with at least two users"
USER_NOT_FOUND = "User not found"


# --- Flags ----------------------------------------------------------------------------------


def _flag_raise(
    *,
    rule: str,
    subject: str,
    evidence: dict[str, Any],
    accounts: list[int],
    nominators: list[int] | None = None,
    nomination_id: int | None = None,
) -> IntegrityFlag | None:
    """Open a flag for (rule, subject) or grow the open one; push integrity.flagged when it is
    new or its evidence changed. Returns the flag when it was pushed."""
    accounts = sorted(set(accounts))[:FLAG_ACCOUNTS_MAX]
    with transaction.atomic():
        open_flag = IntegrityFlag.objects.select_for_update().filter(
            rule=rule, subject=subject, status=FlagStatus.OPEN
        )
        flag = open_flag.first()
        if flag is None:
            try:
                with transaction.atomic():
                    flag = IntegrityFlag.objects.create(
                        rule=rule,
                        subject=subject,
                        nomination_id=nomination_id,
                        accounts=accounts,
                        nominators=sorted(set(nominators or [])),
                        evidence=evidence,
                    )
            except IntegrityError:  # another process opened it meanwhile
                flag = open_flag.get()
            else:
                transaction.on_commit(metrics.INTEGRITY_FLAGS.labels(rule).inc)
                publish(Event("integrity.flagged", flag_data(flag), admins=True))
                return flag
        merged = sorted(set(flag.accounts) | set(accounts))[:FLAG_ACCOUNTS_MAX]
        if merged == flag.accounts and evidence == flag.evidence:
            return None
        flag.accounts = merged
        flag.evidence = evidence
        flag.save(update_fields=["accounts", "evidence", "updated_at"])
        publish(Event("integrity.flagged", flag_data(flag), admins=True))
        return flag


def _active_votes(**filters: Any) -> QuerySet[Vote]:
    return Vote.objects.filter(status=VoteStatus.ACTIVE, **filters)


def vote_committed_inspect(cast: CastVote, voter_id: int) -> None:
    """Scouting's vote-committed hook: the rules on the vote just cast (``vote_inspect``)."""
    vote_inspect(voter_id=voter_id, nomination_id=cast.nomination.pk, cast=cast)


def vote_inspect(
    *, voter_id: int, nomination_id: int, cast: CastVote | None = None
) -> list[IntegrityFlag]:
    """Evaluate the four rules on a vote just committed (called after the vote's
    transaction); the flags raised or grown. ``cast``: what ``vote_cast`` answered, so the
    vote is not read back (without it, it is read). A failure here never fails the vote."""
    try:
        return _vote_inspect(voter_id=voter_id, nomination_id=nomination_id, cast=cast)
    except Exception:
        logger.exception(
            "Vote integrity: detection failed for vote %s -> %s", voter_id, nomination_id
        )
        return []


def _vote_inspect(
    *, voter_id: int, nomination_id: int, cast: CastVote | None
) -> list[IntegrityFlag]:
    if cast is not None:
        ip_prefix, counted, voted_at = cast.ip_prefix, cast.counted, cast.voted_at
        nominator_id = cast.nomination.nominated_by_id
    else:
        vote = (
            _active_votes(user_id=voter_id, nomination_id=nomination_id)
            .values("counted", "ip_prefix", "created_at", "nomination__nominated_by_id")
            .first()
        )
        if vote is None:
            return []
        ip_prefix, counted, voted_at = vote["ip_prefix"], vote["counted"], vote["created_at"]
        nominator_id = vote["nomination__nominated_by_id"]
    # The hour up to this vote (the newest one when it runs live).
    window = {"created_at__gt": voted_at - WINDOW, "created_at__lte": voted_at}
    raised: list[IntegrityFlag | None] = []
    if ip_prefix:  # (a) one network, many accounts, one nomination
        voters = list(
            _active_votes(nomination_id=nomination_id, ip_prefix=ip_prefix, **window)
            .values_list("user_id", flat=True)
            .distinct()[:FLAG_ACCOUNTS_MAX]
        )
        if len(voters) >= settings.INTEGRITY_PREFIX_ACCOUNTS:
            raised.append(
                _flag_raise(
                    rule=FlagRule.SHARED_PREFIX,
                    subject=f"{nomination_id}:{ip_prefix}",
                    nomination_id=nomination_id,
                    accounts=voters,
                    evidence={
                        "accounts": len(voters),
                        "cluster": ip_prefix,
                        "windowMinutes": int(WINDOW.total_seconds() // 60),
                    },
                )
            )
    if not counted:  # (c) a burst of new accounts on one nomination
        newcomers = list(
            _active_votes(nomination_id=nomination_id, counted=False, **window).values_list(
                "user_id", flat=True
            )[:FLAG_ACCOUNTS_MAX]
        )
        if len(newcomers) >= settings.INTEGRITY_NEW_ACCOUNT_BURST:
            raised.append(
                _flag_raise(
                    rule=FlagRule.NEW_ACCOUNT_BURST,
                    subject=str(nomination_id),
                    nomination_id=nomination_id,
                    accounts=newcomers,
                    evidence={
                        "accounts": len(newcomers),
                        "trustHours": settings.TRUST_ACCOUNT_AGE_HOURS,
                        "windowMinutes": int(WINDOW.total_seconds() // 60),
                    },
                )
            )
    if voter_id != nominator_id:
        raised.extend(_inspect_voter(voter_id=voter_id, nominator_id=nominator_id))
    return [flag for flag in raised if flag is not None]


def _votes_of(voter_id: int) -> QuerySet[Vote]:
    """A user's active votes on others' nominations."""
    return _active_votes(user_id=voter_id).exclude(nomination__nominated_by_id=voter_id)


def _votes_to(*, voter_id: int, nominator_id: int) -> int:
    """How many active votes the voter has on the nominator's nominations:
    ``_active_votes(user_id=voter_id, nomination__nominated_by_id=nominator_id).count()``
    written by hand (every vote asks it; the ORM's compilation cost more than the count)."""
    votes = connection.ops.quote_name(Vote._meta.db_table)
    nominations = connection.ops.quote_name(Nomination._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*) FROM {votes} v JOIN {nominations} n ON n.id = v.nomination_id "  # noqa: S608  (the models' tables; values bound)
            "WHERE v.user_id = %s AND v.status = %s AND n.nominated_by_id = %s",
            [voter_id, VoteStatus.ACTIVE.value, nominator_id],
        )
        row = cursor.fetchone()
    return int(row[0])


def _inspect_voter(*, voter_id: int, nominator_id: int) -> list[IntegrityFlag | None]:
    """(b) a voter's votes concentrated on one nominator; (d) two nominators voting for each
    other. Two counts per vote, two more only when the pair already has several votes."""
    raised = []
    given = _votes_to(voter_id=voter_id, nominator_id=nominator_id)
    if given * 2 <= CONCENTRATION_MIN_VOTES and given < RECIPROCAL_MIN_VOTES:
        return []
    total = _votes_of(voter_id).count()
    if total >= CONCENTRATION_MIN_VOTES and given * 2 > total:
        raised.append(
            _flag_raise(
                rule=FlagRule.ONE_NOMINATOR,
                subject=f"{voter_id}:{nominator_id}",
                accounts=[voter_id],
                nominators=[nominator_id],
                evidence={
                    "voter": voter_id,
                    "nominator": nominator_id,
                    "votes": total,
                    "toNominator": given,
                    "sharePercent": round(100 * given / total),
                },
            )
        )
    if given >= RECIPROCAL_MIN_VOTES and given * 3 >= total:
        back = _active_votes(user_id=nominator_id, nomination__nominated_by_id=voter_id).count()
        if back >= RECIPROCAL_MIN_VOTES and back * 3 >= _votes_of(nominator_id).count():
            first, second = sorted((voter_id, nominator_id))
            counts = {voter_id: given, nominator_id: back}
            raised.append(
                _flag_raise(
                    rule=FlagRule.RECIPROCAL,
                    subject=f"{first}:{second}",
                    accounts=[first, second],
                    nominators=[first, second],
                    evidence={
                        "first": first,
                        "second": second,
                        "firstToSecond": counts[first],
                        "secondToFirst": counts[second],
                    },
                )
            )
    return raised


# --- Void and restore -------------------------------------------------------------------------


def _between(user_ids: list[int]) -> Q:
    """Every vote of one of these users on another one's nomination."""
    return Q(user_id__in=user_ids, nomination__nominated_by_id__in=user_ids) & ~Q(
        user_id=F("nomination__nominated_by_id")
    )


def _flag_selection(flag: IntegrityFlag) -> Q:
    if flag.rule in (FlagRule.SHARED_PREFIX, FlagRule.NEW_ACCOUNT_BURST):
        return Q(nomination_id=flag.nomination_id, user_id__in=flag.accounts)
    if flag.rule == FlagRule.ONE_NOMINATOR:
        return Q(user_id__in=flag.accounts, nomination__nominated_by_id__in=flag.nominators)
    return _between(list(flag.nominators))


def _selection(
    *, flag_id: int | None, user_ids: list[int] | None
) -> tuple[Q, IntegrityFlag | None, str]:
    """The votes chosen, the flag (if one chose them) and words for the log."""
    if flag_id is not None and not user_ids:
        flag = flag_get(flag_id)
        return _flag_selection(flag), flag, f"flag {flag.pk} ({flag.rule})"
    ids = sorted(set(user_ids or []))
    if flag_id is not None or len(ids) < 2:
        raise ValidationFailed(SELECTION_REQUIRED, code="validation_error")
    if User.objects.filter(pk__in=ids).count() != len(ids):
        raise NotFound(USER_NOT_FOUND, code="not_found")
    return _between(ids), None, "votes between users " + ", ".join(map(str, ids))


@transaction.atomic
def votes_status_set(
    *,
    admin: User,
    reason: str,
    void: bool,
    flag_id: int | None = None,
    user_ids: list[int] | None = None,
) -> dict[str, Any]:
    """Void (``void=True``) or restore a set of votes: a flag's, or every vote between the
    given users. Voiding takes each active vote out of vote_count, and a counted one out of
    counted_votes, the trend, its week's counter and its nominator's 2 points; every voided
    vote also takes back its voter's point. Restoring gives back exactly that. The rows stay;
    their voters still see them as their votes. Writes one moderation log row; pushes the new
    counts (vote.changed), boards and points like a vote does."""
    if not reason.strip():
        raise ValidationFailed(
            REASON_REQUIRED, code="validation_error", fields={"reason": REASON_REQUIRED}
        )
    chosen, flag, words = _selection(flag_id=flag_id, user_ids=user_ids)
    before, after = (
        (VoteStatus.ACTIVE, VoteStatus.VOID) if void else (VoteStatus.VOID, VoteStatus.ACTIVE)
    )
    selected = Vote.objects.filter(chosen, status=before)
    # Lock order: nominations (by id) before users, as the vote services do.
    nomination_ids = sorted(set(selected.values_list("nomination_id", flat=True)))
    nominations = {
        nomination.pk: nomination
        for nomination in Nomination.objects.select_for_update(no_key=True)
        .filter(pk__in=nomination_ids)
        .order_by("pk")
        .only("sport", "nominated_by_id")
    }
    rows = list(
        selected.filter(nomination_id__in=nomination_ids).values_list(
            "id", "nomination_id", "user_id", "created_at", "counted"
        )
    )
    Vote.objects.filter(pk__in=[row[0] for row in rows]).update(status=after)
    book = bookkeeping(
        [
            Ballot(
                nomination_id=nomination_id,
                sport=nominations[nomination_id].sport,
                nominator_id=nominations[nomination_id].nominated_by_id,
                voter_id=voter_id,
                voted_at=voted_at,
                counted=counted,
            )
            for _, nomination_id, voter_id, voted_at, counted in rows
        ],
        entering=not void,
    )
    with Pending(connection) as pending:
        sent = bookkeeping_send(pending, book)
        changed = sent.counter_rows(pending)
        progress = sent.progress_rows(pending)
    counts = []
    for nomination_id, row in changed.items():
        assert row is not None  # locked above
        vote_count, version, sport = row
        publish_vote_count(
            sport=sport, nomination_id=nomination_id, vote_count=vote_count, version=version
        )
        counts.append(
            {"nomination_id": nomination_id, "vote_count": vote_count, "version": version}
        )
    progress_published(progress)
    for sport in sorted({nominations[pk].sport for pk in changed}):
        publish_summaries(sport)
    if flag is not None:
        _flag_status_set(flag, FlagStatus.VOIDED if void else FlagStatus.OPEN)
    _log(
        admin=admin,
        void=void,
        flag=flag,
        user_ids=user_ids,
        words=words,
        reason=reason,
        votes=len(rows),
        nominations=nominations,
    )
    return {"votes": len(rows), "nominations": counts}


def _flag_status_set(flag: IntegrityFlag, status: str) -> None:
    """A voided flag is closed; restoring opens it again (unless a newer flag of the same rule
    and subject is open by now: then it stays closed, and the newer one carries on)."""
    try:
        with transaction.atomic():
            IntegrityFlag.objects.filter(pk=flag.pk).update(
                status=status, updated_at=timezone.now()
            )
    except IntegrityError:
        return
    flag.refresh_from_db()
    publish(Event("integrity.flagged", flag_data(flag), admins=True))


def _log(
    *,
    admin: User,
    void: bool,
    flag: IntegrityFlag | None,
    user_ids: list[int] | None,
    words: str,
    reason: str,
    votes: int,
    nominations: dict[int, Nomination],
) -> None:
    if flag is not None and flag.nomination_id is not None:
        target_type, target_id = ModlogTarget.NOMINATION, flag.nomination_id
    else:
        first = flag.accounts[0] if flag is not None and flag.accounts else min(user_ids or [0])
        target_type, target_id = ModlogTarget.USER, first
    states = ["active", "void"] if void else ["void", "active"]
    modlog_record(
        actor=admin,
        action=ModlogAction.VOTES_VOID if void else ModlogAction.VOTES_RESTORE,
        target_type=target_type,
        target_id=target_id,
        target_label=f"{votes} vote{'' if votes == 1 else 's'}: {words}",
        reason=reason.strip(),
        changes={"status": states, "nominations": [sorted(nominations), sorted(nominations)]},
    )


# --- The audit ------------------------------------------------------------------------------


def _view_record(*, viewer: User, target_type: str, target_id: int) -> None:
    VoterListView.objects.create(
        viewer_id=viewer.pk,
        viewer_name=viewer.name or viewer.username,
        target_type=target_type,
        target_id=target_id,
    )


def nomination_votes_open(*, viewer: User, nomination_id: int) -> QuerySet[Vote]:
    """A nomination's voter list for an admin; the opening is recorded (who, when)."""
    votes = nomination_votes(nomination_id=nomination_id)
    _view_record(viewer=viewer, target_type="nomination", target_id=nomination_id)
    return votes


def user_votes_open(*, viewer: User, user_id: int) -> QuerySet[Vote]:
    """A user's votes for an admin; the opening is recorded (who, when)."""
    if not User.objects.filter(pk=user_id).exists():
        raise NotFound(USER_NOT_FOUND, code="not_found")
    _view_record(viewer=viewer, target_type="user", target_id=user_id)
    return user_votes(user_id=user_id)


def vote_prefixes_purge(*, older_than: datetime | None = None) -> int:
    """Clear the IP-cluster id of votes older than VOTE_PREFIX_RETENTION_DAYS; how many."""
    cutoff = older_than or timezone.now() - timedelta(days=settings.VOTE_PREFIX_RETENTION_DAYS)
    return Vote.objects.filter(created_at__lt=cutoff).exclude(ip_prefix="").update(ip_prefix="")
