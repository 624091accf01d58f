"""Reads of player updates: who sees which, their wire shape, the admins' queue."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse

from project.accounts.models import Role, User
from project.common.errors import NotFound
from project.common.pagination import Page, PageQuery, keyset_paginate
from project.scouting.models import LIVE_STATUSES, Nomination, Player
from project.scouting.selectors import NEWEST_FIRST, player_get_visible
from project.updates.models import PlayerUpdate, UpdateStatus
from project.updates.videos import VideoRefused, video_of

UPDATE_NOT_FOUND = "Update not found"


def update_queryset() -> QuerySet[PlayerUpdate]:
    return PlayerUpdate.objects.select_related("user", "player", "player__controls", "decided_by")


def updates_pending_count() -> int:
    return PlayerUpdate.objects.filter(status=UpdateStatus.PENDING).count()


def update_seen_by(user: User) -> Q:
    """The updates ``user`` sees of a player they see: the published ones, their own (pending
    or rejected: an update with media waits for an admin before anyone else sees it), every
    one for admins."""
    if user.is_admin:
        return Q()
    return Q(status=UpdateStatus.PUBLISHED) | Q(user_id=user.pk)


def image_url_for(key: str) -> str:
    player_id, name = key.removeprefix("updates/").split("/", 1)
    return reverse("update-image", kwargs={"player_id": int(player_id), "name": name})


def _user_ref(user: Any) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.pk, "name": user.name, "username": user.username}


def author_role(update: PlayerUpdate) -> str:
    if update.user_id == update.player.claimed_by_id:
        return "claimant"
    if update.user.role == Role.COACH:
        return "coach"
    if update.user.role == Role.ADMIN:
        return "admin"
    return "member"


def _video(url: str) -> dict[str, str] | None:
    if not url:
        return None
    try:
        video = video_of(url)
    except VideoRefused:  # stored before a host was dropped: shown as nothing
        return None
    return {"host": video.host, "url": url, "embed_url": video.embed_url}


def update_data(update: PlayerUpdate) -> dict[str, Any]:
    """The read shape of an update (joined by ``update_queryset``)."""
    return {
        "id": update.pk,
        "player_id": update.player_id,
        "author": _user_ref(update.user),
        "author_role": author_role(update),
        "title": update.title,
        "content": update.content,
        "image_url": image_url_for(update.image_key) if update.image_key else None,
        "video": _video(update.media_url),
        "milestone": update.milestone,
        "status": update.status,
        "decision_reason": update.decision_reason,
        "created_at": update.created_at,
    }


def admin_update_data(update: PlayerUpdate) -> dict[str, Any]:
    return {
        **update_data(update),
        "player": update.player,
        "decided_by": _user_ref(update.decided_by),
        "decided_at": update.decided_at,
    }


def _page(queryset: QuerySet[PlayerUpdate], *, page: PageQuery) -> Page[Any]:
    found = keyset_paginate(queryset, ordering=NEWEST_FIRST, page=page)
    return Page(
        items=[update_data(update) for update in found.items], next_cursor=found.next_cursor
    )


def update_list(*, user: User, player_id: int) -> Any:
    """A pager of the player's updates ``user`` sees, newest first (404 for a player they
    cannot see)."""
    player = player_get_visible(user=user, player_id=player_id)
    queryset = update_queryset().filter(update_seen_by(user), player=player)
    return partial(_page, queryset)


def update_get_visible(*, user: User, update_id: int) -> PlayerUpdate | None:
    """The update if ``user`` sees it and its player, else None."""
    update = update_queryset().filter(update_seen_by(user), pk=update_id).first()
    if update is None:
        return None
    try:
        player_get_visible(user=user, player_id=update.player_id)
    except NotFound:
        return None
    return update


def update_image_visible(*, user: User, player_id: int, key: str) -> PlayerUpdate | None:
    """The update holding the image ``key`` if ``user`` sees it."""
    update = PlayerUpdate.objects.filter(player_id=player_id, image_key=key).first()
    if update is None:
        return None
    return update_get_visible(user=user, update_id=update.pk)


def admin_update_list(*, status: str) -> list[dict[str, Any]]:
    """Updates in one status, the longest waiting first (at most 200)."""
    updates = update_queryset().filter(status=status).order_by("created_at", "pk")[:200]
    return [admin_update_data(update) for update in updates]


def player_sports(player: Player) -> list[str]:
    """The sports whose members see the player: those of its live nominations."""
    sports = (
        Nomination.objects.filter(player=player, status__in=LIVE_STATUSES)
        .values_list("sport", flat=True)
        .distinct()
    )
    return sorted(set(sports))
