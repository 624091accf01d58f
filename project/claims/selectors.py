"""Reads of claims: the admins' queue, its live item, a player's claimant."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from project.claims.models import Claim, ClaimStatus
from project.privacy.models import PlayerControls
from project.scouting.models import Nomination

CLAIM_NOT_FOUND = "Claim not found"


def claim_queryset() -> QuerySet[Claim]:
    return Claim.objects.select_related("player", "player__controls", "claimant", "decided_by")


def claims_pending_count() -> int:
    return Claim.objects.filter(status=ClaimStatus.PENDING).count()


def _user_ref(user: Any) -> dict[str, Any] | None:
    if user is None:
        return None
    return {"id": user.pk, "name": user.name, "username": user.username}


def _nominators(player_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    found: dict[int, list[dict[str, Any]]] = {pk: [] for pk in player_ids}
    rows = (
        Nomination.objects.filter(player_id__in=player_ids)
        .select_related("nominated_by")
        .order_by("created_at", "pk")
    )
    for nomination in rows:
        refs = found[nomination.player_id]
        ref = _user_ref(nomination.nominated_by)
        if ref not in refs:
            refs.append(ref)  # type: ignore[arg-type]
    return found


def admin_claims(claims: list[Claim]) -> list[dict[str, Any]]:
    """The queue's shape of ``claims`` (joined by ``claim_queryset``), nominators in one
    query."""
    nominators = _nominators([claim.player_id for claim in claims])
    return [
        {
            "id": claim.pk,
            "player_id": claim.player_id,
            "relationship": claim.relationship,
            "birth_year": claim.birth_year,
            "evidence": claim.evidence,
            "contact_phone": claim.contact_phone,
            "status": claim.status,
            "decision_reason": claim.decision_reason,
            "created_at": claim.created_at,
            "decided_at": claim.decided_at,
            "player": claim.player,
            "claimant": _user_ref(claim.claimant),
            "nominated_by": nominators[claim.player_id],
            "decided_by": _user_ref(claim.decided_by),
        }
        for claim in claims
    ]


def claim_list(*, status: str) -> list[dict[str, Any]]:
    """Claims in one status, the longest waiting first (at most 200)."""
    claims = list(claim_queryset().filter(status=status).order_by("created_at", "pk")[:200])
    return admin_claims(claims)


def controls_for(player_id: int) -> PlayerControls | None:
    return PlayerControls.objects.filter(player_id=player_id).first()
