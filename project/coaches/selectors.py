"""Reads of verified coaches and endorsements, with who sees what applied here: a player's
endorsements for members (the text and the coach), the rating for verified coaches, the
claimant and admins only; nothing for the public (every read needs a session)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from project.accounts.models import User
from project.coaches.models import CoachVerification, CoachVerificationStatus
from project.common.schemas import camel_keys
from project.scouting.models import Endorsement, Player
from project.scouting.selectors import player_get_visible

VERIFICATION_NOT_FOUND = "Coach verification not found"


def _approved() -> QuerySet[CoachVerification]:
    return CoachVerification.objects.filter(status=CoachVerificationStatus.APPROVED)


def is_verified_coach(user: User) -> bool:
    return _approved().filter(user_id=user.pk).exists()


def verified_coach_ids() -> list[int]:
    return list(_approved().order_by("user_id").values_list("user_id", flat=True))


def verification_queryset() -> QuerySet[CoachVerification]:
    return CoachVerification.objects.select_related("user", "decided_by")


def verifications_pending_count() -> int:
    return CoachVerification.objects.filter(status=CoachVerificationStatus.PENDING).count()


def _user_ref(user: User | None) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.pk, "name": user.name, "username": user.username}


def verification_data(verification: CoachVerification) -> dict[str, Any]:
    """The member's own shape of a verification."""
    return {
        "id": verification.pk,
        "organization": verification.organization,
        "role_title": verification.role_title,
        "evidence_url": verification.evidence_url,
        "work_email": verification.work_email,
        "email_confirmed": verification.email_confirmed_at is not None,
        "status": verification.status,
        "decision_reason": verification.decision_reason,
        "created_at": verification.created_at,
        "decided_at": verification.decided_at,
    }


def admin_verifications(verifications: list[CoachVerification]) -> list[dict[str, Any]]:
    """The Coaches tab's shape of ``verifications`` (joined by ``verification_queryset``),
    each member's endorsements counted in one query."""
    user_ids = {verification.user_id for verification in verifications}
    counts = dict(
        Endorsement.objects.filter(endorser_id__in=user_ids)
        .values("endorser_id")
        .annotate(n=Count("id"))
        .values_list("endorser_id", "n")
    )
    return [
        {
            **verification_data(verification),
            "user": _user_ref(verification.user),
            "decided_by": _user_ref(verification.decided_by),
            "endorsements": counts.get(verification.user_id, 0),
        }
        for verification in verifications
    ]


def verification_list(*, status: str) -> list[dict[str, Any]]:
    """Verifications in one status, the longest waiting first (the most recent decisions
    first for the others; at most 200)."""
    order = ("created_at", "pk") if status == "pending" else ("-decided_at", "-pk")
    rows = list(verification_queryset().filter(status=status).order_by(*order)[:200])
    return admin_verifications(rows)


def verification_mine(*, user: User) -> CoachVerification | None:
    """The member's latest verification request, if any."""
    return CoachVerification.objects.filter(user_id=user.pk).order_by("-created_at", "-pk").first()


# --- Endorsements -----------------------------------------------------------------------------


def endorsements_shown(player_id: int) -> QuerySet[Endorsement]:
    """What a player's page shows to members: by coaches still verified, not hidden by the
    claimant, not removed by a moderator."""
    return Endorsement.objects.filter(
        _by_verified_coach(),
        player_id=player_id,
        hidden_at__isnull=True,
        removed_at__isnull=True,
    )


def _by_verified_coach() -> Q:
    return Q(Exists(_approved().filter(user_id=OuterRef("endorser_id"))))


def endorsements_count(player_id: int) -> int:
    return endorsements_shown(player_id).count()


def rating_visible(*, viewer: User, player: Player) -> bool:
    """The rating is for verified coaches, the player's claimant and admins only."""
    return viewer.is_admin or player.claimed_by_id == viewer.pk or is_verified_coach(viewer)


def endorsement_list(*, viewer: User, player_id: int) -> dict[str, Any]:
    """A player's endorsements as ``viewer`` may see them, the latest first: the claimant and
    admins also see those the claimant hid (marked). 404 for a player the viewer cannot
    see."""
    player = player_get_visible(user=viewer, player_id=player_id)
    claimant = player.claimed_by_id == viewer.pk
    sees_hidden = claimant or viewer.is_admin
    rows = Endorsement.objects.filter(
        _by_verified_coach(), player_id=player.pk, removed_at__isnull=True
    )
    if not sees_hidden:
        rows = rows.filter(hidden_at__isnull=True)
    rows = rows.select_related("endorser").order_by("-created_at", "-pk")
    endorsements = list(rows[:200])
    where = _coach_places([row.endorser_id for row in endorsements])
    shows_rating = rating_visible(viewer=viewer, player=player)
    return {
        "items": [
            endorsement_data(row, rating=shows_rating, place=where.get(row.endorser_id))
            for row in endorsements
        ],
        "count": sum(1 for row in endorsements if row.hidden_at is None),
        "rating_visible": shows_rating,
        "can_endorse": is_verified_coach(viewer),
        "can_hide": claimant,
    }


def _coach_places(user_ids: list[int]) -> dict[int, tuple[str, str]]:
    rows = (
        _approved()
        .filter(user_id__in=user_ids)
        .values_list("user_id", "organization", "role_title")
    )
    return {user_id: (organization, role) for user_id, organization, role in rows}


def endorsement_data(
    endorsement: Endorsement, *, rating: bool, place: tuple[str, str] | None = None
) -> dict[str, Any]:
    """One endorsement's read shape; its rating only when ``rating`` (the reader may see it)."""
    if place is None:
        place = _coach_places([endorsement.endorser_id]).get(endorsement.endorser_id, ("", ""))
    coach = endorsement.endorser
    return {
        "id": endorsement.pk,
        "player_id": endorsement.player_id,
        "content": endorsement.content,
        "rating": endorsement.rating if rating else None,
        "coach": {
            "id": coach.pk,
            "name": coach.name,
            "username": coach.username,
            "organization": place[0],
            "role_title": place[1],
        },
        "hidden": endorsement.hidden_at is not None,
        "created_at": endorsement.created_at,
        "updated_at": endorsement.updated_at,
    }


def coach_export(user: User) -> dict[str, Any]:
    """The member's coach verification requests and the endorsements they wrote, for their
    export of their own data."""
    verifications = (
        CoachVerification.objects.filter(user_id=user.pk)
        .order_by("id")
        .values(
            "id",
            "organization",
            "role_title",
            "evidence_url",
            "work_email",
            "email_confirmed_at",
            "status",
            "decision_reason",
            "created_at",
            "decided_at",
        )
    )
    endorsements = (
        Endorsement.objects.filter(endorser_id=user.pk)
        .order_by("id")
        .values("id", "player_id", "content", "rating", "created_at", "updated_at", "hidden_at")
    )
    return {
        "coachVerifications": [camel_keys(row) for row in verifications],
        "endorsements": [camel_keys(row) for row in endorsements],
    }


def player_endorsements_export(player: Player) -> dict[str, Any]:
    """A player's endorsements, for its claimant's export of the player: each with its coach
    and rating (the claimant sees both), hidden and removed ones marked."""
    rows = (
        Endorsement.objects.filter(player_id=player.pk)
        .select_related("endorser")
        .order_by("created_at", "id")
    )
    return {
        "endorsements": [
            {
                "coach": row.endorser.name,
                "content": row.content,
                "rating": row.rating,
                "created_at": row.created_at,
                "hidden": row.hidden_at is not None,
                "removed": row.removed_at is not None,
            }
            for row in rows
        ]
    }
