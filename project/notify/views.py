"""The one-click unsubscribe page an email's link opens: GET shows what it turns off and a
button (a link prefetched by a mail scanner changes nothing); POST, the button's or a mail
client's (RFC 8058, ``List-Unsubscribe=One-Click``), turns it off. No session is needed: the
link's signature names the member and the kind."""

from __future__ import annotations

from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from project.accounts.models import User
from project.notify import services
from project.notify.emails import COLOURS, PRODUCT, UNSUBSCRIBE_KINDS, public_url, unsubscribe_read

INVALID_TITLE = "This link does not work"
INVALID_MESSAGE = (
    "The unsubscribe link is not valid or has expired. Sign in and change your notifications "
    "in Settings."
)


def _page(request: HttpRequest, status: int, **context: object) -> HttpResponse:
    return render(
        request,
        "notify/unsubscribe.html",
        {
            "product": PRODUCT,
            "colours": COLOURS,
            "home_link": public_url("/"),
            "settings_link": public_url("/settings#notifications"),
            **context,
        },
        status=status,
    )


@csrf_exempt  # mail clients POST without a CSRF token (RFC 8058); the signature authorises
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "POST":
        try:
            _, turned_off = services.unsubscribe(token)
        except (signing.BadSignature, User.DoesNotExist):
            return _page(request, 400, title=INVALID_TITLE, message=INVALID_MESSAGE)
        return _page(
            request,
            200,
            title=f"{turned_off.label} turned off",
            message=f"You will get no more {turned_off.stops} from {PRODUCT}. {turned_off.keeps}",
            label=turned_off.label,
            done=True,
        )
    try:
        _, kind = unsubscribe_read(token)
    except signing.BadSignature:
        return _page(request, 400, title=INVALID_TITLE, message=INVALID_MESSAGE)
    asked = UNSUBSCRIBE_KINDS[kind]
    return _page(
        request,
        200,
        title=f"Turn off {asked.label}?",
        message=f"You will get no more {asked.stops} from {PRODUCT}. {asked.keeps}",
        confirm=True,
        label=asked.label,
    )
