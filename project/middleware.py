from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


class ContentSecurityPolicyMiddleware:
    """Adds the Content-Security-Policy header (Django 5.2 has no built-in one)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = settings.CONTENT_SECURITY_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.policy
        return response


API_ERROR_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    413: "request_too_large",
    500: "server_error",
}
API_ERROR_MESSAGES = {
    400: "Bad request",
    403: "Permission denied",
    404: "Not found",
    405: "Method not allowed",
    413: "Request body too large",
    500: "Something went wrong on our side. Please try again.",
}


class ApiErrorBodyMiddleware:
    """Every non-2xx answer under /api/ carries the one JSON error body, also the ones made
    before any API code runs: django-ninja's 405 for a method a path does not serve (its Allow
    header kept) and Django's plain 400 for a bad Host header."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code < 400 or not _is_api_path(request.path_info):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        status = response.status_code
        body = {
            "message": API_ERROR_MESSAGES.get(status, "Request failed"),
            "code": API_ERROR_CODES.get(status, "error"),
        }
        replacement = JsonResponse(body, status=status)
        for header in ("Allow", "Retry-After"):
            if header in response:
                replacement[header] = response[header]
        return replacement


def _is_api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")
