"""Structured logs and request ids.

Each HTTP request gets an id: the ``X-Request-ID`` a trusted proxy (``TRUSTED_PROXIES``: nginx
sets it to its own ``$request_id``) sent, when it is a plain token of at most 64 characters,
else a new one; the response carries it back as ``X-Request-ID`` and every log line written
while the request runs carries it as ``request_id``. ``LOG_FORMAT=json`` (the default with
``DJANGO_ENV=production``) writes each line as one JSON object: time, level, logger, message,
request_id, and the traceback when there is one.
"""

from __future__ import annotations

import contextvars
import ipaddress
import json
import logging
import re
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-ID"
VALID = re.compile(r"[A-Za-z0-9._-]{1,64}")

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=4)
def _networks(configured: tuple[str, ...]) -> tuple[IpNetwork, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in configured)


def _from_trusted_proxy(address: str | None) -> bool:
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def incoming_id(request: HttpRequest) -> str:
    """The request's id: the trusted proxy's, when it sent a valid one, else a new one."""
    sent = request.headers.get(HEADER, "")
    if sent and VALID.fullmatch(sent) and _from_trusted_proxy(request.META.get("REMOTE_ADDR")):
        return sent
    return uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        current = incoming_id(request)
        token = request_id.set(current)
        try:
            response = self.get_response(request)
        finally:
            request_id.reset(token)
        response[HEADER] = current
        return response


class RequestIdFilter(logging.Filter):
    """Puts the current request's id (or None) on every record a handler writes."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class DisallowedHostLine(logging.Filter):
    """Django's DisallowedHost (a request whose ``Host`` is not in ``DJANGO_ALLOWED_HOSTS``,
    answered 400) as one warning line without its traceback: a scanner's requests are noise,
    not errors. The message is one template whatever the host, so the handlers' RepeatFilter
    writes it once per interval and counts the rest."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        meta = getattr(request, "META", {})
        host = str(meta.get("HTTP_X_FORWARDED_HOST") or meta.get("HTTP_HOST") or "")
        record.msg = "Refused a request for a host not in DJANGO_ALLOWED_HOSTS: %r"
        record.args = (host[:100],)
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info = record.exc_text = None
        return True
