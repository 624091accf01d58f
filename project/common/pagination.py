"""Keyset pagination for list calls.

A list call keeps its JSON array body, takes ``limit`` (default 50, at most 200) and an opaque
``cursor``, and puts the next page's address in a ``Link: <url>; rel="next"`` header. The cursor
holds the sort-key values of the last row served, so a page costs one indexed range scan
whatever its depth, and rows inserted meanwhile never shift later pages.

Usage in a router: ``@paginate(...)`` under the route decorator, and the operation returns
what to page, without ``limit``/``cursor`` parameters or a response argument of its own::

    @router.get("/items", response={200: list[ItemOut], codes_4xx: ErrorOut})
    @paginate(ordering=("-created_at", "-id"))
    def items(request, filters: Query[ItemQuery]):
        return Item.objects.filter(...)  # unordered: the ordering above pages it

It may also return a pager, a function of the ``PageQuery`` that answers a ``Page`` (for lists
that are not one queryset, or selectors that page themselves: ``partial(selector, ...)``), or a
dict whose ``"items"`` is either (for a body that is an object around the page).
"""

from __future__ import annotations

import base64
import inspect
import json
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from typing import Any, Generic, Protocol, TypeVar

from django.db import models
from django.http import HttpRequest, HttpResponse, QueryDict
from ninja.pagination import PaginationBase
from ninja.pagination import paginate as ninja_paginate
from pydantic import Field

from project.common.errors import ValidationFailed
from project.common.schemas import CamelSchema

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
INVALID_CURSOR = "Invalid cursor"

T = TypeVar("T", bound=models.Model)


class PageQuery(CamelSchema):
    limit: int = Field(
        DEFAULT_LIMIT,
        description=f"Page size (default {DEFAULT_LIMIT}; above {MAX_LIMIT} is capped)",
    )
    cursor: str | None = Field(
        None, description='Opaque position from the previous page\'s Link rel="next" header'
    )

    def size(self) -> int:
        return clamp_limit(self.limit)


def clamp_limit(limit: int, *, maximum: int = MAX_LIMIT) -> int:
    return max(1, min(limit, maximum))


@dataclass(frozen=True)
class Page(Generic[T]):
    items: list[T]
    next_cursor: str | None


def _split(ordering: Sequence[str]) -> list[tuple[str, bool]]:
    """("-created_at", "-id") -> [("created_at", True), ("id", True)] (True = descending)."""
    return [(key.removeprefix("-"), key.startswith("-")) for key in ordering]


