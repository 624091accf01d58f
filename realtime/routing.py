from typing import Any
from urllib.parse import urlsplit

from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import validate_host
from django.urls import path

from realtime.connection import DaphneConnectionMiddleware
from realtime.consumers import LiveConsumer

websocket_urlpatterns = [path("ws/", LiveConsumer.as_asgi())]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return str(value.decode("latin1"))
    return None


def allowed_origin(scope: dict[str, Any]) -> bool:
    """Whether the handshake's Origin is this site, compared as Django's CSRF check compares
    it: scheme, host and port all equal to the request's own (its Host header, on an allowed
    host, https when the connection or the trusted proxy says so), or a trusted origin."""
    origin = _header(scope, b"origin")
    host = _header(scope, b"host")
    if not origin or not host or origin == "null":
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    secure = scope.get("scheme") in ("wss", "https")
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, value = proxy_header
        forwarded = _header(scope, name.removeprefix("HTTP_").lower().replace("_", "-").encode())
        if forwarded is not None:
            secure = forwarded.split(",")[0].strip() == value
    parts = urlsplit(origin)
    if parts.hostname is None or not validate_host(parts.hostname, settings.ALLOWED_HOSTS):
        return False
    return origin == f"{'https' if secure else 'http'}://{host}"


class OriginValidator:
    """Refuse a handshake from any other origin (HTTP 403): a page elsewhere cannot ride the
    session cookie."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not allowed_origin(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.inner(scope, receive, send)


# Origin first (a page elsewhere cannot ride the session cookie), then the session's user.
websocket_application = DaphneConnectionMiddleware(
    OriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
)
