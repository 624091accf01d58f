"""Outbound notifications' writes: the one hook every notification-worthy event goes through
(``outbound`` in a request's transaction, ``outbound_statement`` in a vote's pipeline), and
the worker's dispatch that folds those events into emails (``events_dispatch``, every
minute) under the members' toggles, the fold rule and the daily cap."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from project.accounts.ages import quiet_until
from project.accounts.models import User, UserSettings
from project.common.db import insert_statement
from project.jobs.services import email_enqueue
from project.notify.emails import (
    UNSUBSCRIBE_KINDS,
    UnsubscribeKind,
    render,
    transactional,
    unsubscribe_read,
)
from project.notify.models import NotificationEmail, OutboundEvent
from project.scouting.models import Nomination, NotificationType

logger = logging.getLogger(__name__)

# The settings field that lets a kind's emails through besides emailNotifications (none: only
# that), and the unsubscribe link its emails carry. The email switches are apart from the in-app
# ones (voteNotifications...): turning off a kind's emails leaves its bell as it was.
KIND_PREFERENCES: dict[str, str] = {
    NotificationType.VOTE_RECEIVED: "vote_emails",
    NotificationType.NOMINATION_APPROVED: "nomination_emails",
    NotificationType.NOMINATION_REJECTED: "nomination_emails",
}
KIND_UNSUBSCRIBE: dict[str, str] = {
    NotificationType.VOTE_RECEIVED: "votes",
    NotificationType.NOMINATION_APPROVED: "nominations",
    NotificationType.NOMINATION_REJECTED: "nominations",
}
EMAIL_SUBJECTS: dict[str, str] = {
    NotificationType.VOTE_RECEIVED: "Your nomination received a vote",
    NotificationType.NOMINATION_APPROVED: "Your nomination was approved",
    NotificationType.NOMINATION_REJECTED: "Your nomination was not approved",
    NotificationType.NEW_FOLLOWER: "You have a new follower",
    NotificationType.NOMINATION_REMOVED: "Your nomination was removed",
    NotificationType.MODERATION_WARNING: "A warning from the ScoutVote moderators",
    # Claims and the controls of a player's profile (project/claims): approvals, hand-overs,
    # the age transitions.
    NotificationType.PLAYER_UPDATE: "About a player's profile on ScoutVote",
    NotificationType.ENDORSEMENT_RECEIVED: "A verified coach endorsed a player",
    NotificationType.COMMENT_RECEIVED: "A new comment on a player's page",
    NotificationType.CLUB_NOMINATION: "A club you follow has a new nomination",
}
# Messages of a folded email listed one by one (the rest are counted).
FOLD_LISTED = 10


def _event_columns(
    *, user_id: int, kind: str, nomination_id: int | None, message: str
) -> dict[str, Any]:
    return {
        "user_id": user_id,
        "kind": kind,
        "nomination_id": nomination_id,
        "message": message,
        "created_at": timezone.now(),
    }


def outbound(*, user_id: int, kind: str, nomination_id: int | None, message: str) -> None:
    """Record one notification-worthy event for ``user_id`` in the current transaction (a
    rolled-back write records nothing). The worker's dispatch turns the events into emails
    (``events_dispatch``). The other outbound channels (web push) hang off the same moment:
    ``project.notify.delivery.register_delivery_channel``."""
    OutboundEvent.objects.create(
        **_event_columns(user_id=user_id, kind=kind, nomination_id=nomination_id, message=message)
    )


def outbound_statement(
    *, user_id: int, kind: str, nomination_id: int | None, message: str
) -> tuple[str, list[Any]]:
    """``outbound``'s INSERT as a statement, for a vote to send in its pipeline (one more
    statement in the same round trip; see ``votes.vote_cast``)."""
    return insert_statement(
        OutboundEvent,
        connection,
        **_event_columns(user_id=user_id, kind=kind, nomination_id=nomination_id, message=message),
    )


def email_wanted(user_settings: UserSettings | None, kind: str) -> bool:
    """Whether the member's toggles let an email of ``kind`` through: emailNotifications for
    all, and voteEmails / nominationEmails for their kinds (no settings row: the defaults, all
    on). The in-app switches play no part."""
    if user_settings is None:
        return True
    preference = KIND_PREFERENCES.get(kind)
    return user_settings.email_notifications and (
        preference is None or bool(getattr(user_settings, preference))
    )


@dataclass
class DispatchResult:
    emails: int = 0
    waiting: int = 0
    turned_off: int = 0
    capped: int = 0


def _day_start(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def _span(oldest: datetime, now: datetime) -> str:
    hours = max(1, math.ceil((now - oldest).total_seconds() / 3600 - 0.05))
    return "in the last hour" if hours == 1 else f"in the last {hours} hours"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _email_content(
    kind: str, events: list[OutboundEvent], nomination: Nomination | None, now: datetime
) -> tuple[str, list[str], str]:
    """The subject, the body's lines and the page (a path) of an email telling ``events``."""
    count = len(events)
    link = f"/nominations/{nomination.pk}" if nomination is not None else "/profile"
    if kind == NotificationType.VOTE_RECEIVED and nomination is not None:
        player = nomination.player.name
        total = f"It now has {_plural(nomination.vote_count, 'vote')}."
        if count == 1:
            return EMAIL_SUBJECTS[kind], [f"{events[0].message} {total}"], link
        subject = f"{count} new votes on {player} {_span(events[0].created_at, now)}"
        latest = [event.message for event in events[-3:]]
        return subject, [f"{subject}.", total, "Latest: " + " ".join(latest)], link
    if count == 1:
        return EMAIL_SUBJECTS.get(kind, "ScoutVote notification"), [events[0].message], link
    if kind == NotificationType.NEW_FOLLOWER:
        subject = f"{count} new followers {_span(events[0].created_at, now)}"
    else:
        subject = f"{EMAIL_SUBJECTS.get(kind, 'ScoutVote notifications')} ({count} updates)"
    lines = [event.message for event in events[-FOLD_LISTED:]]
    if count > FOLD_LISTED:
        lines.insert(0, f"The latest {FOLD_LISTED} of {count}:")
    return subject, lines, link


