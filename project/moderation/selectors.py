"""Reads for the admin dashboard. Each is one or two queries whatever the data size."""

from __future__ import annotations

from django.db.models import Count, Q, Sum
from django.db.models.functions import Coalesce

from project.accounts.models import Role, User
from project.common.pagination import Page, PageQuery, keyset_paginate
from project.scouting.models import Nomination, NominationStatus
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
