from __future__ import annotations

from datetime import datetime

from pydantic import Field

from project.common.schemas import CamelSchema, InputSchema


class PushKeyOut(CamelSchema):
    public_key: str | None


class PushKeysIn(InputSchema):
    # The browser's own name (PushSubscription.toJSON()), not the camel-cased "p256Dh".
    p256dh: str = Field(alias="p256dh")
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
