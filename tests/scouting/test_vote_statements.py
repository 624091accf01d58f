"""A vote's cost in SQL statements, and the board columns the same statements keep.

Transactional tests: the service's transaction is then a real one, as in a request (inside
a test transaction it would be a SAVEPOINT and a RELEASE). Counted: every statement but the
transaction's own BEGIN and COMMIT, which every write has (whether Django logs them depends
on the backend); a savepoint counts."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.accounts.models import User, UserSettings
from project.common.errors import Conflict
from project.notify.services import events_dispatch
from project.scouting.boards.maths import trend_add, trend_term
from project.scouting.models import Nomination, NominationWeek, Notification
from project.scouting.services import votes
from tests.builders import make_nomination, make_user
from tests.helpers import run_tasks, unless_available

pytestmark = pytest.mark.django_db(transaction=True)

# The vote's own 8, and the share card's redraw ask sent in the same pipeline (no round trip
# of its own): one statement on PostgreSQL, two on SQLite (no INSERT inside a WITH there).
MAX_STATEMENTS = 8 + (1 if connection.vendor == "postgresql" else 2)


def statements_of(work: object) -> list[str]:
    assert callable(work)
    with CaptureQueriesContext(connection) as captured:
        work()
    return [
        query["sql"]
        for query in captured.captured_queries
        if query["sql"] not in {"BEGIN", "BEGIN IMMEDIATE", "COMMIT"}
    ]


def test_cast_and_remove_take_at_most_nine_statements(scout: User, other_scout: User) -> None:
    nomination = make_nomination(other_scout)
    third = make_user(name="Theo Third")

    # The costliest cast: both users, a new notification for the nominator.
    first_cast = statements_of(lambda: votes.vote_cast(user=scout, nomination_id=nomination.pk))
    # A cast that coalesces into the nominator's unread notification.
    coalesced = statements_of(lambda: votes.vote_cast(user=third, nomination_id=nomination.pk))
    removal = statements_of(lambda: votes.vote_remove(user=scout, nomination_id=nomination.pk))

    for sql in (first_cast, coalesced, removal):
        assert len(sql) <= MAX_STATEMENTS, "\n".join(sql)
    assert not any("SAVEPOINT" in sql for sql in first_cast + coalesced + removal)
    # What they did: the counters are those of one vote left, the notification coalesced.
    nomination.refresh_from_db()
    assert (nomination.vote_count, nomination.version) == (1, 3)
    assert Notification.objects.filter(user=other_scout).count() == 1


def test_a_nominator_without_settings_is_notified_and_costs_no_more(
    scout: User, other_scout: User
) -> None:
    """No settings row (every notification on): the vote's read says so, so the cast reads
    nothing more than with one, and the notification is made and emailed."""
    with_settings = make_nomination(other_scout, name="Sia Settings")
    without = make_nomination(other_scout, name="Nia Nosettings")
    usual = statements_of(lambda: votes.vote_cast(user=scout, nomination_id=with_settings.pk))
    UserSettings.objects.filter(user=other_scout).delete()
    cast = statements_of(lambda: votes.vote_cast(user=scout, nomination_id=without.pk))
    assert len(cast) == len(usual), "\n".join(cast)
    # The settings are read with the nomination (its one statement), in both cases.
    table = UserSettings._meta.db_table
    assert [sum(table in sql for sql in run) for run in (usual, cast)] == [1, 1]
    notification = Notification.objects.get(user=other_scout, related_nomination=without)
    assert notification.message == f"{scout.name} voted for Nia Nosettings. It now has 1 vote."
    # Emailed as with the default settings.
    events_dispatch()
    run_tasks()
    assert [message.to for message in mail.outbox] == [[other_scout.email]] * 2


def test_own_nomination_vote_is_cheaper_still(scout: User) -> None:
    own = make_nomination(scout)
    cast = statements_of(lambda: votes.vote_cast(user=scout, nomination_id=own.pk))
    assert len(cast) <= MAX_STATEMENTS - 2, "\n".join(cast)


def test_the_vote_updates_version_trend_and_week(scout: User, other_scout: User) -> None:
    nomination = make_nomination(other_scout)
    third = make_user(name="Theo Third")
    first_at = datetime(2030, 6, 2, 23, 0, tzinfo=UTC)  # a Sunday
    second_at = datetime(2030, 6, 3, 1, 0, tzinfo=UTC)  # the Monday after

    with time_machine.travel(first_at, tick=False):
        votes.vote_cast(user=scout, nomination_id=nomination.pk)
    with time_machine.travel(second_at, tick=False):
        votes.vote_cast(user=third, nomination_id=nomination.pk)

    nomination.refresh_from_db()
    assert nomination.version == 2
    assert nomination.trend is not None
    both = trend_add(trend_term(first_at), trend_term(second_at))
    assert math.isclose(nomination.trend, both, rel_tol=0, abs_tol=1e-9)
    weeks = dict(NominationWeek.objects.filter(nomination=nomination).values_list("week", "votes"))
    assert weeks == {date(2030, 5, 27): 1, date(2030, 6, 3): 1}

    votes.vote_remove(user=third, nomination_id=nomination.pk)
    nomination.refresh_from_db()
    assert nomination.version == 3
    assert nomination.trend is not None
    assert math.isclose(nomination.trend, trend_term(first_at), rel_tol=0, abs_tol=1e-6)
    weeks = dict(NominationWeek.objects.filter(nomination=nomination).values_list("week", "votes"))
    assert weeks == {date(2030, 5, 27): 1, date(2030, 6, 3): 0}

    votes.vote_remove(user=scout, nomination_id=nomination.pk)
    nomination = Nomination.objects.get(pk=nomination.pk)
    assert (nomination.vote_count, nomination.version, nomination.trend) == (0, 4, None)


def test_a_refused_vote_changes_no_counter(scout: User, other_scout: User) -> None:
    nomination = make_nomination(other_scout)
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    before = Nomination.objects.values("vote_count", "version", "trend").get(pk=nomination.pk)
    with pytest.raises(Conflict):
        votes.vote_cast(user=scout, nomination_id=nomination.pk)
    after = Nomination.objects.values("vote_count", "version", "trend").get(pk=nomination.pk)
    assert after == before
    assert NominationWeek.objects.get(nomination=nomination).votes == 1


@unless_available(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_a_connection_runs_the_votes_statements_prepared(scout: User, other_scout: User) -> None:
    """On PostgreSQL a connection prepares a statement once it has run it
    DB_PREPARE_THRESHOLD times (project/settings/database.py), so a pooled connection parses
    and plans a vote's statements once rather than on every vote; the votes still count as before.
    Behind a pooler in transaction mode (DB_POOLER) it prepares none."""
    nomination = make_nomination(other_scout)
    pooled = settings.DB_POOLER == "transaction"
    threshold = 5 if pooled else connection.settings_dict["OPTIONS"]["prepare_threshold"]
    assert threshold is not None
    assert (connection.settings_dict["OPTIONS"]["prepare_threshold"] is None) == pooled
    for _ in range(threshold + 1):
        votes.vote_cast(user=scout, nomination_id=nomination.pk)
        votes.vote_remove(user=scout, nomination_id=nomination.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    table = connection.ops.quote_name(Nomination._meta.db_table)
    if pooled:
        assert not [sql for sql in prepared if table in sql], prepared
        return
    # The nomination's lock and its counters, the two every cast and removal run.
    assert any(sql.startswith(f"UPDATE {table} SET vote_count") for sql in prepared), prepared
    assert any(sql.endswith("FOR NO KEY UPDATE OF n") for sql in prepared), prepared
    nomination.refresh_from_db()
    assert (nomination.vote_count, nomination.version) == (0, 2 * (threshold + 1))
