"""Takedown requests by athletes and parents (without an account), confirmed from their email
address, their decisions, and taking a player down and putting it back."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlencode, urljoin

from django.conf import settings
from django.core.signing import BadSignature, SignatureExpired, Signer, TimestampSigner
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from project.accounts.models import User
from project.common.addresses import address_key, prefix_key
from project.common.budgets import budget_limit, budget_spend
from project.common.errors import (
    ApplicationError,
    Conflict,
    NotFound,
    Throttled,
    ValidationFailed,
)
from project.moderation.models import (
    TakedownEmailStop,
    TakedownKind,
    TakedownRefusal,
    TakedownRefusalReason,
    TakedownRequest,
    TakedownStatus,
)
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
    player.under_review_at = None
    player.save(update_fields=["hidden_at", "under_review_at"])
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
    """Put a (locked) taken-down or under-review player and its nominations back as they
    were."""
    if player.hidden_at is None:
        _player_review_end(player)
        return
    player.hidden_at = None
    player.under_review_at = None
    player.save(update_fields=["hidden_at", "under_review_at"])
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


def _player_review_start(player: Player) -> None:
    """Hide a (locked) player from the public at once, while members still see it with its
    page marked under review: its link previews and share cards go (they are what a
    signed-out visitor or a crawler sees of a player)."""
    player.under_review_at = timezone.now()
    player.save(update_fields=["under_review_at"])
    share_cards_drop_for_player(player.pk)


def _player_review_end(player: Player) -> None:
    """Show a (locked) player under review to the public again: its previews and cards come
    back on their next read or the worker's next drawing."""
    if player.under_review_at is None:
        return
    player.under_review_at = None
    player.save(update_fields=["under_review_at"])
    share_cards_drop_for_player(player.pk)


