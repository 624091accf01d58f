"""One error hierarchy, turned into the one error body by ``project.api``."""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    status_code = 400
    code = "bad_request"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        fields: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.fields = fields
        self.extra = extra or {}


class ValidationFailed(ApplicationError):
    code = "validation_error"

    @classmethod
    def on_field(cls, field: str, message: str) -> ValidationFailed:
        return cls(message, fields={field: message})


class NotAuthenticated(ApplicationError):
    status_code = 401
    code = "not_authenticated"


class PermissionDenied(ApplicationError):
    status_code = 403
    code = "permission_denied"


class NotFound(ApplicationError):
    status_code = 404
    code = "not_found"


class Conflict(ApplicationError):
    status_code = 409
    code = "conflict"


class Throttled(ApplicationError):
    status_code = 429
    code = "throttled"

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
