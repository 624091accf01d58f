from channels.auth import AuthMiddlewareStack
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

from channels.routing import URLRouter
from realtime.consumers import LiveConsumer

websocket_urlpatterns = [path("ws/", LiveConsumer.as_asgi())]

websocket_application = AllowedHostsOriginValidator(
    AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
)
