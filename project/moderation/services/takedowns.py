"""Takedown requests by athletes and parents (without an account), confirmed from their email
address, their decisions, and taking a player down and putting it back."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlencode

from django.conf import settings
from django.core.signing import BadSignature, SignatureExpired, TimestampSigner
from django.db import transaction
from django.utils import timezone

from project.accounts.models import User
from project.common.addresses import address_key
from project.common.budgets import budget_limit, budget_spend
from project.common.errors import Conflict, NotFound, Throttled, ValidationFailed
from project.moderation.models import TakedownKind, TakedownRequest, TakedownStatus
from project.moderation.selectors import takedown_data, takedown_queryset
from project.modlog.models import ModlogAction, ModlogEntry, ModlogTarget
from project.modlog.services import modlog_record
from project.notify.services import transactional_enqueue
from project.scouting.models import LIVE_STATUSES, Nomination, NominationStatus, Player
from project.scouting.selectors import PLAYER_NOT_FOUND, nomination_data, nomination_queryset
from project.scouting.services.audience import (
    nomination_event,
    nomination_publish,
    nomination_removed,
)
from project.sharing.services import share_cards_drop_for_player
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
        nomination_publish(
            nomination_removed(nomination, status_was=nomination.status_before_hidden)
        )
        if live:
            sports.add(nomination.sport)
    for sport in sorted(sports):
        publish_summaries(sport)
    share_cards_drop_for_player(player.pk)


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
        nomination_publish(
            nomination_event("nomination.created", nomination, nomination_data(nomination))
        )
    for sport in sorted({n.sport for n in restored if n.status in LIVE_STATUSES}):
        publish_summaries(sport)


TAKEDOWN_ALREADY_DECIDED = "This request was already decided"
PLAYER_NOT_HIDDEN = "This player is not taken down"
TAKEDOWN_STILL_PENDING = "Decide the pending takedown request for this player first"
TOO_MANY_FOR_PLAYER = (
    "We already received several requests about this player today. Our moderators will "
    "review them; please try again tomorrow if you still need to."
)
LINK_INVALID = "This confirmation link is not valid. Open the link from our email again."
LINK_EXPIRED = "This confirmation link has expired. Please send your request again."
CONFIRM_SALT = "takedown.confirm"
CONFIRM_SUBJECT = "Confirm your request {reference}"
CONFIRM_MESSAGE = (
    "Reference: {reference}\n\n"
    "Someone, probably you, asked us to {kind} a player profile on ScoutVote and gave this "
    "email address. To confirm the request, open this link within {hours} hours:\n\n"
    "{link}\n\n"
    "{effect}\n\n"
    "If you did not ask for this, ignore this email: nothing happens.\n\nThe ScoutVote team"
)
CONFIRM_EFFECT = (
    "As soon as you confirm, the profile is hidden from the site while our moderators review "
    "your request."
)
CONFIRM_EFFECT_KEPT = (
    "Our moderators already reviewed this profile and kept it on the site: once you confirm, "
    "your request waits for their decision."
)
RECEIPT_SUBJECT = "We received your request {reference}"
RECEIPT_MESSAGE = (
    "Reference: {reference}\n\n"
    "We received your request about the profile of {player}. {effect} We will write to you "
    "at this address when it is decided.\n\nThe ScoutVote team"
)
RECEIPT_HIDDEN = (
    "The profile and its nominations are hidden from the site while our moderators review it."
)
RECEIPT_KEPT = (
    "Our moderators already reviewed this profile and kept it on the site, so it stays there "
    "until they decide on your request."
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
# Requests an admin can still decide: confirmed ones, and unconfirmed ones (spam, a duplicate).
OPEN_STATUSES = (TakedownStatus.UNCONFIRMED, TakedownStatus.PENDING)
PLAYER_WINDOW = timedelta(days=1)


def _confirm_max_age() -> int:
    return int(settings.TAKEDOWN_CONFIRM_HOURS * 3600)


def takedown_confirm_token(request: TakedownRequest) -> str:
    """The signed, expiring token of a request's confirmation link."""
    return TimestampSigner(salt=CONFIRM_SALT).sign(str(request.pk))


def _player_kept_by_admins(player: Player) -> bool:
    """Whether admins already reviewed the player and showed it again (a request declined or
    corrected, or the player restored): then a new request waits for them instead of hiding
    it."""
    if TakedownRequest.objects.filter(
        player_id=player.pk, status__in=(TakedownStatus.CORRECTED, TakedownStatus.RESTORED)
    ).exists():
        return True
    return ModlogEntry.objects.filter(
        action=ModlogAction.PLAYER_RESTORE, target_type=ModlogTarget.PLAYER, target_id=player.pk
    ).exists()


def _player_limit(player: Player) -> None:
    """At most BUDGET_TAKEDOWNS_PER_PLAYER_PER_DAY requests about one player a day, whoever
    sends them (counted under the player's lock): 429 beyond it."""
    limit = budget_limit("TAKEDOWNS_PER_PLAYER", "DAY")
    if not limit:
        return
    since = timezone.now() - PLAYER_WINDOW
    recent = TakedownRequest.objects.filter(player_id=player.pk, created_at__gte=since)
    if recent.count() >= limit:
        oldest = recent.order_by("created_at").values_list("created_at", flat=True)[0]
        wait = (oldest + PLAYER_WINDOW - timezone.now()).total_seconds()
        raise Throttled(TOO_MANY_FOR_PLAYER, retry_after=max(int(wait) + 1, 1))


