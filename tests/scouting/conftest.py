from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import pytest

from project.accounts.models import User
from project.scouting import services
from project.scouting.models import Nomination, NominationStatus
from realtime.merge import get_merger
from realtime.publish import Event
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
    nomination = services.nomination_create(user=user, **values)
    if status != NominationStatus.PENDING:
        Nomination.objects.filter(pk=nomination.pk).update(status=status)
        nomination.status = status
    return nomination


@dataclass
class EventRecorder:
    """The events the publishing services handed to the transport, in order."""

    events: list[Event] = field(default_factory=list)

    def record(self, event: Event) -> None:
        self.events.append(event)

    def settle(self) -> None:
        """Wait for the vote counts the live layer holds for its window (realtime/merge.py)."""
        assert get_merger().drain(), "vote counts still held"

    def types(self) -> list[str]:
        self.settle()
        return [event.type for event in self.events]

    def of_type(self, event_type: str) -> list[Event]:
        self.settle()
        return [event for event in self.events if event.type == event_type]

    def one(self, event_type: str) -> Event:
        found = self.of_type(event_type)
        assert len(found) == 1, self.types()
        return found[0]

    def clear(self) -> None:
        self.events.clear()


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> EventRecorder:
    recorder = EventRecorder()
    recorder.settle()  # nothing held from an earlier test lands in this one
    monkeypatch.setattr("realtime.broadcast.broadcast", recorder.record)
    return recorder
