"""The event catalogue and the envelope's encoding (no socket, no database)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from realtime.events import Event


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"type": "profile.changed", "sport": "soccer"}, "may go to"),
        ({"type": "notification.created", "user_ids": (1,), "admins": True}, "may go to"),
        ({"type": "moderation.changed", "sport": "soccer"}, "may go to"),
        ({"type": "vote.changed", "user_ids": (1,)}, "may go to"),
        ({"type": "vote.changed"}, "names no audience"),
        ({"type": "vote.cast", "sport": "soccer"}, "Unknown live event type"),
    ],
)
def test_the_catalogue_refuses_an_audience_wider_than_its_event(
    kwargs: dict[str, Any], error: str
) -> None:
    event_type = kwargs.pop("type")
    with pytest.raises(ValueError, match=error):
        Event(event_type, {}, **kwargs)


def test_a_per_viewer_key_is_never_broadcast() -> None:
    with pytest.raises(ValueError, match="hasVoted"):
        Event("nomination.updated", {"id": 1, "hasVoted": True}, sport="soccer")
    with pytest.raises(ValueError, match="hasVoted"):
        Event("profile.changed", {"hasVoted": True}, user_ids=(5,))


def test_vote_own_carries_has_voted_to_its_one_user_only() -> None:
    own = {"nominationId": 1, "hasVoted": True, "voteCount": 3, "version": 7}
    assert Event("vote.own", own, user_ids=(5,)).groups() == ["user.5"]
    with pytest.raises(ValueError, match="hasVoted"):
        Event("vote.own", own, user_ids=(5, 6))
    with pytest.raises(ValueError, match="may go to"):
        Event("vote.own", own, sport="soccer")


def test_the_envelope_encodes_its_data_once_and_its_group_per_copy() -> None:
    envelope = Event(
        "nomination.removed", {"id": 4, "name": "Zoë"}, sport="soccer", admins=True
    ).envelope()
    texts = [envelope.head(group) + "17" + envelope.tail for group in ("sport.soccer", "admins")]
    assert [json.loads(text) for text in texts] == [
        {
            "type": "nomination.removed",
            "group": group,
            "seq": 17,
            "sport": "soccer",
            "data": {"id": 4, "name": "Zoë"},
        }
        for group in ("sport.soccer", "admins")
    ]
    assert list(json.loads(texts[0])) == ["type", "group", "seq", "sport", "data"]


def test_a_private_event_has_no_sport_key() -> None:
    envelope = Event("profile.changed", {"points": 3}, user_ids=(5, 5)).envelope()
    assert Event("profile.changed", {}, user_ids=(5, 5)).groups() == ["user.5"]
    assert json.loads(envelope.head("user.5") + "1" + envelope.tail) == {
        "type": "profile.changed",
        "group": "user.5",
        "seq": 1,
        "data": {"points": 3},
    }
