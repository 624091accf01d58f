from __future__ import annotations

from typing import Any

from tests.builders import nomination_body
from tests.helpers import ApiClient


def nominate(client: ApiClient, **overrides: Any) -> dict[str, Any]:
    response = client.post("/api/nominations", nomination_body(**overrides))
    assert response.status_code == 201, response.content
    return response.json()
