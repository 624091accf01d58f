"""The SPA shell: Django serves the built index.html for every client-side route."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

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
    response = HttpResponse(read_index_html(), content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def api_not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        {"message": f"No API endpoint at {request.path}", "code": "not_found"}, status=404
    )
