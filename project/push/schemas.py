from __future__ import annotations

from datetime import datetime

from project.common.schemas import CamelSchema, InputSchema


class PushKeyOut(CamelSchema):
    public_key: str | None


class PushKeysIn(InputSchema):
    p256dh: str
    auth: str


class PushSubscriptionIn(InputSchema):
    """What the browser's PushSubscription.toJSON() gives (expirationTime is not used)."""

    endpoint: str
    keys: PushKeysIn
    expiration_time: float | None = None


class PushSubscriptionOut(CamelSchema):
    id: int
    endpoint: str
    created_at: datetime
