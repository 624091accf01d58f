"""Security: proxies, headers and the production profile."""

from __future__ import annotations

from project.settings.base import PRODUCTION
from project.settings.env import setting
from project.settings.media import _S3_ORIGIN

# The client is the right-most address in X-Forwarded-For that is not one of these.
TRUSTED_PROXIES: list[str] = setting(
    "TRUSTED_PROXIES",
    [],
    "Comma-separated addresses or CIDR networks of the reverse proxies in front of the app: "
    "X-Forwarded-For and X-Real-IP are read only from these; none: the peer is the client.",
)

X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
CONTENT_SECURITY_POLICY = setting(
    "CONTENT_SECURITY_POLICY",
    f"default-src 'self'; img-src 'self' data: blob: https:{_S3_ORIGIN}; "
    "style-src 'self' 'unsafe-inline'; "
    # connect-src: own origin only ('self' covers ws:/wss: to the same host in CSP Level 3
    # browsers: Chromium, Firefox and Safari today) plus the configured S3 endpoint.
    f"script-src 'self'; connect-src 'self'{_S3_ORIGIN}; frame-ancestors 'none'; "
    # A player update's video, once its reader clicks it: the three hosts' privacy-enhanced
    # embeds only (project/updates/videos.py).
    "frame-src https://www.youtube-nocookie.com https://player.vimeo.com https://www.hudl.com; "
    "base-uri 'self'; form-action 'self'; object-src 'none'",
    "Overrides the Content-Security-Policy header.",
    shown="own origin only, plus the S3 endpoint when one is configured",
)

_SSL_REDIRECT = setting(
    "DJANGO_SECURE_SSL_REDIRECT",
    True,
    "Production only: redirect plain http to https (off only for a plain-http local try-out).",
)
_HSTS_SECONDS = setting(
    "DJANGO_HSTS_SECONDS", 31536000, "Production only: the HSTS header's max-age (seconds)."
)
_SECURE_COOKIES = setting(
    "DJANGO_SECURE_COOKIES",
    True,
    "Production only: session and CSRF cookies over https only (off only for a plain-http "
    "local try-out).",
)
if PRODUCTION:
    SECURE_SSL_REDIRECT = _SSL_REDIRECT
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = _HSTS_SECONDS
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = _SECURE_COOKIES
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
    }
