"""The link previews' cache (Redis when REDIS_URL is set): a preview read once is served from
the cache without a query, and every write that hides its subject or changes its card makes
it stale at commit, so the very next request shows the generic tags; a rolled-back write
leaves it, and a request that read the database before the commit cannot store the old
preview for later requests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction

from project.accounts.models import ProfileVisibility, UserSettings
from project.moderation.models import ReportReason, ReportResolution
from project.moderation.services import reports, takedowns
from project.scouting.models import Nomination
from project.scouting.services.nominations import player_update
from project.sharing import cache as sharing_cache
from project.sharing import previews
from project.sharing.services import share_card_render
from tests.builders import make_user
from tests.sharing.conftest import nominate

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _preview_cache(settings: Any) -> None:
    # On in one process even without Redis (the test's own process is the only reader).
    settings.SHARE_PREVIEW_CACHE = True


def cached_title(path: str, django_assert_num_queries: Any) -> str:
    """The preview's title, read twice: the second read comes from the cache (no query)."""
    title = previews.preview_for(path).title
    with django_assert_num_queries(0):
        assert previews.preview_for(path).title == title
    return title


def hide_by_takedown(nomination: Nomination) -> None:
    request = takedowns.takedown_request_create(
        nomination_id=nomination.pk,
        relationship="parent_or_guardian",
        kind="remove",
        contact_email="parent@example.com",
        client_address="203.0.113.9",
        confirm_url="http://testserver/takedown/confirm",
    )
    takedowns.takedown_request_confirm(token=takedowns.takedown_confirm_token(request))


def hide_by_report(nomination: Nomination) -> None:
    admin = make_user(username="root", role="admin")
    reporter = make_user(username="rex", name="Rex Reporter")
    reports.report_create(
        reporter=reporter, reason=ReportReason.NOT_REAL, nomination_id=nomination.pk
    )
    reports.reports_resolve(
        admin=admin,
        action=ReportResolution.HIDE_NOMINATION,
        reason="Not a real athlete",
        nomination_id=nomination.pk,
    )


def delete_it(nomination: Nomination) -> None:
    Nomination.objects.filter(pk=nomination.pk).delete()


@pytest.mark.parametrize(
    "hide",
    # A rejection decides a pending nomination, which never had a preview to leave.
    [hide_by_takedown, hide_by_report, delete_it],
    ids=lambda f: f.__name__,
)
@pytest.mark.parametrize("with_card", [True, False], ids=["card", "no-card"])
def test_a_hidden_players_preview_leaves_the_cache_at_commit(
    hide: Callable[[Nomination], None], with_card: bool, django_assert_num_queries: Any
) -> None:
    nomination = nominate("Hugo Hidden")
    if with_card:
        assert share_card_render(nomination_id=nomination.pk) is not None
    path = f"/nominations/{nomination.pk}"
    assert "Hugo Hidden" in cached_title(path, django_assert_num_queries)
    hide(nomination)
    assert previews.preview_for(path) == previews.GENERIC_PLAYER


def test_an_edit_shows_the_new_name_at_once(django_assert_num_queries: Any) -> None:
    nomination = nominate("Old Name")
    share_card_render(nomination_id=nomination.pk)
    path = f"/nominations/{nomination.pk}"
    assert "Old Name" in cached_title(path, django_assert_num_queries)
    player_update(
        user=nomination.nominated_by,
        player_id=nomination.player_id,
        name="New Name",
        age=16,
        graduation_year=None,
        position="Winger",
        nationality="Danish",
        club="FC Example",
        sport="football",
    )
    assert "New Name" in previews.preview_for(path).title


def test_a_redrawn_card_is_the_previews_image_at_once(django_assert_num_queries: Any) -> None:
    nomination = nominate("Rita Redraw")
    path = f"/nominations/{nomination.pk}"
    cached_title(path, django_assert_num_queries)
    assert previews.preview_for(path).image_path == previews.SITE_CARD_PATH
    card = share_card_render(nomination_id=nomination.pk)
    assert card is not None
    assert previews.preview_for(path).image_path == f"/media/{card.key}"
    Nomination.objects.filter(pk=nomination.pk).update(vote_count=5)
    cached_title(path, django_assert_num_queries)
    assert "0 community votes" in previews.preview_for(path).description
    redrawn = share_card_render(nomination_id=nomination.pk)
    assert redrawn is not None
    shown = previews.preview_for(path)
    assert (shown.image_path, "5 community votes" in shown.description) == (
        f"/media/{redrawn.key}",
        True,
    )


@pytest.mark.parametrize(
    "visibility", [ProfileVisibility.PRIVATE, ProfileVisibility.FOLLOWERS], ids=str
)
def test_a_profile_made_private_leaves_the_cache_and_comes_back_public(
    visibility: str, django_assert_num_queries: Any
) -> None:
    sam = make_user(username="sam", name="Sam Scout")
    path = f"/scout/{sam.pk}"
    assert "Sam Scout" in cached_title(path, django_assert_num_queries)
    UserSettings.objects.update_or_create(user=sam, defaults={"profile_visibility": visibility})
    assert cached_title(path, django_assert_num_queries) == previews.GENERIC_TITLE
    settings_row = UserSettings.objects.get(user=sam)
    settings_row.profile_visibility = ProfileVisibility.PUBLIC
    settings_row.save()
    assert "Sam Scout" in previews.preview_for(path).title


def test_a_rolled_back_takedown_keeps_the_preview(django_assert_num_queries: Any) -> None:
    nomination = nominate("Rollo Back")
    path = f"/nominations/{nomination.pk}"
    cached_title(path, django_assert_num_queries)

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        hide_by_takedown(nomination)
        raise Undo
    assert "Rollo Back" in cached_title(path, django_assert_num_queries)


def test_a_read_before_the_commit_is_not_kept_after_it() -> None:
    """A slow request read the token and the public row before the takedown committed, and
    stores what it read after the commit: the commit's new token makes that entry stale."""
    nomination = nominate("Rae Race")
    path = f"/nominations/{nomination.pk}"
    entry_key, token_key = sharing_cache._keys(sharing_cache.NOMINATION, nomination.pk)
    token_before = cache.get(token_key)
    stale = previews._nomination_read(nomination.pk)
    assert stale is not None
    hide_by_takedown(nomination)
    cache.set(entry_key, (token_before, stale))
    assert previews.preview_for(path) == previews.GENERIC_PLAYER
