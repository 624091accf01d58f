"""Reads of users, profiles and settings, with the privacy rules of profiles."""

from __future__ import annotations

from django.db.models import (
    BooleanField,
    Count,
    Exists,
    IntegerField,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.http import HttpRequest

from project.accounts.models import ProfileVisibility, User, UserSettings
from project.common.errors import NotFound
from project.common.pagination import Page, PageQuery, keyset_paginate
from project.scouting.models import LIVE_STATUSES, Follow, Nomination

SCOUT_NOT_FOUND = "Scout not found"
# Newest accounts first: a stable order, so pages never repeat or skip a card while points move.
SCOUT_ORDERING = ("-created_at", "-id")
SCOUT_CARD_FIELDS = (
    "id",
    "username",
    "name",
    "bio",
    "location",
    "favorite_sport",
    "points",
    "avatar_url",
    "created_at",
)


def session_user(request: HttpRequest) -> User | None:
    """The request's signed-in, active user, or None (the API's session auth accepts the same
    users)."""
    user = request.user
    if isinstance(user, User) and user.is_authenticated and user.is_active:
        return user
    return None


def scout_list(*, page: PageQuery) -> Page[User]:
    """Scouts who opted in to discovery: active, discoverable and not private (one query)."""
    queryset = (
        User.objects.filter(is_active=True, settings__allow_discoverability=True)
        .exclude(settings__profile_visibility=ProfileVisibility.PRIVATE)
        .only(*SCOUT_CARD_FIELDS)
    )
    return keyset_paginate(queryset, ordering=SCOUT_ORDERING, page=page)


def _count(queryset: QuerySet[Follow] | QuerySet[Nomination], column: str) -> Coalesce:
    """A correlated COUNT, so several counts on one row do not multiply each other."""
    counted = queryset.values(column).annotate(total=Count("pk")).values("total")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def scout_get(*, viewer: User, user_id: int) -> User:
    """One scout as ``viewer`` may see them, annotated with ``follower_count``,
    ``nomination_count``, ``is_following`` and ``contact_visible`` (one query).

    Oneself and admins always see the profile. Others get "Scout not found" for an inactive
    or private profile, and for a followers-only one unless they follow that scout. The
    nomination count covers what the viewer may see: rejected nominations only count for
    oneself and admins.
    """
    privileged = viewer.pk == user_id or viewer.is_admin
    nominations = Nomination.objects.filter(nominated_by=OuterRef("pk"))
    if not privileged:
        nominations = nominations.filter(status__in=LIVE_STATUSES)
    scout = (
        User.objects.filter(pk=user_id)
        .select_related("settings")
        .annotate(
            follower_count=_count(
                Follow.objects.filter(followed_user=OuterRef("pk")), "followed_user"
            ),
            nomination_count=_count(nominations, "nominated_by"),
            is_following=Exists(
                Follow.objects.filter(follower_id=viewer.pk, followed_user=OuterRef("pk"))
            ),
            # Email and phone number show only to the user themselves and to admins.
            contact_visible=Value(privileged, output_field=BooleanField()),
        )
        .first()
    )
    if scout is None or (not privileged and not _visible_to_others(scout)):
        raise NotFound(SCOUT_NOT_FOUND, code="scout_not_found")
    return scout


def scout_followable(*, viewer: User, user_id: int) -> User:
    """A scout ``viewer`` may follow: active and not private (oneself excluded by the caller).

    A followers-only scout can be followed without seeing their profile first (that is how
    one becomes a follower); a private or inactive one answers "Scout not found" like the
    profile read, so following tells nothing the profile would not."""
    scout = User.objects.filter(pk=user_id).select_related("settings").first()
    if scout is None or not scout.is_active:
        raise NotFound(SCOUT_NOT_FOUND, code="scout_not_found")
    private = _settings_of(scout).profile_visibility == ProfileVisibility.PRIVATE
    if private and not (viewer.is_admin or viewer.pk == user_id):
        raise NotFound(SCOUT_NOT_FOUND, code="scout_not_found")
    return scout


def _visible_to_others(scout: User) -> bool:
    if not scout.is_active:
        return False
    visibility = _settings_of(scout).profile_visibility
    if visibility == ProfileVisibility.PRIVATE:
        return False
    if visibility == ProfileVisibility.FOLLOWERS:
        return bool(scout.is_following)  # type: ignore[attr-defined]
    return True


def _settings_of(user: User) -> UserSettings:
    try:
        return user.settings
    except UserSettings.DoesNotExist:
        return UserSettings(user=user)


def user_settings_get(*, user: User) -> UserSettings:
    """The user's settings; a user created outside ``user_create`` reads the defaults."""
    return _settings_of(user)
