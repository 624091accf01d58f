"""Email about a moderation decision, sent once the decision is committed."""

from __future__ import annotations

import logging

from django.core.mail import send_mail
from django.db import transaction

logger = logging.getLogger(__name__)


def email_after_commit(*, address: str, subject: str, message: str) -> None:
    def send() -> None:
        try:
            send_mail(subject, message, None, [address])
        except Exception:
            # An email must never undo the decision it reports.
            logger.exception("Could not send %r", subject)

    transaction.on_commit(send)
