"""The publishing side of the live layer's Redis backend (``REDIS_URL`` set): one Lua script
per group and event keeps the sequence, the replay log and the pub/sub channel atomic, and the
merge and rate windows are scripts too. Where the groups live (which instance, key and
channel) is decided here; the receiving side (realtime/redis_receive.py: each process's
pub/sub connections, cursor and replay-log reads, presence and charges) reads it from here.

The groups (sequence, replay log, pub/sub channel) live on ``REDIS_URL``, or, with
``REALTIME_REDIS_SHARDS``, spread over several instances by a hash of the group's name: every
key one group's script touches is on one instance, so a group's events keep their order and
publishing scales with the instances. Presence, budgets' charges and the rate and merge
windows stay on ``REDIS_URL``. Each instance keeps its own epoch; the hub sees them joined
("<epoch>.<epoch>", in the shards' order), so losing any one instance's data voids every
cursor, as losing the one instance does."""

from __future__ import annotations

import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis
from redis.connection import parse_url

from realtime.backend_base import Backend, Config, MergeEntry, Outbound, Source, copies, state_of
from realtime.redis_receive import RedisSource

# KEYS: seq, log, guard, epoch, meta. ARGV: channel, head, tail, ttl, guard_ms, guard_digest,
# new_epoch, group, max_age_ms, max_bytes, state. The guard (summaries only) skips content
# equal to the last sent, or older than it. The epoch names the live layer's data: it changes
# when Redis lost them (restart without persistence, FLUSHDB), which the hubs read as "every
# cursor is void". The log's members are "<ms> <text>" scored by seq; meta holds the log's
# byte count and, per state type, the seq of its newest event: a newer board or stats event
# turns the previous one into a small `skipped` (only the newest state is worth replaying).
# The oldest entries go once older than max_age_ms or while the log passes max_bytes.
PUBLISH_SCRIPT = """
if ARGV[5] ~= '' then
  local last = redis.call('GET', KEYS[3])
  if last then
    local at, digest = string.match(last, '^(%d+):(.*)$')
    if digest == ARGV[6] or tonumber(at) > tonumber(ARGV[5]) then return 0 end
  end
  redis.call('SET', KEYS[3], ARGV[5] .. ':' .. ARGV[6], 'EX', ARGV[4])
end
local epoch = redis.call('GET', KEYS[4])
if not epoch then
  epoch = ARGV[7]
  redis.call('SET', KEYS[4], epoch)
end
local seq = redis.call('INCR', KEYS[1])
local text = ARGV[2] .. seq .. ARGV[3]
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local member = now .. ' ' .. text
redis.call('ZADD', KEYS[2], seq, member)
local size = redis.call('HINCRBY', KEYS[5], 'bytes', #member)
if ARGV[11] ~= '' then
  local previous = redis.call('HGET', KEYS[5], ARGV[11])
  if previous then
    local old = redis.call('ZRANGEBYSCORE', KEYS[2], previous, previous)
    if old[1] then
      local at = string.match(old[1], '^(%d+) ')
      local stub = at .. ' {"type":"skipped","group":"' .. ARGV[8] .. '","seq":' .. previous .. '}'
      redis.call('ZREMRANGEBYSCORE', KEYS[2], previous, previous)
      redis.call('ZADD', KEYS[2], previous, stub)
      size = redis.call('HINCRBY', KEYS[5], 'bytes', #stub - #old[1])
    end
  end
  redis.call('HSET', KEYS[5], ARGV[11], seq)
end
local cutoff = now - tonumber(ARGV[9])
local limit = tonumber(ARGV[10])
for _ = 1, 64 do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)
  if not oldest[1] then break end
  if tonumber(string.match(oldest[1], '^(%d+) ')) >= cutoff and size <= limit then break end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, 0)
  size = redis.call('HINCRBY', KEYS[5], 'bytes', -#oldest[1])
end
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('EXPIRE', KEYS[5], ARGV[4])
redis.call('PUBLISH', ARGV[1], epoch .. ' ' .. seq .. ' ' .. text)
return seq
"""

