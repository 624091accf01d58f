"""A vote's bookkeeping: what a vote row changes when it enters the counts or leaves them, and
the statements that change it. Every write that moves votes in or out goes through here: a
cast and its removal (``votes``), an admin's void and restore (project/integrity), an account's
deletion (``deletion``); a new counter kept per vote is added here once.

A vote is in the counts while its row is active. Entering, it adds to its nomination: one to
vote_count and, when it counted (a trusted vote, ``Vote.counted``), one to counted_votes, its
term to the trend (the forward-decayed log-sum-exp, project/scouting/boards/maths.py) and one to the
counter of the week it was cast in; to its voter, VOTE_POINTS (and, on a cast, the day's
streak); to its nominator, when it counted and is not the nominator's own, VOTE_RECEIVED_POINTS.
Leaving takes back exactly that (the streak stays). Each nomination touched also gets +1
version.

The statements are sent through a ``Pending`` (project/common/db.py) the caller holds, so that
a cast sends them with its own in one round trip: each nomination's counters (ascending id,
each taking its nomination's lock) then its week counters, then one UPDATE of every user's
points and streak (ascending id): the services' lock order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.db import connection

from project.accounts.progress import progress_statement
from project.common.db import Pending, sql_greatest
from project.scouting.boards import maths
from project.scouting.models import (
    LIVE_STATUSES,
    Nomination,
    NominationWeek,
    Notification,
    NotificationType,
)
from project.scouting.points import VOTE_POINTS, VOTE_RECEIVED_POINTS


@dataclass(frozen=True)
class Ballot:
    """A vote row as its bookkeeping reads it."""

    nomination_id: int
    sport: str
    nominator_id: int
    voter_id: int
    voted_at: datetime
    counted: bool


@dataclass
class NominationChange:
    """What one nomination's counters gain (entering) or lose (leaving): votes, the trend
    terms of its counted votes (one each) and its counted votes by week."""

    sport: str
    votes: int = 0
    terms: list[float] = field(default_factory=list)
    weeks: Counter[date] = field(default_factory=Counter)


@dataclass
class Bookkeeping:
    """Votes entering (``entering``) or leaving the counts: each nomination's change, and each
    user's ``{user_id: (points, today or None)}`` as ``progress_statement`` takes them."""

    entering: bool
    nominations: dict[int, NominationChange] = field(default_factory=dict)
    users: dict[int, tuple[int, date | None]] = field(default_factory=dict)

    def touch(self, nomination_id: int, sport: str) -> None:
        """A nomination whose version moves with no count changed (a voided vote taken back)."""
        self.nominations.setdefault(nomination_id, NominationChange(sport=sport))

    def without(
        self, *, nomination_ids: Iterable[int] = (), user_ids: Iterable[int] = ()
    ) -> Bookkeeping:
        """The same, less what falls on rows the caller deletes anyway (an account's
        deletion: its user, its nominations)."""
        nominations, users = set(nomination_ids), set(user_ids)
        return Bookkeeping(
            entering=self.entering,
            nominations={k: v for k, v in self.nominations.items() if k not in nominations},
            users={k: v for k, v in self.users.items() if k not in users},
        )


def bookkeeping(
    ballots: Iterable[Ballot], *, entering: bool, today: date | None = None
) -> Bookkeeping:
    """The one rule: what these votes change entering the counts (a cast, a restore) or
    leaving them (a removal, a void, an account's deletion). ``today``: the voters' streak day
    (a cast)."""
    book = Bookkeeping(entering=entering)
    sign = 1 if entering else -1
    for ballot in ballots:
        change = book.nominations.setdefault(
            ballot.nomination_id, NominationChange(sport=ballot.sport)
        )
        change.votes += 1
        _points(book, ballot.voter_id, sign * VOTE_POINTS, today)
        if ballot.counted:
            change.terms.append(maths.trend_term(ballot.voted_at))
            change.weeks[maths.week_of(ballot.voted_at)] += 1
            if ballot.nominator_id != ballot.voter_id:
                _points(book, ballot.nominator_id, sign * VOTE_RECEIVED_POINTS, None)
    return book


def _points(book: Bookkeeping, user_id: int, points: int, today: date | None) -> None:
    before, day = book.users.get(user_id, (0, None))
    book.users[user_id] = (before + points, day or today)


# The counters are written by hand (they run on every vote, and building them from the ORM's
# expressions cost more CPU than running them). ``{greatest}`` is GREATEST on PostgreSQL and
# the scalar MAX on SQLite; LN and EXP exist on both (Django registers them on SQLite builds
# without the math functions).

# The trend column with votes added whose terms' log-sum-exp is ``term`` (the term itself for
# one vote): log(exp(trend) + exp(term)), written so that nothing overflows.
_TREND_WITH = (
    "CASE WHEN trend IS NULL THEN %s "
    "ELSE {greatest}(trend, %s) + LN(1.0 + EXP(-ABS(trend - %s))) END"
)
# The trend column with votes taken out (their number first) whose terms' log-sum-exp is
# ``term``: log(exp(trend) - exp(term)), NULL once no counted vote remains (``counted_votes``
# before this update) or when rounding left the terms no smaller than the sum they belong to
# (``maths.trend_remove``).
_TREND_WITHOUT = (
    "CASE WHEN counted_votes <= %s OR trend IS NULL OR trend <= %s THEN NULL "
    "ELSE trend + LN(1.0 - EXP(%s - trend)) END"
)


