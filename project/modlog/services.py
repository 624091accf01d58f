"""Writing the moderation log: called by every admin action inside its transaction."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from project.accounts.models import User
from project.modlog.models import ModlogEntry
from project.modlog.selectors import modlog_data
from realtime.publish import Event, publish

NOT_IN_TRANSACTION = "The moderation log is written inside the action's transaction"


def field_changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[Any]]:
    """{field: [before, after]} for the fields whose value differs."""
    return {
        key: [before.get(key), value] for key, value in after.items() if before.get(key) != value
    }


def modlog_record(
    *,
    actor: User,
    action: str,
    target_type: str,
    target_id: int,
    target_label: str = "",
    reason: str = "",
    changes: dict[str, list[Any]] | None = None,
) -> ModlogEntry:
    """Append one row for an admin action, in the action's own transaction (so a rolled
    back action leaves none), and push it to the admins' Log tab after commit."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError(NOT_IN_TRANSACTION)
    entry = ModlogEntry.objects.create(
        actor_id=actor.pk,
        actor_name=actor.name or actor.username,
        action=action,
        target_type=target_type,
        target_id=target_id,
        target_label=target_label[:200],
        reason=reason,
        changes=changes or {},
    )
    publish(Event("modlog.created", modlog_data(entry), admins=True))
    return entry
