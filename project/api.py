"""The NinjaAPI: routers, authentication and the one error body."""

from __future__ import annotations

import logging
import re
from typing import Any

from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent
from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError

from project.accounts.api import profile_router, settings_router, users_router
from project.accounts.api import router as accounts_router
from project.accounts.auth import user_auth
from project.claims.api import admin_router as claims_admin_router
from project.claims.api import router as claims_router
from project.clubs.api import admin_router as clubs_admin_router
from project.clubs.api import router as clubs_router
from project.coaches.api import admin_router as coaches_admin_router
from project.coaches.api import router as coaches_router
from project.comments.api import admin_router as comments_admin_router
from project.comments.api import router as comments_router
from project.common.errors import (
    DATABASE_RETRY_AFTER,
    SERVICE_UNAVAILABLE,
    ApplicationError,
    is_database_unavailable,
)
from project.engagement.api import admin_router as engagement_admin_router
from project.engagement.api import router as engagement_router
from project.integrity.api import router as integrity_router
from project.media.api import router as media_router
from project.moderation.api import community_router as safety_router
from project.moderation.api import router as moderation_router
from project.push.api import router as push_router
from project.scouting.api import router as scouting_router
from project.updates.api import admin_router as updates_admin_router
from project.updates.api import router as updates_router

logger = logging.getLogger(__name__)

api = NinjaAPI(
    title="ScoutVote API",
    version="1.0.0",
    description=(
        "REST contract of the live scouting and voting platform. Session-cookie "
        "authentication; unsafe methods need the X-CSRFToken header (GET /api/auth/csrf "
        "sets the cookie). Every non-2xx answer is {message, code, fields?}."
    ),
    auth=user_auth,
    urls_namespace="api",
)

api.add_router("/auth", accounts_router)
api.add_router("/users", users_router)
api.add_router("/profile", profile_router)
api.add_router("/settings", settings_router)
api.add_router("/admin", moderation_router)
api.add_router("/push", push_router)
api.add_router("/admin", claims_admin_router)  # /claims...
api.add_router("/admin", coaches_admin_router)  # /coach-verifications...
api.add_router("/admin", comments_admin_router)  # /comments...
api.add_router("/admin", integrity_router)  # /integrity/..., voter lists
api.add_router("/admin", engagement_admin_router)  # /referrals/{id}/tree
api.add_router("", media_router)  # /objects/upload, /profile/avatar
api.add_router("", engagement_router)  # /quests, /streak, /referrals, /settings/engagement
api.add_router("", claims_router)  # /players/{id}/claims, /players/{id}/controls
api.add_router("/admin", updates_admin_router)  # /player-updates...
api.add_router("", updates_router)  # /players/{id}/updates
api.add_router("", coaches_router)  # /coach-verifications, /coaches, /players/{id}/endorsements
api.add_router("", comments_router)  # /nominations/{id}/comments, /comments/{id}
api.add_router("/admin", clubs_admin_router)  # /clubs/{id}/merge
api.add_router("", clubs_router)  # /clubs, /clubs/{id}, /players/{id}/club, /follow/club/{id}
api.add_router("", safety_router)  # /reports, /takedown-requests
api.add_router("", scouting_router)  # nominations, players, votes, leaderboard, feed, follow...


class HealthOut(Schema):
    status: str


@api.get("/health", response=HealthOut, auth=None, summary="The server answers (touches no table)")
def health(request: HttpRequest) -> dict[str, str]:
    """A constant answer for load balancers and the benches' baseline: no session, no query."""
    return {"status": "ok"}


def error_response(
    request: HttpRequest,
    status: int,
    message: str,
    code: str,
    fields: dict[str, str] | None = None,
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    body: dict[str, Any] = {"message": message, "code": code}
    if fields:
        body["fields"] = fields
    if extra:
        body.update(extra)
    return api.create_response(request, body, status=status)


@api.exception_handler(ApplicationError)
def on_application_error(request: HttpRequest, exc: ApplicationError) -> HttpResponse:
    response = error_response(
        request, exc.status_code, exc.message, exc.code, exc.fields, exc.extra
    )
    retry_after = getattr(exc, "retry_after", None)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def _field_name(loc: list[Any] | tuple[Any, ...]) -> str:
    names = [str(part) for part in loc if isinstance(part, str)]
    # loc is like ("body", "payload", "username"): the last name is the field.
    return names[-1] if names else "body"


# Field names whose label is not their words ("videoLink" reads "Video link" by itself).
_FIELD_LABELS = {"q": "Search"}


def field_label(name: str) -> str:
    """How a message names a field: "phoneNumber" is "Phone number", "q" is "Search"."""
    if name in _FIELD_LABELS:
        return _FIELD_LABELS[name]
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()
    return words[:1].upper() + words[1:]


def _message(name: str, error: dict[str, Any]) -> str:
    kind = error.get("type", "")
    if kind == "spec":
        return str(error.get("msg", "Invalid input"))
    if kind == "missing":
        return "Required"
    limit = (error.get("ctx") or {}).get("max_length")
    if kind == "string_too_long" and limit is not None:
        return f"{field_label(name)} must be at most {limit} characters"
    if kind == "too_long" and limit is not None:
        return f"{field_label(name)} must have at most {limit} items"
    return "Invalid input"


@api.exception_handler(NinjaValidationError)
def on_validation_error(request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
    fields: dict[str, str] = {}
    for error in exc.errors:
        name = _field_name(error.get("loc", ()))
        fields.setdefault(name, _message(name, error))
    first = next(iter(fields.values()), "Invalid input")
    return error_response(request, 400, first, "validation_error", fields)


@api.exception_handler(AuthenticationError)
def on_authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return error_response(request, 401, "Authentication required", "not_authenticated")


@api.exception_handler(Http404)
def on_not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(request, 404, "Not found", "not_found")


@api.exception_handler(HttpError)
def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    codes = {
        400: "bad_request",
        403: "permission_denied",
        404: "not_found",
        405: "method_not_allowed",
        409: "conflict",
        429: "throttled",
    }
    message = str(exc.message)
    if exc.status_code == 400 and message.startswith(BODY_PARSE_FAILED):
        # ninja appends the JSON parser's exception text under DEBUG; never quote it.
        message = BODY_PARSE_FAILED
    return error_response(request, exc.status_code, message, codes.get(exc.status_code, "error"))


BODY_PARSE_FAILED = "Cannot parse request body"


@api.exception_handler(SuspiciousOperation)
def on_suspicious_request(request: HttpRequest, exc: SuspiciousOperation) -> HttpResponse:
    # What Django itself answers 400 for: a body over DATA_UPLOAD_MAX_MEMORY_SIZE, more than
    # DATA_UPLOAD_MAX_NUMBER_FIELDS query or form fields, a bad Host header...
    if isinstance(exc, RequestDataTooBig):
        return error_response(request, 400, "Request body too large", "request_too_large")
    if isinstance(exc, TooManyFieldsSent):
        return error_response(request, 400, "Too many fields", "too_many_fields")
    return error_response(request, 400, "Bad request", "bad_request")


@api.exception_handler(Exception)
def on_unexpected_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    if is_database_unavailable(exc):
        # A restart or failover: the client may retry in a few seconds.
        logger.warning("Database unavailable on %s %s: %s", request.method, request.path, exc)
        response = error_response(request, 503, SERVICE_UNAVAILABLE, "service_unavailable")
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response
    logger.exception("Unhandled error on %s %s", request.method, request.path, exc_info=exc)
    return error_response(
        request, 500, "Something went wrong on our side. Please try again.", "server_error"
    )
