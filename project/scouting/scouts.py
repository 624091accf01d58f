"""What scouting adds to accounts' reads of scouts (registered in ``ScoutingConfig.ready()``,
so that accounts imports no scouting): a profile's follower and nomination counts and
whether the viewer follows the scout, and the scouts a viewer already follows kept out of
their suggestions."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from project.accounts.models import User
from project.scouting.models import LIVE_STATUSES, Follow, Nomination


def _count(queryset: QuerySet[Follow] | QuerySet[Nomination], column: str) -> Coalesce:
    """A correlated COUNT, so several counts on one row do not multiply each other."""
    counted = queryset.values(column).annotate(total=Count("pk")).values("total")
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def scout_annotations(viewer: User, privileged: bool) -> dict[str, Any]:
    """``follower_count``, ``nomination_count`` (rejected nominations only count for the scout
    themselves and admins: ``privileged``) and ``is_following`` (the viewer follows them)."""
    nominations = Nomination.objects.filter(nominated_by=OuterRef("pk"))
    if not privileged:
        nominations = nominations.filter(status__in=LIVE_STATUSES)
    return {
        "follower_count": _count(
            Follow.objects.filter(followed_user=OuterRef("pk")), "followed_user"
        ),
        "nomination_count": _count(nominations, "nominated_by"),
        "is_following": Exists(
            Follow.objects.filter(follower_id=viewer.pk, followed_user=OuterRef("pk"))
        ),
    }


def not_followed(scouts: QuerySet[User], viewer: User) -> QuerySet[User]:
    """The scouts ``viewer`` does not follow yet."""
    followed = Follow.objects.filter(follower_id=viewer.pk, followed_user_id=OuterRef("pk"))
    return scouts.exclude(Exists(followed))
