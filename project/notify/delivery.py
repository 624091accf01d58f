"""How notify hangs off scouting's hooks (project/scouting/hooks.py), and the hook outbound
channels hang off notify: each notification a member gets is recorded for the folded emails
(``outbound``) and handed to every registered delivery channel (web push, project/push)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from project.accounts.models import User
from project.notify.services import EMAIL_SUBJECTS, email_wanted, outbound, outbound_statement
from project.scouting.hooks import NewNotification, Statement, VoteWrite
from project.scouting.models import NotificationType

DEFAULT_TITLE = "ScoutVote notification"


@dataclass(frozen=True)
class Delivery:
    """A notification to carry to the member outside the open tab: its title (the email's
    subject for its kind), its text, and what it is about."""

    user_id: int
    title: str
    body: str
    nomination_id: int | None
    notification_id: int
    # The member as the notification's writer holds it: what a channel's quiet hours read.
    member: User


DeliveryChannel = Callable[[Delivery], object]
_channels: list[DeliveryChannel] = []


def register_delivery_channel(channel: DeliveryChannel) -> None:
    """Run ``channel`` for every notification, in its transaction (after its outbound event
    is recorded); registered by each channel's app in its ``AppConfig.ready()``."""
    if channel not in _channels:
        _channels.append(channel)


def vote_outbound_statements(write: VoteWrite) -> Iterable[Statement]:
    """A vote on someone else's nomination whose nominator wants its email records the
    outbound event in its own round trip: every vote counts, a coalesced one included; rolled
    back with the vote. The email has its own switches: on while the bell is off, or off below
    it."""
    nomination = write.nomination
    if (
        write.cast
        and nomination.nominated_by_id != write.voter.pk
        and email_wanted(write.settings, NotificationType.VOTE_RECEIVED)
    ):
        yield outbound_statement(
            user_id=nomination.nominated_by_id,
            kind=NotificationType.VOTE_RECEIVED,
            nomination_id=nomination.pk,
            message=f"{write.voter.name} voted for {nomination.player.name}.",
        )


def notification_delivered(new: NewNotification) -> None:
    """Record the notification's outbound event (delivered by the worker once the transaction
    commits, not if it rolls back; the worker reads the email switches again when it sends)
    unless its vote already did, then hand it to the channels. A notification the bell does
    not show is recorded only when its email is wanted, and goes to no channel."""
    notification = new.notification
    if not new.in_vote and (notification is not None or email_wanted(new.settings, new.type)):
        outbound(
            user_id=new.user.pk,
            kind=new.type,
            nomination_id=new.related_nomination_id,
            message=new.message,
        )
    if notification is None:
        return
    delivery = Delivery(
        user_id=notification.user_id,
        title=EMAIL_SUBJECTS.get(NotificationType(notification.type), DEFAULT_TITLE),
        body=notification.message,
        nomination_id=notification.related_nomination_id,
        notification_id=notification.pk,
        member=new.user,
    )
    for channel in _channels:
        channel(delivery)