@transaction.atomic
def takedown_request_create(
    *,
    nomination_id: int,
    relationship: str,
    kind: str,
    contact_email: str,
    details: str = "",
    client_address: str,
    confirm_url: str,
) -> TakedownRequest:
    """An athlete's or a parent's request, without an account, to remove or correct the
    player of a page. Nothing changes until it is confirmed: the worker emails
    ``contact_email`` a signed link (``confirm_url`` with its token) that expires after
    TAKEDOWN_CONFIRM_HOURS; admins see the request live, unconfirmed. A player that nobody
    can see (none of its nominations live, not taken down) is not found, as a page that does
    not exist: the form tells nothing about it and mails nothing."""
    # The integrity budget per client address (BUDGET_TAKEDOWNS_PER_HOUR), counted under a
    # keyed hash of the address: 429 with Retry-After beyond it.
    budget_spend("TAKEDOWNS", address_key(client_address), "HOUR")
    player_id = Nomination.objects.filter(pk=nomination_id).values_list("player_id", flat=True)
    player = Player.objects.select_for_update().filter(pk__in=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    if (
        player.hidden_at is None
        and not player.nominations.filter(status__in=LIVE_STATUSES).exists()
    ):
        raise NotFound(PLAYER_NOT_FOUND)
    _player_limit(player)
    request = TakedownRequest.objects.create(
        player=player,
        nomination_id=nomination_id,
        relationship=relationship,
        kind=kind,
        contact_email=contact_email,
        details=details,
        status=TakedownStatus.UNCONFIRMED,
    )
    link = f"{confirm_url}?{urlencode({'token': takedown_confirm_token(request)})}"
    transactional_enqueue(
        key=f"takedown-confirm:{request.pk}",
        to=contact_email,
        subject=CONFIRM_SUBJECT.format(reference=request.reference),
        body=CONFIRM_MESSAGE.format(
            reference=request.reference,
            kind="remove" if kind == TakedownKind.REMOVE else "correct",
            hours=settings.TAKEDOWN_CONFIRM_HOURS,
            link=link,
            effect=CONFIRM_EFFECT_KEPT if _player_kept_by_admins(player) else CONFIRM_EFFECT,
        ),
    )
    publish(Event("takedown.created", takedown_data(request), admins=True))
    return request


@dataclass(frozen=True)
class Confirmed:
    reference: str
    status: str
    player_hidden: bool


@transaction.atomic
def takedown_request_confirm(*, token: str) -> Confirmed:
    """Confirm a request from the link of its email: the player is hidden at once (as a
    request did before confirmation existed) unless admins already reviewed it and kept it
    up, then the request waits for them. Confirming again answers the same."""
    try:
        pk = TimestampSigner(salt=CONFIRM_SALT).unsign(token, max_age=_confirm_max_age())
    except SignatureExpired:
        raise ValidationFailed(LINK_EXPIRED, code="link_expired") from None
    except BadSignature:
        raise ValidationFailed(LINK_INVALID, code="invalid_link") from None
    request = TakedownRequest.objects.select_for_update().filter(pk=pk).first()
    if request is None:
        raise ValidationFailed(LINK_INVALID, code="invalid_link")
    player = Player.objects.select_for_update().get(pk=request.player_id)
    if request.status != TakedownStatus.UNCONFIRMED:
        return Confirmed(request.reference, request.status, player.hidden_at is not None)
    request.status = TakedownStatus.PENDING
    request.confirmed_at = timezone.now()
    request.save(update_fields=["status", "confirmed_at"])
    kept = _player_kept_by_admins(player)
    if player.hidden_at is None and not kept:
        _player_hide(player)
    transactional_enqueue(
        key=f"takedown-receipt:{request.pk}",
        to=request.contact_email,
        subject=RECEIPT_SUBJECT.format(reference=request.reference),
        body=RECEIPT_MESSAGE.format(
            reference=request.reference,
            player=player.name,
            effect=RECEIPT_KEPT if player.hidden_at is None else RECEIPT_HIDDEN,
        ),
    )
    publish(Event("takedown.confirmed", takedown_data(request), admins=True))
    return Confirmed(request.reference, request.status, player.hidden_at is not None)


@transaction.atomic
def takedown_request_decide(
    *, admin: User, request_id: int, decision: str, reason: str
) -> TakedownRequest:
    """Decide an open request (pending, or still unconfirmed): the profile is kept off the
    site (hidden now if it was not), or is shown again (corrected or declined) unless another
    confirmed request about it is still pending. A requester who confirmed is emailed the
    decision with its reference; the decision goes to the moderation log."""
    request = TakedownRequest.objects.select_for_update().filter(pk=request_id).first()
    if request is None:
        raise NotFound(TAKEDOWN_NOT_FOUND)
    if request.status not in OPEN_STATUSES:
        raise Conflict(TAKEDOWN_ALREADY_DECIDED, code="already_decided")
    before = request.status
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
    if status == TakedownStatus.REMOVED and player.hidden_at is None:
        # A request that waited for review (the player was kept up before, or unconfirmed).
        _player_hide(player)
    elif status != TakedownStatus.REMOVED and player.hidden_at is not None and not others_pending:
        _player_unhide(player)
    modlog_record(
        actor=admin,
        action=ModlogAction.TAKEDOWN_DECIDE,
        target_type=ModlogTarget.TAKEDOWN,
        target_id=request.pk,
        target_label=f"{request.reference}: {player.name}",
        reason=reason,
        changes={"status": [str(before), str(status)]},
    )
    if before != TakedownStatus.UNCONFIRMED:
        # Only a confirmed address hears the decision (it names the player).
        message = DECISION_MESSAGES[status].format(player=player.name)
        transactional_enqueue(
            key=f"takedown-decision:{request.pk}",
            to=request.contact_email,
            subject=DECISION_SUBJECT.format(reference=request.reference),
            body=(
                f"Reference: {request.reference}\n\n{message}\n\nReason: {reason}\n\n"
                "The ScoutVote team"
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
