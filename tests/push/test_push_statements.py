"""What push costs a vote while it is on: one statement (the member's minute about the
nomination, taken only if they have a device), and the task's row when it is pushed: the
costliest vote takes two statements more than without push."""

from __future__ import annotations

import pytest

from project.accounts.models import User
from project.push.models import PushSubscription
from project.push.vapid import VapidKeys
from project.scouting.services import votes
from tests.builders import make_nomination, make_user
from tests.scouting.test_vote_statements import MAX_STATEMENTS, statements_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_push_costs_a_vote_one_statement_more(
    scout: User, other_scout: User, vapid: VapidKeys
) -> None:
    nomination = make_nomination(other_scout)
    third = make_user()
    without_device = statements_of(lambda: votes.vote_cast(user=third, nomination_id=nomination.pk))
    PushSubscription.objects.create(
        user=other_scout, endpoint="https://1.1.1.1/push", p256dh="x", auth="y"
    )
    pushed = statements_of(lambda: votes.vote_cast(user=scout, nomination_id=nomination.pk))
    window = [sql for sql in pushed if "push_pushwindow" in sql]
    tasks = [sql for sql in pushed if "django_tasks_database_dbtaskresult" in sql]
    assert len(window) == 1 and len(tasks) >= 1
    assert sum("push_pushwindow" in sql for sql in without_device) == 1
    assert len(pushed) <= MAX_STATEMENTS + 2, "\n".join(pushed)
