"""Plain Django views under /media/: the local backend's upload target and avatar addresses."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import InMemoryUploadedFile
from django.core.files.uploadhandler import FileUploadHandler, SkipFile, StopUpload
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.http.response import HttpResponseBase
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_safe

from project.common.errors import ApplicationError
from project.media import selectors, services
from project.media.images import too_large_message
from project.media.storage import get_storage

AVATAR_NOT_FOUND = "This picture does not exist"
# Room for the form's other fields and part headers around a file of the maximum size.
FORM_OVERHEAD = 16 * 1024


def _error(status: int, message: str, code: str) -> JsonResponse:
    return JsonResponse({"message": message, "code": code}, status=status)


class _LimitedFile(FileUploadHandler):
    """Keeps the form's ``file`` field in memory up to ``limit`` bytes and stops reading the
    request past it (the size limit a bucket's POST policy enforces, for local files)."""

    def __init__(self, request: HttpRequest, limit: int) -> None:
        super().__init__(request)
        self.limit = limit
        self.exceeded = False
        self.buffer = BytesIO()

    def new_file(self, field_name: str, *args: Any, **kwargs: Any) -> None:
        if field_name != "file" or self.buffer.tell():
            raise SkipFile
        super().new_file(field_name, *args, **kwargs)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        if start + len(raw_data) > self.limit:
            self.exceeded = True
            raise StopUpload(connection_reset=True)
        self.buffer.write(raw_data)

    def file_complete(self, file_size: int) -> InMemoryUploadedFile:
        self.buffer.seek(0)
        return InMemoryUploadedFile(
            self.buffer,
            self.field_name,
            self.file_name,
            self.content_type,
            file_size,
            self.charset,
            self.content_type_extra,
        )


@csrf_exempt  # The signed token in the form is the credential, not the session.
@require_http_methods(["POST"])
def upload_post(request: HttpRequest, key: str) -> HttpResponse:
    """The local backend's upload form: fields (key, token, Content-Type), then the file."""
    limit = settings.AVATAR_MAX_BYTES
    try:
        content_length = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        content_length = 0
    if content_length > limit + FORM_OVERHEAD:
        # Refused before a byte of the body is parsed.
        return _error(413, too_large_message(limit), "image_too_large")
    handler = _LimitedFile(request, limit)
    request.upload_handlers = [handler]
    try:
        fields, files = request.POST, request.FILES
    except MultiPartParserError:
        return _error(400, services.NO_FILE, "upload_missing")
    if fields.get("key", key) != key:
        return _error(403, services.UNKNOWN_ADDRESS, "upload_signature_invalid")
    try:
        services.avatar_upload_receive(
            key=key,
            token=fields.get("token", ""),
            content_type=fields.get("Content-Type", ""),
            file=files.get("file"),
            too_large=handler.exceeded,
        )
    except ApplicationError as exc:
        return _error(exc.status_code, exc.message, exc.code)
    # What S3 answers a form POST without success_action_status.
    return HttpResponse(status=204)


@require_safe
def avatar_get(request: HttpRequest, key: str) -> HttpResponseBase:
    content_type = selectors.avatar_content_type(key=key)
    if content_type is None:
        return _error(404, AVATAR_NOT_FOUND, "not_found")
    try:
        return get_storage().serve(key, content_type=content_type)
    except FileNotFoundError:
        return _error(404, AVATAR_NOT_FOUND, "not_found")
