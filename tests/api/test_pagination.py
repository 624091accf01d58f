"""``@paginate``: the one ninja paginator every list operation uses (project.common.pagination).

The list endpoints' own tests check their pages; these check the decorator's three forms on a
throwaway router, and that every paged operation of the real API keeps the documented shape."""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db.models import QuerySet
from django.http import HttpRequest
from ninja import Query, Schema
from ninja.testing import TestClient

from project.accounts.models import User
from project.api import api
from project.common.pagination import Page, PageQuery, Pager, paginate
from project.common.router import Router
from tests.builders import make_user


class UserOut(Schema):
    id: int
    username: str


class NameQuery(Schema):
    prefix: str = ""


seen_kwargs: list[dict[str, Any]] = []
router = Router()


@router.get("/users", response=list[UserOut])
@paginate(ordering=("username", "id"))
def users(request: HttpRequest, query: Query[NameQuery]) -> QuerySet[User]:
    seen_kwargs.append({"query": query})
    return User.objects.filter(username__startswith=query.prefix)


class WrappedOut(Schema):
    items: list[UserOut]
    total: int


@router.get("/wrapped", response=WrappedOut)
@paginate(ordering=("-id",))
def wrapped(request: HttpRequest) -> dict[str, Any]:
    return {"items": User.objects.all(), "total": User.objects.count()}


def _numbers(*, page: PageQuery, upto: int) -> Page[Any]:
    start = int(page.cursor or 0)
    end = min(start + page.size(), upto)
    return Page(
        items=[{"n": n} for n in range(start, end)], next_cursor=str(end) if end < upto else None
    )


@router.get("/numbers", response=list[dict[str, int]])
@paginate()
def numbers(request: HttpRequest, upto: int = 5) -> Pager:
    return partial(_numbers, upto=upto)


client = TestClient(router)


def get(path: str, **params: Any) -> Any:
    return client.get(path, query_params={k: str(v) for k, v in params.items()})


def _next(response: Any) -> dict[str, list[str]] | None:
    link = response.headers.get("Link")
    if link is None:
        return None
    assert link.startswith("<") and link.endswith('>; rel="next"'), link
    return parse_qs(urlsplit(link[1 : link.index(">")]).query)


@pytest.mark.django_db
def test_a_queryset_is_paged_in_the_ordering_with_a_link_keeping_the_query() -> None:
    for name in ("amy", "bob", "abe", "ann", "al", "ava"):
        make_user(username=name)
    seen_kwargs.clear()
    first = get("/users", prefix="a", limit=2)
    assert first.status_code == 200
    assert [row["username"] for row in first.json()] == ["abe", "al"]
    query = _next(first)
    assert query is not None and query["prefix"] == ["a"] and query["limit"] == ["2"]
    second = get("/users", prefix="a", limit=2, cursor=query["cursor"][0])
    assert [row["username"] for row in second.json()] == ["amy", "ann"]
    query = _next(second)
    assert query is not None
    last = get("/users", prefix="a", limit=2, cursor=query["cursor"][0])
    assert [row["username"] for row in last.json()] == ["ava"]
    assert _next(last) is None
    # The operation got its own arguments only: no page, no response object.
    assert all(set(kwargs) == {"query"} for kwargs in seen_kwargs)


@pytest.mark.django_db
def test_limit_defaults_to_50_and_is_capped_at_200() -> None:
    response = get("/numbers", upto=260)
    assert len(response.json()) == 50
    assert _next(response) is not None
    response = get("/numbers", upto=260, limit=1000)
    assert len(response.json()) == 200


@pytest.mark.django_db
def test_a_pager_gets_the_page_and_its_cursor_becomes_the_link() -> None:
    response = get("/numbers", limit=3)
    assert response.json() == [{"n": 0}, {"n": 1}, {"n": 2}]
    query = _next(response)
    assert query is not None and query["cursor"] == ["3"]
    rest = get("/numbers", limit=3, cursor=3)
    assert rest.json() == [{"n": 3}, {"n": 4}]
    assert "Link" not in rest.headers


@pytest.mark.django_db
def test_a_dict_body_keeps_its_other_keys() -> None:
    ids = [make_user().pk for _ in range(3)]
    response = get("/wrapped", limit=2)
    body = response.json()
    assert [row["id"] for row in body["items"]] == [ids[2], ids[1]]
    assert body["total"] == 3
    assert _next(response) is not None


# Paged operations whose body is an object holding the page's items.
OBJECT_BODIES = {"/api/notifications", "/api/nominations/{nomination_id}/comments"}


def test_every_paged_operation_keeps_its_documented_shape() -> None:
    """limit and cursor as query parameters, nothing of the machinery leaking into the schema,
    and the body the operation declares (a JSON array, or an object holding the page's items)."""
    schema = api.get_openapi_schema()
    paged = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            params = {param["name"]: param for param in operation.get("parameters", [])}
            if "cursor" not in params:
                continue
            paged.append(f"{method.upper()} {path}")
            assert params["limit"]["in"] == "query" and params["cursor"]["in"] == "query"
            assert params["limit"]["schema"]["default"] == 50
            assert not {"response", "paginated_response", "ninja_pagination"} & set(params)
            ok = operation["responses"].get(200) or operation["responses"]["200"]
            body = ok["content"]["application/json"]["schema"]
            if path in OBJECT_BODIES:
                # The page's items sit beside the list's state (unread count, comments open).
                ref = body["$ref"].rsplit("/", 1)[1]
                properties = schema["components"]["schemas"][ref]["properties"]
                assert properties["items"]["type"] == "array", path
            else:
                assert body["type"] == "array", path
    assert {"GET /api/nominations", "GET /api/feed", "GET /api/users/scouts"} <= set(paged)
