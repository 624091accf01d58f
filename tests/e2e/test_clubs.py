"""A club's page, watched live: a coach's link to the club shows its players' votes as they
land, and the public's view of the same page leaves its children out."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from project.scouting.models import Nomination, NominationStatus, Player
from tests.builders import make_user
from tests.e2e.browsing import live, log_in, new_page, nominate, toast, vote_through_server
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_club_page_updates_live_when_a_vote_lands_on_one_of_its_players(
    e2e_server: Server, browser: Browser
) -> None:
    make_user(username="coach", name="Carla Coach")
    nominator = make_user(username="nina")
    teen = nominate(nominator, name="Tom Silva", sport="soccer", club="FC Porto", age=15)
    child = nominate(nominator, name="Mia Jones", sport="soccer", club="F.C. Porto", age=11)
    Nomination.objects.filter(pk__in=[teen.pk, child.pk]).update(status=NominationStatus.APPROVED)
    club_id = Player.objects.get(pk=teen.player_id).club_ref_id
    assert club_id is not None
    assert Player.objects.get(pk=child.player_id).club_ref_id == club_id

    coach = new_page(browser, e2e_server)
    log_in(coach, "coach", to=f"/clubs/{club_id}")
    expect(coach.get_by_role("heading", name="FC Porto")).to_be_visible()
    players = coach.get_by_role("list", name="FC Porto players")
    expect(players.get_by_role("link", name="Mia Jones")).to_be_visible()
    expect(coach.get_by_label("Tom Silva: 0 votes")).to_be_visible()
    live(coach)

    vote_through_server(e2e_server, teen.pk, voters=2)
    # The votes reach the open page without a reload, and the most voted comes first.
    expect(coach.get_by_label("Tom Silva: 2 votes")).to_be_visible()
    expect(players.get_by_role("link").first).to_have_text("Tom Silva")

    coach.get_by_role("button", name="Follow Club").click()
    expect(toast(coach, "You are now following FC Porto.")).to_be_visible()
    expect(coach.get_by_role("button", name="Following")).to_have_attribute("aria-pressed", "true")
    expect(coach.get_by_text("1 follower")).to_be_visible()

    # The public's view of the same link: the club, never its players under 13.
    public = new_page(browser, e2e_server)
    public.goto(f"{e2e_server.url}/clubs/{club_id}")
    expect(public.get_by_role("heading", name="FC Porto")).to_be_visible()
    expect(public.get_by_role("link", name="Tom Silva")).to_be_visible()
    expect(public.get_by_text("Mia")).to_have_count(0)
    expect(
        public.get_by_text("Players under 13 are shown to signed-in members only.")
    ).to_be_visible()

    # The player's page links its club.
    coach.goto(f"{e2e_server.url}/nominations/{child.pk}")
    coach.get_by_role("link", name="F.C. Porto").click()
    expect(coach.get_by_role("heading", name="FC Porto")).to_be_visible()