def _encode(values: list[Any]) -> str:
    raw = json.dumps(values, default=str, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(cursor: str, model: type[models.Model], keys: list[tuple[str, bool]]) -> list[Any]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        values = json.loads(raw)
        if not isinstance(values, list) or len(values) != len(keys):
            raise ValueError(cursor)
        decoded = []
        for (name, _), value in zip(keys, values, strict=True):
            field = model._meta.get_field(name)
            if value is None or not isinstance(field, models.Field):
                raise ValueError(name)
            decoded.append(field.to_python(value))
        return decoded
    except Exception as exc:  # any malformed cursor: bad base64, JSON or field value
        raise ValidationFailed(
            INVALID_CURSOR, code="invalid_cursor", fields={"cursor": INVALID_CURSOR}
        ) from exc


def cursor_encode(values: list[Any]) -> str:
    """A cursor for a list paged by hand (not a queryset): the last served key values."""
    return _encode(values)


def cursor_decode(cursor: str, model: type[models.Model], names: Sequence[str]) -> list[Any]:
    """The key values of ``cursor``, typed by ``model``'s fields (400 "Invalid cursor")."""
    return _decode(cursor, model, [(name, False) for name in names])


def _after(keys: list[tuple[str, bool]], values: list[Any]) -> models.Q:
    """Rows strictly after ``values`` in the ordering: a lexicographic comparison written as
    (k1 > v1) OR (k1 = v1 AND k2 > v2) OR ..., with the first key also bounded on its own so
    the database can range-scan the index."""
    condition = models.Q()
    equal = models.Q()
    for (name, descending), value in zip(keys, values, strict=True):
        step = models.Q(**{f"{name}__{'lt' if descending else 'gt'}": value})
        condition |= equal & step
        equal &= models.Q(**{name: value})
    first_name, first_descending = keys[0]
    bound = models.Q(**{f"{first_name}__{'lte' if first_descending else 'gte'}": values[0]})
    return bound & condition


def keyset_paginate(
    queryset: models.QuerySet[T],
    *,
    ordering: Sequence[str],
    page: PageQuery | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> Page[T]:
    """One page of ``queryset`` in ``ordering``, which must end with a unique key (``id``).

    Costs one query: it fetches ``limit + 1`` rows to know whether a next page exists.
    """
    keys = _split(ordering)
    size = page.size() if page is not None else clamp_limit(limit or DEFAULT_LIMIT)
    position = page.cursor if page is not None else cursor
    if position:
        queryset = queryset.filter(_after(keys, _decode(position, queryset.model, keys)))
    rows = list(queryset.order_by(*ordering)[: size + 1])
    if len(rows) <= size:
        return Page(items=rows, next_cursor=None)
    rows = rows[:size]
    last = rows[-1]
    values = [getattr(last, "pk" if name == "id" else name) for name, _ in keys]
    encoded = [value.isoformat() if hasattr(value, "isoformat") else value for value in values]
    return Page(items=rows, next_cursor=_encode(encoded))


def next_link(request: HttpRequest, next_cursor: str | None) -> str | None:
    if next_cursor is None:
        return None
    query: QueryDict = request.GET.copy()
    query["cursor"] = next_cursor
    return f'<{request.path}?{query.urlencode()}>; rel="next"'


def set_next_link(request: HttpRequest, response: HttpResponse, next_cursor: str | None) -> None:
    """Put the next page's address in the ``Link`` header (nothing on the last page)."""
    link = next_link(request, next_cursor)
    if link is not None:
        response["Link"] = link


# --- The ninja paginator ------------------------------------------------------------------

# The operation's response object, passed to the paginator under this name for the Link header.
_RESPONSE_ARG = "paginated_response"
NEWEST_FIRST = ("-created_at", "-id")


class PageLike(Protocol):
    """What a pager answers: ``Page`` or any object with the same two attributes."""

    @property
    def items(self) -> Sequence[Any]: ...

    @property
    def next_cursor(self) -> str | None: ...


# A function of the page (called with ``page=PageQuery``) answering one page.
Pager = Callable[..., PageLike]


class KeysetPagination(PaginationBase):
    """django-ninja's paginator for ``keyset_paginate``: ``limit`` and ``cursor`` query
    parameters (``PageQuery``), the page as the plain JSON array the operation declares (no
    wrapping object: ``Output`` is None), the next page's address in the Link header."""

    Input = PageQuery  # type: ignore[assignment]
    Output = None  # type: ignore[assignment]

    def __init__(self, *, ordering: Sequence[str] = NEWEST_FIRST, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ordering = tuple(ordering)

    def _page(self, source: Any, page: PageQuery) -> PageLike:
        if isinstance(source, models.QuerySet):
            return keyset_paginate(source, ordering=self.ordering, page=page)
        if callable(source):
            result: PageLike = source(page=page)
            return result
        raise TypeError(f"@paginate needs a queryset or a pager, not {type(source).__name__}")

    def paginate_queryset(
        self, queryset: Any, pagination: PageQuery, request: HttpRequest, **params: Any
    ) -> Any:
        body = queryset
        source = body["items"] if isinstance(body, dict) else body
        page = self._page(source, pagination)
        set_next_link(request, params[_RESPONSE_ARG], page.next_cursor)
        items = list(page.items)
        return {**body, "items": items} if isinstance(body, dict) else items


def paginate(*, ordering: Sequence[str] = NEWEST_FIRST) -> Callable[[Callable[..., Any]], Any]:
    """``@paginate(ordering=...)`` under a route decorator: see the module docstring.
    ``ordering`` is the keyset order of a returned queryset and must end with a unique key."""

    def decorator(func: Callable[..., Any]) -> Any:
        # ninja hands a temporary response to an operation parameter annotated HttpResponse.
        # Declare one on the operation's behalf so the paginator (which receives the same
        # arguments) can set the Link header on it; the operation itself never sees it.
        hints = typing.get_type_hints(func, include_extras=True)
        signature = inspect.signature(func)
        parameters = [
            parameter.replace(annotation=hints.get(name, parameter.annotation))
            for name, parameter in signature.parameters.items()
        ]
        extra = inspect.Parameter(
            _RESPONSE_ARG, inspect.Parameter.KEYWORD_ONLY, annotation=HttpResponse
        )
        at = next(
            (i for i, p in enumerate(parameters) if p.kind is inspect.Parameter.VAR_KEYWORD),
            len(parameters),
        )
        parameters.insert(at, extra)

        @wraps(func)
        def operation(request: HttpRequest, **kwargs: Any) -> Any:
            kwargs.pop(_RESPONSE_ARG, None)
            return func(request, **kwargs)

        operation.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=parameters, return_annotation=hints.get("return", signature.empty)
        )
        return ninja_paginate(KeysetPagination, ordering=ordering)(operation)

    return decorator
