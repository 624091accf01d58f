"""Every non-2xx answer under /api/ is the one JSON error body, also the ones made before any
API code runs. Found by the schemathesis run: these came back as HTML or
as 500s."""

from __future__ import annotations

import re

import pytest

from project.api import api
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db


def _paths() -> dict[str, set[str]]:
    schema = api.get_openapi_schema()
    return {
        path: {method.upper() for method in operations}
        for path, operations in schema["paths"].items()
    }


def test_a_method_a_path_does_not_serve_answers_json_405_with_allow(scout_api: ApiClient) -> None:
    for path, methods in _paths().items():
        url = re.sub(r"\{[^}]+\}", "1", path)
        response = scout_api.request("PATCH", url)
        body = assert_error(response, 405, "Method not allowed")
        assert body["code"] == "method_not_allowed"
        assert response["Content-Type"].startswith("application/json"), url
        assert set(response["Allow"].split(", ")) == methods, url


def test_a_body_over_the_upload_limit_is_a_400_not_a_500(scout_api: ApiClient) -> None:
    response = scout_api.post("/api/nominations", {"name": "x" * 3_000_000})
    assert assert_error(response, 400, "Request body too large")["code"] == "request_too_large"


def test_too_many_query_fields_is_a_400_not_a_500(scout_api: ApiClient) -> None:
    query = "&".join(f"f{i}=1" for i in range(1100))
    response = scout_api.get(f"/api/nominations?{query}")
    assert assert_error(response, 400, "Too many fields")["code"] == "too_many_fields"


def test_an_encoded_newline_in_an_api_path_is_a_json_404(scout_api: ApiClient) -> None:
    response = scout_api.get("/api/users/1%0A3")
    assert_error(response, 404)
    assert response["Content-Type"].startswith("application/json")


def test_a_bad_host_header_is_a_json_400(scout_api: ApiClient) -> None:
    response = scout_api.get("/api/auth/me", HTTP_HOST="evil.example")
    assert_error(response, 400, "Bad request")
    assert response["Content-Type"].startswith("application/json")
