"""The named points where apps above scouting hang their work off its writes.

Scouting imports none of the apps that react to it (notify, push, sharing, integrity): each
registers what it does in its ``AppConfig.ready()``, as accounts' ``register_user_deletion_step``
does for an account's deletion. The services run what is registered, in registration order
(the order of INSTALLED_APPS), at these points:

- ``register_vote_statements``: statements sent inside a vote's single round trip (psycopg's
  pipeline: ``votes.vote_cast``, ``votes.vote_remove``), rolled back with the vote;
- ``register_vote_committed``: what runs once a cast vote has committed (the API calls it after
  ``vote_cast`` returns);
- ``register_notification_created``: what runs when a notification is written, in its
  transaction (before notification.created is published);
- ``register_player_changed``: what runs when a player is created with its nomination or edited,
  in that transaction;
- ``register_player_anonymised``: what each app removes or rewrites of a player the retention
  job anonymises (its posts, what was said of it by name), in that transaction;
- ``register_nomination_approved``: what runs when an admin approves a nomination, in that
  transaction (project/moderation calls it);
- ``register_follow_created``: what runs when a member starts following someone or something,
  in that transaction.

A hook raises nothing it does not mean to fail the write with: it runs in the write's
transaction (the vote-committed ones after it, where a failure must not fail the vote)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from project.accounts.models import User, UserSettings
    from project.scouting.models import Nomination, Notification

Statement = tuple[str, list[Any]]


@dataclass(frozen=True)
class CastVote:
    """A vote just cast: its nomination (new vote_count and version) and what the vote row
    holds, which the integrity rules read after the commit without reading it back."""

    nomination: Nomination
    voted_at: datetime
    counted: bool
    ip_prefix: str


@dataclass(frozen=True)
class VoteWrite:
    """A vote being cast or taken back, as its round trip's hooks see it: the nomination (with
    its player's name and its nominator), the voter, when, whether the vote makes a
    vote_received notification in the nominator's app (``notifies``: a cast on someone else's
    nomination whose settings let it through), and the nominator's settings as read (None for
    a vote on one's own nomination, a removal, or no settings row), whose email switches
    notify reads."""

    nomination: Nomination
    voter: User
    at: datetime
    cast: bool
    notifies: bool
    settings: UserSettings | None


@dataclass(frozen=True)
class NewNotification:
    """A notification made for a member in the current transaction: ``notification`` is the
    row written (a new one, or an unread one a vote coalesced into), or None when the
    member's settings turn the type off in the app (its email has switches of its own).
    ``user`` is the member as the caller holds it (a vote's nominator comes with what the
    quiet hours read), ``settings`` theirs as read (None: no row, every default). ``in_vote``: a
    vote made it, and that vote's round trip already carried the statements its vote hooks add
    for it (``register_vote_statements``)."""

    user: User
    type: str
    message: str
    related_nomination_id: int | None
    settings: UserSettings | None
    notification: Notification | None
    in_vote: bool


@dataclass(frozen=True)
class PlayerChange:
    """A player created with its nomination (``created``) or edited, and its nominations'
    ids."""

    player_id: int
    nomination_ids: tuple[int, ...]
    created: bool


@dataclass(frozen=True)
class AnonymisedPlayer:
    """A player just anonymised: the name it had (to be replaced wherever it was written) and
    the one it has now."""

    player_id: int
    old_name: str
    new_name: str


@dataclass(frozen=True)
class NewFollow:
    """A follow just made: the follower and exactly one followed id."""

    follower: User
    followed_user_id: int | None = None
    followed_player_id: int | None = None
    followed_club_id: int | None = None


VoteStatements = Callable[[VoteWrite], Iterable[Statement]]
VoteCommitted = Callable[[CastVote, int], None]
NotificationCreated = Callable[[NewNotification], None]
PlayerChanged = Callable[[PlayerChange], None]
PlayerAnonymised = Callable[[AnonymisedPlayer], None]
NominationApproved = Callable[["Nomination"], None]
FollowCreated = Callable[[NewFollow], None]

# Statements added before the nomination's counters (they lock nothing), and after them
# (under the nomination's lock, taken by the counters' UPDATE).
_vote_statements: list[VoteStatements] = []
_vote_statements_locked: list[VoteStatements] = []
_vote_committed: list[VoteCommitted] = []
_notification_created: list[NotificationCreated] = []
_player_changed: list[PlayerChanged] = []
_player_anonymised: list[PlayerAnonymised] = []
_nomination_approved: list[NominationApproved] = []
_follow_created: list[FollowCreated] = []


def _add(hooks: list[Any], hook: Any) -> None:
    if hook not in hooks:
        hooks.append(hook)


def register_vote_statements(hook: VoteStatements, *, under_lock: bool = False) -> None:
    """Add statements to every vote's round trip: before the nomination's counters, or after
    them (``under_lock``: once the nomination's lock is held, so what they write about the
    nomination never waits for another vote's). No statement: nothing added."""
    _add(_vote_statements_locked if under_lock else _vote_statements, hook)


def register_vote_committed(hook: VoteCommitted) -> None:
    """Run ``hook(cast, voter_id)`` after each cast vote commits."""
    _add(_vote_committed, hook)


def register_notification_created(hook: NotificationCreated) -> None:
    """Run ``hook`` for each notification written, in its transaction."""
    _add(_notification_created, hook)


def register_player_changed(hook: PlayerChanged) -> None:
    """Run ``hook`` for each player created or edited, in its transaction."""
    _add(_player_changed, hook)


def register_player_anonymised(hook: PlayerAnonymised) -> None:
    """Run ``hook`` for each player the retention job anonymises, in its transaction."""
    _add(_player_anonymised, hook)


def register_nomination_approved(hook: NominationApproved) -> None:
    """Run ``hook(nomination)`` for each nomination an admin approves, in its transaction
    (the nomination as approved, its player and nominator joined)."""
    _add(_nomination_approved, hook)


def register_follow_created(hook: FollowCreated) -> None:
    """Run ``hook`` for each follow made, in its transaction."""
    _add(_follow_created, hook)


def vote_statements(write: VoteWrite, *, under_lock: bool = False) -> list[Statement]:
    hooks = _vote_statements_locked if under_lock else _vote_statements
    return [statement for hook in hooks for statement in hook(write)]


def vote_committed(cast: CastVote, *, voter_id: int) -> None:
    for hook in _vote_committed:
        hook(cast, voter_id)


def notification_created(new: NewNotification) -> None:
    for hook in _notification_created:
        hook(new)


def player_changed(change: PlayerChange) -> None:
    for hook in _player_changed:
        hook(change)


def player_anonymised(player: AnonymisedPlayer) -> None:
    for hook in _player_anonymised:
        hook(player)


def nomination_approved(nomination: Nomination) -> None:
    for hook in _nomination_approved:
        hook(nomination)


def follow_created(new: NewFollow) -> None:
    for hook in _follow_created:
        hook(new)
