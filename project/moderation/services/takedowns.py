"""Takedown requests by athletes and parents (without an account), their decisions, and
taking a player down and putting it back."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from project.accounts.models import User
from project.common.addresses import address_key
from project.common.budgets import budget_spend
from project.common.errors import Conflict, NotFound
from project.moderation.models import TakedownRequest, TakedownStatus
from project.moderation.selectors import takedown_data, takedown_queryset
from project.moderation.services.emails import email_after_commit
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from project.scouting.models import LIVE_STATUSES, Nomination, NominationStatus, Player
from project.scouting.selectors import PLAYER_NOT_FOUND, nomination_data, nomination_queryset
from project.scouting.services.audience import nomination_event
from realtime.publish import Event, publish, publish_summaries

TAKEDOWN_NOT_FOUND = "Takedown request not found"


def _player_hide(player: Player) -> None:
    """Hide a (locked) player and every nomination of it from everyone but admins at once:
    the nominations leave every list, board, feed and search, which all read live
    statuses only, and the sports' boards and stats are pushed again."""
    player.hidden_at = timezone.now()
    player.save(update_fields=["hidden_at"])
    nominations = list(
        Nomination.objects.select_for_update()
        .filter(player_id=player.pk)
        .exclude(status=NominationStatus.HIDDEN)
        .order_by("pk")
    )
    sports = set()
    for nomination in nominations:
        live = nomination.status in LIVE_STATUSES
        nomination.status_before_hidden = nomination.status
        nomination.status = NominationStatus.HIDDEN
        nomination.save(update_fields=["status", "status_before_hidden"])
        publish(
            nomination_event(
                "nomination.removed", nomination, {"id": nomination.pk}, live=live, nominator=True
            )
        )
        if live:
            sports.add(nomination.sport)
    for sport in sorted(sports):
        publish_summaries(sport)


def _player_unhide(player: Player) -> None:
    """Put a (locked) taken-down player and its nominations back as they were."""
    player.hidden_at = None
    player.save(update_fields=["hidden_at"])
    hidden = Nomination.objects.select_for_update().filter(
        player_id=player.pk, status=NominationStatus.HIDDEN
    )
    for nomination in hidden.order_by("pk"):
        nomination.status = nomination.status_before_hidden or NominationStatus.PENDING
        nomination.status_before_hidden = ""
        nomination.save(update_fields=["status", "status_before_hidden"])
    restored = list(nomination_queryset().filter(player_id=player.pk))
    for nomination in restored:
        publish(nomination_event("nomination.created", nomination, nomination_data(nomination)))
    for sport in sorted({n.sport for n in restored if n.status in LIVE_STATUSES}):
        publish_summaries(sport)


TAKEDOWN_ALREADY_DECIDED = "This request was already decided"
PLAYER_NOT_HIDDEN = "This player is not taken down"
TAKEDOWN_STILL_PENDING = "Decide the pending takedown request for this player first"
RECEIPT_SUBJECT = "We received your request {reference}"
RECEIPT_MESSAGE = (
    "Reference: {reference}\n\n"
    "We received your request about the profile of {player}. The profile and its "
    "nominations are hidden from the site while our moderators review it. We will write to "
    "you at this address when it is decided.\n\nThe ScoutVote team"
)
DECISION_SUBJECT = "Your request {reference} was decided"
DECISION_MESSAGES = {
    TakedownStatus.REMOVED: "The profile of {player} stays removed from the site.",
    TakedownStatus.CORRECTED: "The profile of {player} was corrected and is shown again.",
    TakedownStatus.RESTORED: "We did not remove the profile of {player}; it is shown again.",
}
DECISIONS = {
    "remove": TakedownStatus.REMOVED,
    "correct": TakedownStatus.CORRECTED,
    "restore": TakedownStatus.RESTORED,
}


