"""Retention: a vote's IP-cluster id (prefix hash) is cleared once it is older than
VOTE_PREFIX_RETENTION_DAYS (the purge_vote_prefixes command, run daily)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from project.scouting.models import Vote


def vote_prefixes_purge(*, older_than: datetime | None = None) -> int:
    """Clear the IP-cluster id of votes older than VOTE_PREFIX_RETENTION_DAYS; how many."""
    cutoff = older_than or timezone.now() - timedelta(days=settings.VOTE_PREFIX_RETENTION_DAYS)
    return Vote.objects.filter(created_at__lt=cutoff).exclude(ip_prefix="").update(ip_prefix="")
