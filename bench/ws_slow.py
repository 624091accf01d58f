"""A wall display on a 50 kbit/s link: how old is each board it shows?

One daphne process; this process publishes, through Redis as another process would, a busy
sport's stream: merged `vote.changed` at --vote-rate a second and the sport's real all-time
board (ten players and the scouts) at --board-rate a second (the summaries send at most four a
second per sport), each board numbered by its top player's count. Two raw websocket clients
subscribe: one reads as fast as it can (the reference), one reads at --kbits (50 kbit/s, a
token bucket over `recv`, with a 4 KiB receive buffer).

For every board a client has read whole ("shows"), its staleness is how many boards had been
published after it by that moment (0: it is the newest; 1: one newer exists). At 50 kbit/s a
2.6 KB board takes ~0.4 s to arrive, so boards published while it travels count against it.
Also: every vote event arrives (the sport's sequence, `skipped` included, has no gap), and
the server never closes the slow socket.

Both clients offer permessage-deflate, as every browser does, and inflate what comes
compressed (one decompressor per connection, as browsers keep it); `--no-compress` offers
nothing (the plain frames, as before 2026-11-26).

    python bench/ws_slow.py                       # 120 s, 50 kbit/s
    python bench/ws_slow.py --duration 30 --no-write

Needs REDIS_URL; the database is DATABASE_URL's or the embedded SQLite file. Exits 1 when the
slow socket missed a vote, saw a gap or was closed, or (compressed, as browsers read) showed a
board more than one update old.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import sys
import threading
import time
import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from common import (
    HOST,
    approved_nominations,
    daphne_command,
    django_setup,
    finish,
    forget_keys,
    new_user,
    server_process,
    session_for,
)

from devtools.wsframes import masked_frame, server_frames, upgrade_request

SECTION = "## Slow socket (bench/ws_slow.py)"
SPORT = "soccer"
GROUP = f"sport.{SPORT}"
PREFIX = "slow"
BURST = 512  # bytes the throttled client may read at once (its link has no savings)


@dataclass
class Reader:
    """What one client saw."""

    name: str
    rate: float | None  # bytes per second, None: as fast as it can
    staleness: list[int] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)  # publish of the board to shown
    votes: list[int] = field(default_factory=list)
    skipped: int = 0
    gaps: int = 0
    closed: str | None = None
    received: int = 0
    board_bytes: list[int] = field(default_factory=list)  # each board's payload on the wire


class Published:
    """Board numbers and when each was published (monotonic), shared with the readers."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.lock = threading.Lock()

    def add(self, at: float) -> None:
        with self.lock:
            self.times.append(at)

    def count_until(self, at: float) -> int:
        """How many boards had been published by ``at``."""
        with self.lock:
            times = list(self.times)
        low, high = 0, len(times)
        while low < high:
            middle = (low + high) // 2
            if times[middle] <= at:
                low = middle + 1
            else:
                high = middle
        return low


def handshake(
    port: int, session: str, receive_buffer: int | None, compress: bool
) -> tuple[socket.socket, bytes]:
    """A subscribed raw websocket (offering permessage-deflate when ``compress``), and what
    came after the handshake's answer."""
    raw = socket.socket()
    if receive_buffer:
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    raw.connect((HOST, port))
    raw.sendall(upgrade_request(HOST, port, session, "permessage-deflate" if compress else ""))
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = raw.recv(4096)
        if not chunk:
            raise RuntimeError("the server closed during the handshake")
        received += chunk
    head, rest = received.split(b"\r\n\r\n", 1)
    if head.split(b"\r\n", 1)[0].split()[1] != b"101":
        raise RuntimeError(head.decode(errors="replace"))
    raw.sendall(masked_frame(json.dumps({"type": "subscribe", "sport": SPORT})))
    return raw, rest


def frames(data: bytes) -> tuple[list[tuple[int, bytes]], bytes]:
    """The complete frames in ``data`` (first byte: FIN, RSV1 and opcode; payload) and what
    is left."""
    found, used = server_frames(data)
    return found, data[used:]


