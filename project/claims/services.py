"""Claims of a player's page by its family (or the athlete from 16), reviewed by admins, and
the controls a verified claimant holds."""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from ninja.responses import NinjaJSONEncoder

from project.accounts.models import User
from project.claims import selectors
from project.claims.models import Claim, ClaimRelationship, ClaimStatus
from project.claims.schemas import ClaimsChangedOut
from project.claims.selectors import (
    CLAIM_NOT_FOUND,
    admin_claims,
    claim_queryset,
    claims_pending_count,
)
from project.common.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from project.moderation.models import TakedownRequest, TakedownStatus
from project.moderation.services.takedowns import (
    takedown_family_verified,
    takedown_family_withdrawn,
)
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from project.privacy.models import PlayerControls
from project.privacy.players import ADULT_FROM, SELF_CLAIM_FROM, age_from
from project.scouting.models import ActivityType, Nomination, NotificationType, Player
from project.scouting.selectors import (
    PLAYER_NOT_FOUND,
    nomination_data,
    nomination_queryset,
    player_get_visible,
)
from project.scouting.services.activity import activity_create, new_activity, notification_create
from project.scouting.services.audience import nomination_event, nomination_publish
from project.sharing.redraws import card_redraw_request
from project.sharing.services import share_cards_drop_for_player
from realtime.publish import Event, publish

GUARDIAN_REQUIRED = "A parent or guardian claims the profile of an athlete under 16."
ADULT_CLAIMS_SELF = "An athlete aged 18 or over claims their own profile."
PLAYER_ALREADY_CLAIMED = "This player's profile is already claimed"
CLAIM_ALREADY_OPEN = "You have already claimed this player; an admin is reviewing it"
CLAIM_ALREADY_DECIDED = "This claim was already decided"
APPROVED_MESSAGE = "Your claim of {player}'s profile was approved: you manage it now."
REJECTED_MESSAGE = "Your claim of {player}'s profile was not approved."
NOMINATOR_MESSAGE = "{player}'s profile is now managed by {who}."
NOT_CLAIMANT = "Only the athlete or the family who manages this profile can change its controls"
ALREADY_REMOVED = "This profile is already removed"
NOT_REMOVED = "This profile is not removed"
RESTORE_TOO_LATE = "A removed profile can be brought back within 30 days only"
# Days a claimant may bring back a page they removed.
PROFILE_RESTORE_DAYS = 30
MANAGED_BY_WORDS = {
    ClaimRelationship.SELF: "the athlete",
    ClaimRelationship.PARENT_OR_GUARDIAN: "the athlete's family",
}


def _wire(value: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        json.dumps(value.model_dump(by_alias=True), cls=NinjaJSONEncoder)
    )
    return data


def _publish_changed(claim: Claim, action: str) -> None:
    """Tell every admin's Claims tab its new count and the claim that changed."""
    claim = claim_queryset().get(pk=claim.pk)
    payload = ClaimsChangedOut.model_validate(
        {"pending": claims_pending_count(), "item": admin_claims([claim])[0], "action": action}
    )
    publish(Event("claims.changed", _wire(payload), admins=True))


def _age_check(*, relationship: str, birth_year: int, player: Player) -> None:
    """Who may claim at which age: a parent or guardian under 16, the athlete from 16, the
    athlete alone from 18. The claim's birth year decides, else the player's known age."""
    age = age_from(birth_year=birth_year, graduation_year=player.graduation_year, age=player.age)
    if relationship == ClaimRelationship.SELF and (age is None or age < SELF_CLAIM_FROM):
        raise ValidationFailed(GUARDIAN_REQUIRED, code="guardian_required")
    adult = age is not None and age >= ADULT_FROM
    if relationship == ClaimRelationship.PARENT_OR_GUARDIAN and adult:
        raise ValidationFailed(ADULT_CLAIMS_SELF, code="adult_claims_self")


