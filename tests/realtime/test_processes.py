"""The live layer across real daphne processes sharing Redis."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import time
import zlib
from typing import Any

import httpx
import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from devtools.wsframes import masked_frame, server_frames, split_frame, upgrade_request
from project.scouting.models import Nomination
from realtime.events import Event
from tests.builders import make_user, stored_nomination
from tests.helpers import ApiClient, unless_available
from tests.realtime.live import send_now, session_of
from tests.realtime.servers import HOST, daphne, rss_bytes

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    unless_available(
        not (os.environ.get("DATABASE_URL") and settings.REDIS_URL),
        reason="several processes share PostgreSQL and Redis",
    ),
]


@pytest.fixture
def nomination() -> Nomination:
    return stored_nomination(name="Pia Process", position="Goalkeeper")


async def test_a_vote_taken_by_one_process_reaches_a_socket_held_by_another(
    scout_api: ApiClient, other_api: ApiClient, nomination: Nomination
) -> None:
    with daphne() as (port_a, _), daphne() as (port_b, _):
        origin_b = f"http://{HOST}:{port_b}"
        async with connect(
            f"ws://{HOST}:{port_b}/ws/",
            origin=origin_b,  # type: ignore[arg-type]
            additional_headers={"Cookie": f"sessionid={session_of(other_api)}"},
        ) as ws:
            assert json.loads(await ws.recv())["type"] == "hello"
            await ws.send(json.dumps({"type": "subscribe", "sport": "soccer"}))
            assert json.loads(await ws.recv())["type"] == "subscribed"

            origin_a = f"http://{HOST}:{port_a}"
            cookies = {"sessionid": session_of(scout_api), "csrftoken": scout_api.csrf_token()}
            async with httpx.AsyncClient(base_url=origin_a, cookies=cookies) as http:
                response = await http.post(
                    "/api/votes",
                    json={"nominationId": nomination.pk},
                    headers={"X-CSRFToken": cookies["csrftoken"], "Origin": origin_a},
                )
            assert response.status_code == 201, response.text

            async def vote_changed() -> dict[str, Any]:
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] == "vote.changed":
                        return message

            message = await asyncio.wait_for(vote_changed(), 10)
            assert message["data"] == {
                "votes": [{"nominationId": nomination.pk, "voteCount": 1, "version": 1}]
            }


async def hello_socket(port: int, session_key: str) -> Any:
    """A signed-in socket on the daphne process at ``port``, once it has said hello."""
    ws = await connect(
        f"ws://{HOST}:{port}/ws/",
        origin=f"http://{HOST}:{port}",  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={session_key}"},
    )
    assert json.loads(await ws.recv())["type"] == "hello"
    return ws


async def test_a_logout_through_one_process_closes_the_users_sockets_held_by_another(
    scout_api: ApiClient, other_api: ApiClient
) -> None:
    """The control plane across processes: the logout goes through process A; the user's
    sockets on B and on A are closed (4001), another user's socket on B is not."""
    with daphne() as (port_a, _), daphne() as (port_b, _):

        async def hello(port: int, api: ApiClient) -> Any:
            return await hello_socket(port, session_of(api))

        on_b, on_a = await hello(port_b, scout_api), await hello(port_a, scout_api)
        other_user = await hello(port_b, other_api)
        origin_a = f"http://{HOST}:{port_a}"
        cookies = {"sessionid": session_of(scout_api), "csrftoken": scout_api.csrf_token()}
        async with httpx.AsyncClient(base_url=origin_a, cookies=cookies) as http:
            response = await http.post(
                "/api/auth/logout",
                headers={"X-CSRFToken": cookies["csrftoken"], "Origin": origin_a},
            )
        assert response.status_code == 204, response.text
        for closed in (on_b, on_a):
            await asyncio.wait_for(closed.wait_closed(), 10)
            assert closed.close_code == 4001
        await other_user.send(json.dumps({"type": "ping"}))
        assert json.loads(await asyncio.wait_for(other_user.recv(), 5)) == {"type": "pong"}
        await other_user.close()


