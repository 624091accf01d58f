"""Round trips that go together: the requests made while one is out are sent in the next.

Hundreds of sockets reconnecting at once (a process restarted, its sockets handed over) each
read their groups' positions and charge their replay to their user. One round trip to Redis
apiece holds one of the process's pooled connections for as long as the saturated event loop
takes to come back to it; the pool runs dry and the sockets waiting for it are closed as
unavailable, into the next storm. Coalesced, the first request goes out at once (nothing waits
when the process is quiet), and every request made while it is out goes in one pipeline after
it: the number of round trips follows the time the storm lasts, not the number of sockets.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

Request = TypeVar("Request")
Answer = TypeVar("Answer")


class Coalesced(Generic[Request, Answer]):
    """``await coalesced(request)``: ``run`` answers a list of requests in their order, in one
    round trip. A request is always in a round trip that starts after it was made (a read
    made after a socket joined its group sees what was published before that)."""

    def __init__(self, run: Callable[[Sequence[Request]], Awaitable[Sequence[Answer]]]) -> None:
        self._run = run
        self._waiting: list[tuple[Request, asyncio.Future[Answer]]] = []
        self._sender: asyncio.Task[None] | None = None

    async def __call__(self, request: Request) -> Answer:
        answer: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._waiting.append((request, answer))
        if self._sender is None:
            self._sender = asyncio.create_task(self._send(), name="realtime-coalesced")
        return await answer

    async def _send(self) -> None:
        batch: list[tuple[Request, asyncio.Future[Answer]]] = []
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                try:
                    answers = await self._run([request for request, _ in batch])
                except Exception as error:
                    for _, answer in batch:
                        if not answer.done():
                            answer.set_exception(error)
                    continue
                for (_, answer), found in zip(batch, answers, strict=True):
                    if not answer.done():
                        answer.set_result(found)
        finally:
            # Cancelled with the loop: nobody is left waiting for an answer that never comes.
            self._sender = None
            for _, answer in [*batch, *self._waiting]:
                if not answer.done():
                    answer.cancel()
            self._waiting = []
