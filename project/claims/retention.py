"""How long the product keeps an unclaimed player's identity: one that no one voted for,
followed or edited for ``PLAYER_RETENTION_MONTHS`` (24) is anonymised by the daily
``anonymise_players`` job (docs/privacy.md).

Anonymising keeps what the community did (its nominations, their votes and counts, follows)
and removes who the player is: the name becomes ``ANONYMISED_NAME``; club, nationality,
skills and video link are cleared; the name is replaced in what the feed and the
notifications say of it; its share cards are deleted; and each app that holds what was
written of the player (its updates go, its comments lose the name) does its part on the
core's ``player_anonymised``. A claimed player is the family's to keep or remove, so it is
never anonymised. Edits are timestamped by a hook on the core's ``player_changed``
(``edited``)."""

from __future__ import annotations

import datetime
from calendar import monthrange

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q, Value
from django.db.models.functions import Replace
from django.utils import timezone

from project.privacy.models import PlayerRetention
from project.scouting.hooks import AnonymisedPlayer, PlayerChange, player_anonymised
from project.scouting.models import (
    Activity,
    Follow,
    Notification,
    Player,
    Vote,
)
from project.scouting.selectors import nomination_data, nomination_queryset
from project.scouting.services.audience import nomination_event, nomination_publish
from project.sharing.services import share_cards_drop_for_player

ANONYMISED_NAME = "Anonymised player"


def edited(change: PlayerChange) -> None:
    """The core's hook on every player created or edited: remember when it was last edited."""
    if change.created:
        return
    PlayerRetention.objects.update_or_create(
        player_id=change.player_id, defaults={"edited_at": timezone.now()}
    )


def months_before(moment: datetime.datetime, months: int) -> datetime.datetime:
    """``moment`` moved back ``months`` calendar months (the day clamped to the month's end)."""
    index = moment.year * 12 + moment.month - 1 - months
    year, month = divmod(index, 12)
    day = min(moment.day, monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


def idle_players(now: datetime.datetime | None = None) -> list[int]:
    """The unclaimed players not yet anonymised with no vote, follow or edit since the
    retention cutoff (and created before it)."""
    cutoff = months_before(now or timezone.now(), settings.PLAYER_RETENTION_MONTHS)
    recent_vote = Vote.objects.filter(nomination__player=OuterRef("pk"), created_at__gte=cutoff)
    recent_follow = Follow.objects.filter(followed_player=OuterRef("pk"), created_at__gte=cutoff)
    return list(
        Player.objects.filter(claimed_by__isnull=True, controls__isnull=True, created_at__lt=cutoff)
        .exclude(Q(retention__edited_at__gte=cutoff) | Q(retention__anonymised_at__isnull=False))
        .exclude(Exists(recent_vote))
        .exclude(Exists(recent_follow))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _scrub(field: str, old: str) -> Replace:
    return Replace(field, Value(old), Value(ANONYMISED_NAME))


@transaction.atomic
def player_anonymise(player_id: int, *, now: datetime.datetime | None = None) -> bool:
    """Anonymise one player (locked; False when it was claimed or anonymised meanwhile)."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None or player.claimed_by_id is not None:
        return False
    retention, _ = PlayerRetention.objects.select_for_update().get_or_create(player=player)
    if retention.anonymised_at is not None:
        return False
    old = player.name
    player.name = ANONYMISED_NAME
    player.club = ""
    player.club_ref = None
    player.nationality = ""
    player.skills = ""
    player.video_link = ""
    # Never the same identity as a new nomination of the same athlete, nor found by search.
    player.normalized_identity = f"anonymised:{player.pk}"
    player.search_key = ""
    player.save()
    retention.anonymised_at = now or timezone.now()
    retention.save(update_fields=["anonymised_at"])
    nominations = list(player.nominations.values_list("pk", flat=True))
    if old.strip():
        Activity.objects.filter(related_player=player).update(
            metadata={"playerName": ANONYMISED_NAME}
        )
        Notification.objects.filter(related_nomination_id__in=nominations).update(
            message=_scrub("message", old)
        )
    player_anonymised(AnonymisedPlayer(player.pk, old, ANONYMISED_NAME))
    share_cards_drop_for_player(player.pk)
    if player.hidden_at is None:
        for nomination in nomination_queryset().filter(player_id=player.pk):
            nomination_publish(
                nomination_event("nomination.updated", nomination, nomination_data(nomination))
            )
    return True


def players_anonymise(now: datetime.datetime | None = None) -> int:
    """Anonymise every idle unclaimed player; the number anonymised."""
    return sum(player_anonymise(pk, now=now) for pk in idle_players(now))
