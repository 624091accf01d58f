"""Reads for the admin dashboard (each a few queries whatever the data size) and a user's
export of their own data."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from ninja import Schema
from ninja.responses import NinjaJSONEncoder
from pydantic.alias_generators import to_camel

from project.accounts.models import Role, User, UserSettings
from project.common.pagination import Page, PageQuery, keyset_paginate
from project.moderation.models import Report, TakedownRequest
from project.moderation.schemas import ReportGroupOut, TakedownOut
from project.scouting.models import (
    Activity,
    Follow,
    Nomination,
    NominationStatus,
    Notification,
    Vote,
)
from project.scouting.schemas import NominationEventOut
from project.scouting.selectors import NEWEST_FIRST, nomination_queryset

LEADERBOARD_MAX = 100
USER_ORDERING = ("-created_at", "-id")


def _status_counts() -> dict[str, int]:
    return Nomination.objects.aggregate(
        pending=Count("id", filter=Q(status=NominationStatus.PENDING)),
        approved=Count("id", filter=Q(status=NominationStatus.APPROVED)),
        rejected=Count("id", filter=Q(status=NominationStatus.REJECTED)),
        total=Count("id"),
        votes=Coalesce(Sum("vote_count"), 0),
    )


def moderation_counts() -> dict[str, int]:
    """{pending, approved, rejected}: the numbers on the admin tabs."""
    counts = _status_counts()
    return {key: counts[key] for key in ("pending", "approved", "rejected")}


def admin_stats() -> dict[str, int]:
    """Two queries: votes are the sum of the nominations' ``vote_count`` (kept equal to the
    vote rows), and active scouts are active accounts with the scout role."""
    counts = _status_counts()
    return {
        "pending_nominations": counts["pending"],
        "approved_nominations": counts["approved"],
        "rejected_nominations": counts["rejected"],
        "total_votes": counts["votes"],
        "active_scouts": User.objects.filter(role=Role.SCOUT, is_active=True).count(),
        "total_nominations": counts["total"],
    }


def pending_nomination_list(*, admin: User, page: PageQuery) -> Page[Nomination]:
    """Pending nominations, newest first, in the nomination read shape (one query)."""
    queryset = nomination_queryset(user=admin).filter(status=NominationStatus.PENDING)
    return keyset_paginate(queryset, ordering=NEWEST_FIRST, page=page)


def points_leaderboard(*, limit: int) -> list[User]:
    """Users by points, ties by the earlier account (one query)."""
    size = max(1, min(limit, LEADERBOARD_MAX))
    queryset = User.objects.only("id", "name", "username", "points")
    return list(queryset.order_by("-points", "id")[:size])


def user_list(*, page: PageQuery) -> Page[User]:
    """Every user, newest first (one query)."""
    queryset = User.objects.only("id", "name", "username", "email", "role", "points", "created_at")
    return keyset_paginate(queryset, ordering=USER_ORDERING, page=page)


# --- Reports and takedown requests --------------------------------------------------------

REPORT_GROUPS_MAX = 200
TAKEDOWN_ORDERING = ("created_at", "id")  # oldest first: the longest waiting on top


def _open_reports() -> QuerySet[Report]:
    return Report.objects.filter(resolved_at__isnull=True)


def report_groups(
    *, nomination_id: int | None = None, user_id: int | None = None
) -> list[dict[str, Any]]:
    """Open reports grouped per item (a nomination or a scout profile) with their count,
    the longest-waiting item first (at most 200 items); or only the given item's group.
    Four queries whatever the number of reports."""
    reports = _open_reports()
    if nomination_id is not None:
        reports = reports.filter(nomination_id=nomination_id)
    if user_id is not None:
        reports = reports.filter(reported_user_id=user_id)
    rows = list(
        reports.values("nomination_id", "reported_user_id")
        .annotate(count=Count("id"), first=Min("created_at"), last=Max("created_at"))
        .order_by("first", "nomination_id", "reported_user_id")[:REPORT_GROUPS_MAX]
    )
    nomination_ids = [row["nomination_id"] for row in rows if row["nomination_id"]]
    user_ids = [row["reported_user_id"] for row in rows if row["reported_user_id"]]
    nominations = nomination_queryset().in_bulk(nomination_ids)
    users = User.objects.only("id", "name", "username").in_bulk(user_ids)
    items: dict[tuple[str, int], list[Report]] = {}
    for report in (
        _open_reports()
        .filter(Q(nomination_id__in=nomination_ids) | Q(reported_user_id__in=user_ids))
        .select_related("reporter")
        .only(
            "id",
            "reason",
            "text",
            "created_at",
            "nomination_id",
            "reported_user_id",
            "reporter__id",
            "reporter__name",
            "reporter__username",
        )
        .order_by("created_at", "id")
    ):
        key = _report_key(report.nomination_id, report.reported_user_id)
        items.setdefault(key, []).append(report)
    groups = []
    for row in rows:
        target_type, target_id = _report_key(row["nomination_id"], row["reported_user_id"])
        groups.append(
            {
                "target_type": target_type,
                "target_id": target_id,
                "nomination": nominations.get(target_id) if target_type == "nomination" else None,
                "user": users.get(target_id) if target_type == "user" else None,
                "count": row["count"],
                "first_reported_at": row["first"],
                "last_reported_at": row["last"],
                "reports": items.get((target_type, target_id), []),
            }
        )
    return groups


def _report_key(nomination_id: int | None, user_id: int | None) -> tuple[str, int]:
    if nomination_id is not None:
        return ("nomination", nomination_id)
    assert user_id is not None
    return ("user", user_id)


def report_group_data(*, nomination_id: int | None, user_id: int | None) -> dict[str, Any] | None:
    """One item's group as the REST response encodes it, for report.created."""
    groups = report_groups(nomination_id=nomination_id, user_id=user_id)
    return _wire(ReportGroupOut.from_orm(groups[0])) if groups else None


