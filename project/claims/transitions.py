"""The daily age-transition job (``age_transitions``): a guardian's controls give way to the
athlete as the athlete grows up.

- **16**: the guardian is invited (a notification, with its email and push under their
  toggles) to hand the controls to the athlete: they name the athlete's own account under
  "Your controls" (``services.athlete_invite``) and the athlete accepts them
  (``services.athlete_accept``).
- **18**: the guardian's controls end. An athlete's account the guardian named takes them;
  otherwise no one holds them, their settings stay as the family left them and the page
  accepts the athlete's own claim. The guardian is told, and the athlete when they hold an
  account.

The age is the youngest the verified claim's birth year allows (as everywhere in
docs/privacy.md), so a birthday the product cannot know never ends a guardian's controls
early. Each step is recorded on the controls (``athlete_invited_at``, the guardian no longer
holding them), so running the job twice in a day tells nobody twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db import transaction
from django.utils import timezone

from project.claims import services
from project.claims.models import ClaimRelationship
from project.privacy.models import PlayerControls
from project.privacy.players import ADULT_FROM, SELF_CLAIM_FROM
from project.scouting.models import NotificationType, Player
from project.scouting.services.activity import notification_create

INVITE_MESSAGE = (
    "{player} is 16 now and may hold their own profile's controls. Name their ScoutVote "
    "account under Your controls on the profile to hand them over; your controls end when "
    "they turn 18."
)
ENDED_MESSAGE = (
    "{player} is 18 now: your controls of their profile have ended. Its settings stay as you "
    "left them until {player} claims the profile."
)
PASSED_MESSAGE = "{player} is 18 now: your controls of their profile passed to {athlete}."
ATHLETE_ADULT_MESSAGE = "You are 18 now: you hold the controls of your profile ({player})."
PASSED_AT_18 = "Passed to the athlete at 18"


@dataclass
class TransitionResult:
    invited: int = 0
    passed: int = 0
    ended: int = 0


def _born_by(age: int, today: date) -> int:
    """The latest birth year whose youngest age in ``today``'s year is ``age`` or more."""
    return today.year - age - 1


def _locked(player_id: int) -> tuple[Player, PlayerControls] | None:
    """The player and its controls, locked, while a guardian still holds them."""
    player = Player.objects.select_for_update().get(pk=player_id)
    controls = PlayerControls.objects.select_for_update().get(player_id=player_id)
    if player.claimed_by is None or controls.relationship != ClaimRelationship.PARENT_OR_GUARDIAN:
        return None
    return player, controls


@transaction.atomic
def _invite(player_id: int, today: date) -> bool:
    locked = _locked(player_id)
    if locked is None:
        return False
    player, controls = locked
    if controls.athlete_invited_at is not None or services.controls_age(controls, today=today) < (
        SELF_CLAIM_FROM
    ):
        return False
    controls.athlete_invited_at = timezone.now()
    controls.save(update_fields=["athlete_invited_at"])
    assert player.claimed_by is not None
    notification_create(
        user=player.claimed_by,
        type=NotificationType.PLAYER_UPDATE,
        message=INVITE_MESSAGE.format(player=player.name),
        related_nomination=services.live_nomination(player),
    )
    return True


@transaction.atomic
def _adult(player_id: int, today: date) -> str | None:
    locked = _locked(player_id)
    if locked is None:
        return None
    player, controls = locked
    if services.controls_age(controls, today=today) < ADULT_FROM:
        return None
    guardian = player.claimed_by
    assert guardian is not None
    athlete = controls.athlete
    if athlete is not None and athlete.is_active:
        services.hand_over(
            player=player,
            controls=controls,
            to=athlete,
            relationship=ClaimRelationship.SELF,
            evidence=PASSED_AT_18,
        )
        notification_create(
            user=guardian,
            type=NotificationType.PLAYER_UPDATE,
            message=PASSED_MESSAGE.format(player=player.name, athlete=athlete.name),
        )
        notification_create(
            user=athlete,
            type=NotificationType.PLAYER_UPDATE,
            message=ATHLETE_ADULT_MESSAGE.format(player=player.name),
            related_nomination=services.live_nomination(player),
        )
        return "passed"
    services.end_controls(player=player, controls=controls)
    controls.guardian_ended_at = timezone.now()
    controls.save(update_fields=["guardian_ended_at"])
    notification_create(
        user=guardian,
        type=NotificationType.PLAYER_UPDATE,
        message=ENDED_MESSAGE.format(player=player.name),
    )
    return "ended"


def age_transitions(today: date | None = None) -> TransitionResult:
    """Run the day's transitions (``today``: the job's date, the server's local date by
    default). The 18s first, so an athlete found already 18 is never invited at 16."""
    today = today or timezone.localdate()
    result = TransitionResult()
    held = PlayerControls.objects.filter(
        relationship=ClaimRelationship.PARENT_OR_GUARDIAN, player__claimed_by__isnull=False
    )
    adults = held.filter(birth_year__lte=_born_by(ADULT_FROM, today))
    for player_id in list(adults.values_list("player_id", flat=True)):
        outcome = _adult(player_id, today)
        if outcome == "passed":
            result.passed += 1
        elif outcome == "ended":
            result.ended += 1
    sixteen = held.filter(
        birth_year__lte=_born_by(SELF_CLAIM_FROM, today), athlete_invited_at__isnull=True
    )
    for player_id in list(sixteen.values_list("player_id", flat=True)):
        if _invite(player_id, today):
            result.invited += 1
    return result
