"""Reads of users, profiles and settings, with the privacy rules of profiles."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    IntegerField,
    QuerySet,
    Value,
    When,
)
from django.http import HttpRequest

from project.accounts.ages import teen_birth_years
from project.accounts.models import ProfileVisibility, User, UserSettings
from project.common.errors import NotFound
from project.common.pagination import Page, PageQuery, keyset_paginate

SCOUT_NOT_FOUND = "Scout not found"
# Most points first (what a member looks for in a scout; a ring of fresh accounts has few),
# then newest. A card may move between two pages while its points change.
SCOUT_ORDERING = ("-points", "-created_at", "-id")
SUGGESTIONS = 5
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


def public_members() -> QuerySet[User]:
    """The members the public may see (signed-out visitors, crawlers, link previews and share
    cards): active, with a public profile (no settings row reads as the default, public), and
    known to be adults. A teen account never appears there, whatever its settings; nor does
    an account whose year of birth is not known yet. Every surface a signed-out audience
    reads members from filters through this."""
    return (
        User.objects.filter(is_active=True, birth_year__isnull=False)
        .exclude(
            settings__profile_visibility__in=(
                ProfileVisibility.PRIVATE,
                ProfileVisibility.FOLLOWERS,
            )
        )
        .exclude(teen_birth_years())
    )


def _discoverable() -> QuerySet[User]:
    """Scouts who opted in to discovery: active, discoverable and not private."""
    return (
        User.objects.filter(is_active=True, settings__allow_discoverability=True)
        .exclude(settings__profile_visibility=ProfileVisibility.PRIVATE)
        .only(*SCOUT_CARD_FIELDS)
    )


def scout_list(*, page: PageQuery) -> Page[User]:
    """The discoverable scouts, most points first (one query)."""
    return keyset_paginate(_discoverable(), ordering=SCOUT_ORDERING, page=page)


# What apps above accounts add to the reads of scouts, registered in their AppConfig.ready()
# so that accounts imports none of them: the annotations of one scout's profile
# (``scout_get``: scouting's follower and nomination counts and whether the viewer follows),
# and what keeps a scout out of a viewer's suggestions (scouting: already followed;
# integrity: under an open flag).
ScoutAnnotations = Callable[[User, bool], dict[str, Any]]
SuggestionFilter = Callable[[QuerySet[User], User], QuerySet[User]]
_scout_annotations: list[ScoutAnnotations] = []
_suggestion_filters: list[SuggestionFilter] = []


def register_scout_annotations(annotations: ScoutAnnotations) -> None:
    """Add ``annotations(viewer, privileged)`` (name: expression) to ``scout_get``'s query;
    ``privileged``: the viewer is the scout or an admin."""
    if annotations not in _scout_annotations:
        _scout_annotations.append(annotations)


def register_suggestion_filter(suggestion_filter: SuggestionFilter) -> None:
    """Narrow ``scout_suggestions``' candidates with ``suggestion_filter(scouts, viewer)``."""
    if suggestion_filter not in _suggestion_filters:
        _suggestion_filters.append(suggestion_filter)


def scout_suggestions(*, viewer: User, limit: int = SUGGESTIONS) -> list[User]:
    """Scouts for ``viewer`` to follow: discoverable ones the registered filters let through
    (not followed yet, not under an open integrity flag), who share their favourite sport
    first, then by points. Suspended (inactive) ones are never suggested. Two queries (the
    open flags, the scouts)."""
    candidates = _discoverable().exclude(pk=viewer.pk)
    for suggestion_filter in _suggestion_filters:
        candidates = suggestion_filter(candidates, viewer)
    shared_sport = Case(
        When(favorite_sport=viewer.favorite_sport, then=Value(1)),
        default=Value(0),
        output_field=IntegerField(),
    )
    return list(
        candidates.annotate(shared_sport=shared_sport).order_by(
            "-shared_sport", "-points", "-created_at", "-id"
        )[:limit]
    )


def scout_get(*, viewer: User, user_id: int) -> User:
    """One scout as ``viewer`` may see them, annotated with ``contact_visible`` and what the
    apps above registered (``register_scout_annotations``: scouting's ``follower_count``,
    ``nomination_count`` and ``is_following``), in one query.

    Oneself and admins always see the profile. Others get "Scout not found" for an inactive
    or private profile, and for a followers-only one unless they follow that scout. The
    nomination count covers what the viewer may see: rejected nominations only count for
    oneself and admins.
    """
    privileged = viewer.pk == user_id or viewer.is_admin
    annotations: dict[str, Any] = {}
    for registered in _scout_annotations:
        annotations.update(registered(viewer, privileged))
    scout = (
        User.objects.filter(pk=user_id)
        .select_related("settings")
        .annotate(
            **annotations,
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
        # A followers-only profile shows to its followers (scouting's annotation).
        return bool(getattr(scout, "is_following", False))
    return True


def _settings_of(user: User) -> UserSettings:
    try:
        return user.settings
    except UserSettings.DoesNotExist:
        return UserSettings(user=user)


def user_settings_get(*, user: User) -> UserSettings:
    """The user's settings; a user created outside ``user_create`` reads the defaults."""
    return _settings_of(user)
