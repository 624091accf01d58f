"""The live layer's Prometheus metrics (served with the process's others: project/common/
metrics.py). Callers only increment: nothing here is computed per socket but one integer
addition for the bytes written.

Events published are counted where they are sent (every process that publishes: the HTTP
pool's workers, the daphne processes); everything about sockets in the daphne process that
holds them.
"""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

from realtime.events import CATALOGUE

CONNECTIONS_OPEN = Gauge(
    "websocket_connections_open",
    "Websockets this process holds open (accepted, not yet disconnected).",
    multiprocess_mode="livesum",
)
CLOSES = Counter(
    "websocket_closes_total",
    "Websockets closed by the server, by close code (1001 the process drains for a restart, "
    "4001 reconnect, 4008 too slow, "
    "4401 unauthenticated, 4429 too many messages, 4503 live layer unavailable).",
    ["code"],
)
EVENTS_PUBLISHED = Counter(
    "realtime_events_published_total",
    "Live events sent to Redis (or the memory backend) by this process, by type.",
    ["type"],
)
EVENTS_DELIVERED = Counter(
    "realtime_events_delivered_total",
    "Live events handed to this process's sockets (one per socket and event), by type.",
    ["type"],
)
REPLAYED = Counter(
    "realtime_replay_events_total",
    "Events sent to sockets from the replay (resume, subscribe with a cursor, a gap filled).",
)
RESYNCS = Counter(
    "realtime_resyncs_total", "Resyncs sent: a socket's cursor was past what replay could give."
)
SNAPSHOTS = Counter("realtime_snapshots_total", "Snapshots (boards and stats) sent to sockets.")
MERGED = Histogram(
    "realtime_merge_window_items",
    "Items one merged event carries (vote counts, activities), by kind.",
    ["kind"],
    buckets=(1, 2, 5, 10, 25, 50, 100, 250, 500, 1000),
)

OTHER = "other"


def event_type(text: str) -> str:
    """An envelope's type, read from its start (``{"type":"vote.changed",...``); a type the
    catalogue does not name (but the delivery probe's) counts as "other" (the label stays
    bounded)."""
    if text.startswith('{"type":"'):
        kind = text[9 : text.find('"', 9)]
        if kind in CATALOGUE or kind == "probe":
            return kind
    return OTHER


class SentBytes(Collector):
    """``websocket_sent_bytes_total``: the frame bytes written to daphne's connections. The
    write path adds to a plain integer (it runs once per socket and flush, on the event loop's
    thread); a scrape reads it."""

    def __init__(self) -> None:
        self.total = 0

    def collect(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily(
            "websocket_sent_bytes",
            "Websocket frame bytes written to clients by this process.",
            value=self.total,
        )


SENT = SentBytes()
REGISTRY.register(SENT)

# --- The delivery probe (realtime/probe.py) ---------------------------------------------------

PROBE_LAG = Histogram(
    "realtime_probe_lag_seconds",
    "Time from a probe's publish (by any daphne process) to its arrival here through Redis.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
PROBE_LAST_SUCCESS = Gauge(
    "realtime_probe_last_success_timestamp_seconds",
    "When this process last received its own probe back through Redis (Unix time; 0: never).",
    multiprocess_mode="max",
)
