"""Reads of users, profiles and settings, with the privacy rules of profiles."""

from __future__ import annotations

from django.db.models import (
    BooleanField,
    Case,
    Count,
    Exists,
    IntegerField,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce
from django.http import HttpRequest

from project.accounts.ages import teen_birth_years
from project.accounts.models import ProfileVisibility, User, UserSettings
from project.common.errors import NotFound
from project.common.pagination import Page, PageQuery, keyset_paginate
from project.integrity.models import FlagStatus, IntegrityFlag
from project.scouting.models import LIVE_STATUSES, Follow, Nomination

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


def _flagged_accounts() -> set[int]:
    """The accounts named by an open integrity flag (voters of a suspected ring)."""
    lists = IntegrityFlag.objects.filter(status=FlagStatus.OPEN).values_list("accounts", flat=True)
    return {int(account) for accounts in lists for account in accounts}


def scout_suggestions(*, viewer: User, limit: int = SUGGESTIONS) -> list[User]:
    """Scouts for ``viewer`` to follow: discoverable ones they do not follow yet, who share
    their favourite sport first, then by points. Accounts under an open integrity flag and
    suspended (inactive) ones are never suggested. Two queries (the open flags, the scouts)."""
    flagged = _flagged_accounts()
    followed = Follow.objects.filter(follower_id=viewer.pk, followed_user_id=OuterRef("pk"))
    shared_sport = Case(
        When(favorite_sport=viewer.favorite_sport, then=Value(1)),
        default=Value(0),
        output_field=IntegerField(),
    )
    return list(
        _discoverable()
        .exclude(pk=viewer.pk)
        .exclude(pk__in=flagged)
        .exclude(Exists(followed))
        .annotate(shared_sport=shared_sport)
        .order_by("-shared_sport", "-points", "-created_at", "-id")[:limit]
    )


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
