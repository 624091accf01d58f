"""A daphne process's graceful stop: on SIGTERM it drains instead of dropping every socket.

1. It stops accepting: its listening ports close, so nginx sends new sockets (and the clients
   coming back) to the other websocket processes.
2. It closes its open sockets with 1001 ("going away"), in a random order spread over
   ``REALTIME_DRAIN_SECONDS`` less ``GRACE`` (3 s: the last close handshakes' time): the
   clients reconnect elsewhere a few at a time and resume from their cursors (no gap, no
   duplicate), instead of all at once.
3. It drops the work still queued for the threads of ``sync_to_async`` (handshakes of sockets
   that will never be served) and stops the reactor, so it exits within the window.

A second SIGTERM (or SIGINT) stops the reactor at once.

On SIGUSR1 the process hands its sockets over instead, and keeps serving: it closes the
sockets open at that moment with 1001 in the same spread, and goes on accepting. Their clients
come back through nginx and resume from their cursors: after nginx is reloaded they move from
its old workers to the new ones (which otherwise close them at ``worker_shutdown_timeout``, all
at once and without a close frame), and after a rolling restart they even out between the
processes (nginx sends each to the least busy one, where the restarts left one process holding
every socket).

Installed by project/asgi.py when it runs under daphne (Twisted's reactor); other servers keep
their own signal handling.
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
_task: list[asyncio.Task[None]] = []  # the drain or hand-over under way, held until it ends


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
    it starts, which would stop the process at once). A SIGUSR1 before then is ignored (its
    default would end the process): there is nothing to hand over yet."""
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)
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

    def on_usr1(signum: int, frame: Any) -> None:
        reactor.callFromThread(_start_hand_over)

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGUSR1, on_usr1)


def _start() -> None:
    _task.append(asyncio.ensure_future(drain(settings.REALTIME_DRAIN_SECONDS)))


def _start_hand_over() -> None:
    task = asyncio.ensure_future(hand_over(settings.REALTIME_DRAIN_SECONDS))
    _task.append(task)
    task.add_done_callback(_task.remove)


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
    await _close_spread(sockets, spread, draining_only=False)
    # Sockets whose handshake was under way when the ports closed.
    for consumer in list(_sockets):
        await _close(consumer)
    deadline = started + max(window - 0.2, 0.0)
    while _sockets and loop.time() < deadline:  # until their close handshakes end
        await asyncio.sleep(TICK)
    _drop_queued_work()
    reactor.stop()


async def hand_over(window: float) -> None:
    """Close every socket open now with 1001 spread over the window, and keep serving (the
    clients come back to whichever process nginx sends them to, this one included). A stop
    that begins meanwhile takes over: its own drain closes the rest."""
    if _state["draining"]:
        return
    sockets = list(_sockets)
    random.shuffle(sockets)
    spread = max(0.0, window - GRACE)
    logger.info("Handing %d sockets over, in %.1f s", len(sockets), spread)
    await _close_spread(sockets, spread, draining_only=True)


async def _close_spread(sockets: list[Any], spread: float, *, draining_only: bool) -> None:
    """Close ``sockets`` in their order, evenly over ``spread`` seconds (those gone already
    are skipped); with ``draining_only``, stop once the process begins to drain."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    for index, consumer in enumerate(sockets):
        due = started + spread * index / max(1, len(sockets))
        if due - loop.time() > TICK:
            await asyncio.sleep(due - loop.time())
        if draining_only and _state["draining"]:
            return
        if consumer in _sockets:
            await _close(consumer)


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