@transaction.atomic
def claim_create(
    *,
    claimant: User,
    player_id: int,
    relationship: str,
    birth_year: int,
    evidence: str,
    contact_phone: str = "",
) -> Claim:
    """A member's claim of a player they can see, pending until an admin decides it. One
    open claim per member and player (409 ``claim_already_open``); a claimed player answers
    409 ``player_already_claimed``."""
    player = player_get_visible(user=claimant, player_id=player_id)
    # Controls no one holds (the claimant's account deleted, a guardian's ended at 18) are
    # claimed again like an unclaimed page; an admin decides who takes them.
    if player.claimed_by_id is not None:
        raise Conflict(PLAYER_ALREADY_CLAIMED, code="player_already_claimed")
    _age_check(relationship=relationship, birth_year=birth_year, player=player)
    open_claims = Claim.objects.filter(player=player, claimant=claimant, status=ClaimStatus.PENDING)
    if open_claims.exists():
        raise Conflict(CLAIM_ALREADY_OPEN, code="claim_already_open")
    try:
        with transaction.atomic():
            claim = Claim.objects.create(
                player=player,
                claimant=claimant,
                relationship=relationship,
                birth_year=birth_year,
                evidence=evidence,
                contact_phone=contact_phone,
            )
    except IntegrityError:  # the same member's concurrent claim of the same player
        raise Conflict(CLAIM_ALREADY_OPEN, code="claim_already_open") from None
    _publish_changed(claim, "created")
    return claim


def _lock_pending(claim_id: int) -> Claim:
    claim = Claim.objects.select_for_update().filter(pk=claim_id).first()
    if claim is None:
        raise NotFound(CLAIM_NOT_FOUND)
    if claim.status != ClaimStatus.PENDING:
        raise Conflict(CLAIM_ALREADY_DECIDED, code="already_decided")
    return claim


def _decided(claim: Claim, *, admin: User, status: str, reason: str) -> None:
    claim.status = status
    claim.decided_by = admin
    claim.decided_at = timezone.now()
    claim.decision_reason = reason
    claim.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])


def _family_asked_takedown(*, player: Player, claimant: User) -> bool:
    """Whether the verified claimant confirmed a takedown request about this player from
    their own account's address, still waiting for a decision."""
    return TakedownRequest.objects.filter(
        player=player,
        status=TakedownStatus.PENDING,
        contact_email__iexact=claimant.email,
    ).exists()


def _publish_player(player_id: int) -> None:
    """Every open page of the player's nominations gets its new read (the managed badge)."""
    for nomination in nomination_queryset().filter(player_id=player_id):
        nomination_publish(
            nomination_event("nomination.updated", nomination, nomination_data(nomination))
        )


def _notify_nominators(*, player: Player, who: str, skip: int) -> None:
    nominations = Nomination.objects.filter(player=player).select_related("nominated_by")
    told: set[int] = {skip}
    for nomination in nominations.order_by("created_at", "pk"):
        if nomination.nominated_by_id in told:
            continue
        told.add(nomination.nominated_by_id)
        notification_create(
            user=nomination.nominated_by,
            type=NotificationType.PLAYER_UPDATE,
            message=NOMINATOR_MESSAGE.format(player=player.name, who=who),
            related_nomination=nomination,
        )


