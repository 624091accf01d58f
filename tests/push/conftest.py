from __future__ import annotations

import base64
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from project.push.vapid import VapidKeys, new_key_pair
from tests.push.service import PushService


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Device:
    """A browser's side of a subscription: the keys it decrypts its messages with."""

    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes

    @property
    def p256dh(self) -> str:
        return b64url(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)

    def subscription(self, endpoint: str) -> dict[str, Any]:
        return {
            "endpoint": endpoint,
            "keys": {"p256dh": self.p256dh, "auth": self.auth},
            "expirationTime": None,
        }


def new_device() -> Device:
    return Device(private_key=ec.generate_private_key(ec.SECP256R1()), auth_secret=os.urandom(16))


@pytest.fixture
def vapid(settings: Any) -> VapidKeys:
    """Push on: a fresh VAPID pair, and local http endpoints allowed."""
    keys = new_key_pair()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = keys.public_key, keys.private_key
    settings.VAPID_SUBJECT = "mailto:ops@scoutvote.example"
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = True
    settings.PUSH_TIMEOUT = 2
    settings.JOBS_RETRY_DELAY = 0.2
    settings.JOBS_MAX_ATTEMPTS = 3
    return VapidKeys(keys.public_key, keys.private_key, settings.VAPID_SUBJECT)


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService()
    service.start()
    yield service
    service.stop()
