"""Database sessions that record the signed-in user's id on each row (see ``UserSession``),
read by a statement written by hand (every signed-in request reads its session: the ORM's
``get`` cost twice the CPU of the statement and the row). The same statement brings the
row's user (a join on that id), which the authentication middleware
(project/accounts/middleware.py) takes instead of reading the user again: a signed-in
request reads its session and its user in one round trip."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import connections, router
from django.utils import timezone

from project.common.db import from_row, loaded


def _user_id(data: dict[str, Any]) -> int | None:
    try:
        return int(data[SESSION_KEY])
    except (KeyError, TypeError, ValueError):
        return None


@functools.cache
def _session_and_user_sql(alias: str) -> str:
    """The session row of a key, unexpired, with its user's columns (NULL when none)."""
    from project.accounts.models import User, UserSession

    quote = connections[alias].ops.quote_name
    columns = ", ".join(f"u.{quote(str(f.column))}" for f in User._meta.concrete_fields)
    return (
        f"SELECT s.session_data, {columns} FROM {quote(UserSession._meta.db_table)} s "  # noqa: S608  (the models' tables and columns; values bound)
        f"LEFT JOIN {quote(User._meta.db_table)} u "
        f"ON u.{quote(str(User._meta.pk.column))} = s.user_id "
        "WHERE s.session_key = %s AND s.expire_date > %s"
    )


class SessionStore(DatabaseSessionStore):
    # The user of the session's row as read with it (None: no row, no user, or not read yet);
    # whoever uses it checks it is the user the session's data names.
    joined_user: Any = None

    @classmethod
    def get_model_class(cls) -> type[AbstractBaseSession]:
        from project.accounts.models import UserSession

        return UserSession

    def _get_session_from_db(self) -> AbstractBaseSession | None:
        """The unexpired row of this key, as Django's ``get`` reads it; None (and no key
        any more, as there) when there is none. Its user, when the row names one that
        exists, is kept as ``joined_user``."""
        from project.accounts.models import User

        model = self.get_model_class()
        # The database the ORM's get would read (a router may choose another than default).
        connection = connections[router.db_for_read(model)]
        with connection.cursor() as cursor:
            cursor.execute(
                _session_and_user_sql(connection.alias),
                [self.session_key, connection.ops.adapt_datetimefield_value(timezone.now())],
            )
            row = cursor.fetchone()
        self.joined_user = None
        if row is None:
            self._session_key = None
            return None
        if row[1] is not None:
            self.joined_user = from_row(User, connection, list(row[1:]))
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
