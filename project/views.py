"""The SPA shell: Django serves the built index.html for every client-side route, and the
installable app's service worker and manifest from the site's root."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

from project.common.errors import (
    DATABASE_RETRY_AFTER,
    SERVICE_UNAVAILABLE,
    is_database_unavailable,
)
from project.sharing.previews import page_with_preview, preview_for

MISSING_BUILD = """<!doctype html><html><head><meta charset="utf-8"><title>ScoutVote</title></head>
<body><div id="root"><p>The web app is not built yet. Run <code>make run</code> (or
<code>cd frontend && npm ci && npm run build</code>).</p></div></body></html>"""


@lru_cache(maxsize=1)
def _index_html(path: Path, mtime: float) -> str:
    return path.read_text(encoding="utf-8")


def read_index_html() -> str:
    path = Path(settings.SPA_DIST_DIR) / "index.html"
    try:
        return _index_html(path, path.stat().st_mtime)
    except FileNotFoundError:
        return MISSING_BUILD


@require_safe
@ensure_csrf_cookie
def spa_index(request: HttpRequest) -> HttpResponse:
    """The SPA's page, with the link preview tags of its address (the same for every client)."""
    base_url = settings.PUBLIC_BASE_URL or f"{request.scheme}://{request.get_host()}"
    preview = preview_for(request.path)
    html = page_with_preview(read_index_html(), preview, base_url=base_url)
    response = HttpResponse(html, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    if not preview.indexable:
        response["X-Robots-Tag"] = "noindex"
    return response


@lru_cache(maxsize=4)
def _dist_file(path: Path, mtime: float) -> bytes:
    return path.read_bytes()


def _from_dist(name: str, content_type: str) -> HttpResponse:
    path = Path(settings.SPA_DIST_DIR) / name
    try:
        body = _dist_file(path, path.stat().st_mtime)
    except FileNotFoundError:
        raise Http404(f"{name} is not built") from None
    response = HttpResponse(body, content_type=content_type)
    # Revalidated on every use: a new deployment's worker and manifest are seen at once.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker (frontend/sw/sw.ts, built into dist/sw.js). Served from the root, not
    /static/, so its scope is the whole site; Service-Worker-Allowed says the same explicitly."""
    response = _from_dist("sw.js", "text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def web_manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest that vite-plugin-pwa writes from frontend/vite.config.ts."""
    return _from_dist("manifest.webmanifest", "application/manifest+json")


def api_not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {"message": f"No API endpoint at {request.path}", "code": "not_found"}, status=404
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: an exception no view caught, also one raised by a middleware (the session
    read or save). An unreachable database answers 503 with Retry-After and the JSON error
    body; anything else keeps Django's 500 (which ApiErrorBodyMiddleware turns into the JSON
    body under /api/)."""
    exc = sys.exc_info()[1]
    if exc is not None and is_database_unavailable(exc):
        response = JsonResponse(
            {"message": SERVICE_UNAVAILABLE, "code": "service_unavailable"}, status=503
        )
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response
    return defaults.server_error(request)
