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
    summary="Get a single-use form to upload an avatar with",
    description=(
        "Answers a form for a key the server chooses (avatars/<userId>/<random>): POST the "
        "fields and then the file (multipart/form-data, the file last, named file) to uploadURL "
        "within 10 minutes, then confirm objectURL with PUT /api/profile/avatar. The storage "
        "itself refuses a file over 5 MB (S3: the presigned POST policy's content-length-range). "
        "The body is optional: {contentType} among image/png, image/jpeg, image/gif, "
        "image/webp signs that content type into the form."
    ),
)
def upload_address(request: HttpRequest, payload: UploadIn | None = None) -> dict[str, object]:
    address = services.avatar_upload_create(
        user=current_user(request), content_type=payload.content_type if payload else None
    )
    return {
        "upload_url": request.build_absolute_uri(address.form.url),
        "method": "POST",
        "fields": address.form.fields,
        "object_url": request.build_absolute_uri(address.form.object_url),
        "expires_at": address.expires_at,
    }


@router.put(
    "/profile/avatar",
    response={200: AvatarOut, codes_4xx: ErrorOut},
    summary="Make an uploaded file the profile picture",
    description=(
        "Takes the objectURL of the upload; checks the object (PNG, JPEG, GIF or WebP, at "
        "most 5 MB, 4096x4096 pixels and 16 megapixels) and keeps a re-encoded copy without its "
        "metadata "
        "(no EXIF, no GPS position; animations keep their first frame). A refused file is "
        "deleted (400). Answers the new avatarUrl, an address on this server that shows it."
    ),
)
def avatar_update(request: HttpRequest, payload: AvatarIn) -> dict[str, str]:
    url = services.avatar_set(user=current_user(request), object_url=payload.avatar_url)
    return {"avatar_url": url}
