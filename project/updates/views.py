"""The image of a player update, served only to those who see the update."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_safe

from project.media.storage import get_storage
from project.updates.selectors import update_image_visible

IMAGE_NOT_FOUND = "This picture does not exist"


@require_safe
def update_image(request: HttpRequest, player_id: int, name: str) -> HttpResponseBase:
    """Signed out, or an update the reader does not see (pending, someone else's): 404, the
    same as no picture at all."""
    missing = JsonResponse({"message": IMAGE_NOT_FOUND, "code": "not_found"}, status=404)
    user = request.user
    if not user.is_authenticated:
        return missing
    key = f"updates/{player_id}/{name}"
    update = update_image_visible(user=user, player_id=player_id, key=key)
    if update is None:
        return missing
    try:
        response = get_storage().serve(key, content_type=update.image_type)
    except FileNotFoundError:
        return missing
    # Who may see it can change (a rejection, a takedown): never kept by a shared cache.
    response["Cache-Control"] = "private, no-cache"
    return response