@transaction.atomic
def takedown_request_create(
    *,
    nomination_id: int,
    relationship: str,
    kind: str,
    contact_email: str,
    details: str = "",
    client_address: str,
) -> TakedownRequest:
    """An athlete's or a parent's request, without an account, to remove or correct the
    player of a page. The player is hidden at once, pending review; the requester gets an
    email with the reference; admins see the request live."""
    # The integrity budget per client address (BUDGET_TAKEDOWNS_PER_HOUR), counted under a
    # keyed hash of the address: 429 with Retry-After beyond it.
    budget_spend("TAKEDOWNS", address_key(client_address), "HOUR")
    player_id = Nomination.objects.filter(pk=nomination_id).values_list("player_id", flat=True)
    player = Player.objects.select_for_update().filter(pk__in=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    request = TakedownRequest.objects.create(
        player=player,
        nomination_id=nomination_id,
        relationship=relationship,
        kind=kind,
        contact_email=contact_email,
        details=details,
    )
    if player.hidden_at is None:
        _player_hide(player)
    email_after_commit(
        address=contact_email,
        subject=RECEIPT_SUBJECT.format(reference=request.reference),
        message=RECEIPT_MESSAGE.format(reference=request.reference, player=player.name),
    )
    publish(Event("takedown.created", takedown_data(request), admins=True))
    return request


@transaction.atomic
def takedown_request_decide(
    *, admin: User, request_id: int, decision: str, reason: str
) -> TakedownRequest:
    """Decide a pending request: the profile stays removed, or is shown again (corrected or
    declined) unless another request about it is still pending. The requester is emailed
    the decision with its reference; the decision goes to the moderation log."""
    request = TakedownRequest.objects.select_for_update().filter(pk=request_id).first()
    if request is None:
        raise NotFound(TAKEDOWN_NOT_FOUND)
    if request.status != TakedownStatus.PENDING:
        raise Conflict(TAKEDOWN_ALREADY_DECIDED, code="already_decided")
    player = Player.objects.select_for_update().get(pk=request.player_id)
    status = DECISIONS[decision]
    request.status = status
    request.decided_at = timezone.now()
    request.decided_by = admin
    request.decision_reason = reason
    request.save(update_fields=["status", "decided_at", "decided_by", "decision_reason"])
    others_pending = TakedownRequest.objects.filter(
        player_id=player.pk, status=TakedownStatus.PENDING
    ).exists()
    if status != TakedownStatus.REMOVED and player.hidden_at is not None and not others_pending:
        _player_unhide(player)
    modlog_record(
        actor=admin,
        action=ModlogAction.TAKEDOWN_DECIDE,
        target_type=ModlogTarget.TAKEDOWN,
        target_id=request.pk,
        target_label=f"{request.reference}: {player.name}",
        reason=reason,
        changes={"status": [TakedownStatus.PENDING.value, str(status)]},
    )
    message = DECISION_MESSAGES[status].format(player=player.name)
    email_after_commit(
        address=request.contact_email,
        subject=DECISION_SUBJECT.format(reference=request.reference),
        message=(
            f"Reference: {request.reference}\n\n{message}\n\nReason: {reason}\n\nThe ScoutVote team"
        ),
    )
    return takedown_queryset().get(pk=request.pk)


@transaction.atomic
def player_restore(*, admin: User, player_id: int, reason: str) -> Player:
    """Show a taken-down player again (after its requests were decided)."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    if player.hidden_at is None:
        raise Conflict(PLAYER_NOT_HIDDEN, code="not_hidden")
    if TakedownRequest.objects.filter(player_id=player.pk, status=TakedownStatus.PENDING).exists():
        raise Conflict(TAKEDOWN_STILL_PENDING, code="takedown_pending")
    _player_unhide(player)
    modlog_record(
        actor=admin,
        action=ModlogAction.PLAYER_RESTORE,
        target_type=ModlogTarget.PLAYER,
        target_id=player.pk,
        target_label=player.name,
        reason=reason,
        changes={"hidden": [True, False]},
    )
    return player