def _log_sum_exp(terms: list[float]) -> float:
    """log(sum(exp(term))) of the terms, smallest first (``maths.trend_add``)."""
    total: float | None = None
    for term in sorted(terms):
        total = maths.trend_add(total, term)
    assert total is not None
    return total


def counters_statement(
    nomination_id: int,
    change: NominationChange,
    *,
    entering: bool,
    unread: bool = False,
    live: bool = False,
) -> tuple[str, list[Any]]:
    """One ``UPDATE ... RETURNING`` of the nomination's counters: ``change`` into (or out
    of, never below 0) vote_count, counted_votes and the trend, and +1 version. Answers
    (vote_count, version, sport) and, with ``unread``, the id of its nominator's unread
    vote_received notification of it (the one a new vote coalesces into); no row when the
    nomination is gone or, with ``live``, no longer live."""
    ops = connection.ops
    greatest = sql_greatest(connection)
    table = ops.quote_name(Nomination._meta.db_table)
    counted = len(change.terms)
    if entering:
        sets = ["vote_count = vote_count + %s", "version = version + 1"]
        params: list[Any] = [change.votes]
    else:
        sets = [f"vote_count = {greatest}(vote_count - %s, 0)", "version = version + 1"]
        params = [change.votes]
    if counted:
        term = _log_sum_exp(change.terms)
        if entering:
            sets.append("trend = " + _TREND_WITH.format(greatest=greatest))
            params.extend([term] * 3)
            sets.append("counted_votes = counted_votes + %s")
        else:
            sets.append("trend = " + _TREND_WITHOUT)
            params.extend([counted, term, term])
            sets.append(f"counted_votes = {greatest}(counted_votes - %s, 0)")
        params.append(counted)
    params.append(nomination_id)
    where = "id = %s"
    if live:
        where += f" AND status IN ({', '.join(['%s'] * len(LIVE_STATUSES))})"
        params.extend(LIVE_STATUSES)
    returning = "vote_count, version, sport"
    if unread:
        notifications = ops.quote_name(Notification._meta.db_table)
        returning += (
            f", (SELECT n.id FROM {notifications} n WHERE n.user_id = {table}.nominated_by_id "  # noqa: S608  (the models' tables; values bound)
            f"AND n.type = %s AND n.related_nomination_id = {table}.id AND n.read = %s "
            "ORDER BY n.created_at DESC, n.id DESC LIMIT 1)"
        )
        params.extend([NotificationType.VOTE_RECEIVED, False])
    return (
        f"UPDATE {table} SET {', '.join(sets)} WHERE {where} RETURNING {returning}",  # noqa: S608  (the model's table; values bound)
        params,
    )


def week_statement(
    nomination_id: int, sport: str, week: date, votes: int, *, entering: bool
) -> tuple[str, list[Any]]:
    """``votes`` into the nomination's counter of ``week`` (created when missing), or out of
    it (never below 0: votes cast before the counters existed were never added)."""
    table = connection.ops.quote_name(NominationWeek._meta.db_table)
    day = connection.ops.adapt_datefield_value(week)
    if entering:
        return (
            f"INSERT INTO {table} (nomination_id, sport, week, votes) VALUES (%s, %s, %s, %s) "  # noqa: S608  (the model's table; values bound)
            f"ON CONFLICT (nomination_id, week) DO UPDATE SET votes = {table}.votes + %s",
            [nomination_id, sport, day, votes, votes],
        )
    greatest = sql_greatest(connection)
    return (
        f"UPDATE {table} SET votes = {greatest}(votes - %s, 0) "  # noqa: S608  (the model's table; values bound)
        "WHERE nomination_id = %s AND week = %s AND votes > 0",
        [votes, nomination_id, day],
    )


@dataclass(frozen=True)
class Sent:
    """Where a ``Bookkeeping``'s answers are in its ``Pending``: each nomination's counters
    (its row: vote_count, version, sport and what ``unread`` added; none when it is gone or,
    with ``live``, no longer live) and the users' progress (rows for ``progress_published``)."""

    counters: dict[int, int]
    progress: int | None

    def counter_rows(self, pending: Pending) -> dict[int, tuple[Any, ...] | None]:
        """Each nomination's counters row, None when it had none."""
        answers = {}
        for nomination_id, index in self.counters.items():
            rows = pending.rows(index)
            answers[nomination_id] = tuple(rows[0]) if rows else None
        return answers

    def progress_rows(self, pending: Pending) -> list[Any]:
        return [] if self.progress is None else pending.rows(self.progress)


def bookkeeping_send(
    pending: Pending, book: Bookkeeping, *, unread: bool = False, live: bool = False
) -> Sent:
    """Add every statement of ``book`` to ``pending``, in the lock order: each nomination's
    counters (``counters_statement``, ascending id) and its week counters, then the users'
    points and streaks in one UPDATE (``progress_statement``). ``unread`` and ``live`` go to
    the counters' statements."""
    counters = {}
    for nomination_id in sorted(book.nominations):
        change = book.nominations[nomination_id]
        counters[nomination_id] = pending.add(
            *counters_statement(
                nomination_id, change, entering=book.entering, unread=unread, live=live
            )
        )
        for week in sorted(change.weeks):
            pending.add(
                *week_statement(
                    nomination_id,
                    change.sport,
                    week,
                    change.weeks[week],
                    entering=book.entering,
                )
            )
    progress = progress_statement(book.users)
    return Sent(counters=counters, progress=None if progress is None else pending.add(*progress))
