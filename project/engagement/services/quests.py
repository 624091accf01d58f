"""Quests: opt-in challenges for adult members, advanced by what they already do.

Each quest runs in a period of the member's time zone (a day, a Monday-to-Sunday week, or
once). A step is keyed (the nomination voted on, the member followed), so a retry, a vote taken
back and cast again, or the same action twice adds nothing. Completion happens under the run's
row lock (``select_for_update``) on a row unique per member, quest and period: its points, its
``quest_completed`` notification and its ``quest_completed`` activity are written exactly once
whatever races. The member's other tabs hear ``quest.progress`` after each commit that moved
it (their own group only)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from project.accounts.models import User
from project.accounts.progress import user_points_add
from project.common.choices import Sport
from project.common.schemas import wire
from project.engagement import gate
from project.engagement.clock import day_start, local_day, week_start
from project.engagement.models import Quest, QuestPeriod, QuestStep, QuestType, UserQuest
from project.engagement.schemas import QuestOut
from project.scouting.models import ActivityType, NotificationType
from project.scouting.services.activity import activity_create, new_activity, notification_create
from realtime.publish import Event, publish

# A quest done once has one period, starting here.
ONCE = date(1970, 1, 1)

# The quests, made on first use; admins may then change names, points, targets or turn one
# off in the Django admin. (type, name, description, points, target, period)
QUESTS = (
    (
        QuestType.DAILY_VOTE,
        "Vote where it is needed",
        "Vote for a nomination that needs votes (one with fewer than 5).",
        5,
        1,
        QuestPeriod.DAY,
    ),
    (
        QuestType.WEEKLY_VOTES,
        "Ten nominations this week",
        "Vote for 10 different nominations this week.",
        20,
        10,
        QuestPeriod.WEEK,
    ),
    (
        QuestType.FOLLOW_PLAYERS,
        "Follow 3 clubs or scouts",
        "Follow 3 clubs or adult scouts.",
        10,
        3,
        QuestPeriod.ONCE,
    ),
    (
        QuestType.SHARE_PROFILE,
        "Share your scout profile",
        "Share your own scout profile with someone.",
        5,
        1,
        QuestPeriod.ONCE,
    ),
)


def quests_ensure() -> list[Quest]:
    """Every quest type's row (made when missing), in the order above."""
    found = {quest.type: quest for quest in Quest.objects.all()}
    for quest_type, name, description, points, target, period in QUESTS:
        if quest_type not in found:
            try:
                with transaction.atomic():
                    found[quest_type] = Quest.objects.create(
                        type=quest_type,
                        name=name,
                        description=description,
                        points_reward=points,
                        target_count=target,
                        period=period,
                    )
            except IntegrityError:
                found[quest_type] = Quest.objects.get(type=quest_type)
    return [found[quest_type] for quest_type, *_ in QUESTS]


def quest_completed_message(quest: Quest) -> str:
    return f'Quest completed: "{quest.name}". You earned {quest.points_reward} points.'


def quest_period(quest: Quest, *, user: User, now: datetime) -> tuple[date, datetime | None]:
    """The first local day of the period ``now`` falls in, and the instant it ends."""
    today = local_day(user, now)
    if quest.period == QuestPeriod.DAY:
        return today, day_start(user, today + timedelta(days=1))
    if quest.period == QuestPeriod.WEEK:
        monday = week_start(today)
        return monday, day_start(user, monday + timedelta(days=7))
    return ONCE, None


def quest_out(quest: Quest, run: UserQuest | None, *, expires_at: datetime | None) -> QuestOut:
    return QuestOut(
        type=quest.type,  # type: ignore[arg-type]
        name=quest.name,
        description=quest.description,
        points_reward=quest.points_reward,
        progress=min(run.progress, quest.target_count) if run else 0,
        target=quest.target_count,
        completed=bool(run and run.completed_at),
        completed_at=run.completed_at if run else None,
        expires_at=expires_at,
    )


def _run_made(quest: Quest, *, user: User, now: datetime) -> tuple[date, datetime | None]:
    """Make the member's run of ``quest`` for ``now``'s period when missing, in a transaction
    of its own: the row's insert takes a key-share lock on the member's row, and a transaction
    that later adds the quest's points to that row must not be upgrading that lock while a
    vote waits for the row (PostgreSQL would call it a deadlock)."""
    start, expires_at = quest_period(quest, user=user, now=now)
    try:
        with transaction.atomic():
            UserQuest.objects.get_or_create(
                user_id=user.pk,
                quest=quest,
                period_start=start,
                defaults={"expires_at": expires_at},
            )
    except IntegrityError:
        pass  # made by a concurrent step
    return start, expires_at


def quest_step(
    *, user: User, quest_type: QuestType, key: str, now: datetime | None = None
) -> UserQuest | None:
    """Count ``key`` toward ``user``'s ``quest_type`` in its current period: once per key,
    nothing for a member without quests (``gate.quests_on``) or for a run already completed.
    Reaching the target completes it (``_complete``). Returns the run when it moved."""
    if not gate.quests_on(user):
        return None
    quest = next((q for q in quests_ensure() if q.type == quest_type and q.active), None)
    if quest is None:
        return None
    now = now or timezone.now()
    start, expires_at = _run_made(quest, user=user, now=now)
    with transaction.atomic():
        run = UserQuest.objects.select_for_update().get(
            user_id=user.pk, quest=quest, period_start=start
        )
        if run.completed_at is not None:
            return None
        try:
            with transaction.atomic():
                QuestStep.objects.create(user_quest=run, key=key[:64])
        except IntegrityError:
            return None
        run.progress = QuestStep.objects.filter(user_quest=run).count()
        fields = ["progress"]
        if run.progress >= quest.target_count:
            run.completed_at = now
            fields.append("completed_at")
            _complete(quest, user=user)
        run.save(update_fields=fields)
        out = quest_out(quest, run, expires_at=expires_at)
        publish(Event("quest.progress", wire(out), user_ids=(user.pk,)))
    return run


def _complete(quest: Quest, *, user: User) -> None:
    """The completion's points, notification and activity, in the run's locked transaction."""
    if quest.points_reward:
        user_points_add(user_id=user.pk, delta=quest.points_reward)
    notification_create(
        user=user, type=NotificationType.QUEST_COMPLETED, message=quest_completed_message(quest)
    )
    sport = user.favorite_sport if user.favorite_sport in Sport.values else Sport.FOOTBALL
    activity_create(
        new_activity(
            user=user,
            activity_type=ActivityType.QUEST_COMPLETED,
            sport=sport,
            metadata={"title": quest.name},
        )
    )


def quests_list(*, user: User, now: datetime | None = None) -> list[QuestOut]:
    """The member's active quests in their current periods, with progress and expiry."""
    now = now or timezone.now()
    quests = [quest for quest in quests_ensure() if quest.active]
    periods = {quest.pk: quest_period(quest, user=user, now=now) for quest in quests}
    runs = {
        (run.quest_id, run.period_start): run
        for run in UserQuest.objects.filter(
            user_id=user.pk, quest_id__in=[quest.pk for quest in quests]
        ).filter(period_start__in={start for start, _ in periods.values()})
    }
    return [
        quest_out(
            quest,
            runs.get((quest.pk, periods[quest.pk][0])),
            expires_at=periods[quest.pk][1],
        )
        for quest in quests
    ]