def open_raw_socket(
    port: int, session_key: str, extensions: str = ""
) -> tuple[socket.socket, bytes, bytes]:
    """A websocket client's handshake on a plain socket (offering ``extensions``, if any);
    the socket, the server's response head and what came after it in the same reads (the
    server's hello may share a segment with the 101)."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect((HOST, port))
    raw.sendall(upgrade_request(HOST, port, session_key, extensions))
    received = b""
    raw.settimeout(10)
    while b"\r\n\r\n" not in received:
        received += raw.recv(4096)
    head, rest = received.split(b"\r\n\r\n", 1)
    assert head.split(b"\r\n", 1)[0].split()[1] == b"101", received
    return raw, head, rest


def open_lazy_socket(port: int, session_key: str) -> socket.socket:
    """A websocket client that subscribes to soccer and then never reads again."""
    lazy, _, received = open_raw_socket(port, session_key)
    lazy.sendall(masked_frame('{"type":"subscribe","sport":"soccer"}'))
    while b'"subscribed"' not in received:
        received += lazy.recv(4096)
    return lazy


def closed_by_server(lazy: socket.socket, within: float) -> bool:
    """Drain what the kernel kept; True once the server ended the connection."""
    lazy.settimeout(0.5)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if not lazy.recv(1 << 20):
                return True
        except ConnectionResetError:
            return True
        except TimeoutError:
            continue
    return False


async def test_a_socket_that_never_reads_cannot_grow_server_memory(
    scout_api: ApiClient, settings: Any
) -> None:
    settings.REALTIME_REPLAY_BYTES = 1 << 20  # keep Redis small: this test pushes ~40 MB
    pad = "x" * 65536
    limit = 1 << 20
    with daphne(REALTIME_SOCKET_MAX_PENDING=str(limit)) as (port, pid):
        lazy = open_lazy_socket(port, session_of(scout_api))
        # Another process: its subscription and resident memory have no event to wait for.
        await asyncio.sleep(0.5)
        before = rss_bytes(pid)
        for count in range(600):
            data = {"nominationId": 1, "voteCount": count, "pad": pad}
            send_now(Event("vote.changed", data, sport="soccer"))
        await asyncio.sleep(2)  # the server process's sends reach its memory, not this process
        grown = rss_bytes(pid) - before
        assert await asyncio.to_thread(closed_by_server, lazy, 10)
        lazy.close()
    # ~40 MB went out; the socket held at most Twisted's 64 KiB + the 1 MiB bound.
    assert grown < 12 * (1 << 20), f"daphne grew by {grown / (1 << 20):.1f} MiB"


def read_frames(data: bytes) -> tuple[list[dict[str, Any]], bytes]:
    """The server's text frames in ``data`` (unmasked), and what is left of an unfinished one."""
    frames, used = server_frames(data)
    return [json.loads(payload) for head, payload in frames if head & 0x0F == 1], data[used:]


async def test_a_slow_socket_keeps_only_the_newest_board_and_every_other_event(
    scout_api: ApiClient,
) -> None:
    """A socket that stops reading while boards and votes stream: once it reads again it gets
    every vote, each older board it had not been sent as a small ``skipped`` (its sequence
    stays whole) and the newest board; it is not closed."""
    pad = "x" * 8000
    with daphne() as (port, _):
        lazy = open_lazy_socket(port, session_of(scout_api))
        await asyncio.sleep(0.3)  # the server process subscribes the socket: nothing to await here
        for count in range(1, 121):
            board = {"board": "all", "players": [{"id": 1, "voteCount": count}], "pad": pad}
            send_now(Event("leaderboard.changed", board, sport="soccer"))
            send_now(Event("vote.changed", {"nominationId": 1, "voteCount": count}, sport="soccer"))
        await asyncio.sleep(1)  # the events reach the server process's queue for the socket

        def read_all() -> list[dict[str, Any]]:
            lazy.settimeout(2)
            data, messages = b"", []  # type: tuple[bytes, list[dict[str, Any]]]
            while True:
                try:
                    chunk = lazy.recv(1 << 16)
                except TimeoutError:
                    return messages
                assert chunk, "the server closed the socket"
                found, data = read_frames(data + chunk)
                messages.extend(found)

        messages = [m for m in await asyncio.to_thread(read_all) if "seq" in m]
        lazy.close()
    events = [m for m in messages if m.get("group") == "sport.soccer" and m["type"] != "snapshot"]
    seqs = [m["seq"] for m in events]
    assert seqs == list(range(seqs[0], 241)), "the sport's sequence has a gap or a repeat"
    votes = [m["data"]["voteCount"] for m in events if m["type"] == "vote.changed"]
    assert votes == list(range(1, 121))
    boards = [
        m["data"]["players"][0]["voteCount"] for m in events if m["type"] == "leaderboard.changed"
    ]
    skipped = [m for m in events if m["type"] == "skipped"]
    assert boards[-1] == 120 and len(skipped) > 60, (boards, len(skipped))
    assert boards == sorted(boards)
    # What had left the queue before the socket stopped reading (the kernel's unsent 4 KiB,
    # Twisted's 4 KiB, what was in flight) is out of conflation's reach: a few boards, not the
    # ten a 64 KiB send buffer held (bench/ws_slow.py: 50 kbit/s showed boards 10 s old).
    assert len(boards) <= 4, boards


