"""Verified coaches and their endorsements of players.

A member asks to be verified with their club or school, their role and evidence (a public
roster or staff page, a work email whose control a signed link confirms); admins decide in the
live Coaches tab. A verified coach has the role ``coach`` (an admin keeps theirs) and writes
one endorsement per player; withdrawing the badge takes their endorsements off every page."""

from __future__ import annotations

from django.core.signing import BadSignature, SignatureExpired, TimestampSigner
from django.db import IntegrityError, transaction
from django.utils import timezone

from project.accounts.models import Role, User
from project.coaches import selectors
from project.coaches.models import CoachVerification, CoachVerificationStatus
from project.coaches.schemas import CoachesChangedOut, EndorsementsChangedOut
from project.coaches.selectors import VERIFICATION_NOT_FOUND
from project.common.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from project.common.schemas import wire
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from project.notify.emails import public_url
from project.notify.services import transactional_enqueue
from project.scouting.models import (
    ActivityType,
    Endorsement,
    Follow,
    Nomination,
    NotificationType,
    Player,
)
from project.scouting.selectors import PLAYER_NOT_FOUND, nomination_queryset, player_get_visible
from project.scouting.services.activity import activity_create, new_activity, notification_create
from project.scouting.services.audience import nomination_publish, nomination_related_event
from realtime.publish import Event, publish

ALREADY_VERIFIED = "You are already a verified coach"
VERIFICATION_OPEN = "You have already asked to be verified; an admin is reviewing it"
ALREADY_DECIDED = "This request was already decided"
NOT_APPROVED = "Only an approved coach's badge can be withdrawn"
LINK_INVALID = "This link is not valid. Ask to be verified again to get a new one."
LINK_EXPIRED = "This link has expired. Ask to be verified again to get a new one."
NOT_VERIFIED_COACH = "Only verified coaches can endorse players"
NOT_YOUR_ENDORSEMENT = "You can only change your own endorsement"
NOT_CLAIMANT = "Only the athlete or the family who manages this profile can hide an endorsement"
ENDORSEMENT_NOT_FOUND = "Endorsement not found"
APPROVED_MESSAGE = "You are now a verified coach on ScoutVote."
REJECTED_MESSAGE = "Your request to be a verified coach was not approved."
WITHDRAWN_MESSAGE = "Your verified coach badge was withdrawn."
ENDORSED_CLAIMANT = "{coach}, a verified coach, endorsed {player}."
ENDORSED_FOLLOWER = "{coach}, a verified coach, endorsed {player}, whom you follow."
CONFIRM_SALT = "coaches.work-email"
CONFIRM_DAYS = 7
CONFIRM_SUBJECT = "Confirm your work email for ScoutVote"
CONFIRM_BODY = (
    "{name} asked to be verified as {role} at {organization} on ScoutVote and gave this "
    "address as their work email.\n\nConfirm it by opening this link within {days} days:\n"
    "{link}\n\nIf this was not you, ignore this email: nothing happens without the link."
)
# Followers told of a new endorsement, at most (the feed tells the rest).
FOLLOWERS_TOLD_MAX = 500


# --- Verifications ----------------------------------------------------------------------------


def _publish_changed(verification: CoachVerification, action: str) -> None:
    """Tell every admin's Coaches tab its new count and the request that changed."""
    row = selectors.verification_queryset().get(pk=verification.pk)
    payload = CoachesChangedOut.model_validate(
        {
            "pending": selectors.verifications_pending_count(),
            "item": selectors.admin_verifications([row])[0],
            "action": action,
        }
    )
    publish(Event("coaches.changed", wire(payload), admins=True))


def confirm_token(verification: CoachVerification) -> str:
    """The signed, expiring token of a work email's confirmation link."""
    return TimestampSigner(salt=CONFIRM_SALT).sign(str(verification.pk))


