"""Quest completion exactly once under real concurrency: real threads, separate clients, real
transactions (PostgreSQL)."""

from __future__ import annotations

import pytest
from django.db import connection

from project.accounts.models import User
from project.engagement.models import QuestStep, QuestType, UserQuest
from project.engagement.services.quests import quest_step
from project.scouting.models import Activity, Notification
from tests.builders import make_nomination, make_user
from tests.engagement.conftest import with_quests
from tests.helpers import ApiClient, unless_available
from tests.scouting.test_vote_concurrency import run_threads, signed_in_clone

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # SQLite's in-memory test database locks whole tables across threads; CI runs PostgreSQL.
    unless_available(connection.vendor != "postgresql", reason="needs PostgreSQL"),
]


def test_twenty_parallel_votes_complete_each_quest_once() -> None:
    voter = with_quests(make_user(birth_year=1990))
    nominations = [make_nomination() for _ in range(20)]
    base = ApiClient().login(voter)
    base.csrf_token()
    clients = [signed_in_clone(base) for _ in range(20)]
    points = User.objects.get(pk=voter.pk).points

    statuses = run_threads(
        20,
        lambda i: clients[i].post("/api/votes", {"nominationId": nominations[i].pk}).status_code,
    )

    assert statuses == [201] * 20
    runs = {run.quest.type: run for run in UserQuest.objects.filter(user=voter)}
    assert set(runs) == {"daily_vote", "weekly_votes"}
    assert all(run.completed_at is not None for run in runs.values())
    assert runs["weekly_votes"].progress == 10
    assert Notification.objects.filter(user=voter, type="quest_completed").count() == 2
    assert Activity.objects.filter(user=voter, activity_type="quest_completed").count() == 2
    # A point per vote, and each quest's reward once.
    assert User.objects.get(pk=voter.pk).points == points + 20 + 5 + 20


def test_twenty_parallel_retries_of_one_step_count_once() -> None:
    user = with_quests(make_user(birth_year=1990))
    points = User.objects.get(pk=user.pk).points

    run_threads(
        20,
        lambda i: quest_step(
            user=User.objects.get(pk=user.pk), quest_type=QuestType.SHARE_PROFILE, key="share"
        ),
    )

    assert QuestStep.objects.filter(user_quest__user=user).count() == 1
    assert Notification.objects.filter(user=user, type="quest_completed").count() == 1
    assert User.objects.get(pk=user.pk).points == points + 5
