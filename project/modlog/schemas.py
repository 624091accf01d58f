"""Wire shapes of the moderation log."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from project.common.schemas import CamelSchema
from project.modlog.models import ModlogAction, ModlogTarget


class ModlogEntryOut(CamelSchema):
    id: int
    actor_id: int
    actor_name: str
    action: ModlogAction
    target_type: ModlogTarget
    target_id: int
    target_label: str
    reason: str
    changes: dict[str, Any] = Field(description="{field: [before, after]} of what changed")
    created_at: datetime


class ModlogQuery(CamelSchema):
    actor: int | None = Field(None, description="The acting admin's user id")
    action: ModlogAction | None = None
    target_type: ModlogTarget | None = None
    target_id: int | None = Field(None, description="With targetType: one target's history")
    since: datetime | None = Field(None, description="Rows at or after this time")
    until: datetime | None = Field(None, description="Rows before this time")
