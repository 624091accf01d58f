"""Reads of claims: the admins' queue, its live item, a player's claimant."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from project.claims.models import Claim, ClaimStatus
from project.moderation.models import TakedownRequest
from project.privacy.models import PlayerControls
from project.scouting.models import Activity, Follow, Nomination, Player

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


def player_export(*, player: Player, claimant_id: int) -> dict[str, Any]:
    """Everything the product holds about a player, for its claimant: the profile, its
    controls, the claimant's claims, its nominations with their counts, the takedown
    requests about it (without other people's addresses), what the feed says of it and how
    many follow it. Other members' votes and claims are counted, never named."""
    controls = PlayerControls.objects.filter(player=player).first()
    nominations = Nomination.objects.filter(player=player).select_related("nominated_by")
    return {
        "player": {
            field: getattr(player, field)
            for field in (
                "id",
                "name",
                "age",
                "graduation_year",
                "position",
                "nationality",
                "club",
                "sport",
                "skills",
                "video_link",
                "verified",
                "created_at",
                "hidden_at",
                "under_review_at",
            )
        },
        "controls": None
        if controls is None
        else {
            field: getattr(controls, field)
            for field in (
                "relationship",
                "birth_year",
                "hide_club",
                "hide_nationality",
                "share_card",
                "voting_open",
                "comments_open",
                "indexable",
                "removed_at",
            )
        },
        "claims": list(
            Claim.objects.filter(player=player, claimant_id=claimant_id)
            .order_by("created_at")
            .values(
                "id",
                "relationship",
                "birth_year",
                "evidence",
                "contact_phone",
                "status",
                "decision_reason",
                "created_at",
                "decided_at",
            )
        ),
        "nominations": [
            {
                "id": nomination.pk,
                "status": nomination.status,
                "sport": nomination.sport,
                "vote_count": nomination.vote_count,
                "nominated_by": nomination.nominated_by.name,
                "created_at": nomination.created_at,
                "rejection_reason": nomination.rejection_reason,
                "removal_reason": nomination.removal_reason,
            }
            for nomination in nominations.order_by("created_at", "pk")
        ],
        "takedown_requests": list(
            TakedownRequest.objects.filter(player=player)
            .order_by("created_at")
            .values("reference", "kind", "status", "created_at", "confirmed_at", "decided_at")
        ),
        "activity": list(
            Activity.objects.filter(related_player=player)
            .order_by("created_at")
            .values("activity_type", "sport", "metadata", "created_at")
        ),
        "followers": Follow.objects.filter(followed_player=player).count(),
    }
