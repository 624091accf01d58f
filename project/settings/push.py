"""Web push (project/push, README "The installable app and push notifications")."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

from project.settings.base import PRODUCTION
from project.settings.env import setting

# With either key unset, push is off: GET /api/push/key answers null and subscribing answers 404.
VAPID_PUBLIC_KEY = setting(
    "VAPID_PUBLIC_KEY",
    "",
    "Web push's public key (base64url, the uncompressed P-256 point; `manage.py vapid_keys` "
    "prints a pair); unset: push is off.",
)
VAPID_PRIVATE_KEY = setting(
    "VAPID_PRIVATE_KEY",
    "",
    "Web push's private key (base64url, the raw 32-byte key); unset: push is off. Changing "
    "the pair orphans every device.",
)
VAPID_SUBJECT = setting(
    "VAPID_SUBJECT",
    "mailto:admin@scoutvote.example",
    "The contact push services are given (`mailto:` or `https:`).",
)
PUSH_TTL = setting(
    "PUSH_TTL", 3600, "Seconds a push service keeps a message for a device that is offline."
)
PUSH_TIMEOUT = setting(
    "PUSH_TIMEOUT",
    10.0,
    "Seconds a push service may take to connect and to answer before the attempt fails.",
    shown="10",
)
PUSH_ALLOW_PRIVATE_ENDPOINTS = setting(
    "PUSH_ALLOW_PRIVATE_ENDPOINTS",
    False,
    "Tests only (refused with `DJANGO_ENV=production`): push endpoints on http and on local "
    "or private addresses are accepted.",
)
if PRODUCTION and PUSH_ALLOW_PRIVATE_ENDPOINTS:
    raise ImproperlyConfigured("PUSH_ALLOW_PRIVATE_ENDPOINTS must not be set in production")
