"""Reads of claims: the admins' queue, its live item, a player's claimant."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

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


def managed_players(*, user_id: int, restore_days: int) -> list[dict[str, Any]]:
    """The profiles ``user_id`` holds the controls of, then those a guardian invited them to
    take (the athlete), each with its first nomination (None while the page is hidden) and,
    for a removed page, until when its claimant may bring it back."""
    controls = (
        PlayerControls.objects.filter(Q(player__claimed_by_id=user_id) | Q(athlete_id=user_id))
        .select_related("player")
        .order_by("player__name", "player_id")
    )
    rows = list(controls)
    firsts: dict[int, int] = {}
    for player_id, nomination_id in (
        Nomination.objects.filter(player_id__in=[c.player_id for c in rows])
        .order_by("-created_at", "-pk")
        .values_list("player_id", "pk")
    ):
        firsts[player_id] = nomination_id
    now = timezone.now()
    return [
        {
            "player_id": c.player_id,
            "name": c.player.name,
            "nomination_id": None if c.player.hidden_at is not None else firsts.get(c.player_id),
            "managed_by": "athlete" if c.relationship == "self" else "family",
            "removed_at": c.removed_at,
            "restore_until": None
            if c.removed_at is None
            else c.removed_at + timedelta(days=restore_days),
            "restorable": c.player.claimed_by_id == user_id
            and c.removed_at is not None
            and now - c.removed_at <= timedelta(days=restore_days),
            "invited": c.player.claimed_by_id != user_id,
        }
        for c in rows
    ]


def controls_for(player_id: int) -> PlayerControls | None:
    return PlayerControls.objects.filter(player_id=player_id).first()


PlayerExportSection = Callable[[Player], dict[str, Any]]
_player_sections: list[PlayerExportSection] = []


def register_player_export_section(section: PlayerExportSection) -> None:
    """Add what an app holds about a player (its updates, its comments) to the claimant's
    export of the player (its keys to the document)."""
    if section not in _player_sections:
        _player_sections.append(section)


def player_export(*, player: Player, claimant_id: int) -> dict[str, Any]:
    """Everything the product holds about a player, for its claimant: the profile, its
    controls, the claimant's claims, its nominations with their counts, the takedown
    requests about it (without other people's addresses), what the feed says of it and how
    many follow it, and what the apps registered on ``register_player_export_section`` hold
    of it. Other members' votes and claims are counted, never named."""
    controls = PlayerControls.objects.filter(player=player).first()
    nominations = Nomination.objects.filter(player=player).select_related("nominated_by")
    document: dict[str, Any] = {
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
                "athlete_invited_at",
                "guardian_ended_at",
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
    for section in _player_sections:
        document.update(section(player))
    return document
