"""Database sessions that record the signed-in user's id on each row (see ``UserSession``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.base_session import AbstractBaseSession


def _user_id(data: dict[str, Any]) -> int | None:
    try:
        return int(data[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None


class SessionStore(DatabaseSessionStore):
    @classmethod
    def get_model_class(cls) -> type[AbstractBaseSession]:
        from project.accounts.models import UserSession

        return UserSession

    def create_model_instance(self, data: dict[str, Any]) -> AbstractBaseSession:
        session = super().create_model_instance(data)
        session.user_id = _user_id(data)  # type: ignore[attr-defined]
        return session

    async def acreate_model_instance(self, data: dict[str, Any]) -> AbstractBaseSession:
        session = await super().acreate_model_instance(data)
        session.user_id = _user_id(data)  # type: ignore[attr-defined]
        return session