@transaction.atomic
def claim_approve(*, admin: User, claim_id: int, reason: str = "") -> Claim:
    """Hand the player's page to the claimant: ``claimed_by`` and its controls (the private
    defaults), the player_claimed activity in the feed, the claimant and the nominators
    told, the moderation log, every open page of the player updated live. A claimant who
    also confirmed a takedown request for the player has it carried out at once (a verified
    family's request)."""
    claim = _lock_pending(claim_id)
    player = Player.objects.select_for_update().get(pk=claim.player_id)
    if player.claimed_by_id is not None:
        raise Conflict(PLAYER_ALREADY_CLAIMED, code="player_already_claimed")
    claimant = claim.claimant
    _decided(claim, admin=admin, status=ClaimStatus.APPROVED, reason=reason)
    # An earlier claim whose controls no one holds any more ends; its settings stay.
    Claim.objects.filter(player=player, status=ClaimStatus.APPROVED).exclude(pk=claim.pk).update(
        status=ClaimStatus.ENDED
    )
    player.claimed_by = claimant
    player.save(update_fields=["claimed_by"])
    PlayerControls.objects.update_or_create(
        player=player,
        defaults={
            "relationship": claim.relationship,
            "birth_year": claim.birth_year,
            "athlete": None,
            "guardian_ended_at": None,
        },
    )
    # The cards were drawn under the unclaimed rules; the controls decide from now on.
    share_cards_drop_for_player(player.pk)
    modlog_record(
        actor=admin,
        action=ModlogAction.CLAIM_APPROVE,
        target_type=ModlogTarget.PLAYER,
        target_id=player.pk,
        target_label=player.name,
        reason=reason,
        changes={"claimedBy": [None, claimant.pk], "relationship": [None, claim.relationship]},
    )
    live = nomination_queryset().filter(player=player).order_by("created_at", "pk").first()
    if _family_asked_takedown(player=player, claimant=claimant):
        takedown_family_verified(player_id=player.pk)
        player.refresh_from_db(fields=["hidden_at"])
    shown = player.hidden_at is None
    if shown:
        activity_create(
            new_activity(
                user=claimant,
                activity_type=ActivityType.PLAYER_CLAIMED,
                sport=player.sport,
                related_player=player,
                related_nomination=live,
                metadata={"playerName": player.name},
            )
        )
    notification_create(
        user=claimant,
        type=NotificationType.PLAYER_UPDATE,
        message=APPROVED_MESSAGE.format(player=player.name),
        related_nomination=live,
    )
    who = MANAGED_BY_WORDS[ClaimRelationship(claim.relationship)]
    _notify_nominators(player=player, who=who, skip=claimant.pk)
    if shown:
        _publish_player(player.pk)
    _publish_changed(claim, "approved")
    return claim_queryset().get(pk=claim.pk)


@transaction.atomic
def claim_reject(*, admin: User, claim_id: int, reason: str = "") -> Claim:
    """Refuse a claim with an optional reason, told to the claimant; in the moderation log."""
    claim = _lock_pending(claim_id)
    _decided(claim, admin=admin, status=ClaimStatus.REJECTED, reason=reason)
    player = claim.player
    modlog_record(
        actor=admin,
        action=ModlogAction.CLAIM_REJECT,
        target_type=ModlogTarget.PLAYER,
        target_id=player.pk,
        target_label=player.name,
        reason=reason,
        changes={"claim": [claim.pk, ClaimStatus.REJECTED.value]},
    )
    message = REJECTED_MESSAGE.format(player=player.name)
    if reason:
        message += f" Reason: {reason}"
    notification_create(user=claim.claimant, type=NotificationType.PLAYER_UPDATE, message=message)
    _publish_changed(claim, "rejected")
    return claim_queryset().get(pk=claim.pk)


# --- The claimant's controls ----------------------------------------------------------------


