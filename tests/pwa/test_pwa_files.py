"""The installable app's files as Django serves them: the service worker and the manifest from
the site's root (the worker's scope is the whole site), never cached for long, and the client
routes still answered with the shell."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from django.test import Client
from django.test.utils import override_settings

WORKER = "self.addEventListener('push', () => {});\n"
MANIFEST = {"name": "ScoutVote", "start_url": "/", "scope": "/", "display": "standalone"}


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text("<!doctype html><title>ScoutVote</title>", "utf-8")
    (tmp_path / "sw.js").write_text(WORKER, "utf-8")
    (tmp_path / "manifest.webmanifest").write_text(json.dumps(MANIFEST), "utf-8")
    return tmp_path


def test_service_worker_is_served_from_the_root_with_its_scope_and_no_long_cache(
    dist: Path,
) -> None:
    with override_settings(SPA_DIST_DIR=dist):
        response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert response.content.decode() == WORKER


def test_a_new_build_of_the_worker_is_served_at_once(dist: Path) -> None:
    client = Client()
    with override_settings(SPA_DIST_DIR=dist):
        assert client.get("/sw.js").content.decode() == WORKER
        changed = WORKER + "// the next build\n"
        (dist / "sw.js").write_text(changed, "utf-8")
        stat = (dist / "sw.js").stat()
        os.utime(dist / "sw.js", ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        assert client.get("/sw.js").content.decode() == changed


def test_manifest_is_served_from_the_root_as_a_web_manifest(dist: Path) -> None:
    with override_settings(SPA_DIST_DIR=dist):
        response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert response["Cache-Control"] == "no-cache"
    assert json.loads(response.content) == MANIFEST


def test_without_a_build_the_worker_is_404_not_the_shell(tmp_path: Path) -> None:
    with override_settings(SPA_DIST_DIR=tmp_path):
        response = Client().get("/sw.js")
    assert response.status_code == 404
    assert b"<title>ScoutVote</title>" not in response.content


def test_the_worker_only_answers_safe_methods(dist: Path) -> None:
    with override_settings(SPA_DIST_DIR=dist):
        assert Client().post("/sw.js").status_code == 405


@pytest.mark.django_db
def test_client_routes_still_get_the_shell(dist: Path) -> None:
    with override_settings(SPA_DIST_DIR=dist):
        response = Client().get("/settings")
    assert response.status_code == 200
    assert b"<title>ScoutVote</title>" in response.content


def _server_paths() -> dict[str, list[str]]:
    from project.urls import SERVER_PATHS

    return SERVER_PATHS


@pytest.mark.django_db
def test_every_path_the_server_answers_itself_is_kept_from_the_shell(dist: Path) -> None:
    """The list the service worker reads (project/server_paths.json) is the one the catch-all
    leaves out: none of its paths gets the SPA's page from the server either, and every route
    Django has besides the catch-all starts with one of them, so a new server page cannot be
    left out of the worker's list."""
    from django.urls import URLPattern, URLResolver, get_resolver

    from project.urls import SPA_PATH

    paths = _server_paths()
    with override_settings(SPA_DIST_DIR=dist):
        client = Client()
        for prefix in paths["prefixes"]:
            for path in (f"/{prefix}", f"/{prefix}/", f"/{prefix}/no-such-page"):
                response = client.get(path)
                assert b"<title>ScoutVote</title>" not in response.content, path
        for name in paths["files"]:
            assert b'<div id="root">' not in client.get(f"/{name}").content, name
        assert client.get("/emails-and-more").status_code == 200  # only the exact segment

    served = set(paths["prefixes"]) | set(paths["files"])
    for entry in get_resolver().url_patterns:
        assert isinstance(entry, URLPattern | URLResolver)
        route = str(entry.pattern)
        if route == SPA_PATH:
            continue
        first = route.removeprefix("^").split("/")[0].split("(")[0]
        assert first in served, f"{route} is served by Django but missing from server_paths.json"


def test_the_built_worker_carries_the_same_list() -> None:
    """The service worker is built from the same file: every name in it is in dist/sw.js."""
    worker = Path(__file__).resolve().parents[2] / "frontend" / "dist" / "sw.js"
    if not worker.exists():
        pytest.fail("The SPA is not built: run `make frontend` (make test does it)")
    built = worker.read_text("utf-8")
    paths = _server_paths()
    for name in [*paths["prefixes"], *paths["files"]]:
        assert re.search(f"[`'\"]{re.escape(name)}[`'\"]", built), name
