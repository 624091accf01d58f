"""The public address every email's links are made from (``PUBLIC_BASE_URL``): a worker has no
request to take a host from, so a server with DEBUG off (production, the production shape)
refuses to start without it, and with an address that is not an origin."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Error, register

MISSING = "PUBLIC_BASE_URL is not set"
MISSING_HINT = (
    "Set it to the site's public origin, such as https://scoutvote.example: every email's "
    "links (the nomination, Settings, unsubscribe) and List-Unsubscribe are made from it."
)
NOT_AN_ORIGIN = "PUBLIC_BASE_URL must be an origin such as https://scoutvote.example"


@register()
def public_base_url_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """An error when DEBUG is off and PUBLIC_BASE_URL is unset, and whenever it is set to
    something else than ``http(s)://host[:port]``. With DEBUG on (``make run``, which sets it
    from its own port) emails fall back to the local server's address."""
    value = settings.PUBLIC_BASE_URL
    if not value:
        return [] if settings.DEBUG else [Error(MISSING, hint=MISSING_HINT, id="notify.E001")]
    parts = urlsplit(value)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
        or parts.username
    ):
        return [Error(NOT_AN_ORIGIN, hint=f"It is {value!r}.", id="notify.E002")]
    return []