def _controls_locked(*, user: User, player_id: int) -> tuple[Player, PlayerControls]:
    """The player and its controls, locked, for its claimant: 404 for a player the caller
    cannot see, 403 for anyone else (admins included: they have their own tools)."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    if player.claimed_by_id != user.pk:
        player_get_visible(user=user, player_id=player_id)
        raise PermissionDenied(NOT_CLAIMANT, code="not_claimant")
    controls = PlayerControls.objects.select_for_update().get(player=player)
    return player, controls


def controls_get(*, user: User, player_id: int) -> PlayerControls:
    """The controls, for the claimant (403 for others)."""
    with transaction.atomic():
        return _controls_locked(user=user, player_id=player_id)[1]


def player_export(*, user: User, player_id: int) -> dict[str, Any]:
    """Everything held about the player, for its claimant (403 for others)."""
    with transaction.atomic():
        player, _ = _controls_locked(user=user, player_id=player_id)
        return selectors.player_export(player=player, claimant_id=user.pk)


CONTROL_FIELDS = (
    "hide_club",
    "hide_nationality",
    "share_card",
    "voting_open",
    "comments_open",
    "indexable",
)


@transaction.atomic
def controls_update(*, user: User, player_id: int, changes: dict[str, bool]) -> PlayerControls:
    """The claimant changes what members and the public see, and whether voting is open;
    in effect at once: the cards are drawn again under the new rules and every open page
    of the player gets its new read."""
    player, controls = _controls_locked(user=user, player_id=player_id)
    changed = [field for field in CONTROL_FIELDS if field in changes]
    for field in changed:
        setattr(controls, field, bool(changes[field]))
    controls.save(update_fields=changed or None)
    share_cards_drop_for_player(player.pk)
    for nomination_id in Nomination.objects.filter(player=player).values_list("pk", flat=True):
        card_redraw_request(nomination_id)
    if player.hidden_at is None:
        _publish_player(player.pk)
    return controls


@transaction.atomic
def profile_remove(*, user: User, player_id: int) -> PlayerControls:
    """The claimant removes the page at once: hidden from everyone but admins like a
    confirmed takedown (``takedown_family_verified``); admins see it in the Claims tab. The
    claimant may bring it back within ``PROFILE_RESTORE_DAYS``."""
    player, controls = _controls_locked(user=user, player_id=player_id)
    if controls.removed_at is not None:
        raise Conflict(ALREADY_REMOVED, code="already_removed")
    controls.removed_at = timezone.now()
    controls.save(update_fields=["removed_at"])
    takedown_family_verified(player_id=player.pk)
    approved = claim_queryset().filter(player=player, status=ClaimStatus.APPROVED).first()
    if approved is not None:
        _publish_changed(approved, "removed")
    return controls


@transaction.atomic
def profile_restore(*, user: User, player_id: int) -> PlayerControls:
    """The claimant brings a page they removed back, within ``PROFILE_RESTORE_DAYS``."""
    player, controls = _controls_locked(user=user, player_id=player_id)
    if controls.removed_at is None:
        raise Conflict(NOT_REMOVED, code="not_removed")
    if timezone.now() - controls.removed_at > timedelta(days=PROFILE_RESTORE_DAYS):
        raise ValidationFailed(RESTORE_TOO_LATE, code="restore_too_late")
    controls.removed_at = None
    controls.save(update_fields=["removed_at"])
    takedown_family_withdrawn(player_id=player.pk)
    approved = claim_queryset().filter(player=player, status=ClaimStatus.APPROVED).first()
    if approved is not None:
        _publish_changed(approved, "restored")
    return controls


# --- Handing the controls on: to the athlete (from 16), or by an admin ------------------------

ATHLETE_TOO_YOUNG = "The athlete may hold their own controls from 16."
ATHLETE_HOLDS = "The athlete already holds the controls of this profile"
NOT_THE_ATHLETE = "That account's year of birth is not the athlete's"
MEMBER_NOT_FOUND = "No member with that username"
NOT_INVITED = "You were not invited to hold this profile's controls"
NOT_HELD = "This claim no longer holds the profile's controls"
ALREADY_HOLDS = "That member already manages this profile"
ATHLETE_INVITED_MESSAGE = (
    "{guardian} invites you to hold the controls of your profile ({player}). Accept them "
    "under Profiles you manage in your settings."
)
HANDED_TO_ATHLETE_MESSAGE = "{athlete} now holds the controls of {player}'s profile."
YOU_HOLD_MESSAGE = "You now hold the controls of {player}'s profile."
TRANSFERRED_AWAY_MESSAGE = (
    "The moderators passed the controls of {player}'s profile to another member."
)
REVOKED_MESSAGE = "The moderators ended your management of {player}'s profile."
HANDED_BY_FAMILY = "Handed over by the athlete's family"
HANDED_BY_ADMIN = "Transferred by the moderators"


def controls_age(controls: PlayerControls, *, today: date | None = None) -> int:
    """The athlete's age from the verified claim's birth year (the youngest it allows)."""
    age = age_from(birth_year=controls.birth_year, graduation_year=None, age=None, today=today)
    assert age is not None
    return age


def live_nomination(player: Player) -> Nomination | None:
    """The player's first nomination members can open, None while the player is hidden."""
    if player.hidden_at is not None:
        return None
    return nomination_queryset().filter(player=player).order_by("created_at", "pk").first()


