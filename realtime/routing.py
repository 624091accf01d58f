from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from realtime.connection import DaphneConnectionMiddleware
from realtime.consumers import LiveConsumer

websocket_urlpatterns = [path("ws/", LiveConsumer.as_asgi())]

# Origin first (a page elsewhere cannot ride the session cookie), then the session's user.
websocket_application = DaphneConnectionMiddleware(
    AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
)
