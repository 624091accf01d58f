"""seq rises by one per group; nothing leaves before commit, nothing for a rollback."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction

from realtime.events import Event
from realtime.publish import publish
from tests.helpers import ApiClient
from tests.realtime.live import send_now, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]


def vote(nomination_id: int, count: int = 1) -> Event:
    # vote.changed as published (its model is checked in the tests), one count in it.
    votes = [{"nominationId": nomination_id, "voteCount": count, "version": count}]
    return Event("vote.changed", {"votes": votes}, sport="soccer")


async def test_seq_rises_by_one_without_gaps_whoever_publishes(scout_api: ApiClient) -> None:
    socket, positions = await signed_in(scout_api, sport="soccer")
    assert positions["sport.soccer"] == 0

    def publisher(first: int) -> None:
        for nomination_id in range(first, first + 20):
            send_now(vote(nomination_id))

    await asyncio.gather(*(asyncio.to_thread(publisher, first) for first in (0, 100, 200)))

    received = [await socket.receive_type("vote.changed") for _ in range(60)]
    assert [message["seq"] for message in received] == list(range(1, 61))
    ids = [message["data"]["votes"][0]["nominationId"] for message in received]
    assert sorted(ids) == [*range(0, 20), *range(100, 120), *range(200, 220)]
    for first in (0, 100, 200):  # each publisher's own order is kept
        own = [i for i in ids if first <= i < first + 20]
        assert own == sorted(own)
    assert await socket.nothing()
    await socket.close()


async def test_each_group_has_its_own_sequence(scout_api: ApiClient, admin_api: ApiClient) -> None:
    scout_socket, _ = await signed_in(scout_api, sport="soccer")
    admin_socket, _ = await signed_in(admin_api)
    send_now(Event("moderation.changed", {"pending": 1}, admins=True))
    send_now(Event("moderation.changed", {"pending": 2}, admins=True))
    send_now(Event("nomination.removed", {"id": 3}, sport="soccer", admins=True))

    removed = await scout_socket.receive_type("nomination.removed")
    assert (removed["group"], removed["seq"]) == ("sport.soccer", 1)
    admin_seqs = [(await admin_socket.receive())["seq"] for _ in range(3)]
    assert admin_seqs == [1, 2, 3]
    await scout_socket.close()
    await admin_socket.close()


async def test_a_rolled_back_write_publishes_nothing(scout_api: ApiClient) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")

    def write(*, fail: bool) -> None:
        with transaction.atomic():
            publish(vote(1, count=5))
            if fail:
                raise RuntimeError("the write failed")

    with pytest.raises(RuntimeError):
        await sync_to_async(write)(fail=True)
    assert await socket.nothing()

    await sync_to_async(write)(fail=False)
    event = await socket.receive_type("vote.changed")
    # Not even a number was taken by the rolled-back one.
    assert (event["seq"], event["data"]["votes"][0]["voteCount"]) == (1, 5)
    await socket.close()


async def test_an_event_leaves_only_once_the_transaction_commits(scout_api: ApiClient) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")
    published = threading.Event()
    release = threading.Event()

    def write() -> None:
        with transaction.atomic():
            publish(vote(2))
            published.set()
            release.wait(5)

    writing = asyncio.ensure_future(sync_to_async(write)())
    await asyncio.to_thread(published.wait, 5)
    assert await socket.nothing()
    release.set()
    await writing
    assert (await socket.receive_type("vote.changed"))["seq"] == 1
    await socket.close()
