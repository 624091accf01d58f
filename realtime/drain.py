"""A daphne process's graceful stop: on SIGTERM it drains instead of dropping every socket.

1. It stops accepting: its listening ports close, so nginx sends new sockets (and the clients
   coming back) to the other websocket processes.
2. It closes its open sockets with 1001 ("going away"), in a random order spread over
   ``REALTIME_DRAIN_SECONDS`` less ``GRACE`` (3 s: the last close handshakes' time): the
   clients reconnect elsewhere a few at a time and resume from their cursors (no gap, no
   duplicate), instead of all at once.
3. It drops the work still queued for the threads of ``sync_to_async`` (handshakes of sockets
   that will never be served) and stops the reactor, so it exits within the window.

A second SIGTERM (or SIGINT) stops the reactor at once. Installed by project/asgi.py when it
runs under daphne (Twisted's reactor); other servers keep their own signal handling.
"""

from __future__ import annotations

import asyncio
import logging
import random
import signal
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from django.conf import settings

logger = logging.getLogger(__name__)

# Seconds a drained socket's client has to answer the close frame before the connection is
# dropped (autobahn's default is 1 s): a client that is a little behind on its reading (a busy
# phone, a reconnect storm on the machine) still reads the 1001 and reconnects at once; a
# dropped connection reaches it, through nginx, as 1006 and the slower reconnect after it.
CLOSE_HANDSHAKE_TIMEOUT = 2.5
# Left at the end of the window for the last sockets' close handshakes and the reactor's stop.
GRACE = CLOSE_HANDSHAKE_TIMEOUT + 0.5
# The closes are batched per tick: one loop turn closes every socket due by then.
TICK = 0.05


class Drainable(Protocol):
    async def going_away(self) -> None: ...


_sockets: weakref.WeakSet[Any] = weakref.WeakSet()
_state = {"draining": False}
_task: list[asyncio.Task[None]] = []  # the drain under way, held until it ends


def draining() -> bool:
    return _state["draining"]


def register(consumer: Drainable) -> None:
    _sockets.add(consumer)


def unregister(consumer: Drainable) -> None:
    _sockets.discard(consumer)


def _reactor() -> Any:
    """Twisted's reactor (daphne's, installed before the application loads)."""
    from twisted.internet import reactor

    return reactor


def install() -> None:
    """Take SIGTERM over from Twisted once the reactor runs (it installs its own handlers as
    it starts, which would stop the process at once)."""
    _reactor().callWhenRunning(_take_signals)


def _take_signals() -> None:
    reactor = _reactor()

    def on_term(signum: int, frame: Any) -> None:
        if _state["draining"]:
            logger.info("A second stop signal: stopping at once")
            reactor.callFromThread(reactor.stop)
            return
        _state["draining"] = True
        reactor.callFromThread(_start)

    signal.signal(signal.SIGTERM, on_term)


def _start() -> None:
    _task.append(asyncio.ensure_future(drain(settings.REALTIME_DRAIN_SECONDS)))


async def drain(window: float) -> None:
    """Stop accepting, close every socket with 1001 spread over the window, then stop."""
    reactor = _reactor()

    _state["draining"] = True
    _stop_listening()
    loop = asyncio.get_running_loop()
    sockets = list(_sockets)
    random.shuffle(sockets)
    spread = max(0.0, window - GRACE)
    logger.info("Draining %d sockets over %.1f s", len(sockets), spread)
    started = loop.time()
    for index, consumer in enumerate(sockets):
        due = started + spread * index / max(1, len(sockets))
        if due - loop.time() > TICK:
            await asyncio.sleep(due - loop.time())
        await _close(consumer)
    # Sockets whose handshake was under way when the ports closed.
    for consumer in list(_sockets):
        await _close(consumer)
    deadline = started + max(window - 0.2, 0.0)
    while _sockets and loop.time() < deadline:  # until their close handshakes end
        await asyncio.sleep(TICK)
    _drop_queued_work()
    reactor.stop()


async def _close(consumer: Drainable) -> None:
    try:
        await consumer.going_away()
    except Exception:
        logger.exception("Closing a socket while draining failed")


def _stop_listening() -> None:
    """Close the reactor's listening ports (daphne's endpoints); open connections stay."""
    from twisted.internet import tcp

    for reader in list(_reactor().getReaders()):
        if isinstance(reader, tcp.Port):
            reader.stopListening()


def _drop_queued_work() -> None:
    """Cancel calls queued for ``sync_to_async``'s threads that have not started.

    Every handshake's session and user lookup waits its turn for asgiref's one thread
    (thread-sensitive calls); at exit, Python runs every queued call before it lets the
    process go, so a process stopped during a reconnect storm took seconds per hundred
    queued handshakes to exit.
    """
    from asgiref.sync import SyncToAsync

    executors: list[ThreadPoolExecutor] = [SyncToAsync.single_thread_executor]
    default = getattr(asyncio.get_running_loop(), "_default_executor", None)
    if isinstance(default, ThreadPoolExecutor):
        executors.append(default)
    for executor in executors:
        executor.shutdown(wait=False, cancel_futures=True)
