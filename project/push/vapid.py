"""The server's VAPID keys (RFC 8292), from the environment: with none set, push is off."""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid

# How long a VAPID token is valid (RFC 8292 allows at most 24 hours).
TOKEN_LIFETIME = 12 * 3600


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Base64url (padded or not); ValueError when it is not."""
    if not text or any(c not in _B64URL for c in text.rstrip("=")):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


_B64URL = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@dataclass(frozen=True)
class VapidKeys:
    public_key: str  # base64url uncompressed P-256 point: the browser's applicationServerKey
    private_key: str  # base64url raw 32-byte scalar
    subject: str


def new_key_pair() -> VapidKeys:
    """A fresh P-256 key pair in the environment's form."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return VapidKeys(public_key=b64url(public), private_key=b64url(private), subject="")


def vapid_keys() -> VapidKeys | None:
    """The configured keys, None when push is off (either key unset)."""
    public, private = settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY
    if not public or not private:
        return None
    return VapidKeys(public_key=public, private_key=private, subject=settings.VAPID_SUBJECT)


def vapid_check() -> None:
    """Refuse to start with keys that do not make a pair, or without a contact subject."""
    keys = vapid_keys()
    if keys is None:
        return
    try:
        derived = Vapid.from_string(keys.private_key).public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    except Exception as error:
        raise ImproperlyConfigured(f"VAPID_PRIVATE_KEY is not a P-256 key: {error}") from error
    if b64url(derived) != keys.public_key.rstrip("="):
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY")
    if not keys.subject.startswith(("mailto:", "https://")):
        raise ImproperlyConfigured("VAPID_SUBJECT must be a mailto: or https: URL")


def vapid_headers(keys: VapidKeys, *, audience: str) -> dict[str, str]:
    """The Authorization header of a push to ``audience`` (the endpoint's origin)."""
    claims: dict[str, str | int] = {
        "aud": audience,
        "exp": int(time.time()) + TOKEN_LIFETIME,
        "sub": keys.subject,
    }
    signed: dict[str, str] = Vapid.from_string(keys.private_key).sign(claims)
    return {"Authorization": signed["Authorization"]}
