"""Notification emails against a real SMTP server: what every email carries (headers, both
parts, an absolute link, one-click unsubscribe), the fold rule over a burst of votes, the
daily cap, the toggles, the weekly digest, and the unsubscribe link without a session."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.core import signing
from django.db import transaction
from django.test import Client
from django.utils import timezone

from project.accounts.models import User, UserSettings
from project.jobs.models import Delivery
from project.moderation.services import decisions
from project.notify.digest import digests_send
from project.notify.emails import unsubscribe_token
from project.notify.models import NotificationEmail, OutboundEvent
from project.notify.services import events_dispatch, transactional_enqueue
from project.scouting.boards.maths import week_of
from project.scouting.models import Follow, NominationWeek, Notification, NotificationType
from project.scouting.services import votes
from tests.builders import make_nomination, make_user
from tests.helpers import run_tasks
from tests.jobs.smtp import Received, SmtpServer

pytestmark = pytest.mark.django_db

BASE = "https://scoutvote.test"


@pytest.fixture
def public(settings: Any, smtp_settings: SmtpServer) -> SmtpServer:
    settings.PUBLIC_BASE_URL = BASE
    return smtp_settings


def _unsubscribe_path(received: Received) -> str:
    header = str(received.message["List-Unsubscribe"])
    url = header.split(",")[0].strip().strip("<>")
    assert url.startswith(f"{BASE}/email/unsubscribe/")
    return url.removeprefix(BASE)


def test_a_notification_email_carries_its_headers_parts_link_and_unsubscribe(
    public: SmtpServer, scout: User, other_scout: User
) -> None:
    nomination = make_nomination(other_scout, name="Kai Tanaka")
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    assert events_dispatch().emails == 1
    assert run_tasks() == 1
    [received] = public.received
    message = received.message
    assert message["From"] == "ScoutVote <noreply@scoutvote.example>"
    assert message["To"] == other_scout.email
    assert message["Subject"] == "Your nomination received a vote"
    assert message["Message-ID"] == Delivery.objects.get().message_id
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert _unsubscribe_path(received).startswith("/email/unsubscribe/")
    assert message.is_multipart()
    text, html = received.body, received.html
    assert html is not None
    link = f"{BASE}/nominations/{nomination.pk}"
    assert "Sam Scout voted for Kai Tanaka. It now has 1 vote." in text
    assert link in text and f'href="{link}"' in html
    # Every link is on PUBLIC_BASE_URL: the page, Settings and the unsubscribe link.
    assert f"See the nomination: {link}" in text
    settings_link = f"{BASE}/settings#notifications"
    assert settings_link in text and f'href="{settings_link}"' in html
    assert f"with one click: {BASE}/email/unsubscribe/" in text
    # The product's name and colours, and the footer saying why it came.
    assert "ScoutVote" in html and "#1d4ed8" in html
    assert "because Email Notifications and Vote Emails are on" in text
    assert "Turn off Vote Emails" in html


def test_a_burst_of_300_votes_sends_at_most_two_emails_in_the_hour(
    public: SmtpServer, other_scout: User, settings: Any
) -> None:
    # The card redraw the votes ask for is not ready before the emails are sent, however long
    # the 300 votes take: only the emails run.
    settings.SHARE_CARD_REDRAW_DELAY = 3600
    nomination = make_nomination(other_scout, name="Kai Tanaka")
    voters = [make_user(name=f"Voter {n}") for n in range(300)]
    start = timezone.now()
    votes.vote_cast(user=voters[0], nomination_id=nomination.pk)
    # The first goes at the next minute's dispatch.
    assert events_dispatch(start + timedelta(seconds=30)).emails == 1
    for voter in voters[1:]:
        votes.vote_cast(user=voter, nomination_id=nomination.pk)
    # Coalesced in-app, every one of them is still an event.
    assert OutboundEvent.objects.filter(user=other_scout).count() == 299
    emails = 1
    for minute in range(1, 60):
        emails += events_dispatch(start + timedelta(minutes=minute)).emails
    assert emails == 1
    sent_at = NotificationEmail.objects.get().sent_at
    emails += events_dispatch(sent_at + timedelta(hours=1, seconds=1)).emails
    assert emails == 2
    assert run_tasks() == 2
    first, folded = public.received
    assert all(r.recipients == [other_scout.email] for r in public.received)
    assert first.subject == "Your nomination received a vote"
    assert folded.subject == "299 new votes on Kai Tanaka in the last hour"
    assert "It now has 300 votes." in folded.body
    assert OutboundEvent.objects.count() == 0
    assert list(NotificationEmail.objects.order_by("sent_at").values_list("events", flat=True)) == [
        1,
        299,
    ]


def test_the_daily_cap_bounds_a_member_s_emails(
    public: SmtpServer, settings: Any, scout: User, other_scout: User
) -> None:
    settings.EMAIL_DAILY_CAP = 2
    for n in range(3):
        nomination = make_nomination(other_scout, name=f"Capped {n}")
        votes.vote_cast(user=scout, nomination_id=nomination.pk)
    result = events_dispatch()
    assert (result.emails, result.capped) == (2, 1)
    run_tasks()
    assert len(public.received) == 2


@pytest.mark.parametrize("toggle", ["email_notifications", "vote_emails"])
def test_a_toggle_turned_off_sends_nothing(
    public: SmtpServer, scout: User, other_scout: User, toggle: str
) -> None:
    UserSettings.objects.filter(user=other_scout).update(**{toggle: False})
    nomination = make_nomination(other_scout)
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    events_dispatch()
    run_tasks()
    assert public.received == []


def test_a_toggle_turned_off_before_the_dispatch_sends_nothing(
    public: SmtpServer, scout: User, other_scout: User
) -> None:
    nomination = make_nomination(other_scout)
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    UserSettings.objects.filter(user=other_scout).update(vote_emails=False)
    assert events_dispatch().turned_off == 1
    run_tasks()
    assert public.received == []


def test_the_unsubscribe_link_works_without_a_session(
    public: SmtpServer, scout: User, other_scout: User
) -> None:
    nomination = make_nomination(other_scout)
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    events_dispatch()
    run_tasks()
    path = _unsubscribe_path(public.received[0])
    browser = Client(enforce_csrf_checks=True)
    # GET (a mail scanner's prefetch too) only asks.
    page = browser.get(path)
    assert page.status_code == 200
    assert "Turn off Vote Emails?" in page.content.decode()
    assert UserSettings.objects.get(user=other_scout).vote_emails
    # The mail client's one-click POST (RFC 8058), without cookies or CSRF token.
    done = browser.post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert done.status_code == 200, done.content
    # The page names what was turned off, what was not, and where to change it.
    page_text = done.content.decode()
    assert "Vote Emails turned off" in page_text
    assert "no more emails about votes on the players you nominated" in page_text
    assert "Vote Notifications in the app and on your devices stay as you set them" in page_text
    assert f'href="{BASE}/settings#notifications"' in page_text
    after = UserSettings.objects.get(user=other_scout)
    assert not after.vote_emails
    # Only that email: the bell, the other emails and the digest are as the member set them.
    assert after.vote_notifications and after.nomination_notifications
    assert after.email_notifications and after.nomination_emails and after.weekly_digest


def test_after_unsubscribing_from_vote_emails_the_bell_still_rings(
    public: SmtpServer, scout: User, other_scout: User
) -> None:
    """The next vote after a one-click unsubscribe: an in-app notification, no email."""
    first = make_nomination(other_scout, name="Una Unsubscribed")
    votes.vote_cast(user=scout, nomination_id=first.pk)
    events_dispatch()
    run_tasks()
    path = _unsubscribe_path(public.received[0])
    assert Client().post(path).status_code == 200

    second = make_nomination(other_scout, name="Bea Bell")
    votes.vote_cast(user=scout, nomination_id=second.pk)
    assert Notification.objects.filter(
        user=other_scout, type=NotificationType.VOTE_RECEIVED, related_nomination=second
    ).exists()
    events_dispatch()
    run_tasks()
    assert len(public.received) == 1  # the first vote's email only


def test_emails_of_a_kind_come_while_its_bell_is_off(
    public: SmtpServer, admin_user: User, scout: User, other_scout: User
) -> None:
    """The in-app switches leave the emails alone: a member who silenced the bell for votes
    and decisions still gets those emails while Vote Emails and Nomination Emails are on."""
    UserSettings.objects.filter(user=other_scout).update(
        vote_notifications=False, nomination_notifications=False
    )
    voted = make_nomination(other_scout, name="Vic Voted", status="approved")
    votes.vote_cast(user=scout, nomination_id=voted.pk)
    pending = make_nomination(other_scout, name="Ada Approved", status="pending")
    decisions.nomination_approve(admin=admin_user, nomination_id=pending.pk)
    assert not Notification.objects.filter(user=other_scout).exists()
    assert events_dispatch().emails == 2
    run_tasks()
    assert sorted(r.subject for r in public.received) == [
        "Your nomination received a vote",
        "Your nomination was approved",
    ]


def test_a_forged_or_expired_unsubscribe_link_changes_nothing(
    settings: Any, other_scout: User
) -> None:
    browser = Client(enforce_csrf_checks=True)
    token = unsubscribe_token(user_id=other_scout.pk, kind="email")
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    other = signing.dumps({"u": other_scout.pk, "k": "email"}, salt="another.salt")
    for bad in (forged, other):
        assert browser.post(f"/email/unsubscribe/{bad}").status_code == 400
        assert browser.get(f"/email/unsubscribe/{bad}").status_code == 400
    settings.EMAIL_UNSUBSCRIBE_MAX_AGE = 1
    time.sleep(2.1)
    expired = browser.post(f"/email/unsubscribe/{token}")
    assert expired.status_code == 400
    assert b"not valid or has expired" in expired.content
    assert UserSettings.objects.get(user=other_scout).email_notifications


def test_the_weekly_digest_tells_the_week(
    public: SmtpServer, scout: User, other_scout: User
) -> None:
    now = timezone.now()
    last, before = week_of(now) - timedelta(days=7), week_of(now) - timedelta(days=14)
    mine = make_nomination(other_scout, name="Mina Moving", sport="football")
    winner = make_nomination(scout, name="Wade Winner", sport="football")
    third = make_nomination(scout, name="Theo Third", sport="football")
    for nomination, week, count in (
        (winner, last, 9),
        (mine, last, 5),
        (third, last, 2),
        (third, before, 8),
        (mine, before, 3),
    ):
        NominationWeek.objects.create(
            nomination=nomination, sport="football", week=week, votes=count
        )
    Follow.objects.create(follower=scout, followed_user=other_scout)
    UserSettings.objects.filter(user=scout).update(weekly_digest=False)
    assert digests_send(now) == 1 + (User.objects.count() - 2)
    run_tasks()
    [received] = [r for r in public.received if r.recipients == [other_scout.email]]
    assert not [r for r in public.received if r.recipients == [scout.email]]
    text = received.body
    assert received.subject.startswith("Your ScoutVote week: ")
    assert "Player of the Week: Wade Winner (9 votes)" in text
    # Second last week (behind Wade Winner's 9), second the week before (behind Theo Third's
    # 8); third of all time by total votes (none cast here: all equal, first place shared).
    assert "Mina Moving: 5 votes last week, #2 on the weekly board (no change)" in text
    assert "Theo Third" not in text  # another member's nomination
    assert f"{BASE}/nominations/{mine.pk}" in text
    assert "1 new follower: Sam Scout" in text
    assert received.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert received.html is not None and "Wade Winner" in received.html
    # One per member and week, however often the job runs.
    with transaction.atomic():
        digests_send(now)
    run_tasks()
    assert len([r for r in public.received if r.recipients == [other_scout.email]]) == 1
    assert Delivery.objects.filter(key__startswith="digest:").count() == len(public.received)


def test_a_transactional_email_has_the_templates_and_no_unsubscribe(
    public: SmtpServer,
) -> None:
    with transaction.atomic():
        transactional_enqueue(
            key="test:takedown", to="a@example.com", subject="Takedown", body="Reference: T-1"
        )
    run_tasks()
    [received] = public.received
    assert received.message["List-Unsubscribe"] is None
    assert received.body.startswith("Reference: T-1")
    assert received.html is not None and "Reference: T-1" in received.html
    assert "not because of any notification setting" in received.body
