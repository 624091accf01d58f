"""What the share card tests share: cards drawn into the test's own media directory, and an
approved nomination made through the service with the details the cards show."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from project.scouting.models import Nomination, NominationStatus
from project.scouting.services.nominations import nomination_create
from tests.builders import make_user


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.S3_BUCKET = ""


def nominate(name: str, *, approved: bool = True) -> Nomination:
    """A nomination with the details the cards show, approved (set directly, as an admin's
    decision without its events: only an approved nomination has a card) unless
    ``approved`` is False."""
    nora = make_user(username=f"n{abs(hash(name)) % 10**8}", name="Nora Nominator")
    nomination = nomination_create(
        user=nora,
        name=name,
        sport="football",
        age=16,
        graduation_year=None,
        position="Winger",
        nationality="Danish",
        club="FC Example",
        skills="",
        video_link="",
    )
    if approved:
        Nomination.objects.filter(pk=nomination.pk).update(status=NominationStatus.APPROVED)
        nomination.status = NominationStatus.APPROVED
    return nomination
