from __future__ import annotations

from django.http import HttpRequest
from ninja.responses import codes_4xx

from project.accounts.auth import current_user
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.media import services
from project.media.schemas import AvatarIn, AvatarOut, UploadIn, UploadOut

router = Router(tags=["media"])


@router.post(
    "/objects/upload",
    response={200: UploadOut, codes_4xx: ErrorOut},
    summary="Get a single-use address to upload an avatar to",
    description=(
        "Answers an address for a key the server chooses (avatars/<userId>/<random>). PUT the "
        "raw file there within 10 minutes (with the returned headers), then confirm it with "
        "PUT /api/profile/avatar. The body is optional: {contentType} among image/png, "
        "image/jpeg, image/gif, image/webp signs that content type into the address."
    ),
)
def upload_address(request: HttpRequest, payload: UploadIn | None = None) -> dict[str, object]:
    address = services.avatar_upload_create(
        user=current_user(request), content_type=payload.content_type if payload else None
    )
    return {
        "upload_url": request.build_absolute_uri(address.url),
        "method": "PUT",
        "headers": address.headers,
        "expires_at": address.expires_at,
    }


@router.put(
    "/profile/avatar",
    response={200: AvatarOut, codes_4xx: ErrorOut},
    summary="Make an uploaded file the profile picture",
    description=(
        "Takes the uploadURL the file was PUT to; checks the object (PNG, JPEG, GIF or WebP, "
        "at most 5 MB and 4096x4096 pixels). A refused file is deleted (400). Answers the "
        "new avatarUrl, an address on this server that shows the image."
    ),
)
def avatar_update(request: HttpRequest, payload: AvatarIn) -> dict[str, str]:
    url = services.avatar_set(user=current_user(request), upload_url=payload.avatar_url)
    return {"avatar_url": url}
