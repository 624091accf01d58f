"""Reads for the admin dashboard (each a few queries whatever the data size), and the
reports a member made for their export of their own data."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Count, Max, Min, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from project.accounts.models import Role, User
from project.common.pagination import Page, PageQuery, keyset_paginate
from project.common.schemas import camel_keys, wire
from project.moderation.models import Report, TakedownRefusal, TakedownRequest, TakedownStatus
from project.moderation.schemas import ReportGroupOut, TakedownOut
from project.scouting.models import (
    Endorsement,
    Nomination,
    NominationStatus,
)
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


def _endorsement_refs(endorsement_ids: list[int]) -> dict[int, dict[str, Any]]:
    """The reported endorsements as the Reports tab shows them: text, rating, the coach, the
    player and its page (its first nomination)."""
    rows = Endorsement.objects.select_related("endorser", "player").in_bulk(endorsement_ids)
    pages: dict[int, int] = {}
    for player_id, nomination_id in (
        Nomination.objects.filter(player_id__in={row.player_id for row in rows.values()})
        .order_by("-created_at", "-pk")
        .values_list("player_id", "pk")
    ):
        pages[player_id] = nomination_id  # the oldest, written last
    return {
        pk: {
            "id": row.pk,
            "player_id": row.player_id,
            "nomination_id": pages.get(row.player_id),
            "player_name": row.player.name,
            "content": row.content,
            "rating": row.rating,
            "endorser": row.endorser,
            "removed_at": row.removed_at,
        }
        for pk, row in rows.items()
    }


def report_groups(
    *,
    nomination_id: int | None = None,
    user_id: int | None = None,
    endorsement_id: int | None = None,
) -> list[dict[str, Any]]:
    """Open reports grouped per item (a nomination, a scout profile or an endorsement) with
    their count, the longest-waiting item first (at most 200 items); or only the given
    item's group. Five queries whatever the number of reports."""
    reports = _open_reports()
    if nomination_id is not None:
        reports = reports.filter(nomination_id=nomination_id)
    if user_id is not None:
        reports = reports.filter(reported_user_id=user_id)
    if endorsement_id is not None:
        reports = reports.filter(endorsement_id=endorsement_id)
    rows = list(
        reports.values("nomination_id", "reported_user_id", "endorsement_id")
        .annotate(count=Count("id"), first=Min("created_at"), last=Max("created_at"))
        .order_by("first", "nomination_id", "reported_user_id", "endorsement_id")[
            :REPORT_GROUPS_MAX
        ]
    )
    nomination_ids = [row["nomination_id"] for row in rows if row["nomination_id"]]
    user_ids = [row["reported_user_id"] for row in rows if row["reported_user_id"]]
    endorsement_ids = [row["endorsement_id"] for row in rows if row["endorsement_id"]]
    nominations = nomination_queryset().in_bulk(nomination_ids)
    users = User.objects.only("id", "name", "username").in_bulk(user_ids)
    endorsements = _endorsement_refs(endorsement_ids)
    items: dict[tuple[str, int], list[Report]] = {}
    for report in (
        _open_reports()
        .filter(
            Q(nomination_id__in=nomination_ids)
            | Q(reported_user_id__in=user_ids)
            | Q(endorsement_id__in=endorsement_ids)
        )
        .select_related("reporter")
        .only(
            "id",
            "reason",
            "text",
            "created_at",
            "nomination_id",
            "reported_user_id",
            "endorsement_id",
            "reporter__id",
            "reporter__name",
            "reporter__username",
        )
        .order_by("created_at", "id")
    ):
        key = _report_key(report.nomination_id, report.reported_user_id, report.endorsement_id)
        items.setdefault(key, []).append(report)
    groups = []
    for row in rows:
        target_type, target_id = _report_key(
            row["nomination_id"], row["reported_user_id"], row["endorsement_id"]
        )
        groups.append(
            {
                "target_type": target_type,
                "target_id": target_id,
                "nomination": nominations.get(target_id) if target_type == "nomination" else None,
                "user": users.get(target_id) if target_type == "user" else None,
                "endorsement": endorsements.get(target_id)
                if target_type == "endorsement"
                else None,
                "count": row["count"],
                "first_reported_at": row["first"],
                "last_reported_at": row["last"],
                "reports": items.get((target_type, target_id), []),
            }
        )
    return groups


def _report_key(
    nomination_id: int | None, user_id: int | None, endorsement_id: int | None = None
) -> tuple[str, int]:
    if nomination_id is not None:
        return ("nomination", nomination_id)
    if endorsement_id is not None:
        return ("endorsement", endorsement_id)
    assert user_id is not None
    return ("user", user_id)


def report_group_data(
    *, nomination_id: int | None, user_id: int | None, endorsement_id: int | None = None
) -> dict[str, Any] | None:
    """One item's group as the REST response encodes it, for report.created."""
    groups = report_groups(
        nomination_id=nomination_id, user_id=user_id, endorsement_id=endorsement_id
    )
    return wire(ReportGroupOut.from_orm(groups[0])) if groups else None


def takedown_queryset() -> QuerySet[TakedownRequest]:
    return TakedownRequest.objects.select_related("player", "player__controls", "decided_by")


def takedown_list(*, status: str) -> QuerySet[TakedownRequest]:
    """Takedown requests in one status, or ``open`` (unconfirmed and pending). Unordered:
    paginate it in ``TAKEDOWN_ORDERING``."""
    if status == "open":
        return takedown_queryset().filter(
            status__in=(TakedownStatus.UNCONFIRMED, TakedownStatus.PENDING)
        )
    return takedown_queryset().filter(status=status)


# Days of refused takedown attempts an admin sees, and the rows at most.
REFUSALS_DAYS = 7
REFUSALS_MAX = 200


def takedown_refusals() -> QuerySet[TakedownRefusal]:
    """Takedown requests refused over the last REFUSALS_DAYS days, counted per player, reason
    and day, the latest first."""
    since = timezone.now().date() - timedelta(days=REFUSALS_DAYS - 1)
    return (
        TakedownRefusal.objects.filter(day__gte=since)
        .select_related("player", "player__controls")
        .order_by("-last_at", "-pk")[:REFUSALS_MAX]
    )


def player_under_review(nomination_id: int) -> bool:
    """Whether the player of a page members can see waits for a review after a confirmed
    takedown request (the public does not see it meanwhile)."""
    return Nomination.objects.filter(
        pk=nomination_id,
        player__hidden_at__isnull=True,
        player__under_review_at__isnull=False,
    ).exists()


def takedown_data(request: TakedownRequest) -> dict[str, Any]:
    return wire(TakedownOut.from_orm(request))


def report_export(user: User) -> dict[str, Any]:
    """The reports ``user`` made, for their export of their own data."""
    reports = (
        Report.objects.filter(reporter_id=user.pk)
        .order_by("id")
        .values(
            "id",
            "nomination_id",
            "reported_user_id",
            "endorsement_id",
            "reason",
            "text",
            "created_at",
            "resolved_at",
            "resolution",
        )
    )
    return {"reports": [camel_keys(row) for row in reports]}
