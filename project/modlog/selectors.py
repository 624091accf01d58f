"""Reads of the moderation log."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from ninja.responses import NinjaJSONEncoder

from project.modlog.models import ModlogEntry
from project.modlog.schemas import ModlogEntryOut


def modlog_list(
    *,
    actor: int | None = None,
    action: str | None = None,
    target_type: str | None = None,
    target_id: int | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
) -> QuerySet[ModlogEntry]:
    """Log rows matching every given filter. Unordered: paginate it newest first."""
    queryset = ModlogEntry.objects.all()
    if actor is not None:
        queryset = queryset.filter(actor_id=actor)
    if action:
        queryset = queryset.filter(action=action)
    if target_type:
        queryset = queryset.filter(target_type=target_type)
    if target_id is not None:
        queryset = queryset.filter(target_id=target_id)
    if since is not None:
        queryset = queryset.filter(created_at__gte=since)
    if until is not None:
        queryset = queryset.filter(created_at__lt=until)
    return queryset


def modlog_data(entry: ModlogEntry) -> dict[str, Any]:
    """The row as the REST response encodes it, for the live event."""
    encoded = json.dumps(
        ModlogEntryOut.from_orm(entry).model_dump(by_alias=True), cls=NinjaJSONEncoder
    )
    data: dict[str, Any] = json.loads(encoded)
    return data
