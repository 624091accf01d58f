"""The audit: an admin's opening of a voter list (a nomination's voters, a user's votes) is
recorded, who and when."""

from __future__ import annotations

from django.db.models import QuerySet

from project.accounts.models import User
from project.common.errors import NotFound
from project.integrity.models import VoterListView
from project.integrity.selectors import USER_NOT_FOUND, nomination_votes, user_votes
from project.scouting.models import Vote


def _view_record(*, viewer: User, target_type: str, target_id: int) -> None:
    VoterListView.objects.create(
        viewer_id=viewer.pk,
        viewer_name=viewer.name or viewer.username,
        target_type=target_type,
        target_id=target_id,
    )


def nomination_votes_open(*, viewer: User, nomination_id: int) -> QuerySet[Vote]:
    """A nomination's voter list for an admin; the opening is recorded (who, when)."""
    votes = nomination_votes(nomination_id=nomination_id)
    _view_record(viewer=viewer, target_type="nomination", target_id=nomination_id)
    return votes


def user_votes_open(*, viewer: User, user_id: int) -> QuerySet[Vote]:
    """A user's votes for an admin; the opening is recorded (who, when)."""
    if not User.objects.filter(pk=user_id).exists():
        raise NotFound(USER_NOT_FOUND, code="not_found")
    _view_record(viewer=viewer, target_type="user", target_id=user_id)
    return user_votes(user_id=user_id)
