"""The event catalogue: what the live layer may push, and to whom.

An event names its audience explicitly (Zulip's rule: the caller decides who receives it). The
catalogue bounds that audience per type, so a private event sent to a shared group is a
programming error caught where it is made, not a leak found later.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

Audience = Literal["sport", "user", "admins"]

CATALOGUE: dict[str, frozenset[Audience]] = {
    "vote.changed": frozenset({"sport"}),
    # A rejected nomination leaves the community: only admins and its nominator see it.
    "nomination.created": frozenset({"sport", "admins", "user"}),
    "nomination.updated": frozenset({"sport", "admins", "user"}),
    "nomination.removed": frozenset({"sport", "admins", "user"}),
    "leaderboard.changed": frozenset({"sport"}),
    "stats.changed": frozenset({"sport"}),
    "activity.created": frozenset({"sport"}),
    # Activities of one merge window after its first, oldest first (realtime/merge.py).
    "activity.batch": frozenset({"sport"}),
    "notification.created": frozenset({"user"}),
    "profile.changed": frozenset({"user"}),
    # The user's own follow toggles, for their other tabs: never to a shared group.
    "follow.own": frozenset({"user"}),
    # The user's own vote toggles (hasVoted, the count, its version), for their other tabs.
    "vote.own": frozenset({"user"}),
    "moderation.changed": frozenset({"admins"}),
    # The Reports and Log tabs: a member's report, a takedown request, a moderation log row.
    "report.created": frozenset({"admins"}),
    "takedown.created": frozenset({"admins"}),
    "takedown.confirmed": frozenset({"admins"}),
    "modlog.created": frozenset({"admins"}),
    # The Claims tab: a claim made or decided, with the pending count.
    "claims.changed": frozenset({"admins"}),
    # A player's updates changed: its sport's group once published, else its author and admins.
    "player_update.changed": frozenset({"sport", "admins", "user"}),
    # The Player updates tab: an update with media arrived or was decided, with the count.
    "player_update_queue.changed": frozenset({"admins"}),
    # The Coaches tab: a coach verification asked for, confirmed by email, or decided.
    "coaches.changed": frozenset({"admins"}),
    # A player's endorsements changed (its open pages read them again): who sees its
    # nomination, by the audience rule, and its claimant.
    "endorsements.changed": frozenset({"sport", "admins", "user"}),
    # A nomination's comments, by the nomination's audience rule
    # (project/scouting/services/audience.py); a held comment to its author and admins only.
    "comment.created": frozenset({"sport", "admins", "user"}),
    "comment.removed": frozenset({"sport", "admins", "user"}),
    # The Comments tab: a comment held, reported or decided, with the pending count.
    "comments.review": frozenset({"admins"}),
    # The Integrity tab: a vote-ring flag raised or grown by live detection (project/integrity).
    "integrity.flagged": frozenset({"admins"}),
    # An adult member's own quest progress (project/engagement), for their tabs only.
    "quest.progress": frozenset({"user"}),
}

# hasVoted depends on who looks: a broadcast copy would tell everyone what one user did.
_PER_VIEWER_KEYS = frozenset({"hasVoted"})
# The events that may carry them, to their one user's own group only.
_OWN_EVENTS = frozenset({"vote.own"})

ADMINS_GROUP = "admins"


def sport_group(sport: str) -> str:
    return f"sport.{sport}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


@dataclass(frozen=True)
class Event:
    """One live event: its type, its camelCase data and its audience."""

    type: str
    data: dict[str, Any]
    sport: str | None = None
    user_ids: tuple[int, ...] = field(default_factory=tuple)
    admins: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "user_ids", tuple(int(pk) for pk in self.user_ids))
        allowed = CATALOGUE.get(self.type)
        if allowed is None:
            raise ValueError(f"Unknown live event type {self.type!r}: add it to the catalogue")
        audience = self.audience()
        if not audience:
            raise ValueError(f"{self.type} names no audience")
        if not audience <= allowed:
            raise ValueError(f"{self.type} may go to {sorted(allowed)}, not {sorted(audience)}")
        leaked = _PER_VIEWER_KEYS & self.data.keys()
        if leaked and not (self.type in _OWN_EVENTS and len(self.groups()) == 1):
            raise ValueError(f"{self.type} carries per-viewer keys {sorted(leaked)}")

    def audience(self) -> frozenset[Audience]:
        kinds: set[Audience] = set()
        if self.sport:
            kinds.add("sport")
        if self.user_ids:
            kinds.add("user")
        if self.admins:
            kinds.add("admins")
        return frozenset(kinds)

    def groups(self) -> list[str]:
        groups = [sport_group(self.sport)] if self.sport else []
        groups.extend(user_group(pk) for pk in dict.fromkeys(self.user_ids))
        if self.admins:
            groups.append(ADMINS_GROUP)
        return groups

    def envelope(self) -> Envelope:
        return Envelope.of(self)


@dataclass(frozen=True)
class Envelope:
    """An event's envelope text around its ``seq``; the data are encoded once, whatever the
    audience. Key order is the documented one: type, group, seq, sport (sport events), data.
    """

    type_json: str
    tail: str

    @classmethod
    def of(cls, event: Event) -> Envelope:
        sport = ',"sport":' + json.dumps(event.sport) if event.sport else ""
        data = json.dumps(event.data, separators=(",", ":"), ensure_ascii=False, default=str)
        return cls(type_json=json.dumps(event.type), tail=f'{sport},"data":{data}}}')

    def head(self, group: str) -> str:
        return f'{{"type":{self.type_json},"group":{json.dumps(group)},"seq":'
