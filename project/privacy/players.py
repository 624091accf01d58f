"""Every field of a player, decided per audience: a signed-in member, the public (signed out,
crawlers, link previews, share cards), an admin and the player's verified claimant.

The rules (docs/privacy.md):

- A player's age comes from the birth year its verified claimant gave, else the graduation
  year (18 minus the years to graduation, the specification's rule), else the age typed at
  nomination. A birth year alone gives the youngest age it allows (the private side).
- The public sees an unclaimed player under 13 (or of unknown age) by first name and the
  initial of the last name, with no club, no nationality and the product's generic card.
- A claimed player shows the public what its claimant allows: club and nationality unless
  hidden, a share card and link preview unless turned off.
- Members see the specification's card, but for what a claimant hid (hidden from everyone
  but admins and the claimant).
- Player pages are ``noindex`` unless the claimant allows indexing.
- "Managed by" shows while someone holds the controls; controls no one holds keep their
  settings.

The controls are this app's model (``PlayerControls``, written by project/claims when a
claim is approved); this module imports no domain app, so every layer that shows a player
may import it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db.models import Q
from django.utils import timezone

from project.privacy.models import PlayerControls

# The specification's baseline of the age derived from a graduation year.
GRADUATION_AGE = 18
CHILD_UNDER = 13
SELF_CLAIM_FROM = 16
ADULT_FROM = 18


class Audience(StrEnum):
    MEMBER = "member"
    PUBLIC = "public"
    ADMIN = "admin"
    CLAIMANT = "claimant"


class ManagedBy(StrEnum):
    FAMILY = "family"
    ATHLETE = "athlete"


MANAGED_BY_LABELS = {
    ManagedBy.FAMILY: "Managed by the athlete's family",
    ManagedBy.ATHLETE: "Managed by the athlete",
}


@dataclass(frozen=True)
class PlayerView:
    """What one audience sees of a player ("" for a field it does not see)."""

    name: str
    club: str
    nationality: str
    # The player's own share card and a named link preview (else the product's generic card).
    share_card: bool
    # A link preview naming the player at all (else the generic tags).
    link_preview: bool
    indexable: bool
    managed_by: ManagedBy | None


def _year(today: datetime.date | None) -> int:
    return (today or timezone.localdate()).year


def age_from(
    *,
    birth_year: int | None,
    graduation_year: int | None,
    age: int | None,
    today: datetime.date | None = None,
) -> int | None:
    """An athlete's age: from a birth year (the youngest it allows), else a graduation year
    (18 minus the years to graduation, never below 0), else the typed age; None unknown."""
    year = _year(today)
    if birth_year is not None:
        return max(0, year - birth_year - 1)
    if graduation_year is not None:
        return max(0, GRADUATION_AGE - (graduation_year - year))
    return age


def managed_by_of(relationship: str | None) -> str | None:
    """The wire value of who manages a page, from its controls' relationship."""
    if relationship is None:
        return None
    return str(ManagedBy.ATHLETE if relationship == "self" else ManagedBy.FAMILY)


def controls_of(player: Any) -> PlayerControls | None:
    """The player's claimant controls, None while it is not claimed: read from the join when
    the query made one (``select_related("controls")``, as every list of players does), else
    looked up. They outlive a claimant's deleted account: what the family decided stays."""
    try:
        controls: PlayerControls | None = player.controls
    except PlayerControls.DoesNotExist:
        return None
    return controls


def player_age(player: Any, *, today: datetime.date | None = None) -> int | None:
    controls = controls_of(player)
    return age_from(
        birth_year=None if controls is None else controls.birth_year,
        graduation_year=player.graduation_year,
        age=player.age,
        today=today,
    )


def is_young_child(age: int | None) -> bool:
    """Under 13, or of unknown age (the private default)."""
    return age is None or age < CHILD_UNDER


def comments_allowed(player: Any, *, today: datetime.date | None = None) -> bool:
    """Whether members may comment on the player's nominations (and read their comments):
    never under 13 (an unknown age counts as under 13), nor while its claimant turned them
    off."""
    controls = controls_of(player)
    if controls is not None and not controls.comments_open:
        return False
    return not is_young_child(player_age(player, today=today))


def is_minor(player: Any, *, today: datetime.date | None = None) -> bool:
    """Under 18, or of unknown age."""
    age = player_age(player, today=today)
    return age is None or age < ADULT_FROM


def first_name_initial(name: str) -> str:
    """ "Mia Jones" -> "Mia J."; a single name stays as it is."""
    parts = name.split()
    if len(parts) < 2:
        return name.strip()
    return f"{parts[0]} {parts[-1][0]}."


def player_view(
    player: Any, audience: Audience, *, today: datetime.date | None = None
) -> PlayerView:
    """What ``audience`` sees of ``player`` (with its ``controls`` joined or loaded once)."""
    controls = controls_of(player)
    managed_by = None
    # Controls no one holds (the claimant's account deleted, a guardian's ended at 18, a claim
    # revoked) keep their settings, but no one manages the page: no badge, and it takes claims.
    if controls is not None and player.claimed_by_id is not None:
        managed_by = ManagedBy.ATHLETE if controls.relationship == "self" else ManagedBy.FAMILY
    indexable = controls is not None and controls.indexable
    if audience in (Audience.ADMIN, Audience.CLAIMANT):
        return PlayerView(
            name=player.name,
            club=player.club,
            nationality=player.nationality,
            share_card=True,
            link_preview=True,
            indexable=indexable,
            managed_by=managed_by,
        )
    if controls is not None:
        public = audience == Audience.PUBLIC
        return PlayerView(
            name=player.name,
            club="" if controls.hide_club else player.club,
            nationality="" if controls.hide_nationality else player.nationality,
            share_card=controls.share_card or not public,
            link_preview=controls.share_card or not public,
            indexable=indexable,
            managed_by=managed_by,
        )
    if audience == Audience.PUBLIC and is_young_child(player_age(player, today=today)):
        return PlayerView(
            name=first_name_initial(player.name),
            club="",
            nationality="",
            share_card=False,
            link_preview=True,
            indexable=False,
            managed_by=None,
        )
    return PlayerView(
        name=player.name,
        club=player.club,
        nationality=player.nationality,
        share_card=True,
        link_preview=True,
        indexable=False,
        managed_by=None,
    )


def public_card_denied(prefix: str = "", *, today: datetime.date | None = None) -> Q:
    """The players (under ``prefix``, e.g. ``"player__"``) whose share card the public must
    not get, as a query: ``player_view(...).share_card`` is False for exactly these."""
    year = _year(today)
    unclaimed_child = Q(**{f"{prefix}controls__isnull": True}) & (
        Q(**{f"{prefix}graduation_year__gt": year + GRADUATION_AGE - CHILD_UNDER})
        | Q(**{f"{prefix}graduation_year__isnull": True, f"{prefix}age__lt": CHILD_UNDER})
        | Q(**{f"{prefix}graduation_year__isnull": True, f"{prefix}age__isnull": True})
    )
    return unclaimed_child | Q(**{f"{prefix}controls__share_card": False})
