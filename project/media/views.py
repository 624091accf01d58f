"""Plain Django views under /media/: the local backend's upload target and avatar addresses."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_safe

from project.common.errors import ApplicationError
from project.media import selectors, services
from project.media.storage import get_storage

AVATAR_NOT_FOUND = "This picture does not exist"


def _error(status: int, message: str, code: str) -> JsonResponse:
    return JsonResponse({"message": message, "code": code}, status=status)


@csrf_exempt  # The signed token in the address is the credential, not the session.
@require_http_methods(["PUT"])
def upload_put(request: HttpRequest, key: str) -> HttpResponse:
    try:
        content_length = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        content_length = None
    try:
        services.avatar_upload_receive(
            key=key,
            token=request.GET.get("token", ""),
            content_type=request.content_type or "",
            content_length=content_length,
            body=request,
        )
    except ApplicationError as exc:
        return _error(exc.status_code, exc.message, exc.code)
    return HttpResponse(status=200)


@require_safe
def avatar_get(request: HttpRequest, key: str) -> HttpResponseBase:
    content_type = selectors.avatar_content_type(key=key)
    if content_type is None:
        return _error(404, AVATAR_NOT_FOUND, "not_found")
    try:
        return get_storage().serve(key, content_type=content_type)
    except FileNotFoundError:
        return _error(404, AVATAR_NOT_FOUND, "not_found")