def inflating_reader(raw: socket.socket, data: bytes = b"") -> Any:
    """The server's text frames on ``raw`` (after ``data``, already read) as (compressed?,
    payload bytes, message), inflated as a browser does (RFC 7692: the tail put back, one
    decompressor kept for the connection)."""
    inflater = zlib.decompressobj(-15)
    while True:
        while (frame := split_frame(data)) is None:
            chunk = raw.recv(1 << 16)
            assert chunk, "the server closed the socket"
            data += chunk
        head, payload, data = frame
        if head & 0x0F != 1:
            continue
        compressed = bool(head & 0x40)
        text = inflater.decompress(payload + b"\x00\x00\xff\xff") if compressed else payload
        yield compressed, len(payload), json.loads(text)


async def test_a_socket_offering_permessage_deflate_gets_events_compressed(
    scout_api: ApiClient,
) -> None:
    """Browsers offer permessage-deflate: the server takes it, and an event worth it (a board)
    arrives compressed (a fraction of its text) and inflates, with a decompressor kept across
    messages as browsers keep it, to the event itself; a short one arrives plain."""
    players = [
        {"id": i, "name": f"Player {i}", "club": "Fjord FC", "position": "Forward", "voteCount": i}
        for i in range(1, 11)
    ]
    with daphne() as (port, _):
        raw, head, rest = open_raw_socket(
            port, session_of(scout_api), "permessage-deflate; client_max_window_bits"
        )
        assert b"sec-websocket-extensions: permessage-deflate" in head.lower(), head
        raw.sendall(masked_frame('{"type":"subscribe","sport":"soccer"}'))
        frames = inflating_reader(raw, rest)

        def until(kind: str) -> tuple[bool, int, dict[str, Any]]:
            return next(frame for frame in frames if frame[2]["type"] == kind)

        await asyncio.to_thread(until, "subscribed")
        snapshot = await asyncio.to_thread(until, "snapshot")
        board = {"board": "all", "players": players}
        send_now(Event("leaderboard.changed", board, sport="soccer"))
        send_now(Event("vote.changed", {"nominationId": 1, "voteCount": 3}, sport="soccer"))
        compressed, wire, message = await asyncio.to_thread(until, "leaderboard.changed")
        vote = await asyncio.to_thread(until, "vote.changed")
        raw.close()
    assert snapshot[0], "the snapshot (boards and stats) is worth compressing"
    assert message["data"]["players"] == players
    text = json.dumps(message, separators=(",", ":"))
    assert compressed and wire * 3 < len(text), (wire, len(text))
    assert vote[0] is False and vote[2]["data"]["voteCount"] == 3


async def test_compression_turned_off_answers_the_offer_without_it(scout_api: ApiClient) -> None:
    with daphne(REALTIME_COMPRESSION="false") as (port, _):
        raw, head, _ = open_raw_socket(port, session_of(scout_api), "permessage-deflate")
        raw.close()
    assert b"sec-websocket-extensions" not in head.lower(), head


