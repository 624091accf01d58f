"""The one audience rule of nomination.created, nomination.updated and nomination.removed
(project/scouting/services/audience.py): the sport's group while the community sees the
nomination, admins and its nominator while it is not taken down, and a removal to those of
them who no longer see it."""

from __future__ import annotations

from typing import Literal

import pytest

from project.scouting.models import Nomination, NominationStatus
from project.scouting.services.audience import nomination_event, nomination_removed
from realtime.publish import Event

NOMINATOR = 7
SHOWN: tuple[Literal["nomination.created", "nomination.updated"], ...] = (
    "nomination.created",
    "nomination.updated",
)


def nomination(status: str, sport: str = "soccer") -> Nomination:
    return Nomination(id=3, status=status, sport=sport, nominated_by_id=NOMINATOR)


def audience(event: Event | None) -> tuple[str | None, tuple[int, ...], bool] | None:
    return None if event is None else (event.sport, event.user_ids, event.admins)


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (NominationStatus.PENDING, ("soccer", (NOMINATOR,), True)),
        (NominationStatus.APPROVED, ("soccer", (NOMINATOR,), True)),
        (NominationStatus.REJECTED, (None, (NOMINATOR,), True)),
        (NominationStatus.REMOVED, (None, (NOMINATOR,), True)),
        (NominationStatus.HIDDEN, None),
    ],
)
def test_created_and_updated_go_to_whoever_sees_it(status: str, expected: object) -> None:
    for event_type in SHOWN:
        event = nomination_event(event_type, nomination(status), {"id": 3})
        assert audience(event) == expected
        assert event is None or event.type == event_type


def test_a_deleted_nomination_leaves_everyone_who_saw_it() -> None:
    live = nomination_removed(nomination(NominationStatus.APPROVED), deleted=True)
    assert live is not None and live.data == {"id": 3}
    assert audience(live) == ("soccer", (NOMINATOR,), True)
    rejected = nomination_removed(nomination(NominationStatus.REJECTED), deleted=True)
    assert audience(rejected) == (None, (NOMINATOR,), True)
    assert nomination_removed(nomination(NominationStatus.HIDDEN), deleted=True) is None


@pytest.mark.parametrize("now", [NominationStatus.REJECTED, NominationStatus.REMOVED])
def test_leaving_the_community_removes_it_from_the_sport_alone(now: str) -> None:
    event = nomination_removed(nomination(now), status_was=NominationStatus.PENDING)
    assert audience(event) == ("soccer", (), False)


def test_a_taken_down_nomination_leaves_every_list() -> None:
    hidden = nomination(NominationStatus.HIDDEN)
    assert audience(nomination_removed(hidden, status_was=NominationStatus.APPROVED)) == (
        "soccer",
        (NOMINATOR,),
        True,
    )
    assert audience(nomination_removed(hidden, status_was=NominationStatus.REJECTED)) == (
        None,
        (NOMINATOR,),
        True,
    )


def test_a_sport_change_removes_it_from_the_old_sport_only() -> None:
    moved = nomination(NominationStatus.PENDING, sport="hockey")
    assert audience(nomination_removed(moved, sport_was="soccer")) == ("soccer", (), False)
    rejected = nomination(NominationStatus.REJECTED, sport="hockey")
    assert nomination_removed(rejected, sport_was="soccer") is None
