"""A vote as the API casts it, from an address and inspected by live detection."""

from __future__ import annotations

from project.accounts.models import User
from project.common.addresses import prefix_key
from project.integrity.services.detection import vote_inspect
from project.scouting.models import Nomination
from project.scouting.services.votes import vote_cast


def vote(user: User, nomination: Nomination, address: str = "") -> None:
    """A vote as the API casts it: the service, then live detection."""
    cast = vote_cast(user=user, nomination_id=nomination.pk, ip_prefix=prefix_key(address))
    vote_inspect(voter_id=user.pk, nomination_id=nomination.pk, cast=cast)
