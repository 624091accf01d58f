"""Report targets the apps above moderation add: POST /api/reports with their id is handed
to the app that owns the reported thing (comments: ``commentId``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# (reporter, target id, reason, text) -> the stored report (with id, reason, created_at).
ReportTarget = Callable[..., Any]

_TARGETS: dict[str, ReportTarget] = {}


def register_report_target(name: str, create: ReportTarget) -> None:
    """``create(reporter=..., target_id=..., reason=..., text=...)`` stores a report of a
    ``name`` (called from its app's ``ready()``)."""
    _TARGETS[name] = create


def report_target(name: str) -> ReportTarget:
    return _TARGETS[name]
