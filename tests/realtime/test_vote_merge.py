"""vote.changed and the feed's activity merged per sport window (realtime/merge.py): real
votes, real sockets."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections

from project.accounts.models import User
from project.scouting.models import Activity, ActivityType
from project.scouting.services import votes
from realtime.events import Event
from realtime.merge import VoteMerger, reset_merger
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient
from tests.realtime.live import Socket, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]


@pytest.fixture
def window(settings: Any) -> Iterator[Any]:
    """Set REALTIME_VOTE_WINDOW (and REALTIME_ACTIVITY_DELAY, 0 unless given, and
    REALTIME_ACTIVITY_WINDOW, the vote window's unless given) for one test (the merger reads
    them when made)."""

    def set_window(
        seconds: float, activity_delay: float = 0.0, activity_window: float | None = None
    ) -> None:
        settings.REALTIME_VOTE_WINDOW = seconds
        settings.REALTIME_ACTIVITY_DELAY = activity_delay
        settings.REALTIME_ACTIVITY_WINDOW = seconds if activity_window is None else activity_window
        reset_merger()

    yield set_window
    reset_merger()


async def collect(
    socket: Socket,
    seconds: float,
    types: tuple[str, ...] = ("vote.changed",),
    until: str | None = None,
) -> list[dict[str, Any]]:
    """The messages of ``types`` (vote.changed) received within ``seconds``, or up to the first
    of type ``until``."""
    received = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        # receive_nothing() polls without cancelling the consumer (a receive timeout would).
        if await socket.communicator.receive_nothing(0.01):
            continue
        message = await socket.receive(presence=True)
        if message["type"] in types:
            received.append(message)
            if message["type"] == until:
                break
    return received


def counts_in(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [vote for message in messages for vote in message["data"]["votes"]]


async def test_a_single_vote_goes_out_at_once(
    window: Any, scout: User, scout_api: ApiClient, other_scout: User
) -> None:
    window(30)  # a window far longer than the wait below: the first vote is not held
    nomination = await asyncio.to_thread(make_nomination, other_scout, sport="soccer")
    socket, _ = await signed_in(scout_api, sport="soccer")

    response = await asyncio.to_thread(
        scout_api.post, "/api/votes", {"nominationId": nomination.pk}
    )
    assert response.status_code == 201

    received = await collect(socket, 1.5)
    assert [message["data"] for message in received] == [
        {"votes": [{"nominationId": nomination.pk, "voteCount": 1, "version": 1}]}
    ]
    await socket.close()


async def test_a_burst_is_merged_into_few_frames_ending_at_the_final_counts(
    window: Any, scout_api: ApiClient, other_scout: User
) -> None:
    seconds = 0.3
    window(seconds)

    def world() -> tuple[list[int], list[User]]:
        nominations = [make_nomination(other_scout, sport="soccer").pk for _ in range(3)]
        return nominations, [make_user(name=f"Fan {n}") for n in range(40)]

    nominations, fans = await asyncio.to_thread(world)
    socket, positions = await signed_in(scout_api, sport="soccer")

    def burst() -> None:
        try:
            for fan, nomination_id in zip(fans, itertools.cycle(nominations), strict=False):
                votes.vote_cast(user=fan, nomination_id=nomination_id)
                # Real time between votes: the merge window under test runs on time.monotonic.
                time.sleep(0.01)
        finally:
            connections.close_all()

    started = time.monotonic()
    listening = asyncio.ensure_future(collect(socket, 3.0))
    await asyncio.to_thread(burst)
    burst_seconds = time.monotonic() - started
    frames = await listening

    # The first vote at once, then at most one frame per window, then the trailing one.
    assert 2 <= len(frames) <= burst_seconds / seconds + 2, len(frames)
    assert len(frames) < len(fans) / 3
    counts = counts_in(frames)
    final = {
        nomination_id: (len(fans) + 2 - index) // 3
        for index, nomination_id in enumerate(nominations)
    }
    assert {vote["nominationId"]: vote["voteCount"] for vote in counts} == final
    for nomination_id in nominations:
        versions = [vote["version"] for vote in counts if vote["nominationId"] == nomination_id]
        assert versions == sorted(set(versions))
        assert versions[-1] == final[nomination_id]
    # One seq per frame, in order (the sport group's other events, activity and summaries,
    # take the seqs in between).
    seqs = [frame["seq"] for frame in frames]
    assert seqs == sorted(set(seqs))

    # Replay serves the merged frames as they were sent.
    late, _ = await signed_in(scout_api, sport="soccer")
    await late.send({"type": "resume", "cursors": {"sport.soccer": positions["sport.soccer"]}})
    replayed = []
    while (message := await late.receive(timeout=5))["type"] != "resumed":
        if message["type"] == "vote.changed":
            replayed.append(message)
    assert replayed == frames
    await late.close()
    await socket.close()


async def test_a_votes_activity_follows_its_count_and_takes_the_others_of_its_delay(
    window: Any, scout_api: ApiClient, other_scout: User
) -> None:
    window(0.05)  # the nomination's own activity opens a window that is soon over

    def world() -> tuple[int, list[User]]:
        return make_nomination(other_scout, sport="soccer").pk, [
            make_user(name=f"Fan {n}") for n in range(2)
        ]

    nomination_id, fans = await asyncio.to_thread(world)
    await asyncio.sleep(0.3)
    # Windows far longer than the test: only the delay sends the activity, and the second vote
    # comes well within it.
    window(30, activity_delay=2.0)
    socket, _ = await signed_in(scout_api, sport="soccer")

    def vote(fan: User) -> None:
        try:
            votes.vote_cast(user=fan, nomination_id=nomination_id)
        finally:
            connections.close_all()

    kinds = ("vote.changed", "activity.created", "activity.batch")
    # The first count at once, before any activity. (Cast together, both votes could reach the
    # merger before its thread sends the first: it then sends the newest count, 2.)
    await asyncio.to_thread(vote, fans[0])
    first = await collect(socket, 2.0, types=kinds, until="vote.changed")
    assert [frame["type"] for frame in first] == ["vote.changed"], first
    assert first[0]["data"]["votes"][0]["voteCount"] == 1

    # The second vote's count waits for the window; its activity joins the first's delay:
    # both activities together, once, after the count.
    await asyncio.to_thread(vote, fans[1])
    later = await collect(socket, 3.0, types=kinds)
    assert [frame["type"] for frame in later] == ["activity.batch"], later
    assert [item["userId"] for item in later[0]["data"]["items"]] == [fan.pk for fan in fans]
    assert first[0]["seq"] < later[0]["seq"]
    await socket.close()


@pytest.mark.parametrize(
    ("seconds", "activity_seconds"),
    [(0.3, 0.3), (0.05, 0.6)],
    ids=["one-window", "activity-window-longer"],
)
async def test_a_bursts_activity_goes_in_few_frames_every_item_once_in_order(
    window: Any, scout_api: ApiClient, other_scout: User, seconds: float, activity_seconds: float
) -> None:
    window(seconds, activity_window=activity_seconds)

    def world() -> tuple[int, list[User]]:
        return make_nomination(other_scout, sport="soccer").pk, [
            make_user(name=f"Fan {n}") for n in range(30)
        ]

    nomination_id, fans = await asyncio.to_thread(world)
    socket, positions = await signed_in(scout_api, sport="soccer")
    # The nomination's own activity opened a window: the burst starts in a new one.
    await asyncio.sleep(activity_seconds)

    def burst() -> None:
        try:
            for fan in fans:
                votes.vote_cast(user=fan, nomination_id=nomination_id)
                time.sleep(0.01)  # real time between votes: the window runs on time.monotonic
        finally:
            connections.close_all()

    started = time.monotonic()
    listening = asyncio.ensure_future(
        collect(socket, 3.0, types=("activity.created", "activity.batch", "vote.changed"))
    )
    await asyncio.to_thread(burst)
    burst_seconds = time.monotonic() - started
    received = await listening
    frames = [frame for frame in received if frame["type"] != "vote.changed"]
    counts = [frame for frame in received if frame["type"] == "vote.changed"]

    # The first activity at once (alone), the rest at most one frame per activity window,
    # whatever the count's window.
    assert frames[0]["type"] == "activity.created"
    assert 2 <= len(frames) <= burst_seconds / activity_seconds + 2, len(frames)
    assert len(frames) < len(fans) / 3
    if activity_seconds > seconds:
        # The counts kept their own, shorter window: more frames than the feed's.
        assert len(counts) > len(frames), (len(counts), len(frames))
        assert counts_in(counts)[-1]["voteCount"] == len(fans)
    items = [
        item
        for frame in frames
        for item in (
            frame["data"]["items"] if frame["type"] == "activity.batch" else [frame["data"]]
        )
    ]

    def cast() -> list[int]:
        rows = Activity.objects.filter(
            activity_type=ActivityType.VOTE_CAST, related_nomination_id=nomination_id
        )
        return list(rows.order_by("id").values_list("id", flat=True))

    # Every vote's activity exactly once, oldest first, as the feed would have had them.
    assert [item["id"] for item in items] == await asyncio.to_thread(cast)
    assert {item["userId"] for item in items} == {fan.pk for fan in fans}

    # Replay serves the merged frames as they were sent.
    late, _ = await signed_in(scout_api, sport="soccer")
    await late.send({"type": "resume", "cursors": {"sport.soccer": positions["sport.soccer"]}})
    replayed = []
    while (message := await late.receive(timeout=5))["type"] != "resumed":
        if message["type"] in ("activity.created", "activity.batch"):
            replayed.append(message)
    assert replayed == frames
    await late.close()
    await socket.close()


def test_a_send_that_fails_leaves_the_merger_sending_the_rest(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """One window's send failing (here an activity without its id) is logged; the merger's
    thread lives on and later counts still go out."""
    sent: list[Event] = []
    monkeypatch.setattr("realtime.broadcast.broadcast_now", lambda *events: sent.extend(events))
    merger = VoteMerger(window=0.01)
    try:
        merger.add_activity("soccer", {"kind": "no id"})
        assert merger.drain()
        merger.add("soccer", 7, vote_count=3, version=3)
        assert merger.drain()
    finally:
        merger.stop()
    assert [event.data for event in sent] == [
        {"votes": [{"nominationId": 7, "voteCount": 3, "version": 3}]}
    ]
    assert "Could not send the merged activity of soccer" in caplog.text