@transaction.atomic
def verification_create(
    *, user: User, organization: str, role_title: str, evidence_url: str, work_email: str
) -> CoachVerification:
    """A member asks to be verified as a coach: pending until an admin decides. A work email
    gets a signed link (a background email) that confirms the member controls it. 409
    ``already_verified``, 409 ``verification_open``."""
    if selectors.is_verified_coach(user):
        raise Conflict(ALREADY_VERIFIED, code="already_verified")
    pending = CoachVerification.objects.filter(
        user_id=user.pk, status=CoachVerificationStatus.PENDING
    )
    if pending.exists():
        raise Conflict(VERIFICATION_OPEN, code="verification_open")
    try:
        with transaction.atomic():
            verification = CoachVerification.objects.create(
                user=user,
                organization=organization,
                role_title=role_title,
                evidence_url=evidence_url,
                work_email=work_email,
            )
    except IntegrityError:  # the same member's concurrent request
        raise Conflict(VERIFICATION_OPEN, code="verification_open") from None
    if work_email:
        link = public_url(f"/coach/confirm-email?token={confirm_token(verification)}")
        transactional_enqueue(
            key=f"coach-email:{verification.pk}",
            to=work_email,
            subject=CONFIRM_SUBJECT,
            body=CONFIRM_BODY.format(
                name=user.name,
                role=role_title,
                organization=organization,
                days=CONFIRM_DAYS,
                link=link,
            ),
        )
    _publish_changed(verification, "created")
    return verification


@transaction.atomic
def work_email_confirm(*, token: str) -> CoachVerification:
    """The work email's signed link opened: the request shows admins the address is
    confirmed. 400 ``link_invalid`` or ``link_expired``."""
    try:
        pk = TimestampSigner(salt=CONFIRM_SALT).unsign(token, max_age=CONFIRM_DAYS * 86400)
    except SignatureExpired:
        raise ValidationFailed(LINK_EXPIRED, code="link_expired") from None
    except BadSignature:
        raise ValidationFailed(LINK_INVALID, code="link_invalid") from None
    verification = CoachVerification.objects.select_for_update().filter(pk=int(pk)).first()
    if verification is None or not verification.work_email:
        raise ValidationFailed(LINK_INVALID, code="link_invalid")
    if verification.email_confirmed_at is None:
        verification.email_confirmed_at = timezone.now()
        verification.save(update_fields=["email_confirmed_at"])
        _publish_changed(verification, "email_confirmed")
    return verification


def _locked(verification_id: int, status: str) -> CoachVerification:
    verification = CoachVerification.objects.select_for_update().filter(pk=verification_id).first()
    if verification is None:
        raise NotFound(VERIFICATION_NOT_FOUND)
    if verification.status != status:
        message = ALREADY_DECIDED if status == CoachVerificationStatus.PENDING else NOT_APPROVED
        raise Conflict(message, code="already_decided")
    return verification


def _decided(verification: CoachVerification, *, admin: User, status: str, reason: str) -> None:
    verification.status = status
    verification.decided_by = admin
    verification.decided_at = timezone.now()
    verification.decision_reason = reason
    verification.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])


def _role_set(user: User, role: str) -> tuple[str, str]:
    """The member's role for a coach decision (an admin keeps theirs); (before, after)."""
    before = user.role
    if before != Role.ADMIN and before != role:
        user.role = role
        user.save(update_fields=["role"])
    return before, user.role


def _publish_coach_pages(user_id: int) -> None:
    """Every page the coach endorsed shows their endorsements again or no longer."""
    for player_id in Endorsement.objects.filter(endorser_id=user_id).values_list(
        "player_id", flat=True
    ):
        endorsement_publish(player_id)


@transaction.atomic
def verification_approve(*, admin: User, verification_id: int, reason: str = "") -> None:
    """The member becomes a verified coach: role ``coach``, the badge by their name, the
    member told, the moderation log, the Coaches tab of every admin."""
    verification = _locked(verification_id, CoachVerificationStatus.PENDING)
    user = User.objects.select_for_update().get(pk=verification.user_id)
    _decided(verification, admin=admin, status=CoachVerificationStatus.APPROVED, reason=reason)
    before, after = _role_set(user, Role.COACH)
    modlog_record(
        actor=admin,
        action=ModlogAction.COACH_APPROVE,
        target_type=ModlogTarget.USER,
        target_id=user.pk,
        target_label=f"{user.name} (@{user.username})",
        reason=reason,
        changes={"role": [before, after], "coach": [None, verification.organization]},
    )
    notification_create(user=user, type=NotificationType.PLAYER_UPDATE, message=APPROVED_MESSAGE)
    _publish_coach_pages(user.pk)
    _publish_changed(verification, "approved")


