"""Voiding and restoring a set of votes (a flag's, or every vote between chosen users): the rows
stay, their counters and points go (or come back), in one transaction with the moderation
log."""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction
from django.db.models import F, Q

from project.accounts.models import User
from project.accounts.progress import progress_published
from project.common.db import Pending
from project.common.errors import NotFound, ValidationFailed
from project.integrity.models import FlagRule, FlagStatus, IntegrityFlag
from project.integrity.selectors import USER_NOT_FOUND, flag_get
from project.integrity.services.flags import flag_status_set
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from project.scouting.models import Nomination, Vote, VoteStatus
from project.scouting.services.bookkeeping import Ballot, bookkeeping, bookkeeping_send
from realtime.publish import publish_summaries, publish_vote_count

REASON_REQUIRED = "Required"
SELECTION_REQUIRED = "Give flagId, or userIds with at least two users"


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
        flag_status_set(flag, FlagStatus.VOIDED if void else FlagStatus.OPEN)
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