def read(
    raw: socket.socket, data: bytes, reader: Reader, published: Published, stop: threading.Event
) -> None:
    """Read frames (at ``reader.rate`` bytes a second when set) and note each board shown."""
    cursor = None
    inflater = zlib.decompressobj(-15)  # RFC 7692: one per connection, its context kept
    tokens, filled = 0.0, time.monotonic()  # the link: a bucket of at most BURST bytes
    raw.settimeout(0.2)
    while not stop.is_set():
        want = 65536
        if reader.rate is not None:
            now = time.monotonic()
            tokens, filled = min(BURST, tokens + reader.rate * (now - filled)), now
            if tokens < 1:
                time.sleep((1 - tokens) / reader.rate + 0.001)
                continue
            want = int(tokens)
        try:
            chunk = raw.recv(want)
        except TimeoutError:
            continue
        if not chunk:
            reader.closed = "closed by the server"
            return
        reader.received += len(chunk)
        if reader.rate is not None:
            tokens -= len(chunk)
        found, data = frames(data + chunk)
        shown_at = time.monotonic()
        for head, payload in found:
            opcode, wire = head & 0x0F, len(payload)
            if head & 0x40:  # RSV1: a compressed message
                payload = inflater.decompress(payload + b"\x00\x00\xff\xff")
            if opcode == 8:
                code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
                reader.closed = f"close {code}"
                return
            if opcode == 9:  # daphne's keepalive ping: answer as a browser does
                raw.sendall(masked_frame(payload, opcode=0x8A))
                continue
            if opcode != 1:
                continue
            message = json.loads(payload)
            if message.get("group") != GROUP or message["type"] == "snapshot":
                if message["type"] == "subscribed":
                    cursor = message["groups"][GROUP]
                continue
            if cursor is None:
                continue
            if message["seq"] != cursor + 1:
                reader.gaps += 1
            cursor = message["seq"]
            if message["type"] == "skipped":
                reader.skipped += 1
            elif message["type"] == "vote.changed":
                reader.votes.append(message["data"]["votes"][0]["voteCount"])
            elif message["type"] == "leaderboard.changed":
                reader.board_bytes.append(wire)
                number = message["data"]["players"][0]["voteCount"]
                newest = published.count_until(shown_at)
                reader.staleness.append(newest - number)
                reader.lag_ms.append(1000 * (shown_at - published.times[number - 1]))


def publish(args: argparse.Namespace, board: dict[str, Any], published: Published) -> int:
    """Votes at --vote-rate and boards at --board-rate for --duration seconds; the number of
    votes sent."""
    from realtime.broadcast import send
    from realtime.events import Event

    players = [dict(player) for player in board["players"]]
    nomination = players[0]["id"]
    started = time.monotonic()
    votes = boards = 0
    while (elapsed := time.monotonic() - started) < args.duration:
        batch = []
        while votes < int(elapsed * args.vote_rate):
            votes += 1
            counts = [{"nominationId": nomination, "voteCount": votes, "version": votes}]
            batch.append(Event("vote.changed", {"votes": counts}, sport=SPORT))
        if batch:
            send(*batch)
        if boards < int(elapsed * args.board_rate):
            boards += 1
            players[0]["voteCount"] = boards  # the board's number, on top
            for other, player in enumerate(players[1:], start=1):
                player["voteCount"] = max(0, boards - other)
            event = Event("leaderboard.changed", {**board, "players": players}, sport=SPORT)
            published.add(time.monotonic())  # just before it exists: counts against the client
            send(event)
        time.sleep(0.005)
    return votes