def _reason(kind: str) -> str:
    preference = KIND_UNSUBSCRIBE.get(kind)
    if preference is None:
        return (
            "You receive this email because Email Notifications are on in your ScoutVote settings."
        )
    label = UNSUBSCRIBE_KINDS[preference].label
    return (
        f"You receive this email because Email Notifications and {label} are on in your "
        "ScoutVote settings. Emails about one nomination come at most once an hour."
    )


def _group_dispatch(
    *, user_id: int, kind: str, nomination_id: int | None, last_id: int, now: datetime
) -> str:
    """Dispatch one member's events of one kind about one nomination, in one transaction:
    wait while the group's last email is within the fold window; otherwise take its events
    (deleting them) and send one email of all of them, unless the toggles turn it off or
    the daily cap is reached (then they are dropped: the in-app notifications keep them)."""
    window = timedelta(seconds=settings.EMAIL_FOLD_SECONDS)
    group = {"user_id": user_id, "kind": kind}
    if nomination_id is None:
        group["nomination_id__isnull"] = True
    else:
        group["nomination_id"] = nomination_id
    with transaction.atomic():
        last_sent = (
            NotificationEmail.objects.filter(**group)
            .order_by("-sent_at")
            .values_list("sent_at", flat=True)
            .first()
        )
        if last_sent is not None and last_sent > now - window:
            return "waiting"
        events = list(
            OutboundEvent.objects.select_for_update(skip_locked=True)
            .filter(**group, id__lte=last_id)
            .order_by("id")
        )
        if not events:
            return "waiting"
        OutboundEvent.objects.filter(pk__in=[event.pk for event in events]).delete()
        user = User.objects.filter(pk=user_id, is_active=True).first()
        user_settings = UserSettings.objects.filter(user_id=user_id).first()
        nomination = (
            Nomination.objects.select_related("player").filter(pk=nomination_id).first()
            if nomination_id is not None
            else None
        )
        if (
            user is None
            or not user.email
            or not email_wanted(user_settings, kind)
            or (nomination_id is not None and nomination is None)
        ):
            return "turned_off"
        today = NotificationEmail.objects.filter(user_id=user_id, sent_at__gte=_day_start(now))
        if today.count() >= settings.EMAIL_DAILY_CAP:
            return "capped"
        sent = NotificationEmail.objects.create(
            user_id=user_id, kind=kind, nomination_id=nomination_id, events=len(events), sent_at=now
        )
        subject, lines, link = _email_content(kind, events, nomination, now)
        rendered = render(
            "notification",
            subject=subject,
            context={"lines": lines},
            link=link,
            link_label="See the nomination" if nomination is not None else "Open ScoutVote",
            reason=_reason(kind),
            user_id=user_id,
            unsubscribe=KIND_UNSUBSCRIBE.get(kind, "email"),
        )
        email_enqueue(
            key=f"notify:{sent.pk}",
            to=user.email,
            subject=rendered.subject,
            body=rendered.text,
            html=rendered.html,
            headers=rendered.headers,
            run_after=quiet_until(user, now),
        )
    return "sent"


def events_dispatch(now: datetime | None = None) -> DispatchResult:
    """Turn the events recorded so far into emails (the worker runs it every minute,
    ``notify_dispatch``): per member, kind and nomination, the first email goes at once and
    the events of the following EMAIL_FOLD_SECONDS fold into one email sent when that
    window ends. Every event counts, whatever happened to the in-app notification."""
    now = now or timezone.now()
    result = DispatchResult()
    groups = (
        OutboundEvent.objects.values("user_id", "kind", "nomination_id")
        .annotate(last_id=Max("id"))
        .order_by()
    )
    for group in list(groups):
        outcome = _group_dispatch(
            user_id=group["user_id"],
            kind=group["kind"],
            nomination_id=group["nomination_id"],
            last_id=group["last_id"],
            now=now,
        )
        if outcome == "sent":
            result.emails += 1
        elif outcome == "waiting":
            result.waiting += 1
        elif outcome == "turned_off":
            result.turned_off += 1
        else:
            result.capped += 1
    return result


def unsubscribe(token: str) -> tuple[User, UnsubscribeKind]:
    """Turn off the email switch a signed unsubscribe token names, and nothing else (raises
    ``signing.BadSignature`` or ``signing.SignatureExpired``, or ``User.DoesNotExist`` for a
    deleted member); returns the member and what was turned off."""
    user_id, kind = unsubscribe_read(token)
    user = User.objects.get(pk=user_id)
    turned_off = UNSUBSCRIBE_KINDS[kind]
    with transaction.atomic():
        user_settings, _ = UserSettings.objects.select_for_update().get_or_create(user=user)
        setattr(user_settings, turned_off.field, False)
        user_settings.save(update_fields=[turned_off.field, "updated_at"])
    return user, turned_off


def transactional_enqueue(*, key: str, to: str, subject: str, body: str) -> None:
    """Enqueue a transactional email (a takedown's confirmation, an account's removal) in the
    current transaction: the common templates around ``body``, without unsubscribe."""
    rendered = transactional(subject=subject, body=body)
    email_enqueue(
        key=key,
        to=to,
        subject=rendered.subject,
        body=rendered.text,
        html=rendered.html,
        headers=rendered.headers,
    )
