"""The periodic jobs: one entry each (a management command and how often it runs). The worker
enqueues each once per period (``services.periodic_enqueue``); a new job (a weekly digest) is
one more entry."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
WEEK = timedelta(weeks=1)

# Periods are counted from a Monday 00:00 UTC, so a weekly job's period starts on Mondays.
_EPOCH = datetime(2024, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Periodic:
    name: str
    every: timedelta
    command: str
    arguments: tuple[str, ...] = ()
    # A period whose start is further back than this when no run has been enqueued yet is
    # left to the next one (a weekly digest is not sent on a Saturday because the worker
    # first ran then); None: a missed run is always caught up.
    late_after: timedelta | None = None


PERIODIC: tuple[Periodic, ...] = (
    # Votes' IP-prefix keys past VOTE_PREFIX_RETENTION_DAYS.
    Periodic("purge_vote_prefixes", DAY, "purge_vote_prefixes"),
    # Abandoned avatar uploads and deleted accounts' leftovers.
    Periodic("purge_uploads", HOUR, "purge_uploads"),
    # Share cards missing, showing an old vote count or points, or a rank that moved without
    # a vote (trending decays): behind the redraws votes enqueue (project/sharing/redraws.py).
    Periodic("share_cards", MINUTE, "share_cards", ("--changed", "--ranks")),
    # Outbound events folded into notification emails (project/notify).
    Periodic("notify_dispatch", MINUTE, "notify_dispatch"),
    # The weekly digest, Mondays (project/notify).
    Periodic("weekly_digest", WEEK, "weekly_digest", late_after=DAY),
    # Sent emails' and pushes' rows past OUTBOUND_RETENTION_DAYS, old windows (project/notify).
    Periodic("prune_outbound", DAY, "prune_outbound"),
    # Claimed athletes' age transitions: invited to hold their controls at 16, the
    # guardian's controls ending at 18 (project/claims/transitions.py).
    Periodic("age_transitions", DAY, "age_transitions"),
    # Unclaimed players idle for PLAYER_RETENTION_MONTHS anonymised (project/claims).
    Periodic("anonymise_players", DAY, "anonymise_players"),
    # Referrals old enough to qualify, rewarded or not (project/engagement).
    Periodic("referrals_qualify", DAY, "referrals_qualify"),
    # Finished tasks' rows older than 14 days (django-tasks-db's command).
    Periodic("prune_task_results", DAY, "prune_db_task_results", ("--queue-name", "*")),
)


def period_start(now: datetime, every: timedelta) -> datetime:
    """The start of the period of length ``every`` that ``now`` falls in."""
    periods = (now - _EPOCH) // every
    return _EPOCH + periods * every
