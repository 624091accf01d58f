"""Database sessions that record the signed-in user's id on each row (see ``UserSession``),
read by a statement written by hand (every signed-in request reads its session: the ORM's
``get`` cost twice the CPU of the statement and the row)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import connections, router
from django.utils import timezone

from project.common.db import loaded


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

    def _get_session_from_db(self) -> AbstractBaseSession | None:
        """The unexpired row of this key, as Django's ``get`` reads it; None (and no key
        any more, as there) when there is none."""
        model = self.get_model_class()
        # The database the ORM's get would read (a router may choose another than default).
        connection = connections[router.db_for_read(model)]
        table = connection.ops.quote_name(model._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT session_data FROM {table} WHERE session_key = %s AND expire_date > %s",  # noqa: S608  (the model's table; values bound)
                [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())],
            )
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return loaded(
            model, session_key=self.session_key, session_data=row[0], using=connection.alias
        )

    def create_model_instance(self, data: dict[str, Any]) -> AbstractBaseSession:
        session = super().create_model_instance(data)
        session.user_id = _user_id(data)  # type: ignore[attr-defined]
        return session

    async def acreate_model_instance(self, data: dict[str, Any]) -> AbstractBaseSession:
        session = await super().acreate_model_instance(data)
        session.user_id = _user_id(data)  # type: ignore[attr-defined]
        return session