def hand_over(
    *,
    player: Player,
    controls: PlayerControls,
    to: User,
    relationship: str,
    evidence: str,
    decided_by: User | None = None,
) -> Claim:
    """The controls pass to ``to`` with their settings as they are (player and controls
    locked by the caller): the approved claim that held them ends, an approved claim of
    ``to`` records the change, every open page of the player gets its new badge."""
    Claim.objects.filter(player=player, status=ClaimStatus.APPROVED).update(
        status=ClaimStatus.ENDED
    )
    claim = Claim.objects.create(
        player=player,
        claimant=to,
        relationship=relationship,
        birth_year=controls.birth_year,
        evidence=evidence,
        status=ClaimStatus.APPROVED,
        decided_by=decided_by,
        decided_at=timezone.now(),
    )
    player.claimed_by = to
    player.save(update_fields=["claimed_by"])
    controls.relationship = relationship
    controls.athlete = None
    controls.guardian_ended_at = None
    controls.save(update_fields=["relationship", "athlete", "guardian_ended_at"])
    if player.hidden_at is None:
        _publish_player(player.pk)
    return claim


@transaction.atomic
def athlete_invite(*, user: User, player_id: int, username: str) -> PlayerControls:
    """The guardian names the athlete's own account (the athlete 16 or over): it may then
    accept the controls (``athlete_accept``), and takes them at 18 at the latest. The
    account's year of birth must be the one the verified claim gave."""
    player, controls = _controls_locked(user=user, player_id=player_id)
    if controls.relationship == ClaimRelationship.SELF:
        raise Conflict(ATHLETE_HOLDS, code="athlete_holds")
    if controls_age(controls) < SELF_CLAIM_FROM:
        raise ValidationFailed(ATHLETE_TOO_YOUNG, code="athlete_too_young")
    athlete = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if athlete is None or athlete.pk == user.pk:
        raise NotFound(MEMBER_NOT_FOUND)
    if athlete.birth_year != controls.birth_year:
        raise ValidationFailed(NOT_THE_ATHLETE, code="not_the_athlete")
    controls.athlete = athlete
    controls.save(update_fields=["athlete"])
    notification_create(
        user=athlete,
        type=NotificationType.PLAYER_UPDATE,
        message=ATHLETE_INVITED_MESSAGE.format(guardian=user.name, player=player.name),
        related_nomination=live_nomination(player),
    )
    return controls


@transaction.atomic
def athlete_accept(*, user: User, player_id: int) -> PlayerControls:
    """The athlete the guardian named takes the controls; the guardian is told."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    controls = (
        PlayerControls.objects.select_for_update().filter(player_id=player_id).first()
        if player is not None
        else None
    )
    if player is None or controls is None or controls.athlete_id != user.pk:
        raise PermissionDenied(NOT_INVITED, code="not_invited")
    guardian = player.claimed_by
    hand_over(
        player=player,
        controls=controls,
        to=user,
        relationship=ClaimRelationship.SELF,
        evidence=HANDED_BY_FAMILY,
    )
    if guardian is not None:
        notification_create(
            user=guardian,
            type=NotificationType.PLAYER_UPDATE,
            message=HANDED_TO_ATHLETE_MESSAGE.format(athlete=user.name, player=player.name),
        )
    return controls


def _lock_held(claim_id: int) -> tuple[Claim, Player, PlayerControls]:
    """An approved claim that holds its player's controls, with both locked."""
    claim = Claim.objects.select_for_update().filter(pk=claim_id).first()
    if claim is None:
        raise NotFound(CLAIM_NOT_FOUND)
    player = Player.objects.select_for_update().get(pk=claim.player_id)
    if claim.status != ClaimStatus.APPROVED or player.claimed_by_id != claim.claimant_id:
        raise Conflict(NOT_HELD, code="claim_not_held")
    controls = PlayerControls.objects.select_for_update().get(player=player)
    return claim, player, controls


