from __future__ import annotations

from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_safe

from project.media.storage import get_storage
from project.sharing.selectors import card_is_public
from project.sharing.services import CONTENT_TYPE, KEY_PREFIX

# Cards are never rewritten under their address, but one disappears the moment its subject
# is taken down: caches keep it only briefly.
CARD_CACHE = "public, max-age=300"


@require_safe
def share_card(request: HttpRequest, name: str) -> HttpResponseBase:
    """A share card's image: 404 unless it is the current card of a public subject."""
    key = KEY_PREFIX + name
    if not card_is_public(key):
        raise Http404("No such card")
    try:
        response = get_storage().serve(key, content_type=CONTENT_TYPE)
    except FileNotFoundError:
        raise Http404("No such card") from None
    if response.status_code == 200:
        response["Cache-Control"] = CARD_CACHE
    return response
