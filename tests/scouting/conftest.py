from __future__ import annotations

import itertools
from typing import Any

from project.accounts.models import User
from project.scouting.models import Nomination, NominationStatus
from project.scouting.services import nominations
from tests.helpers import ApiClient

_names = itertools.count(1)


def nomination_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Zoë Núñez",
        "age": 16,
        "position": "Striker",
        "nationality": "Spain",
        "club": "FC Valencia Youth",
        "sport": "football",
        "skills": "Pace, finishing",
        "videoLink": "https://video.example/zoe",
    }
    body.update(overrides)
    return body


def nominate(client: ApiClient, **overrides: Any) -> dict[str, Any]:
    response = client.post("/api/nominations", nomination_body(**overrides))
    assert response.status_code == 201, response.content
    return response.json()


def make_nomination(
    user: User, *, status: str = NominationStatus.PENDING, **fields: Any
) -> Nomination:
    """A nomination created through the service, with a unique player name."""
    values: dict[str, Any] = {
        "name": f"Player {next(_names)}",
        "age": 15,
        "graduation_year": None,
        "position": "Guard",
        "nationality": "Canada",
        "club": "Toronto Academy",
        "sport": "football",
        "skills": "Vision",
        "video_link": "",
    }
    values.update(fields)
    nomination = nominations.nomination_create(user=user, **values)
    if status != NominationStatus.PENDING:
        Nomination.objects.filter(pk=nomination.pk).update(status=status)
        nomination.status = status
    return nomination
