"""The product's WSGI (``application``) and ASGI (``asgi``) applications with one more route,
``/boom``, whose view raises: what tests/ops/test_sentry.py serves to see an unhandled error
reported. Served by gunicorn or daphne like the production shape's processes."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from project.wsgi import application
from tests.ops.sentry_words import SECRET_WORDS


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError(f"The vote of {SECRET_WORDS[0]} could not be counted")


urlpatterns = [path("boom", boom), path("", include("project.urls"))]
settings.ROOT_URLCONF = __name__

__all__ = ["application"]


def __getattr__(name: str) -> Any:
    """``asgi``: project.asgi's application, imported only by a daphne process."""
    if name == "asgi":
        from project.asgi import application as asgi_application

        return asgi_application
    raise AttributeError(name)