@transaction.atomic
def verification_reject(*, admin: User, verification_id: int, reason: str = "") -> None:
    """Refuse a request with an optional reason, told to the member; in the moderation log."""
    verification = _locked(verification_id, CoachVerificationStatus.PENDING)
    user = verification.user
    _decided(verification, admin=admin, status=CoachVerificationStatus.REJECTED, reason=reason)
    modlog_record(
        actor=admin,
        action=ModlogAction.COACH_REJECT,
        target_type=ModlogTarget.USER,
        target_id=user.pk,
        target_label=f"{user.name} (@{user.username})",
        reason=reason,
        changes={"coachVerification": [verification.pk, CoachVerificationStatus.REJECTED.value]},
    )
    message = REJECTED_MESSAGE + (f" Reason: {reason}" if reason else "")
    notification_create(user=user, type=NotificationType.PLAYER_UPDATE, message=message)
    _publish_changed(verification, "rejected")


@transaction.atomic
def verification_withdraw(*, admin: User, verification_id: int, reason: str) -> None:
    """Withdraw an approved coach's badge: back to the role ``scout``, their endorsements off
    every page (kept, for admins and the reports), the member told, the moderation log."""
    verification = _locked(verification_id, CoachVerificationStatus.APPROVED)
    user = User.objects.select_for_update().get(pk=verification.user_id)
    _decided(verification, admin=admin, status=CoachVerificationStatus.WITHDRAWN, reason=reason)
    before, after = _role_set(user, Role.SCOUT if user.role == Role.COACH else user.role)
    modlog_record(
        actor=admin,
        action=ModlogAction.COACH_WITHDRAW,
        target_type=ModlogTarget.USER,
        target_id=user.pk,
        target_label=f"{user.name} (@{user.username})",
        reason=reason,
        changes={"role": [before, after], "coach": [verification.organization, None]},
    )
    message = WITHDRAWN_MESSAGE + (f" Reason: {reason}" if reason else "")
    notification_create(user=user, type=NotificationType.PLAYER_UPDATE, message=message)
    _publish_coach_pages(user.pk)
    _publish_changed(verification, "withdrawn")


# --- Endorsements -----------------------------------------------------------------------------


def _live_nomination(player_id: int) -> Nomination | None:
    return nomination_queryset().filter(player_id=player_id).order_by("created_at", "pk").first()


def endorsement_publish(player_id: int) -> None:
    """Tell the player's open pages (whoever sees its nomination, by the audience rule, and
    its claimant) that its endorsements changed: the count only, each reader reads them
    again as they may see them."""
    nomination = _live_nomination(player_id)
    if nomination is None:
        return
    player = nomination.player
    data = wire(
        EndorsementsChangedOut(player_id=player_id, count=selectors.endorsements_count(player_id))
    )
    claimant = (player.claimed_by_id,) if player.claimed_by_id is not None else ()
    nomination_publish(
        nomination_related_event("endorsements.changed", nomination, data, user_ids=claimant)
    )


def _coach_check(user: User) -> None:
    if not selectors.is_verified_coach(user):
        raise PermissionDenied(NOT_VERIFIED_COACH, code="not_verified_coach")


def _told_of_endorsement(*, player: Player, coach: User, nomination: Nomination | None) -> None:
    """``endorsement_received`` to the claimant; the player's followers hear of it too (the
    bell, and email and push under their toggles, through notify)."""
    told = {coach.pk}
    claimant = player.claimed_by
    if claimant is not None and claimant.pk not in told:
        told.add(claimant.pk)
        notification_create(
            user=claimant,
            type=NotificationType.ENDORSEMENT_RECEIVED,
            message=ENDORSED_CLAIMANT.format(coach=coach.name, player=player.name),
            related_nomination=nomination,
        )
    followers = (
        Follow.objects.filter(followed_player_id=player.pk, follower__is_active=True)
        .exclude(follower_id__in=told)
        .select_related("follower")
        .order_by("pk")[:FOLLOWERS_TOLD_MAX]
    )
    for follow in followers:
        notification_create(
            user=follow.follower,
            type=NotificationType.ENDORSEMENT_RECEIVED,
            message=ENDORSED_FOLLOWER.format(coach=coach.name, player=player.name),
            related_nomination=nomination,
        )


