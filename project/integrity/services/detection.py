"""The four rules on a committed vote (scouting's vote-committed hook): (a) one network, many
accounts, one nomination; (b) a voter's votes concentrated on one nominator; (c) a burst of new
accounts on one nomination; (d) two nominators voting for each other. Each runs in a few
indexed counts after the vote's transaction; a match raises or grows a flag (``flags``)."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import QuerySet

from project.integrity.models import FlagRule, IntegrityFlag
from project.integrity.services.flags import FLAG_ACCOUNTS_MAX, flag_raise
from project.scouting.hooks import CastVote
from project.scouting.models import Nomination, Vote, VoteStatus

logger = logging.getLogger(__name__)

WINDOW = timedelta(hours=1)
# Rule b: a voter's votes (at least this many) going more than half to one nominator.
CONCENTRATION_MIN_VOTES = 10
# Rule d: each of two nominators gave at least this many votes to the other's nominations,
# and those are at least a third of each one's votes.
RECIPROCAL_MIN_VOTES = 3


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
                flag_raise(
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
                flag_raise(
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
            flag_raise(
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
                flag_raise(
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
