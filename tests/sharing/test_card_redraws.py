"""Share cards redrawn per change on real PostgreSQL: a burst of votes enqueues one redraw
task (its marker taken until the task starts), a rolled-back vote enqueues nothing, and the
redraw draws the new count and the ranks that other nominations' cards show."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import transaction
from django_tasks_db.models import DBTaskResult

from project.jobs.tasks import run_command
from project.scouting.models import Nomination
from project.scouting.services.votes import vote_cast, vote_remove
from project.sharing.models import CardRedraw, ShareCard
from project.sharing.services import share_card_render
from tests.builders import make_user
from tests.sharing.conftest import nominate as nominate_pending

pytestmark = pytest.mark.django_db(transaction=True)


def nominate(name: str) -> Nomination:
    nomination = nominate_pending(name)
    # A new nomination asks for its first card: drawn here, so each test starts from it.
    (first,) = redraw_tasks(nomination)
    run(first)
    first.delete()
    assert ShareCard.objects.filter(nomination=nomination).exists()
    return nomination


def redraw_tasks(nomination: Nomination) -> list[DBTaskResult]:
    return list(
        DBTaskResult.objects.filter(
            task_path=run_command.module_path,
            args_kwargs__args=["share_cards", ["--redraw", str(nomination.pk)]],
        )
    )


def run(task: DBTaskResult) -> None:
    """What the worker does with the task row: its task, with its arguments."""
    task.task.call(*task.args_kwargs["args"], **task.args_kwargs["kwargs"])


def test_a_burst_of_votes_enqueues_one_redraw_and_it_draws_the_count() -> None:
    nomination = nominate("Burst Bo")
    voters = [make_user(username=f"v{i}") for i in range(300)]
    for voter in voters:
        vote_cast(user=voter, nomination_id=nomination.pk)
    tasks = redraw_tasks(nomination)
    assert len(tasks) == 1
    assert CardRedraw.objects.filter(nomination=nomination).count() == 1

    run(tasks[0])
    assert not CardRedraw.objects.filter(nomination=nomination).exists()
    card = ShareCard.objects.get(nomination=nomination)
    assert card.count == 300
    # The marker went as the task started: the next vote enqueues the next redraw.
    vote_remove(user=voters[0], nomination_id=nomination.pk)
    assert len(redraw_tasks(nomination)) == 2


def test_a_rolled_back_vote_enqueues_nothing() -> None:
    nomination = nominate("Rollo Back")
    voter = make_user(username="vic")

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        vote_cast(user=voter, nomination_id=nomination.pk)
        assert len(redraw_tasks(nomination)) == 1  # written in the vote's transaction
        raise Undo
    assert redraw_tasks(nomination) == []
    assert not CardRedraw.objects.exists()


def test_a_vote_redraws_the_cards_whose_rank_it_moved() -> None:
    leader, chaser = nominate("Lea Leader"), nominate("Cha Chaser")
    fans = [make_user(username=f"f{i}") for i in range(3)]
    vote_cast(user=fans[0], nomination_id=leader.pk)
    for nomination in (leader, chaser):
        share_card_render(nomination_id=nomination.pk)
    leader_card = ShareCard.objects.get(nomination=leader)
    assert leader_card.ranked

    # Two votes for the chaser put it first: the leader's card shows rank 2 after the
    # chaser's redraw, with no vote of its own.
    DBTaskResult.objects.all().delete()
    CardRedraw.objects.all().delete()
    for fan in fans[1:]:
        vote_cast(user=fan, nomination_id=chaser.pk)
    (task,) = redraw_tasks(chaser)
    run(task)
    redrawn = ShareCard.objects.get(nomination=leader)
    assert (redrawn.key != leader_card.key, redrawn.count) == (True, 1)


def test_redraws_queued_together_redraw_their_sport_s_moved_ranks_once() -> None:
    leader, chaser, third = nominate("Lou Leader"), nominate("Chet Chaser"), nominate("Tia Third")
    fans = [make_user(username=f"g{i}") for i in range(4)]
    vote_cast(user=fans[0], nomination_id=leader.pk)
    for nomination in (leader, chaser, third):
        share_card_render(nomination_id=nomination.pk)
    leader_card = ShareCard.objects.get(nomination=leader)
    DBTaskResult.objects.all().delete()
    CardRedraw.objects.all().delete()

    # Two votes put the chaser first and one the third beside the leader: two redraws queued.
    for fan in fans[1:3]:
        vote_cast(user=fan, nomination_id=chaser.pk)
    vote_cast(user=fans[3], nomination_id=third.pk)
    (chaser_task,) = redraw_tasks(chaser)
    (third_task,) = redraw_tasks(third)

    # The first draws its own card and leaves the sport's other cards to the one queued.
    run(chaser_task)
    assert ShareCard.objects.get(nomination=chaser).count == 2
    assert ShareCard.objects.get(nomination=leader).key == leader_card.key
    # The last one queued redraws the leader's card, whose rank moved.
    run(third_task)
    assert ShareCard.objects.get(nomination=third).count == 1
    assert ShareCard.objects.get(nomination=leader).key != leader_card.key


def test_the_minute_job_redraws_moved_ranks_without_a_vote() -> None:
    first, second = nominate("Fay First"), nominate("Sid Second")
    vote_cast(user=make_user(username="fan"), nomination_id=first.pk)
    for nomination in (first, second):
        share_card_render(nomination_id=nomination.pk)
    before = ShareCard.objects.get(nomination=second).key
    # A change no vote made (an admin's correction): the periodic job's --ranks finds it.
    Nomination.objects.filter(pk=second.pk).update(vote_count=5, counted_votes=5)
    call_command("share_cards", "--ranks")
    assert ShareCard.objects.get(nomination=first).ranked
    assert ShareCard.objects.get(nomination=second).key != before
