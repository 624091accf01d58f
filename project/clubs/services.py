"""Club records: matched or made from a player's free-text club, followed, merged by admins,
and their followers told of new approved nominations."""

from __future__ import annotations

import logging
from typing import Any

from django.db import connection, transaction

from project.accounts.models import User
from project.clubs.matching import club_display_name, club_key
from project.clubs.models import ClubAlias
from project.common.errors import NotFound, ValidationFailed
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from project.privacy.players import controls_of
from project.scouting.hooks import NewFollow, PlayerChange, follow_created
from project.scouting.models import Club, Follow, Nomination, NotificationType, Player
from project.scouting.services.activity import notification_create
from project.scouting.services.follows import follow_insert, follow_own

logger = logging.getLogger(__name__)

CLUB_NOT_FOUND = "Club not found"
MERGE_NEEDS_OTHERS = "Choose at least one other club to merge into this one"
MERGE_ONE_SPORT = "Only clubs of the same sport can be merged"


def _key_lock(sport: str, key: str) -> None:
    """Serialize the making of one club until the transaction ends, so two nominations
    typing a new club at once make one record."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [f"club|{sport}|{key}"]
            )


def club_find(*, name: str, sport: str) -> Club | None:
    """The club of the sport a typed name folds to (its own key, or an alias a merge left),
    None when none has it."""
    key = club_key(name)
    if not key:
        return None
    club = Club.objects.filter(sport=sport, name_key=key).order_by("pk").first()
    if club is None:
        alias = ClubAlias.objects.filter(sport=sport, key=key).select_related("club").first()
        club = None if alias is None else alias.club
    return club


@transaction.atomic
def club_for(*, name: str, sport: str) -> Club | None:
    """The club a typed name stands for, made (named as typed) when the sport has none; None
    for a name of no letter or digit."""
    key = club_key(name)
    if not key:
        return None
    _key_lock(sport, key)
    club = club_find(name=name, sport=sport)
    if club is None:
        club = Club.objects.create(name=club_display_name(name), sport=sport, name_key=key)
    return club


def player_club_link(change: PlayerChange) -> None:
    """A player created or edited points at the club its free text names (scouting's
    ``player_changed`` hook, in the write's transaction)."""
    player = Player.objects.only("pk", "club", "sport", "club_ref").get(pk=change.player_id)
    club = club_for(name=player.club, sport=player.sport)
    club_id = None if club is None else club.pk
    if player.club_ref_id != club_id:
        Player.objects.filter(pk=player.pk).update(club_ref_id=club_id)


@transaction.atomic
def club_follow_create(*, user: User, club_id: int) -> bool:
    """Follow a club; True when newly followed, False when already following."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound(CLUB_NOT_FOUND, code="not_found")
    created = follow_insert(follower=user, followed_club=club)
    if created:
        follow_own(user=user, club_id=club.pk, following=True)
        follow_created(NewFollow(follower=user, followed_club_id=club.pk))
    return created


def club_followers_notify(nomination: Nomination) -> None:
    """The followers of an approved nomination's club hear of it (bell, and email and push
    under their toggles through notify's hooks), but its nominator, and not when the player's
    claimant hid its club (the club's page does not list it either)."""
    player = nomination.player
    if player.club_ref_id is None or player.hidden_at is not None:
        return
    controls = controls_of(player)
    if controls is not None and controls.hide_club:
        return
    club = Club.objects.filter(pk=player.club_ref_id).only("pk", "name").first()
    if club is None:
        return
    followers = (
        Follow.objects.filter(followed_club_id=club.pk, follower__is_active=True)
        .exclude(follower_id=nomination.nominated_by_id)
        .select_related("follower")
        .order_by("pk")
    )
    message = f"{club.name} has a new approved nomination: {player.name}."
    for follow in followers:
        notification_create(
            user=follow.follower,
            type=NotificationType.CLUB_NOMINATION,
            message=message,
            related_nomination=nomination,
        )


def _label(club: Club) -> str:
    return f"{club.name} ({club.pk})"


@transaction.atomic
def club_merge(*, admin: User, keep_id: int, merge_ids: list[int]) -> Club:
    """Merge duplicate clubs into the kept one: their players (so their nominations) and
    follows move to it, their keys become its aliases (a player typed as a merged name stays
    with the kept club, and a new one finds it), empty details are taken from them, and the
    merge goes into the moderation log."""
    others = sorted({pk for pk in merge_ids if pk != keep_id})
    if not others:
        raise ValidationFailed.on_field("mergeIds", MERGE_NEEDS_OTHERS)
    clubs = {c.pk: c for c in Club.objects.select_for_update().filter(pk__in=[keep_id, *others])}
    keep = clubs.get(keep_id)
    if keep is None or len(clubs) != len(others) + 1:
        raise NotFound(CLUB_NOT_FOUND, code="not_found")
    merged = [clubs[pk] for pk in others]
    if any(club.sport != keep.sport for club in merged):
        raise ValidationFailed(MERGE_ONE_SPORT, code="club_sport_mismatch")
    followers_before = Follow.objects.filter(followed_club_id=keep.pk).count()
    players_before = Player.objects.filter(club_ref_id=keep.pk).count()
    moved_players = Player.objects.filter(club_ref_id__in=others).update(club_ref_id=keep.pk)
    following = set(
        Follow.objects.filter(followed_club_id=keep.pk).values_list("follower_id", flat=True)
    )
    for follow in Follow.objects.filter(followed_club_id__in=others).order_by("pk"):
        if follow.follower_id in following:
            follow.delete()
        else:
            following.add(follow.follower_id)
            Follow.objects.filter(pk=follow.pk).update(followed_club_id=keep.pk)
    ClubAlias.objects.filter(club_id__in=others).update(club_id=keep.pk)
    for club in merged:
        if club.name_key and club.name_key != keep.name_key:
            ClubAlias.objects.get_or_create(
                sport=keep.sport, key=club.name_key, defaults={"club": keep}
            )
    details: dict[str, Any] = {}
    for field in ("type", "location", "description", "logo_url"):
        if not getattr(keep, field):
            found = next((getattr(c, field) for c in merged if getattr(c, field)), "")
            if found:
                details[field] = ["", found]
                setattr(keep, field, found)
    keep.save()
    Club.objects.filter(pk__in=others).delete()
    modlog_record(
        actor=admin,
        action=ModlogAction.CLUB_MERGE,
        target_type=ModlogTarget.CLUB,
        target_id=keep.pk,
        target_label=keep.name,
        changes={
            "merged": [[_label(c) for c in merged], _label(keep)],
            "players": [players_before, players_before + moved_players],
            "followers": [followers_before, len(following)],
            **details,
        },
    )
    return keep