def takedown_queryset() -> QuerySet[TakedownRequest]:
    return TakedownRequest.objects.select_related("player", "decided_by")


def takedown_list(*, status: str) -> QuerySet[TakedownRequest]:
    """Takedown requests in one status. Unordered: paginate it in ``TAKEDOWN_ORDERING``."""
    return takedown_queryset().filter(status=status)


def takedown_data(request: TakedownRequest) -> dict[str, Any]:
    return _wire(TakedownOut.from_orm(request))


def _wire(value: Schema) -> dict[str, Any]:
    encoded = json.dumps(value.model_dump(by_alias=True), cls=NinjaJSONEncoder)
    data: dict[str, Any] = json.loads(encoded)
    return data


# --- Export of one's own data -------------------------------------------------------------

_ACCOUNT_FIELDS = (
    "id",
    "username",
    "email",
    "name",
    "role",
    "points",
    "referral_code",
    "current_streak",
    "longest_streak",
    "last_activity_date",
    "avatar_url",
    "bio",
    "location",
    "favorite_sport",
    "phone_number",
    "created_at",
    "last_login",
)
_SETTINGS_FIELDS = (
    "email_notifications",
    "vote_notifications",
    "nomination_notifications",
    "profile_visibility",
    "allow_discoverability",
    "two_factor_enabled",
    "password_changed_at",
    "created_at",
    "updated_at",
)


def _camel(row: Mapping[str, Any]) -> dict[str, Any]:
    return {to_camel(key): value for key, value in row.items()}


def profile_export(*, user: User) -> dict[str, Any]:
    """Everything the product holds about ``user``: account, settings, nominations, votes,
    follows, activity, notifications and the reports they made. The nominations of a
    taken-down player are listed without the player (only admins see it)."""
    account = User.objects.filter(pk=user.pk).values(*_ACCOUNT_FIELDS).get()
    settings = UserSettings.objects.filter(user_id=user.pk).values(*_SETTINGS_FIELDS).first()
    nominations = []
    for nomination in nomination_queryset().filter(nominated_by_id=user.pk).order_by("id"):
        if nomination.status == NominationStatus.HIDDEN:
            nominations.append(
                {"id": nomination.pk, "status": "hidden", "createdAt": nomination.created_at}
            )
        else:
            nominations.append(_wire(NominationEventOut.from_orm(nomination)))
    votes = (
        Vote.objects.filter(user_id=user.pk).order_by("id").values("nomination_id", "created_at")
    )
    follows = (
        Follow.objects.filter(follower_id=user.pk)
        .order_by("id")
        .values("followed_user_id", "followed_player_id", "followed_club_id", "created_at")
    )
    activity = (
        Activity.objects.filter(user_id=user.pk)
        .order_by("id")
        .values(
            "id",
            "activity_type",
            "sport",
            "related_user_id",
            "related_player_id",
            "related_nomination_id",
            "metadata",
            "created_at",
        )
    )
    notifications = (
        Notification.objects.filter(user_id=user.pk)
        .order_by("id")
        .values("id", "type", "message", "read", "related_nomination_id", "created_at")
    )
    reports = (
        Report.objects.filter(reporter_id=user.pk)
        .order_by("id")
        .values(
            "id",
            "nomination_id",
            "reported_user_id",
            "reason",
            "text",
            "created_at",
            "resolved_at",
            "resolution",
        )
    )
    return {
        "exported_at": timezone.now(),
        "account": _camel(account),
        "settings": _camel(settings) if settings is not None else None,
        "nominations": nominations,
        "votes": [_camel(row) for row in votes],
        "follows": [_camel(row) for row in follows],
        "followers": Follow.objects.filter(followed_user_id=user.pk).count(),
        "activity": [_camel(row) for row in activity],
        "notifications": [_camel(row) for row in notifications],
        "reports": [_camel(row) for row in reports],
    }
