"""Reads of vote integrity: flags, voter lists (the audit) and who opened them."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import F, QuerySet
from ninja.responses import NinjaJSONEncoder

from project.accounts.models import User
from project.common.errors import NotFound
from project.integrity.models import FlagStatus, IntegrityFlag, VoterListView
from project.integrity.schemas import FlagOut
from project.scouting.models import Nomination, Vote

FLAG_NOT_FOUND = "Flag not found"
NOMINATION_NOT_FOUND = "Nomination not found"
USER_NOT_FOUND = "User not found"


def flagged_accounts() -> set[int]:
    """The accounts named by an open integrity flag (voters of a suspected ring)."""
    lists = IntegrityFlag.objects.filter(status=FlagStatus.OPEN).values_list("accounts", flat=True)
    return {int(account) for accounts in lists for account in accounts}


def not_flagged(scouts: QuerySet[User], viewer: User) -> QuerySet[User]:
    """Accounts' suggestion filter (registered in ``IntegrityConfig.ready()``): scouts under an
    open flag are never suggested. One query, now (the open flags)."""
    return scouts.exclude(pk__in=flagged_accounts())


def flag_list(*, status: str | None = None) -> QuerySet[IntegrityFlag]:
    """Flags, unordered (paginate newest change first), with their nomination's player."""
    queryset = IntegrityFlag.objects.annotate(player_name=F("nomination__player__name"))
    if status:
        queryset = queryset.filter(status=status)
    return queryset


def flag_get(flag_id: int) -> IntegrityFlag:
    flag = flag_list().filter(pk=flag_id).first()
    if flag is None:
        raise NotFound(FLAG_NOT_FOUND, code="flag_not_found")
    return flag


def flag_data(flag: IntegrityFlag) -> dict[str, Any]:
    """The flag as the REST response encodes it, for the live event."""
    if not hasattr(flag, "player_name"):
        flag = flag_get(flag.pk)
    out = FlagOut.from_orm(flag).model_dump(by_alias=True)
    data: dict[str, Any] = json.loads(json.dumps(out, cls=NinjaJSONEncoder))
    return data


def _audit_queryset() -> QuerySet[Vote]:
    return Vote.objects.annotate(
        player_name=F("nomination__player__name"),
        nominator_id=F("nomination__nominated_by_id"),
        voter_id=F("user_id"),
        voter_name=F("user__name"),
        voter_username=F("user__username"),
        voted_at=F("created_at"),
        account_created_at=F("user__date_joined"),
        cluster_id=F("ip_prefix"),
        trusted=F("counted"),
    )


def nomination_votes(*, nomination_id: int) -> QuerySet[Vote]:
    """Every vote of a nomination (voided ones too), unordered: paginate newest first."""
    if not Nomination.objects.filter(pk=nomination_id).exists():
        raise NotFound(NOMINATION_NOT_FOUND, code="not_found")
    return _audit_queryset().filter(nomination_id=nomination_id)


def user_votes(*, user_id: int) -> QuerySet[Vote]:
    """Every vote of a user (voided ones too), unordered: paginate newest first."""
    return _audit_queryset().filter(user_id=user_id)


def voter_list_views(*, target_type: str | None = None, target_id: int | None = None) -> Any:
    queryset = VoterListView.objects.all()
    if target_type:
        queryset = queryset.filter(target_type=target_type)
    if target_id is not None:
        queryset = queryset.filter(target_id=target_id)
    return queryset
