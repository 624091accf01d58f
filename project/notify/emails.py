"""How every email looks and what it carries: a plain-text and an HTML part rendered from the
templates in ``templates/notify`` (the product's name and colours), an absolute link to the
page it is about, and for the emails a member may turn off a signed one-click unsubscribe
link (RFC 8058: ``List-Unsubscribe`` and ``List-Unsubscribe-Post``) and a footer saying why
it was sent. Transactional emails (takedowns, reports) use the same templates without the
unsubscribe parts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core import signing
from django.template.loader import render_to_string

PRODUCT = "ScoutVote"
# The SPA's theme (frontend/src/index.css): email clients read no stylesheet, so the HTML
# template inlines these.
COLOURS = {
    "primary": "#1d4ed8",
    "primary_soft": "#dbeafe",
    "secondary": "#c2410c",
    "background": "#f8fafc",
    "surface": "#ffffff",
    "foreground": "#0f172a",
    "muted_foreground": "#475569",
    "border": "#e2e8f0",
}


@dataclass(frozen=True)
class UnsubscribeKind:
    """What an unsubscribe link turns off: the settings field, its name on the Settings screen
    (the footer's and the page's words), the emails it stops and what it leaves as it is."""

    field: str
    label: str
    stops: str
    keeps: str


UNSUBSCRIBE_KINDS: dict[str, UnsubscribeKind] = {
    "votes": UnsubscribeKind(
        "vote_emails",
        "Vote Emails",
        "emails about votes on the players you nominated",
        "Vote Notifications in the app and on your devices stay as you set them.",
    ),
    "nominations": UnsubscribeKind(
        "nomination_emails",
        "Nomination Emails",
        "emails about the decisions on your nominations",
        "Nomination Notifications in the app and on your devices stay as you set them.",
    ),
    "digest": UnsubscribeKind(
        "weekly_digest",
        "Weekly Digest",
        "the Monday digest email",
        "Your other emails and notifications stay as you set them.",
    ),
    "email": UnsubscribeKind(
        "email_notifications",
        "Email Notifications",
        "notification emails",
        "Notifications in the app and on your devices stay as you set them.",
    ),
}
_SALT = "notify.unsubscribe"


def public_url(path: str) -> str:
    """The absolute address of a path of the site: PUBLIC_BASE_URL (``make run`` sets it from
    its port; with DEBUG off the server does not start without it, project/notify/checks.py),
    else the default local server's."""
    base = settings.PUBLIC_BASE_URL or "http://localhost:8000"
    return f"{base}{path}"


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    """A signed, timestamped token naming the member and what to turn off."""
    assert kind in UNSUBSCRIBE_KINDS
    return signing.dumps({"u": user_id, "k": kind}, salt=_SALT, compress=True)


def unsubscribe_read(token: str) -> tuple[int, str]:
    """The member and kind a token names; raises ``signing.BadSignature`` (a forged or
    altered token) or ``signing.SignatureExpired`` (older than EMAIL_UNSUBSCRIBE_MAX_AGE)."""
    data = signing.loads(token, salt=_SALT, max_age=settings.EMAIL_UNSUBSCRIBE_MAX_AGE)
    if not isinstance(data, dict) or data.get("k") not in UNSUBSCRIBE_KINDS:
        raise signing.BadSignature("Unknown unsubscribe kind")
    return int(data["u"]), str(data["k"])


def unsubscribe_url(*, user_id: int, kind: str) -> str:
    return public_url(f"/email/unsubscribe/{unsubscribe_token(user_id=user_id, kind=kind)}")


@dataclass
class Rendered:
    subject: str
    text: str
    html: str
    headers: dict[str, str] = field(default_factory=dict)


def render(
    template: str,
    *,
    subject: str,
    context: dict[str, Any],
    link: str | None,
    link_label: str = "Open ScoutVote",
    reason: str,
    user_id: int | None = None,
    unsubscribe: str | None = None,
) -> Rendered:
    """Render ``notify/<template>.txt`` and ``.html`` inside the common layout. ``link`` is a
    path of the site (made absolute); ``reason`` is the footer's why-you-got-this;
    ``unsubscribe`` (a key of UNSUBSCRIBE_KINDS, with ``user_id``) adds the one-click link,
    its headers and the footer's way out."""
    headers: dict[str, str] = {}
    unsubscribe_link = None
    unsubscribe_label = None
    if unsubscribe is not None:
        assert user_id is not None
        unsubscribe_link = unsubscribe_url(user_id=user_id, kind=unsubscribe)
        unsubscribe_label = UNSUBSCRIBE_KINDS[unsubscribe].label
        targets = [f"<{unsubscribe_link}>"]
        if settings.EMAIL_UNSUBSCRIBE_MAILTO:
            targets.append(f"<mailto:{settings.EMAIL_UNSUBSCRIBE_MAILTO}?subject=unsubscribe>")
        headers["List-Unsubscribe"] = ", ".join(targets)
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    full = {
        **context,
        "product": PRODUCT,
        "colours": COLOURS,
        "subject": subject,
        "link": public_url(link) if link else None,
        "link_label": link_label,
        "reason": reason,
        "unsubscribe_link": unsubscribe_link,
        "unsubscribe_label": unsubscribe_label,
        "settings_link": public_url("/settings#notifications"),
        "home_link": public_url("/"),
    }
    return Rendered(
        subject=subject,
        text=render_to_string(f"notify/{template}.txt", full).strip() + "\n",
        html=render_to_string(f"notify/{template}.html", full),
        headers=headers,
    )


def transactional(*, subject: str, body: str, link: str | None = None) -> Rendered:
    """A transactional email (a takedown's confirmation, an account's removal): the common
    layout around ``body``'s paragraphs, no unsubscribe (it is sent because of what the
    recipient or an admin did, once)."""
    return render(
        "transactional",
        subject=subject,
        context={"paragraphs": [p for p in body.split("\n\n") if p.strip()], "body": body},
        link=link,
        reason="You receive this email because of a request or an action on your ScoutVote "
        "account; it is sent once and not because of any notification setting.",
    )