def summary(reader: Reader, votes: int) -> str:
    counts = Counter(reader.staleness)
    spread = ", ".join(f"{behind}: {counts[behind]}" for behind in sorted(counts))
    lag = sorted(reader.lag_ms) or [0.0]
    missing = votes - len(set(reader.votes))
    return (
        f"| {reader.name} | {len(reader.staleness)} | {reader.skipped} | {spread} | "
        f"{max(reader.staleness, default=0)} | {statistics.median(lag):.0f} / "
        f"{lag[int(len(lag) * 0.99) - 1 if len(lag) > 1 else 0]:.0f} | {missing} | "
        f"{reader.gaps} | {reader.closed or 'open'} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=120)
    parser.add_argument("--kbits", type=float, default=50)
    parser.add_argument("--vote-rate", type=float, default=10, help="vote.changed a second")
    parser.add_argument("--board-rate", type=float, default=4, help="boards a second")
    parser.add_argument(
        "--no-compress", action="store_true", help="offer no permessage-deflate (plain frames)"
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        sys.exit("ws_slow.py needs REDIS_URL: events come from this process through Redis")

    def configure() -> None:
        os.environ["REALTIME_PREFIX"] = PREFIX

    django_setup(configure)
    from project.accounts.models import User
    from project.scouting.models import Player
    from realtime.snapshot import compute

    Player.objects.filter(name__startswith="Bench Player").delete()
    User.objects.filter(username__startswith="slow_").delete()
    users = User.objects.bulk_create([new_user(f"slow_{i}") for i in range(2)])
    sessions = [session_for(user) for user in users]
    approved_nominations(users[0], [SPORT] * 10, [f"slow {i}|{SPORT}" for i in range(10)])
    board = compute(SPORT)["leaderboards"]["all"]
    forget_keys(f"{PREFIX}:*")
    env = {**os.environ, "REALTIME_PREFIX": PREFIX, "DJANGO_DEBUG": "0", "LOG_LEVEL": "ERROR"}
    from common import free_port

    port = free_port()
    fast = Reader("as fast as it reads", None)
    slow = Reader(f"{args.kbits:.0f} kbit/s", args.kbits * 1000 / 8)
    published = Published()
    stop = threading.Event()
    try:
        with server_process(daphne_command(port), port, env):
            compress = not args.no_compress
            sockets = [
                handshake(port, sessions[0], None, compress),
                handshake(port, sessions[1], 4096, compress),
            ]
            threads = [
                threading.Thread(target=read, args=(raw, rest, reader, published, stop))
                for (raw, rest), reader in zip(sockets, (fast, slow), strict=True)
            ]
            for thread in threads:
                thread.start()
            time.sleep(2)  # subscribed and past the snapshot
            votes = publish(args, board, published)
            # What is on its way arrives: the slow one reads its backlog (until nothing more
            # comes for 3 s, or 60 s passed).
            deadline, last = time.monotonic() + 60, (-1, -1)
            while time.monotonic() < deadline and last != (fast.received, slow.received):
                last = (fast.received, slow.received)
                time.sleep(3)
            stop.set()
            for thread in threads:
                thread.join()
            for raw, _ in sockets:
                raw.close()
    finally:
        Player.objects.filter(name__startswith="Bench Player").delete()
        User.objects.filter(username__startswith="slow_").delete()
        forget_keys(f"{PREFIX}:*")
    size = len(json.dumps(board, separators=(",", ":")))
    boards = len(published.times)
    # Every vote, no gap, the socket kept: what conflation promises. A board takes its own
    # size / the link's rate to arrive, and boards published meanwhile count against it: at 4
    # a second of ~3.9 KB, 50 kbit/s cannot carry them plain, whatever the server does;
    # deflated (~0.5 KB) it can.
    fresh = sum(1 for behind in slow.staleness if behind <= 1)
    ok = slow.gaps == 0 and slow.closed is None and votes - len(set(slow.votes)) == 0
    if not args.no_compress:
        # As browsers read it (deflated), the throttled client must never show a board more
        # than one update old: the target. Plain frames cannot (see the note below).
        ok = ok and bool(slow.staleness) and fresh == len(slow.staleness)
    wire = statistics.median(fast.board_bytes) if fast.board_bytes else size
    lines = [
        SECTION,
        "",
        f"One daphne process; for {args.duration:.0f} s the sport gets {args.vote_rate:.0f} "
        f"`vote.changed` a second and {args.board_rate:.0f} boards a second ({boards} boards of "
        f"{size} bytes, {wire:.0f} on the wire: "
        f"{'permessage-deflate' if not args.no_compress else 'plain frames'}; {votes} votes). "
        "Staleness of a board shown: how many newer boards had been published when the client "
        "had read it whole.",
        "",
        "| client | boards shown | skipped | boards shown by staleness (updates behind: "
        "count) | worst | publish to shown p50 / p99 (ms) | votes missed | gaps | socket |",
        "|---|---:|---:|---|---:|---:|---:|---:|---|",
        summary(fast, votes),
        summary(slow, votes),
        "",
        f"At {args.kbits:.0f} kbit/s {fresh} of {len(slow.staleness)} boards shown were at most "
        f"one update old; the link carries {args.kbits * 125 / wire:.1f} boards of this size a "
        f"second with nothing else, {args.board_rate:.0f} were published.",
        "",
        f"Load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}.",
        "",
        "PASS" if ok else "FAIL",
    ]
    finish(SECTION, "\n".join(lines), ok, write=not args.no_write)


if __name__ == "__main__":
    main()
