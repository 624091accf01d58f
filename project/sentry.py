"""Optional error reports to Sentry (``sentry-sdk``): on only when ``SENTRY_DSN`` is set, so
nothing is sent by default.

``init_from_env`` runs once from the settings, in every process (the HTTP pool's workers, each
daphne process, the worker, commands). Django's integration reports a request's unhandled
exception (both pools answer HTTP through Django's handler) and the ASGI middleware
(``wrap_asgi``, project/asgi.py) a websocket consumer's. What leaves the process carries no
member: ``send_default_pii`` is off (no user, no client address, no cookies or request
bodies), the scrubber removes cookies, session and CSRF values, tokens, passwords, e-mail
addresses and forwarded addresses wherever they are keys, and every e-mail address left in a
message, an exception's text or a breadcrumb is replaced by ``[email]``.
"""

from __future__ import annotations

import os
import re
from typing import Any

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
REDACTED = "[email]"
# Keys whose values are dropped wherever they occur in an event (sentry's own list and ours).
DENYLIST_EXTRA = ["email", "e_mail", "cookies", "x_real_ip", "otp"]


def enabled() -> bool:
    return bool(os.environ.get("SENTRY_DSN", "").strip())


def _redact(value: Any) -> Any:
    """``value`` with every e-mail address in its strings replaced, recursively."""
    if isinstance(value, str):
        return EMAIL.sub(REDACTED, value)
    if isinstance(value, dict):
        return {key: _redact(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_redact(item) for item in value]
    return value


def before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    """Drop the request's cookies and headers that name a member, redact e-mail addresses."""
    request = event.get("request")
    if isinstance(request, dict):
        request.pop("cookies", None)
        request.pop("data", None)
        headers = request.get("headers")
        if isinstance(headers, dict):
            for name in list(headers):
                if name.lower() in {"cookie", "set-cookie", "x-real-ip", "x-forwarded-for"}:
                    del headers[name]
    return dict(_redact(event))


def before_breadcrumb(crumb: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    return dict(_redact(crumb))


def _sample_rate(name: str) -> float:
    try:
        return min(1.0, max(0.0, float(os.environ.get(name, "0") or 0)))
    except ValueError:
        return 0.0


def init_from_env(environment: str) -> bool:
    """Start reporting to ``SENTRY_DSN`` when it is set (True), else nothing (False).
    ``SENTRY_ENVIRONMENT`` (default: ``environment``, DJANGO_ENV), ``SENTRY_RELEASE`` (default:
    the package's version), ``SENTRY_TRACES_SAMPLE_RATE`` (0: no performance traces)."""
    if not enabled():
        return False
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.scrubber import DEFAULT_DENYLIST, DEFAULT_PII_DENYLIST, EventScrubber

    sentry_sdk.init(
        dsn=os.environ["SENTRY_DSN"].strip(),
        environment=os.environ.get("SENTRY_ENVIRONMENT") or environment,
        release=os.environ.get("SENTRY_RELEASE") or f"scoutvote@{_version()}",
        traces_sample_rate=_sample_rate("SENTRY_TRACES_SAMPLE_RATE"),
        send_default_pii=False,
        integrations=[DjangoIntegration()],
        event_scrubber=EventScrubber(
            denylist=[*DEFAULT_DENYLIST, *DENYLIST_EXTRA],
            pii_denylist=DEFAULT_PII_DENYLIST,
            recursive=True,
        ),
        before_send=before_send,  # type: ignore[arg-type]
        before_breadcrumb=before_breadcrumb,
        # Local variables of a frame may hold a member's data.
        include_local_variables=False,
        max_request_body_size="never",
    )
    return True


def wrap_asgi(application: Any) -> Any:
    """``application`` behind Sentry's ASGI middleware when reporting is on (a websocket
    consumer's exception is reported), else unchanged."""
    if not enabled():
        return application
    from sentry_sdk.integrations.asgi import SentryAsgiMiddleware

    return SentryAsgiMiddleware(application)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("scouting-platform")
    except PackageNotFoundError:
        return "dev"