@transaction.atomic
def endorsement_write(
    *, coach: User, player_id: int, content: str, rating: int
) -> tuple[Endorsement, bool]:
    """A verified coach endorses a player they can see; a second endorsement of the same
    player is an edit of the first. The first one tells the claimant and the followers and
    puts ``endorsement_given`` in the feed. Returns (endorsement, created). 403
    ``not_verified_coach`` for anyone else."""
    _coach_check(coach)
    player = player_get_visible(user=coach, player_id=player_id)
    endorsement = (
        Endorsement.objects.select_for_update()
        .filter(player_id=player.pk, endorser_id=coach.pk)
        .first()
    )
    created = endorsement is None
    if endorsement is None:
        try:
            with transaction.atomic():
                endorsement = Endorsement.objects.create(
                    player=player, endorser=coach, content=content, rating=rating
                )
        except IntegrityError:  # the same coach's concurrent first endorsement
            endorsement = Endorsement.objects.select_for_update().get(
                player_id=player.pk, endorser_id=coach.pk
            )
            created = False
    if not created:
        endorsement.content = content
        endorsement.rating = rating
        endorsement.save(update_fields=["content", "rating", "updated_at"])
    if created and player.hidden_at is None:
        nomination = _live_nomination(player.pk)
        activity_create(
            new_activity(
                user=coach,
                activity_type=ActivityType.ENDORSEMENT_GIVEN,
                sport=player.sport,
                related_player=player,
                related_nomination=nomination,
                metadata={"playerName": player.name, "title": f"Endorsed {player.name}"},
            )
        )
        _told_of_endorsement(player=player, coach=coach, nomination=nomination)
    endorsement_publish(player.pk)
    return endorsement, created


def _own_locked(*, user: User, player_id: int, endorsement_id: int) -> Endorsement:
    endorsement = (
        Endorsement.objects.select_for_update()
        .filter(pk=endorsement_id, player_id=player_id, removed_at__isnull=True)
        .first()
    )
    if endorsement is None:
        raise NotFound(ENDORSEMENT_NOT_FOUND)
    player_get_visible(user=user, player_id=player_id)
    if endorsement.endorser_id != user.pk:
        raise PermissionDenied(NOT_YOUR_ENDORSEMENT, code="not_your_endorsement")
    return endorsement


@transaction.atomic
def endorsement_update(
    *, coach: User, player_id: int, endorsement_id: int, content: str, rating: int
) -> Endorsement:
    """The coach changes their endorsement (still a verified coach)."""
    _coach_check(coach)
    endorsement = _own_locked(user=coach, player_id=player_id, endorsement_id=endorsement_id)
    endorsement.content = content
    endorsement.rating = rating
    endorsement.save(update_fields=["content", "rating", "updated_at"])
    endorsement_publish(player_id)
    return endorsement


@transaction.atomic
def endorsement_delete(*, user: User, player_id: int, endorsement_id: int) -> None:
    """The coach deletes their endorsement (also once their badge is withdrawn)."""
    endorsement = _own_locked(user=user, player_id=player_id, endorsement_id=endorsement_id)
    endorsement.delete()
    endorsement_publish(player_id)


@transaction.atomic
def endorsement_hide(
    *, user: User, player_id: int, endorsement_id: int, hidden: bool
) -> Endorsement:
    """The player's claimant hides an endorsement from the page, or shows it again. 403
    ``not_claimant`` for anyone else (admins included: they act on reports)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    player_get_visible(user=user, player_id=player_id)
    if player.claimed_by_id != user.pk:
        raise PermissionDenied(NOT_CLAIMANT, code="not_claimant")
    endorsement = (
        Endorsement.objects.select_for_update()
        .filter(pk=endorsement_id, player_id=player_id, removed_at__isnull=True)
        .first()
    )
    if endorsement is None:
        raise NotFound(ENDORSEMENT_NOT_FOUND)
    endorsement.hidden_at = timezone.now() if hidden else None
    endorsement.save(update_fields=["hidden_at"])
    endorsement_publish(player_id)
    return endorsement
