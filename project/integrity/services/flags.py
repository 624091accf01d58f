"""A flag's life: raised (or grown) by detection, closed by voiding its votes, opened again by
restoring them. Each change pushes ``integrity.flagged`` to the admins after the commit."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from project.common import metrics
from project.integrity.models import FlagStatus, IntegrityFlag
from project.integrity.selectors import flag_data
from realtime.publish import Event, publish

# Accounts listed on one flag at most (the evidence keeps the full count).
FLAG_ACCOUNTS_MAX = 500


def flag_raise(
    *,
    rule: str,
    subject: str,
    evidence: dict[str, Any],
    accounts: list[int],
    nominators: list[int] | None = None,
    nomination_id: int | None = None,
) -> IntegrityFlag | None:
    """Open a flag for (rule, subject) or grow the open one; push integrity.flagged when it is
    new or its evidence changed. Returns the flag when it was pushed."""
    accounts = sorted(set(accounts))[:FLAG_ACCOUNTS_MAX]
    with transaction.atomic():
        open_flag = IntegrityFlag.objects.select_for_update().filter(
            rule=rule, subject=subject, status=FlagStatus.OPEN
        )
        flag = open_flag.first()
        if flag is None:
            try:
                with transaction.atomic():
                    flag = IntegrityFlag.objects.create(
                        rule=rule,
                        subject=subject,
                        nomination_id=nomination_id,
                        accounts=accounts,
                        nominators=sorted(set(nominators or [])),
                        evidence=evidence,
                    )
            except IntegrityError:  # another process opened it meanwhile
                flag = open_flag.get()
            else:
                transaction.on_commit(metrics.INTEGRITY_FLAGS.labels(rule).inc)
                publish(Event("integrity.flagged", flag_data(flag), admins=True))
                return flag
        merged = sorted(set(flag.accounts) | set(accounts))[:FLAG_ACCOUNTS_MAX]
        if merged == flag.accounts and evidence == flag.evidence:
            return None
        flag.accounts = merged
        flag.evidence = evidence
        flag.save(update_fields=["accounts", "evidence", "updated_at"])
        publish(Event("integrity.flagged", flag_data(flag), admins=True))
        return flag


def flag_status_set(flag: IntegrityFlag, status: str) -> None:
    """A voided flag is closed; restoring opens it again (unless a newer flag of the same rule
    and subject is open by now: then it stays closed, and the newer one carries on)."""
    try:
        with transaction.atomic():
            IntegrityFlag.objects.filter(pk=flag.pk).update(
                status=status, updated_at=timezone.now()
            )
    except IntegrityError:
        return
    flag.refresh_from_db()
    publish(Event("integrity.flagged", flag_data(flag), admins=True))