# KEYS: window, held. ARGV: window_ms, ttl, then (key, order, text) per entry. The merge of a
# window (Backend.merge) in one step: hold the entries (a newer order replaces an older one of
# its key: "<order> <text>" per key), then, when anything is held and the window is free, take
# the window and answer {-1, key, held, key, held, ...}, the held taken out; else {wait_ms},
# 0 when nothing is held.
MERGE_SCRIPT = """
for i = 3, #ARGV, 3 do
  local kept = redis.call('HGET', KEYS[2], ARGV[i])
  if not kept or tonumber(string.match(kept, '^(%-?%d+) ')) < tonumber(ARGV[i + 1]) then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1] .. ' ' .. ARGV[i + 2])
  end
end
if redis.call('HLEN', KEYS[2]) == 0 then return {0} end
redis.call('EXPIRE', KEYS[2], ARGV[2])
if not redis.call('SET', KEYS[1], 1, 'NX', 'PX', ARGV[1]) then
  return {math.max(redis.call('PTTL', KEYS[1]), 1)}
end
local held = redis.call('HGETALL', KEYS[2])
redis.call('DEL', KEYS[2])
table.insert(held, 1, -1)
return held
"""

# Take the rate window KEYS[1] for ARGV[1] ms, or for ARGV[2] ms when the one before ended
# less than ARGV[1] ms ago (KEYS[2] outlives each window by ARGV[1] ms). Answers 0, or the ms
# the window has left.
WINDOW_SCRIPT = """
local left = redis.call('PTTL', KEYS[1])
if left > 0 then return left end
local ms = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then ms = tonumber(ARGV[2]) end
redis.call('SET', KEYS[1], 1, 'PX', ms)
redis.call('SET', KEYS[2], 1, 'PX', ms + tonumber(ARGV[1]))
return 0
"""

# --- Where the groups live -------------------------------------------------------------


def shard_index(group: str, shards: int) -> int:
    """The instance (of ``shards``) a group lives on: stable across processes and restarts
    (CRC-32 of its name, as Redis Cluster hashes keys to slots)."""
    return zlib.crc32(group.encode()) % shards if shards > 1 else 0


def channel_prefix(prefix: str, url: str) -> str:
    # Pub/sub channels ignore SELECT: name the database so deployments sharing a server on
    # different databases do not hear each other.
    return f"{prefix}:{parse_url(url).get('db', 0)}:"


@dataclass(frozen=True)
class Shard:
    """One instance the groups live on, seen from the publishing (synchronous) side."""

    url: str
    client: redis.Redis
    channel_prefix: str


