"""Shapes of votes for the integrity tests: aged accounts, rings, votes from an address."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from project.accounts.models import User
from project.common.addresses import prefix_key
from project.integrity.services import vote_inspect
from project.scouting.models import Nomination, NominationStatus
from project.scouting.services.votes import vote_cast
from tests.helpers import make_user
from tests.scouting.conftest import make_nomination


def aged_user(hours: float = 100, **fields: Any) -> User:
    user = make_user(**fields)
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - timedelta(hours=hours))
    user.refresh_from_db()
    return user


def approved(nominator: User, **fields: Any) -> Nomination:
    return make_nomination(nominator, status=NominationStatus.APPROVED, **fields)


def vote(user: User, nomination: Nomination, address: str = "") -> None:
    """A vote as the API casts it: the service, then live detection."""
    cast = vote_cast(user=user, nomination_id=nomination.pk, ip_prefix=prefix_key(address))
    vote_inspect(voter_id=user.pk, nomination_id=nomination.pk, cast=cast)