TAKEDOWN_ALREADY_DECIDED = "This request was already decided"
PLAYER_NOT_HIDDEN = "This player is not taken down"
TAKEDOWN_STILL_PENDING = "Decide the pending takedown request for this player first"
TOO_MANY_FOR_PLAYER = (
    "We already received several requests about this player today. Our moderators will "
    "review them; please try again tomorrow if you still need to."
)
ALREADY_SENT = (
    "We already emailed a confirmation link for this profile to this address. Open the link "
    "in that email to confirm your request."
)
EMAILS_STOPPED = (
    "This email address asked us not to send it any more confirmation emails. Please use "
    "another email address."
)
STOP_LINK_INVALID = "This link is not valid. Open the link from our email again."
STOP_SALT = "takedown.stop-emails"
# The page of the "do not email me again" link, beside the confirmation page.
STOP_PAGE = "stop-emails"
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
    "If you did not ask for this, ignore this email: nothing happens.\n\n"
    "Do not want these emails? Open this link and we will not email this address about "
    "takedown requests again:\n\n{stop_link}\n\nThe ScoutVote team"
)
CONFIRM_EFFECT = (
    "As soon as you confirm, the profile is hidden from visitors who are not signed in, from "
    "link previews and from share images, and marked as under review for members, while our "
    "moderators review your request."
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
RECEIPT_UNDER_REVIEW = (
    "The profile is hidden from visitors who are not signed in, from link previews and from "
    "share images, and marked as under review for members, while our moderators review it."
)
RECEIPT_WAITING = "Our moderators will review the profile and decide on your request."
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


def hours_words(hours: float) -> str:
    """A number of hours as a person writes it: "24", "1.5" (never "24.0")."""
    return f"{hours:g}"


def takedown_confirm_token(request: TakedownRequest) -> str:
    """The signed, expiring token of a request's confirmation link."""
    return TimestampSigner(salt=CONFIRM_SALT).sign(str(request.pk))


def _keyed(kind: str, value: str) -> str:
    secret = hashlib.sha256(b"scoutvote-takedown-key:" + settings.SECRET_KEY.encode()).digest()
    return hmac.new(secret, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()[:32]


def email_key(address: str) -> str:
    """A keyed hash of an email address (case folded): the subject of the per-recipient
    limit and of an address's "no more emails" choice."""
    return _keyed("email", address.strip().lower())


def email_domain(address: str) -> str:
    return address.strip().rsplit("@", 1)[-1].lower()


def takedown_stop_token(address: str) -> str:
    """The signed token of a confirmation email's "do not email me again" link: it names the
    address's keyed hash, never the address, and does not expire."""
    return Signer(salt=STOP_SALT).sign(email_key(address))


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


class _Refused(Exception):
    """A request refused about a known player: the wrapper records it for admins, then
    answers with ``error``."""

    def __init__(self, player_id: int, reason: str, error: ApplicationError) -> None:
        super().__init__(reason)
        self.player_id = player_id
        self.reason = reason
        self.error = error


def _player_limit(player: Player, address: str) -> None:
    """An address already seen for this player is refused (429) once
    BUDGET_TAKEDOWNS_PER_PLAYER_PER_DAY requests about it were confirmed in the last day.
    Only confirmed requests count, and an address never seen for the player is never
    refused here: whoever sends unconfirmed requests cannot keep a family out."""
    limit = budget_limit("TAKEDOWNS_PER_PLAYER", "DAY")
    if not limit:
        return
    seen = TakedownRequest.objects.filter(player_id=player.pk, contact_email__iexact=address)
    if not seen.exists():
        return
    since = timezone.now() - PLAYER_WINDOW
    confirmed = TakedownRequest.objects.filter(player_id=player.pk, confirmed_at__gte=since)
    if confirmed.count() >= limit:
        oldest = confirmed.order_by("confirmed_at").values_list("confirmed_at", flat=True)[0]
        assert oldest is not None  # filtered on confirmed_at
        wait = (oldest + PLAYER_WINDOW - timezone.now()).total_seconds()
        error = Throttled(TOO_MANY_FOR_PLAYER, retry_after=max(int(wait) + 1, 1))
        raise _Refused(player.pk, TakedownRefusalReason.PLAYER, error)


def _refusal_record(player_id: int, reason: str) -> None:
    """Count one refused request about a player for today, in its own transaction (the
    refused one rolls back); admins read the counts with the requests."""
    now = timezone.now()
    with transaction.atomic():
        updated = TakedownRefusal.objects.filter(
            player_id=player_id, reason=reason, day=now.date()
        ).update(count=F("count") + 1, last_at=now)
        if not updated:
            try:
                with transaction.atomic():
                    TakedownRefusal.objects.create(
                        player_id=player_id, reason=reason, day=now.date(), count=1, last_at=now
                    )
            except IntegrityError:  # a concurrent refusal created today's row first
                TakedownRefusal.objects.filter(
                    player_id=player_id, reason=reason, day=now.date()
                ).update(count=F("count") + 1, last_at=now)


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
    TAKEDOWN_CONFIRM_HOURS, and a link to the page beside it (STOP_PAGE) to receive no more
    of these emails;
    admins see the request live, unconfirmed. A player that nobody can see (none of its
    nominations live, not taken down) is not found, as a page that does not exist: the form
    tells nothing about it and mails nothing.

    Unconfirmed requests are held per client address (BUDGET_TAKEDOWNS_PER_HOUR), per
    recipient (BUDGET_TAKEDOWN_EMAILS_PER_DAY) and to one open request per player and
    address; a refused request about a player is counted for admins."""
    try:
        return _request_create(
            nomination_id=nomination_id,
            relationship=relationship,
            kind=kind,
            contact_email=contact_email,
            details=details,
            client_address=client_address,
            confirm_url=confirm_url,
        )
    except _Refused as refused:
        _refusal_record(refused.player_id, refused.reason)
        raise refused.error from None


@transaction.atomic
def _request_create(
    *,
    nomination_id: int,
    relationship: str,
    kind: str,
    contact_email: str,
    details: str,
    client_address: str,
    confirm_url: str,
) -> TakedownRequest:
    player_id = Nomination.objects.filter(pk=nomination_id).values_list("player_id", flat=True)
    # The integrity budget per client address, counted under a keyed hash of the address: 429
    # with Retry-After beyond it.
    try:
        budget_spend("TAKEDOWNS", address_key(client_address), "HOUR")
    except Throttled as throttled:
        known = Player.objects.filter(pk__in=player_id).values_list("pk", flat=True).first()
        if known is None:
            raise
        raise _Refused(known, TakedownRefusalReason.NETWORK, throttled) from None
    player = Player.objects.select_for_update().filter(pk__in=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    if (
        player.hidden_at is None
        and not player.nominations.filter(status__in=LIVE_STATUSES).exists()
    ):
        raise NotFound(PLAYER_NOT_FOUND)
    recipient = email_key(contact_email)
    if TakedownEmailStop.objects.filter(email_key=recipient).exists():
        raise _Refused(
            player.pk,
            TakedownRefusalReason.EMAILS_STOPPED,
            Conflict(EMAILS_STOPPED, code="emails_stopped"),
        )
    link_valid_since = timezone.now() - timedelta(seconds=_confirm_max_age())
    if TakedownRequest.objects.filter(
        player_id=player.pk,
        contact_email__iexact=contact_email,
        status=TakedownStatus.UNCONFIRMED,
        created_at__gt=link_valid_since,
    ).exists():
        raise _Refused(
            player.pk,
            TakedownRefusalReason.OPEN_REQUEST,
            Conflict(ALREADY_SENT, code="already_sent"),
        )
    _player_limit(player, contact_email)
    try:
        budget_spend("TAKEDOWN_EMAILS", recipient, "DAY")
    except Throttled as throttled:
        raise _Refused(player.pk, TakedownRefusalReason.RECIPIENT, throttled) from None
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
    stop_url = urljoin(confirm_url, STOP_PAGE)
    stop_link = f"{stop_url}?{urlencode({'token': takedown_stop_token(contact_email)})}"
    transactional_enqueue(
        key=f"takedown-confirm:{request.pk}",
        to=contact_email,
        subject=CONFIRM_SUBJECT.format(reference=request.reference),
        body=CONFIRM_MESSAGE.format(
            reference=request.reference,
            kind="remove" if kind == TakedownKind.REMOVE else "correct",
            hours=hours_words(settings.TAKEDOWN_CONFIRM_HOURS),
            link=link,
            effect=CONFIRM_EFFECT_KEPT if _player_kept_by_admins(player) else CONFIRM_EFFECT,
            stop_link=stop_link,
        ),
    )
    publish(Event("takedown.created", takedown_data(request), admins=True))
    return request


@transaction.atomic
def takedown_emails_stop(*, token: str) -> None:
    """The "do not email me again" link of a confirmation email: that address is sent no
    further confirmation emails (its requests are refused with a clear message). Opening it
    again answers the same."""
    try:
        key = Signer(salt=STOP_SALT).unsign(token)
    except BadSignature:
        raise ValidationFailed(STOP_LINK_INVALID, code="invalid_link") from None
    TakedownEmailStop.objects.get_or_create(email_key=key)


def _independent_confirmations(player: Player) -> int:
    """How many confirmed requests about the player, still waiting, are independent of each
    other: each from an email domain and a client network no other counted one shares (a
    request confirmed from an unknown network proves nothing and is not counted)."""
    domains: set[str] = set()
    networks: set[str] = set()
    waiting = TakedownRequest.objects.filter(
        player_id=player.pk, status=TakedownStatus.PENDING
    ).order_by("confirmed_at", "pk")
    for contact_email, network in waiting.values_list("contact_email", "confirmed_network_key"):
        domain = email_domain(contact_email)
        if not network or domain in domains or network in networks:
            continue
        domains.add(domain)
        networks.add(network)
    return len(domains)


@dataclass(frozen=True)
class Confirmed:
    reference: str
    status: str
    player_hidden: bool
    under_review: bool


def _confirmed(request: TakedownRequest, player: Player) -> Confirmed:
    return Confirmed(
        request.reference,
        request.status,
        player.hidden_at is not None,
        player.hidden_at is None and player.under_review_at is not None,
    )


def _rated_per_domain(address: str) -> bool:
    """Spend one of the day's confirmations of the address's email domain
    (BUDGET_TAKEDOWN_DOMAIN_CONFIRMATIONS_PER_DAY); False when the domain has none left."""
    try:
        domain = _keyed("domain", email_domain(address))
        budget_spend("TAKEDOWN_DOMAIN_CONFIRMATIONS", domain, "DAY")
    except Throttled:
        return False
    return True


@transaction.atomic
def takedown_request_confirm(*, token: str, client_address: str = "") -> Confirmed:
    """Confirm a request from the link of its email. A confirmation proves a mailbox, not a
    family: the player is hidden from the public at once (previews, share cards) and its
    page is marked under review for members; it is taken down fully by an admin, by a
    verified family's claim (``takedown_family_verified``), or once
    TAKEDOWN_INDEPENDENT_CONFIRMATIONS confirmed requests from different email domains and
    client networks wait. Nothing is hidden when admins already reviewed the player and kept
    it up, or when the email domain has used its day's confirmations: the request waits for
    them. ``client_address`` is where the link was opened (none: an unknown network, which
    proves no independence). Confirming again answers the same."""
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
        return _confirmed(request, player)
    request.status = TakedownStatus.PENDING
    request.confirmed_at = timezone.now()
    request.confirmed_network_key = prefix_key(client_address)
    request.save(update_fields=["status", "confirmed_at", "confirmed_network_key"])
    effect = RECEIPT_KEPT
    if player.hidden_at is not None:
        effect = RECEIPT_HIDDEN
    elif not _player_kept_by_admins(player):
        effect = RECEIPT_WAITING
        if _rated_per_domain(request.contact_email):
            effect = RECEIPT_UNDER_REVIEW
            if player.under_review_at is None:
                _player_review_start(player)
            if _independent_confirmations(player) >= settings.TAKEDOWN_INDEPENDENT_CONFIRMATIONS:
                _player_hide(player)
                effect = RECEIPT_HIDDEN
    transactional_enqueue(
        key=f"takedown-receipt:{request.pk}",
        to=request.contact_email,
        subject=RECEIPT_SUBJECT.format(reference=request.reference),
        body=RECEIPT_MESSAGE.format(reference=request.reference, player=player.name, effect=effect),
    )
    publish(Event("takedown.confirmed", takedown_data(request), admins=True))
    return _confirmed(request, player)


@transaction.atomic
def takedown_family_verified(*, player_id: int) -> bool:
    """Take a player down fully because its family's claim was verified (the claims work
    calls this once it has verified who the family is): the player and its nominations are
    hidden from everyone but admins at once, whatever its requests. True when this hid it,
    False when it was already taken down."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    if player.hidden_at is not None:
        return False
    _player_hide(player)
    return True


@transaction.atomic
def takedown_family_withdrawn(*, player_id: int) -> bool:
    """Show a player again because its verified family withdrew its own removal (the claims
    work calls this within the family's time to change its mind): back to everyone, or kept
    from the public while another confirmed request waits for admins. True when this showed
    it."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    if player.hidden_at is None:
        return False
    _player_unhide(player)
    if TakedownRequest.objects.filter(player_id=player.pk, status=TakedownStatus.PENDING).exists():
        _player_review_start(player)
    return True


@transaction.atomic
def takedown_request_decide(
    *, admin: User, request_id: int, decision: str, reason: str
) -> TakedownRequest:
    """Decide an open request (pending, or still unconfirmed): the profile is kept off the
    site (hidden from everyone but admins now if it was not), or is shown again to everyone
    (corrected or declined) unless another confirmed request about it is still pending. A
    requester who confirmed is emailed the decision with its reference; the decision goes to
    the moderation log."""
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
    elif (
        status != TakedownStatus.REMOVED
        and (player.hidden_at is not None or player.under_review_at is not None)
        and not others_pending
    ):
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