class RedisBackend(Backend):
    def __init__(self, url: str, config: Config, shard_urls: Sequence[str] = ()) -> None:
        super().__init__(config)
        self.url = url
        if len(set(shard_urls)) != len(shard_urls):
            raise ValueError("REALTIME_REDIS_SHARDS names an instance twice")
        self.client = self._client(url)
        self.shards = [
            Shard(
                shard,
                self.client if shard == url else self._client(shard),
                channel_prefix(config.prefix, shard),
            )
            for shard in (shard_urls or [url])
        ]
        self.script_sha = self.client.register_script(PUBLISH_SCRIPT).sha
        self.merge_script = self.client.register_script(MERGE_SCRIPT)
        self.window_script = self.client.register_script(WINDOW_SCRIPT)
        self.epoch_key = f"{config.prefix}:epoch"

    def _client(self, url: str) -> redis.Redis:
        # Request threads wait for a free connection rather than fail (redis-py raises
        # MaxConnectionsError from a plain pool once max_connections are in use).
        return redis.Redis(
            connection_pool=redis.BlockingConnectionPool.from_url(
                url,
                max_connections=self.config.max_connections,
                timeout=5,
                socket_timeout=5,
                socket_connect_timeout=2,
            )
        )

    def key(self, kind: str, name: str) -> str:
        return f"{self.config.prefix}:{kind}:{name}"

    def shard_of(self, group: str) -> int:
        return shard_index(group, len(self.shards))

    def channel(self, group: str) -> str:
        return self.shards[self.shard_of(group)].channel_prefix + group

    def clients(self) -> list[redis.Redis]:
        """Every instance the live layer uses (readiness pings each)."""
        others = [shard.client for shard in self.shards if shard.client is not self.client]
        return [self.client, *others]

    def publish(self, events: Sequence[Outbound]) -> None:
        calls: dict[int, list[list[Any]]] = {}
        for group, envelope, guard in copies(events):
            keys = [
                self.key("seq", group),
                self.key("log", group),
                self.key("guard", f"{group}:{guard.name}" if guard else group),
                self.epoch_key,
                self.key("meta", group),
            ]
            args: list[Any] = [self.channel(group), envelope.head(group), envelope.tail]
            args += [self.config.ttl, guard.taken_at_ms if guard else ""]
            args += [guard.digest if guard else "", uuid.uuid4().hex, group]
            args += [int(self.config.max_age * 1000), self.config.max_bytes, state_of(envelope)]
            calls.setdefault(self.shard_of(group), []).append([*keys, *args])
        # One round trip per instance: a group's copies all go to its own instance, in the
        # events' order.
        for index, shard_calls in calls.items():
            client = self.shards[index].client
            try:
                self._evalsha(client, shard_calls)
            except redis.exceptions.NoScriptError:
                # The instance restarted or its scripts were flushed: none of the calls ran.
                client.script_load(PUBLISH_SCRIPT)
                self._evalsha(client, shard_calls)

    def _evalsha(self, client: redis.Redis, calls: list[list[Any]]) -> None:
        # One round trip for every group (redis-py's Script in a pipeline would add a
        # SCRIPT EXISTS round trip each time).
        with client.pipeline(transaction=False) as pipe:
            for call in calls:
                pipe.evalsha(self.script_sha, 5, *call)
            pipe.execute()

    def acquire_window(self, name: str, seconds: float, sustained: float | None = None) -> float:
        milliseconds = max(1, int(seconds * 1000))
        left = self.window_script(
            keys=[self.key("window", name), self.key("window-ended", name)],
            args=[milliseconds, milliseconds if sustained is None else int(sustained * 1000)],
        )
        return int(left) / 1000

    def merge(
        self, name: str, seconds: float, entries: Sequence[MergeEntry]
    ) -> tuple[list[str], float]:
        return self.merge_many([(name, seconds, entries)])[0]

    def merge_many(
        self, merges: Sequence[tuple[str, float, Sequence[MergeEntry]]]
    ) -> list[tuple[list[str], float]]:
        calls = []
        for name, seconds, entries in merges:
            args: list[Any] = [max(1, int(seconds * 1000)), self.config.ttl]
            for key, order, text in entries:
                args += [key, order, text]
            calls.append([self.key("window", name), self.key("merging", name), *args])

        def run() -> list[Any]:
            # One round trip for every merge due (the merger's thread waits for the
            # interpreter after each one while the request threads hold it).
            with self.client.pipeline(transaction=False) as pipe:
                for call in calls:
                    pipe.evalsha(self.merge_script.sha, 2, *call)
                return list(pipe.execute())

        try:
            answers = run()
        except redis.exceptions.NoScriptError:
            # Redis restarted or its scripts were flushed: none of the calls ran.
            self.client.script_load(MERGE_SCRIPT)
            answers = run()
        return [self._merged(answer) for answer in answers]

    @staticmethod
    def _merged(answer: list[Any]) -> tuple[list[str], float]:
        if answer[0] != -1:
            return [], int(answer[0]) / 1000
        held = sorted(
            (int(key), value.decode().partition(" ")[2])
            for key, value in zip(answer[1::2], answer[2::2], strict=True)
        )
        return [text for _, text in held], 0.0

    def new_source(self) -> Source:
        return RedisSource(self)