@transaction.atomic
def claim_transfer(
    *, admin: User, claim_id: int, username: str, relationship: str, reason: str = ""
) -> Claim:
    """An admin passes a claimed player's controls to another member (the other parent, the
    athlete), with the settings as they are, under the age bands of the verified birth year;
    both members told, in the moderation log. Returns the new claim."""
    claim, player, controls = _lock_held(claim_id)
    to = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if to is None:
        raise NotFound(MEMBER_NOT_FOUND)
    if to.pk == claim.claimant_id:
        raise Conflict(ALREADY_HOLDS, code="already_holds")
    age = controls_age(controls)
    if relationship == ClaimRelationship.SELF and age < SELF_CLAIM_FROM:
        raise ValidationFailed(GUARDIAN_REQUIRED, code="guardian_required")
    if relationship == ClaimRelationship.PARENT_OR_GUARDIAN and age >= ADULT_FROM:
        raise ValidationFailed(ADULT_CLAIMS_SELF, code="adult_claims_self")
    old = claim.claimant
    new = hand_over(
        player=player,
        controls=controls,
        to=to,
        relationship=relationship,
        evidence=HANDED_BY_ADMIN,
        decided_by=admin,
    )
    Claim.objects.filter(pk=new.pk).update(decision_reason=reason)
    modlog_record(
        actor=admin,
        action=ModlogAction.CLAIM_TRANSFER,
        target_type=ModlogTarget.PLAYER,
        target_id=player.pk,
        target_label=player.name,
        reason=reason,
        changes={
            "claimedBy": [old.pk, to.pk],
            "relationship": [claim.relationship, relationship],
        },
    )
    notification_create(
        user=old,
        type=NotificationType.PLAYER_UPDATE,
        message=TRANSFERRED_AWAY_MESSAGE.format(player=player.name),
    )
    notification_create(
        user=to,
        type=NotificationType.PLAYER_UPDATE,
        message=YOU_HOLD_MESSAGE.format(player=player.name),
        related_nomination=live_nomination(player),
    )
    _publish_changed(claim, "transferred")
    return claim_queryset().get(pk=new.pk)


@transaction.atomic
def claim_revoke(*, admin: User, claim_id: int, reason: str = "") -> Claim:
    """An admin ends a claim: its member no longer holds the controls, whose settings stay
    until someone's new claim is approved (the page accepts claims again); the member told,
    in the moderation log."""
    claim, player, controls = _lock_held(claim_id)
    end_controls(player=player, controls=controls)
    modlog_record(
        actor=admin,
        action=ModlogAction.CLAIM_REVOKE,
        target_type=ModlogTarget.PLAYER,
        target_id=player.pk,
        target_label=player.name,
        reason=reason,
        changes={"claimedBy": [claim.claimant_id, None]},
    )
    message = REVOKED_MESSAGE.format(player=player.name)
    if reason:
        message += f" Reason: {reason}"
    notification_create(user=claim.claimant, type=NotificationType.PLAYER_UPDATE, message=message)
    _publish_changed(claim, "revoked")
    return claim_queryset().get(pk=claim.pk)


def end_controls(*, player: Player, controls: PlayerControls) -> None:
    """No one holds the player's controls any more (player and controls locked by the
    caller): its approved claim ends, the settings stay as they are, and the page accepts
    claims again."""
    Claim.objects.filter(player=player, status=ClaimStatus.APPROVED).update(
        status=ClaimStatus.ENDED
    )
    player.claimed_by = None
    player.save(update_fields=["claimed_by"])
    controls.athlete = None
    controls.save(update_fields=["athlete"])
