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


SERVICE_UNAVAILABLE = "The service is temporarily unavailable. Please try again in a moment."


class ServiceUnavailable(ApplicationError):
    """A dependency the call cannot go without is unreachable (503 with Retry-After)."""

    status_code = 503
    code = "service_unavailable"

    def __init__(self, message: str = SERVICE_UNAVAILABLE, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


# Seconds a client is told to wait when the database cannot be reached (a restart takes a few).
DATABASE_RETRY_AFTER = 5


def is_database_unavailable(exc: BaseException) -> bool:
    """The database could not be reached or dropped the connection (a restart, a failover, a
    full pool, a busy SQLite file): OperationalError/InterfaceError, which Django raises for
    these. Errors in a statement itself (IntegrityError, ProgrammingError...) are not."""
    import sqlite3

    from django.db import InterfaceError, OperationalError

    if not isinstance(exc, (OperationalError, InterfaceError)):
        return False
    # SQLite says OperationalError for a missing table too: only a busy file is transient.
    if isinstance(exc.__cause__, sqlite3.OperationalError):
        return "locked" in str(exc.__cause__) or "busy" in str(exc.__cause__)
    return True