async def test_presence_is_counted_across_processes_and_a_dead_ones_entries_expire(
    scout_api: ApiClient, other_api: ApiClient
) -> None:
    ttl = "2"
    with (
        daphne(REALTIME_PRESENCE_TTL=ttl) as (port_a, _),
        daphne(REALTIME_PRESENCE_TTL=ttl) as (
            port_b,
            pid_b,
        ),
    ):

        def open_on(port: int, api: ApiClient) -> Any:
            return connect(
                f"ws://{HOST}:{port}/ws/",
                origin=f"http://{HOST}:{port}",  # type: ignore[arg-type]
                additional_headers={"Cookie": f"sessionid={session_of(api)}"},
            )

        async def told(ws: Any, count: int, within: float) -> float:
            started = time.monotonic()

            async def wait() -> None:
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] == "presence.changed" and message["data"] == {
                        "scope": "nomination",
                        "id": 5,
                        "watching": count,
                    }:
                        return

            await asyncio.wait_for(wait(), within)
            return time.monotonic() - started

        async with open_on(port_a, scout_api) as a, open_on(port_b, other_api) as b:
            await a.send(json.dumps({"type": "watch", "nominationId": 5}))
            await told(a, 1, 5)
            await b.send(json.dumps({"type": "watch", "nominationId": 5}))
            await told(b, 2, 5)
            await told(a, 2, 5)
            os.kill(pid_b, signal.SIGKILL)  # no goodbye: its entries must expire
            assert await told(a, 1, 10) < float(ttl) + 2


# Sockets of as many users (each its own control-plane group) open when the process stops.
SHUTDOWN_SOCKETS = 100


async def test_a_process_stopping_with_signed_in_sockets_logs_nothing(tmp_path: Any) -> None:
    """A deploy's SIGTERM closes every socket of the process at once: each socket's leave
    of the control plane is then cut short, which is not a failure worth a warning (the
    process's subscription to Redis ends with it)."""

    def signed_in_sessions() -> list[str]:
        keys = []
        for _ in range(SHUTDOWN_SOCKETS):
            client = Client()
            client.force_login(make_user())
            keys.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
        return keys

    sessions = await sync_to_async(signed_in_sessions)()
    log_path = tmp_path / "daphne.log"
    with log_path.open("wb") as log:
        with daphne(log) as (port, _):
            sockets = await asyncio.gather(*(hello_socket(port, key) for key in sessions))
            # Half of them leaving as the process is told to stop.
            for ws in sockets[::2]:
                ws.transport.abort()
        closed = await asyncio.gather(*(ws.wait_closed() for ws in sockets), return_exceptions=True)
        assert not [result for result in closed if result is not None]
    output = log_path.read_text()
    assert "Could not leave" not in output, output[:4000]


async def test_a_dead_processs_sockets_stop_counting_against_the_limit_with_its_heartbeat(
    scout_api: ApiClient,
) -> None:
    """A member at the socket limit, half of their sockets on a process killed without a
    goodbye: their clients come back on the other process within the heartbeat's life (the
    presence TTL), not after the dead sockets' own entries expire (twelve TTLs)."""
    ttl = 2.0
    env = {"REALTIME_PRESENCE_TTL": f"{ttl:g}", "REALTIME_SOCKETS_PER_MEMBER": "4"}
    session = session_of(scout_api)

    async def attempt(port: int) -> tuple[Any, int | None]:
        """A socket of the member on ``port``: (the socket, None) past its hello, or
        (None, the close code) when it is refused."""
        ws = await connect(
            f"ws://{HOST}:{port}/ws/",
            origin=f"http://{HOST}:{port}",  # type: ignore[arg-type]
            additional_headers={"Cookie": f"sessionid={session}"},
        )
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
        except ConnectionClosed:
            await ws.close()
            return None, ws.close_code
        assert first["type"] == "hello", first
        return ws, None

    with daphne(**env) as (port_a, _), daphne(**env) as (port_b, pid_b):
        kept = [(await attempt(port_a))[0] for _ in range(2)]
        on_b = [(await attempt(port_b))[0] for _ in range(2)]
        assert None not in kept + on_b
        assert (await attempt(port_a))[1] == 4429  # the fifth
        os.kill(pid_b, signal.SIGKILL)
        killed_at = time.monotonic()
        back: list[Any] = []
        while len(back) < 2:
            ws, refused = await attempt(port_a)
            if ws is not None:
                back.append(ws)
                continue
            assert refused == 4429
            assert time.monotonic() - killed_at < ttl + 4, "refused past the heartbeat's life"
            await asyncio.sleep(0.25)
        assert time.monotonic() - killed_at < ttl + 4
        # The limit holds again: four live sockets, the fifth refused.
        assert (await attempt(port_a))[1] == 4429
        for ws in kept + back:
            await ws.close()
